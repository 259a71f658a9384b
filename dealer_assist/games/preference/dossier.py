"""What the game-approval dossier says of Preference: the rules and rulings in our words (as
docs/games/preference.md says them), its sample hands' strategy, and its own numbers."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values


def measure(game: Any, state: Any, settlement: Settlement) -> Values:
    r = game.report(state)
    if r.get("ended"):
        outcome = "the game ended"
    elif r.get("all_passed"):
        outcome = "everyone passed"
    else:
        outcome = str(r["contract"])
    choices = list(r["defenders"].values())
    return {
        "contract": outcome,
        "made": (None if r["declarer"] is None else bool(settlement.extra.get("made"))),
        "both_dropped": bool(choices) and all(c == "drop" for c in choices),
        "invited": r["invited_by"] is not None,
        "ante": bool(r["ante"]),
        "pot_played": int(r["pot"]),
        "pot_low": bool(r.get("pot_low")),
        "revokes": len(r["revokes"]),
    }


DOSSIER = GameDossier(
    rules=(
        "Austrian Preference: three active players (a fourth sits out on their deal), a "
        "32-card pack, ten cards each and two to the talon. The pot is seeded in tens of "
        "stakes and carries from hand to hand. From the dealer's left the players bid One to "
        "Four (for the talon), Game or Hearts (without it), or pass. The declarer names "
        "trumps; each defender plays (owing two tricks) or drops; a lone defender may invite "
        "the other, taking on both defenders' risk.",
        "The declarer takes ten stakes from the pot and pays a stake per trick to each "
        "defender playing; the penalties go into the pot, the bonuses (Hearts, four aces, no "
        "aces) between the players. When the pot holds less than ten stakes the players ante "
        "again or end the game and share it.",
        "The app records every bid and card, refuses what the rules forbid, names a revoke when "
        "a later card proves it, and works out every payment.",
    ),
    rulings=(
        Ruling("pref-1", "Three active players (a fourth sits out on their deal); the ante "
               "seeds the pot in multiples of ten stakes; 3 each, 2 to the talon, 4 each, 3 "
               "each."),
        Ruling("pref-2", "Bids from the dealer's left: One, Two, ... without skipping (a "
               "numeric bidder only goes higher in numbers), Game, Hearts (which ends the "
               "auction), or pass. All pass: the same dealer deals again, the pot carrying. "
               "A numeric declarer takes the talon, discards two and names trumps ranked at "
               "least the bid (spades 1, clubs 2, diamonds 3, hearts 4); several Games: the "
               "highest named suit, the first from the dealer's left on equal suits."),
        Ruling("pref-3", "Defenders play (owing two tricks) or drop; both dropping pays as ten "
               "declarer tricks; a lone defender playing may invite the other. A declarer "
               "holding no ace may declare no aces before the first lead (not by discarding "
               "aces)."),
        Ruling("pref-4", "Tricks as in Rams; when both defenders play and the declarer leads, "
               "the first defender who can beat the lead must, with the lowest card that "
               "does (not for an invited pair, nor a defender playing alone)."),
        Ruling("pref-5", "Ten stakes from the pot to the declarer, a stake per trick to each "
               "defender playing (to the host for an invited pair); the declarer under six "
               "pays twenty into the pot, a playing defender under two ten (the host alone "
               "for an invited pair under four). Hearts, four aces and no aces: ten with each "
               "opponent."),
        Ruling("pref-6", "The opponents for the bonuses are the other two active players; both "
               "defenders speak from the declarer's left before an invitation."),
        Ruling("pref-7", "Every ante is a line of the hand it starts; the players may end the "
               "game at the start of any hand, whatever the pot holds: what is left is shared "
               "equally among the three active players, the odd stakes one at a time from the "
               "dealer's left (nothing, when nothing is)."),
        Ruling("pref-8", "A defender who drops takes no further part: its cards stay face "
               "down. One defender playing without inviting: the declarer and that defender "
               "play the ten tricks alone, two cards a trick, the declarer leading the first "
               "and each trick's winner the next. An invited guest plays every trick, as does "
               "each defender when both play."),
        Ruling("fees", "A fee per player, a fixed fee from the dealer or a time collection is "
               "paid before the deal. A rake, a collection from the pot or a jackpot drop is "
               "worked out on the chips put into the pot during the hand (the antes and the "
               "penalties), never again on the pot carried in, rounded down to the smallest "
               "chip (a stake unless the table names one), and taken when the hand settles, "
               "from the next pot first, then from what is pushed. \"No flop, no drop\" means "
               "everyone passed."),
    ),
    strategy=(
        "Each player counts tricks roughly (its longest suit beyond three, aces, half its "
        "kings) and bids the next number when the count reaches it, Game or Hearts now and "
        "then with a strong hand; the declarer names its longest allowed suit, shows four "
        "aces, or declares no aces half the time it may; a defender plays with two likely "
        "tricks (half the time without); every card is a random legal one. When the pot is "
        "under ten stakes the players ante ten (now and then twenty) or, one time in five, "
        "end the game."
    ),
    measures=(
        Measure("contract", "How the hand goes", "category"),
        Measure("made", "Contracts made", "share", "six tricks or more"),
        Measure("both_dropped", "Both defenders drop", "share"),
        Measure("invited", "A defender invites the other", "share"),
        Measure("ante", "Hands that start with an ante", "share"),
        Measure("pot_played", "Pot played for", "money"),
        Measure("pot_low", "Hands leaving the pot under ten stakes", "share"),
        Measure("revokes", "Revokes named per hand", "count"),
    ),
    measure=measure,
    played="game",
    most_hands=100,
)

"""What the game-approval dossier says of Rams: the rules and rulings in our words (as
docs/games/rams.md says them), its sample hands' strategy, and its own numbers."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values


def measure(game: Any, state: Any, settlement: Settlement) -> Values:
    r = game.report(state)
    said = list(r["declarations"].values())
    if r.get("redeal"):
        outcome = "everyone before the dealer passed"
    elif r["rams"] is not None:
        outcome = "Rams won" if r.get("rams_won") else "Rams lost"
    else:
        outcome = "tricks shared"
    return {
        "players_in": len(r["tricks_won"]),
        "passes": said.count("pass"),
        "widow": r["widow"] is not None,
        "pot_played": int(r["pot"]),
        "pot_left": int(r["carry"]),
        "revokes": len(r["revokes"]),
        "outcome": outcome,
    }


DOSSIER = GameDossier(
    rules=(
        "Three to five players and a 32-card pack (ace to seven). The dealer antes five "
        "counters into a pot that carries from hand to hand, deals five cards each and five "
        "to the widow, and turns the next card for trumps. From the dealer's left each player "
        "plays, switches for the widow (unseen, once a hand), passes (only while the pot holds "
        "more than five counters) or bids Rams (all five tricks: everyone must then play).",
        "Each trick is worth a fifth of the pot in whole counters; a player in who takes no "
        "trick pays five counters into the next pot. Rams won takes the pot and five from each "
        "opponent; Rams lost doubles the pot and pays each opponent five.",
        "The app records every card played, refuses a card already played or out of play, "
        "names a revoke when a later card proves it, and works out every payment.",
    ),
    rulings=(
        Ruling("rams-1", "Three to five players, ace-to-seven pack; the pot carries; the dealer "
               "antes five counters each hand; five cards each, five to the widow, the next "
               "card turned fixes trumps."),
        Ruling("rams-2", "From the dealer's left: play, widow (once a hand, then play), pass "
               "(only while the pot, this hand's ante included, holds more than five) or Rams "
               "(everyone plays; later players may still take the widow). Everyone before the "
               "dealer passes: the player on the dealer's right pays the dealer five and the "
               "same dealer deals again, the pot carrying. One other player in: the dealer "
               "must play and may take the turned card for any card. The first lead is the "
               "first player in on the dealer's left."),
        Ruling("rams-3", "Follow suit; unable, trump; unable, anything. Head the trick when "
               "able; when trumping, overtrump when able. A card that proves an earlier play "
               "broke these is accepted and the earlier trick named as a revoke; the hand is "
               "settled as played and the floor decides."),
        Ruling("rams-4", "A fifth of the pot per trick in whole counters, the odd counters "
               "staying in the pot; a player in with no trick pays five into the next pot. "
               "Rams won: the pot and five from each opponent; lost at the first trick someone "
               "else takes: the declarer doubles the pot and pays each opponent five."),
        Ruling("fees", "A fee per player, a fixed fee from the dealer or a time collection is "
               "paid before the deal. A rake, a collection from the pot or a jackpot drop is "
               "worked out on the chips put into the pot during the hand (the ante, the "
               "payments of players without a trick, a lost Rams' doubling), never again on the "
               "pot carried in, rounded down to the smallest chip (a counter unless the table "
               "names one), and taken when the hand settles, from the next pot first, then "
               "from what is pushed. \"No flop, no drop\" means everyone before the dealer "
               "passed."),
    ),
    strategy=(
        "A player counts trumps and side aces: five bids Rams (mostly), one or none switches "
        "for the widow half the time, two or more plays, fewer passes when allowed (and plays "
        "now and then anyway); the dealer takes the trump card when allowed, most of the time, "
        "discarding its lowest side card; every card is a random legal one."
    ),
    measures=(
        Measure("players_in", "Players in the tricks, per hand", "count"),
        Measure("passes", "Passes per hand", "count"),
        Measure("widow", "Hands in which the widow is taken", "share"),
        Measure("pot_played", "Pot played for", "money", "carried in plus the dealer's ante"),
        Measure("pot_left", "Pot left for the next hand", "money"),
        Measure("revokes", "Revokes named per hand", "count"),
        Measure("outcome", "How the hand ends", "category"),
    ),
    measure=measure,
    played="game",
)

"""What the game-approval dossier says of Mille: the rules and rulings in our words (as
docs/games/mille.md says them), its sample hands' strategy, and its own numbers."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values


def measure(game: Any, state: Any, settlement: Settlement) -> Values:
    """One finished deal's numbers, read off its state and settlement (what its report says,
    without writing out every meld)."""
    scores = [state.score(s) for s in state.settings.seats]
    naturals = sum(x.naturals for x in scores)
    pay = settlement.extra.get("settlement")
    return {
        "score": max(x.score for x in scores),
        "naturals": naturals, "natural": naturals > 0,
        "chapeau": any(x.chapeau for x in scores),
        "game_over": state.winner is not None,
        "paid": int(pay["total"]) if pay else None,
        "skunk": {1: "none", 2: "skunk", 3: "double skunk"}.get(int(pay["multiplier"]))
        if pay else None,
    }


DOSSIER = GameDossier(
    rules=(
        "Two players, two decks of 52 (104 cards), fifteen cards each; the next card turned up "
        "starts the discard pile. A turn draws one card from the stock, or takes the whole "
        "pile by melding its top card at once with two or more natural cards of its rank; "
        "then melds three or more cards of a rank (2s wild, or three or more 2s on their own) "
        "and discards one. The hand ends when a player has no cards left.",
        "Each player scores what it melded less what it still holds; the totals run from hand "
        "to hand until, at the end of a hand, someone has 1,200 or more and the totals differ. "
        "Only then does money move: the loser pays the winner at the table's stakes.",
    ),
    rulings=(
        Ruling("mille-1", "Two decks: no card appears more than twice across both players' "
               "melds and hands. A meld is three or more cards of one rank with 2s wild, or "
               "three or more 2s; a player's melds of one rank form one meld. The pile is "
               "taken only by melding its top card with two or more natural cards of its rank "
               "(a 2 on top cannot be taken)."),
        Ruling("mille-2", "Values: Q♠ 100, J♦ 50, 2s 20, aces 15, kings to tens 10, nines to "
               "threes 5."),
        Ruling("mille-3", "All eight cards of a rank melded without a wild double that meld; "
               "no 2 melded as a wild doubles everything melded, a meld of 2s included; both "
               "at once: the eight cards x4, the rest x2. Each natural is marked on the sheet."),
        Ruling("mille-4", "Hand score: melded value less the value held; below zero is a "
               "chapeau."),
        Ruling("mille-5", "The game ends at the end of a hand with a total of 1,200 or more "
               "and the totals different. The loser pays the large stake once, once per "
               "natural of the winner and once per chapeau of the loser, and the small stake "
               "per 100 between the totals rounded to the nearest 100 (50 up); doubled under "
               "600, tripled below zero."),
        Ruling("mille-6", "A meld of 2s does not spoil the no-2s natural and is doubled with "
               "the rest."),
    ),
    strategy=(
        "Each player takes the pile when it holds two naturals of the top card's rank, melds "
        "every rank of three or more at once, in six games of ten also completes a pair with a "
        "2 and melds three or more 2s, and throws its least valuable lone card."
    ),
    measures=(
        Measure("score", "The better hand score per deal", "count"),
        Measure("natural", "Deals with a natural", "share", "ruling mille-3"),
        Measure("naturals", "Naturals per deal", "count"),
        Measure("chapeau", "Deals with a chapeau", "share", "ruling mille-4"),
        Measure("game_over", "Deals that end a game", "share",
                "each game played from zero to its end (ruling mille-5)"),
        Measure("paid", "Paid by the loser at a game's end", "money",
                "counted on the deals that end a game"),
        Measure("skunk", "Skunks at the end of a game", "category"),
    ),
    measure=measure,
    played="game",
    defaults={"turns": False},
)

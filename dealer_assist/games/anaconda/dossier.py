"""What the game-approval dossier says of Anaconda: the rules and rulings in our words, its
sample hands' strategy, and its own numbers: showdowns, how the pot splits, what stays."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values


def measure(game: Any, state: Any, settlement: Settlement) -> Values:
    r = game.report(state)
    shown = r.get("shown") or {}
    showdown = len(shown) >= 2
    ways = set((r.get("declarations") or {}).values())
    out: dict[str, Any] = {"showdown": showdown, "split": showdown and ways == {"high", "low"},
                           "left": int(settlement.carry_out),
                           "side_pots": max(0, len(r.get("pots") or []) - 1)}
    if showdown:
        hands = r.get("best_hands") or {}
        won = [str(s) for s in r.get("high_winners") or []]
        if won and won[0] in hands:
            out["category"] = str(hands[won[0]]["category"])
    return out


DOSSIER = GameDossier(
    rules=(
        "Seven cards each; betting; each player still in passes three cards to the next player "
        "still in on the left, betting, then three to the second player still in on the right, "
        "betting; every player still in declares high or low; each keeps five and turns four "
        "face up one at a time, round by round, and shows the fifth at the end. The best high "
        "among the high declarers and the best ace-to-five low among the low declarers split "
        "the pot; what cannot be split evenly stays in the pot for the next hand.",
        "The app gives each legal action with its cost and runs the betting, side pots, "
        "uncalled chips and the rake through the shared betting engine; it holds the rolls "
        "until every declaration is recorded, names who rolls next, checks that no card is "
        "seen twice and that each hand shown holds the four cards that seat rolled, and "
        "carries what cannot be split to the next hand.",
    ),
    rulings=(
        Ruling("anaconda-1", "Ante; seven cards each; betting in the table's structure (fixed "
               "limit by default: the small bet in the first two betting rounds, the big bet "
               "after; in pot-limit and no-limit the smallest bet is the ante); each round opens "
               "left of the button. Then the two passing rounds, each followed by betting."),
        Ruling("anaconda-2", "Declarations all at once, high or low, recorded before anything "
               "is rolled. Each keeps five and rolls four face up: each player still in turns "
               "one card, from the button's left, four times over; a betting round after each "
               "round of rolls if the table says so, by default one once the four are up. Then "
               "each shows all five (the last to bet or raise first, else from the button's "
               "left; no muck)."),
        Ruling("anaconda-3", "The pot is split between the best high among the high declarers "
               "and the best ace-to-five low (no qualifier) among the low declarers; if only "
               "one side was declared, its best hand takes all; what cannot be split evenly in "
               "the smallest chip stays in the pot for the next hand."),
        Ruling("betting-turn", "Players act in turn."),
        Ruling("betting-closed", "No action once the betting round is closed."),
        Ruling("fees", "A fee is worked out on the chips put in during the hand only, never "
               "again on a pot carried in, and taken when the hand settles. \"No flop, no "
               "drop\" means no card was rolled."),
    ),
    strategy=(
        "Each player in turn chooses among the legal actions at random, weighted check 6, "
        "call 6, fold 1, bet 2, raise 2, all-in 1; each keeps five of its seven cards at "
        "random, declares low with an eight-or-better low and high otherwise (one time in ten "
        "the other way), and rolls four of the five."
    ),
    measures=(
        Measure("showdown", "Hands that reach a showdown", "share"),
        Measure("split", "Showdowns with both sides declared", "share"),
        Measure("left", "Chips left in the pot for the next hand", "money",
                "what cannot be split evenly (ruling anaconda-3)"),
        Measure("side_pots", "Side pots per hand", "count"),
        Measure("category", "The winning high hand", "category"),
    ),
    measure=measure,
    played="game",
    defaults={"structure": "limit"},
)

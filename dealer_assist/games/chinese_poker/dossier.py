"""What the game-approval dossier says of Chinese Poker: the rules and rulings in our words (as
docs/games/chinese-poker.md says them), its sample hands' strategy, and the numbers a board asks
of it: fouls, naturals, surrenders and scoops."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.declare import GameDossier, Measure, Ruling, Values


def measure(game: Any, state: Any, settlement: Settlement) -> Values:
    r = game.report(state)
    fouled = len(r.get("fouled") or ())
    naturals = r.get("naturals") or {}
    pairs = r.get("pairs") or []
    swing = sum(abs(int(v)) for v in (settlement.extra.get("net_cents") or {}).values()) // 2
    return {
        "fouls": fouled, "foul_any": fouled > 0, "natural": bool(naturals),
        "surrender": bool(r.get("surrendered")),
        "scoops": sum(1 for p in pairs if p.get("scoop") is not None),
        "won": swing,
        "natural_kind": ", ".join(sorted(str(v) for v in naturals.values())) or None,
    }


DOSSIER = GameDossier(
    rules=(
        "Two to four players each get thirteen cards and set them face down into three rows: a "
        "three-card front, a five-card middle and a five-card back, the back strongest and the "
        "front weakest (otherwise the hand fouls). There is no pot: each pair of players "
        "settles on its own, in units, row by row. Before any hand is shown, a player holding "
        "a natural may declare it and is paid at once; then a player may surrender for a fixed "
        "price.",
    ),
    rulings=(
        Ruling("Chinese 1", "Naturals are declared before any hand is shown and paid at once by "
               "every opponent: a dragon 13 units; three flushes, three straights and six pairs "
               "3 units each. Between two naturals the higher kind collects its own rate from "
               "the lower; a natural's holder plays no rows."),
        Ruling("Chinese 2", "Surrender comes after naturals and before the reveal: the "
               "surrenderer pays 2 units to every opponent and plays no rows."),
        Ruling("Chinese 1-2", "Naturals, then surrenders, then the reveal: an input out of that "
               "order is refused."),
        Ruling("Chinese 3", "Rows: the loser of each row pays 1 unit, or the winning row's bonus "
               "rate (front trips 3, middle full house 2, four of a kind 4, straight flush 5); "
               "tied rows pay nothing; a player who loses all three rows to one opponent pays 3 "
               "units more."),
        Ruling("Chinese 4", "A fouled hand loses every row to each opponent who did not foul, "
               "and so is scooped; two fouled hands exchange nothing."),
        Ruling("fees", "A house fee is collected from each seat before the deal or by time; "
               "there is no pot to rake."),
    ),
    strategy=(
        "Each player sets its thirteen cards in rank order half the time and in a random order "
        "otherwise, declares a dragon or six pairs when it holds one, and surrenders one hand "
        "in ten."
    ),
    measures=(
        Measure("foul_any", "Deals with at least one fouled hand", "share"),
        Measure("fouls", "Fouled hands per deal", "count", "divide by the players for the "
                "foul rate per hand"),
        Measure("natural", "Deals with a natural declared", "share", "ruling Chinese 1"),
        Measure("surrender", "Deals with a surrender", "share", "ruling Chinese 2"),
        Measure("scoops", "Scoops per deal", "count", "a pair in which one loses all three "
                "rows"),
        Measure("won", "Money changing hands per deal", "money", "the total the losers pay"),
        Measure("natural_kind", "Naturals declared", "category"),
    ),
    measure=measure,
)

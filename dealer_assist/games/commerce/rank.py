"""Commerce's three-card ranking (ruling Commerce 3): tricon > sequence > flush > pair > point.

A hand's value is a tuple that compares the way the ranking does: the class first (5 a tricon
down to 1 a point), then the tie-breaks in order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from dealer_assist.cards import RANK_NAMES, RANK_PLURALS, Card

#: The classes from highest to lowest, and their order in a value.
CLASSES = ("tricon", "sequence", "flush", "pair", "point")
ORDER = {name: len(CLASSES) - i for i, name in enumerate(CLASSES)}


def card_points(card: Card) -> int:
    """An ace 11, a face card 10, the others their pips."""
    if card.rank == 14:
        return 11
    return min(card.rank, 10)


def point(cards: Sequence[Card]) -> int:
    return sum(card_points(c) for c in cards)


def _sequence_top(cards: Sequence[Card]) -> int | None:
    """The top of three suited cards in sequence (A-K-Q 14, 3-2-A 3; K-A-2 is none)."""
    if len({c.suit for c in cards}) != 1:
        return None
    ranks = sorted(c.rank for c in cards)
    if ranks[2] - ranks[0] == 2 and len(set(ranks)) == 3:
        return ranks[2]
    if ranks == [2, 3, 14]:
        return 3
    return None


@dataclass(frozen=True, slots=True)
class Hand:
    """A three-card hand ranked: its class, its value, and the words for it."""

    cls: str
    value: tuple[int, ...]
    description: str


def rank_hand(cards: Sequence[Card]) -> Hand:
    if len(cards) != 3:
        raise ValueError("a Commerce hand is three cards")
    ranks = sorted((c.rank for c in cards), reverse=True)
    counts = Counter(ranks)
    if len(counts) == 1:
        r = ranks[0]
        return Hand("tricon", (ORDER["tricon"], r), f"tricon of {RANK_PLURALS[r]}")
    top = _sequence_top(cards)
    if top is not None:
        low = top - 2 if top > 3 else 14
        return Hand("sequence", (ORDER["sequence"], top),
                    f"sequence, {RANK_NAMES[top]} high"
                    + (" (3-2-A, the lowest)" if low == 14 else ""))
    pts = point(cards)
    if len({c.suit for c in cards}) == 1:
        return Hand("flush", (ORDER["flush"], pts, *ranks), f"flush, {pts} points")
    if len(counts) == 2:
        pair = next(r for r, n in counts.items() if n == 2)
        kicker = next(r for r, n in counts.items() if n == 1)
        return Hand("pair", (ORDER["pair"], pair, kicker),
                    f"pair of {RANK_PLURALS[pair]}, {RANK_NAMES[kicker]} kicker")
    return Hand("point", (ORDER["point"], pts, *ranks),
                f"point {pts}, {RANK_NAMES[ranks[0]]} high")

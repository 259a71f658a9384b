"""Three-card front rows (Open-Face and Chinese Poker) and the foul check.

A front row makes only trips, a pair or high card. Its value is keyed like a five-card hand with
fewer ranks, so it compares with middle rows directly: by category, then rank by rank as far as
the front has cards. A front row that matches the middle that far is not higher, so no foul.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealer_assist.cards import Card
from dealer_assist.errors import BadInput
from dealer_assist.evaluate.classes import classify, pack_key
from dealer_assist.evaluate.high import HandValue, _ids, evaluate


def front_value(cards: Sequence[Card]) -> HandValue:
    """The value of a three-card front row, comparable with other rows (greater is better)."""
    cards = tuple(cards)
    if len(cards) != 3:
        raise BadInput(f"a front row has three cards, got {len(cards)}")
    _ids(cards)
    category, sig = classify([c.rank for c in cards], False)
    # (the cards in display order are sorted when first asked for: a settlement compares
    # many rows and words few)
    return HandValue(pack_key(category, sig), cards)


def front_fouls(
    front: Sequence[Card], middle: Sequence[Card],
    values: tuple[HandValue, HandValue] | None = None,
) -> bool:
    """True when the front row ranks above the middle row: the hand is fouled. ``values``: the
    two rows' values, when the caller has them already."""
    if len(middle) != 5:
        raise BadInput(f"a middle row has five cards, got {len(middle)}")
    _ids(tuple(front) + tuple(middle))
    if values is not None:
        return values[0] > values[1]
    return front_value(front) > evaluate(middle)

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
from dealer_assist.evaluate.high import HandValue, _ids, display_order, evaluate


def front_value(cards: Sequence[Card]) -> HandValue:
    """The value of a three-card front row, comparable with other rows (greater is better)."""
    cards = tuple(cards)
    if len(cards) != 3:
        raise BadInput(f"a front row has three cards, got {len(cards)}")
    _ids(cards)
    category, sig = classify([c.rank for c in cards], False)
    key = pack_key(category, sig)
    return HandValue(key, cards, display_order(cards, key))


def front_fouls(front: Sequence[Card], middle: Sequence[Card]) -> bool:
    """True when the front row ranks above the middle row: the hand is fouled."""
    if len(middle) != 5:
        raise BadInput(f"a middle row has five cards, got {len(middle)}")
    _ids(tuple(front) + tuple(middle))
    return front_value(front) > evaluate(middle)

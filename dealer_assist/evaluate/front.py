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
    ranks = (cards[0].rank, cards[1].rank, cards[2].rank)
    key = _FRONT_KEYS.get(ranks)
    if key is None:
        category, sig = classify(ranks, False)
        key = _FRONT_KEYS[ranks] = pack_key(category, sig)
    # (the cards in display order are sorted when first asked for: a settlement compares
    # many rows and words few)
    return HandValue(key, cards)


#: A front row's key by its ranks in the order the cards lie (at most 13 ** 3 of them): the key
#: depends on the ranks alone, and classifying them was most of valuing a front row.
_FRONT_KEYS: dict[tuple[int, int, int], int] = {}


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

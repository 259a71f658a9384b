"""The card arithmetic of Champs and Cowards: points, the card order, ranking and destruction."""

from __future__ import annotations

from collections.abc import Sequence

from dealer_assist.cards import SUIT_STRENGTH, Card

#: Chips each player puts up before the deal, as stacks for first, second and third place.
FIRST_STACK = 3
SECOND_STACK = 2
THIRD_STACK = 1
ANTE_CHIPS = FIRST_STACK + SECOND_STACK + THIRD_STACK
#: Chips a champ pays into the bonus pool for one more card.
CHAMP_CHIPS = 2
#: The last player to act must go on while within this many points of the leader.
FORCED_MARGIN = 3
#: At most this many stopped hands stand at any time (the places paid).
PLACES = 3


#: Points by rank (index 0..14): ace 1, two to ten their pips, jack, queen and king nothing.
_POINTS = (0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0, 1)
#: The court-card tie-break by rank: king > queen > jack, every other rank 0.
_FACE = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 11, 12, 13, 0)


def points(card: Card) -> int:
    """Ace 1, two to ten their pips, jack, queen and king nothing."""
    return _POINTS[card.rank]


def hand_points(cards: Sequence[Card]) -> int:
    total = 0
    for c in cards:
        total += _POINTS[c.rank]
    return total


def card_key(card: Card) -> tuple[int, int, int]:
    """The card order for every tie: points, then king > queen > jack, then suit (s > h > d > c)."""
    rank = card.rank
    return (_POINTS[rank], _FACE[rank], SUIT_STRENGTH[card.suit])


def hand_key(cards: Sequence[Card], deal_index: int) -> tuple[int, tuple[int, int, int], int]:
    """How stopped hands rank: points, then the last card by the card order, then the seat dealt
    earlier (``deal_index`` is the seat's place in the deal order; lower ranks higher)."""
    total = 0
    for c in cards:
        total += _POINTS[c.rank]
    last = cards[-1]
    rank = last.rank
    return (total, (_POINTS[rank], _FACE[rank], SUIT_STRENGTH[last.suit]), -deal_index)


def destroy_reason(cards: Sequence[Card], new: Card) -> str | None:
    """Why ``new`` destroys a hand holding ``cards``: it follows the suit of the card just before
    it, or it pairs the rank of any earlier card. ``None`` when the hand lives."""
    if cards and cards[-1].suit == new.suit:
        return f"suit follows {cards[-1].code}"
    for old in cards:
        if old.rank == new.rank:
            return f"pairs {old.code}"
    return None


def ordinal(place: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(place, f"{place}th")

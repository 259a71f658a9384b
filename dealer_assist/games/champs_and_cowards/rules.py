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


def points(card: Card) -> int:
    """Ace 1, two to ten their pips, jack, queen and king nothing."""
    if card.rank == 14:
        return 1
    if card.rank >= 11:
        return 0
    return card.rank


def hand_points(cards: Sequence[Card]) -> int:
    return sum(points(c) for c in cards)


def card_key(card: Card) -> tuple[int, int, int]:
    """The card order for every tie: points, then king > queen > jack, then suit (s > h > d > c)."""
    face = card.rank if 11 <= card.rank <= 13 else 0
    return (points(card), face, SUIT_STRENGTH[card.suit])


def hand_key(cards: Sequence[Card], deal_index: int) -> tuple[int, tuple[int, int, int], int]:
    """How stopped hands rank: points, then the last card by the card order, then the seat dealt
    earlier (``deal_index`` is the seat's place in the deal order; lower ranks higher)."""
    return (hand_points(cards), card_key(cards[-1]), -deal_index)


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

"""Ace-to-five low: the ace counts one, straights and flushes do not count, pairs are bad.

Used for the low half of hi-lo pots (with the eight-or-better qualifier: five unpaired cards,
none above an eight) and for Anaconda's low (no qualifier: every hand has a low, and a paired
hand ranks below any unpaired one).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from dealer_assist.cards import RANK_CHAR, RANK_NAMES, RANK_PLURALS, Card
from dealer_assist.errors import BadInput
from dealer_assist.evaluate.classes import (
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    TRIPS,
    TWO_PAIR,
    classify,
    pack_key,
)
from dealer_assist.evaluate.high import duplicate_message

_LOW_CATEGORIES = {HIGH_CARD: 0, PAIR: 1, TWO_PAIR: 2, TRIPS: 3, FULL_HOUSE: 4, QUADS: 5}
_TOP = 1 << 24


def _low_rank(card: Card) -> int:
    if card.is_joker:
        raise BadInput("a joker cannot be ranked in an ace-to-five low")
    return 1 if card.rank == 14 else card.rank


def _name(r: int) -> str:
    return RANK_NAMES[14 if r == 1 else r]


def _plural(r: int) -> str:
    return RANK_PLURALS[14 if r == 1 else r]


class LowValue:
    """An ace-to-five low. Greater is better (the lower hand); equal values tie exactly."""

    __slots__ = ("cards", "ranks", "strength")

    def __init__(self, cards: tuple[Card, ...]) -> None:
        ranks = [_low_rank(c) for c in cards]
        category, sig = classify(ranks, False, straights=False)
        # Badness grows with the category and with each rank in order of significance.
        badness = pack_key(_LOW_CATEGORIES[category], sig)
        self.strength: int = _TOP - badness
        self.ranks: tuple[int, ...] = sig
        order = {r: i for i, r in enumerate(sig)}
        self.cards: tuple[Card, ...] = tuple(
            sorted(cards, key=lambda c: (order[_low_rank(c)], -c.rank if c.rank != 14 else 0))
        )

    @property
    def unpaired(self) -> bool:
        return len(self.ranks) == 5

    @property
    def ranks_text(self) -> str:
        """The five ranks high to low as printed on a chart: ``8-6-4-2-A``."""
        return "-".join(RANK_CHAR[14 if r == 1 else r] for r in self._all_ranks())

    def _all_ranks(self) -> list[int]:
        return sorted((_low_rank(c) for c in self.cards), reverse=True)

    @property
    def description(self) -> str:
        """``eight-six low``; the best low of all is ``wheel, five-four low``."""
        s = self.ranks
        if len(s) == 5:
            text = f"{_name(s[0])}-{_name(s[1])} low"
            return "wheel, " + text if s == (5, 4, 3, 2, 1) else text
        kick = "-".join(_name(r) for r in s[1:])
        if len(s) == 4:
            return f"pair of {_plural(s[0])}, {kick} low"
        if len(s) == 3 and self._counts()[0] == 2:
            return f"two pair, {_plural(s[0])} and {_plural(s[1])}, {_name(s[2])} low"
        if len(s) == 3:
            return f"three {_plural(s[0])}, {kick} low"
        if self._counts()[0] == 3:
            return f"{_plural(s[0])} full of {_plural(s[1])}"
        return f"four {_plural(s[0])}, {_name(s[1])} low"

    def _counts(self) -> list[int]:
        ranks = [_low_rank(c) for c in self.cards]
        return sorted((ranks.count(r) for r in set(ranks)), reverse=True)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LowValue):
            return NotImplemented
        return self.strength == other.strength

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, LowValue):
            return NotImplemented
        return self.strength < other.strength

    def __le__(self, other: object) -> bool:
        if not isinstance(other, LowValue):
            return NotImplemented
        return self.strength <= other.strength

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, LowValue):
            return NotImplemented
        return self.strength > other.strength

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, LowValue):
            return NotImplemented
        return self.strength >= other.strength

    def __hash__(self) -> int:
        return hash(self.strength)

    def __repr__(self) -> str:
        return f"LowValue({self.description!r})"

    def __str__(self) -> str:
        return self.description


def low_hand(cards: Sequence[Card], qualifier: int | None = 8) -> LowValue | None:
    """The best ace-to-five low among five or more cards, or None when none qualifies.

    ``qualifier=8``: five cards of different ranks, none above an eight (an ace counts one).
    ``qualifier=None``: every five cards make some low, paired hands ranking below unpaired.
    """
    cards = tuple(cards)
    if len(cards) < 5:
        raise BadInput(f"a low hand needs five cards, got {len(cards)}")
    if len({(c.rank, c.suit) for c in cards}) != len(cards):
        raise BadInput(duplicate_message(cards))
    if qualifier is not None and not 5 <= qualifier <= 13:
        raise BadInput(f"a low qualifier must be a rank from five to king, not {qualifier}")
    by_rank: dict[int, Card] = {}
    for c in sorted(cards, reverse=True):
        by_rank.setdefault(_low_rank(c), c)
    limit = 14 if qualifier is None else qualifier
    low = sorted(r for r in by_rank if r <= limit)
    if len(low) >= 5:
        return LowValue(tuple(by_rank[r] for r in low[:5]))
    if qualifier is not None:
        return None
    return max(LowValue(five) for five in combinations(cards, 5))

"""Deck and shoe composition, and what can still come out of the stub.

A shoe is tracked by counts, not by order: the app never knows the order of the stub, only which
cards are known to be out of it (face up on the table, or set aside) and how many cards are left.
Burn cards are unknown, so they reduce the count but never make a card impossible.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from dealer_assist.cards import SUITS, Card
from dealer_assist.errors import BadInput, RuleViolation

MAX_DECKS = 8


@dataclass(frozen=True, slots=True)
class DeckSpec:
    """What the shoe holds: whole decks, jokers, stripped (32-card, sevens up) decks, extras."""

    decks: int = 1
    jokers: int = 0
    stripped: bool = False
    extra: tuple[Card, ...] = ()

    def __post_init__(self) -> None:
        if not 1 <= self.decks <= MAX_DECKS:
            raise BadInput(f"decks must be 1 to {MAX_DECKS}, not {self.decks}")
        if self.jokers < 0:
            raise BadInput("jokers cannot be negative")

    def composition(self) -> dict[Card, int]:
        """Card -> copies in the shoe (a fresh dict; built once per spec, it is asked often)."""
        return dict(_composition(self))

    def _build(self) -> dict[Card, int]:
        low = 7 if self.stripped else 2
        comp: dict[Card, int] = {}
        for rank in range(low, 15):
            for suit in SUITS:
                comp[Card(rank, suit)] = self.decks
        for card in self.extra:
            comp[card] = comp.get(card, 0) + 1
        if self.jokers:
            comp[Card.joker()] = self.jokers
        return comp

    @property
    def size(self) -> int:
        return _spec_entry(self)[3]


@functools.cache
def _composition(spec: DeckSpec) -> dict[Card, int]:
    return spec._build()


#: id(spec) -> (spec, its composition, its copies of every card if it holds the same number of
#: each of the 52 cards and nothing else, else 0, its size): asked for every card dealt, where
#: hashing the spec for the cache above would cost more than the look-up itself. Holding
#: ``spec`` keeps its id unique.
_BY_ID: dict[int, tuple[DeckSpec, dict[Card, int], int, int]] = {}
#: The suits of the 52 cards: a card of one of them (jokers have their own mark) is one of the
#: 52, whatever its rank, since a card's rank is checked when it is made.
_FOUR_SUITS = frozenset(SUITS)


def _spec_entry(spec: DeckSpec) -> tuple[DeckSpec, dict[Card, int], int, int]:
    entry = _BY_ID.get(id(spec))
    if entry is None or entry[0] is not spec:
        plain = not spec.jokers and not spec.stripped and not spec.extra
        comp = _composition(spec)
        entry = (spec, comp, spec.decks if plain else 0, sum(comp.values()))
        if len(_BY_ID) > 1024:
            _BY_ID.clear()
        _BY_ID[id(spec)] = entry
    return entry


def _spec_composition(spec: DeckSpec) -> dict[Card, int]:
    """The shared (never modified) composition of ``spec``."""
    return _spec_entry(spec)[1]


def _copies(spec: DeckSpec, card: Card) -> int:
    """Copies of ``card`` in ``spec``'s shoe (``composition().get(card, 0)``); for a shoe of
    whole decks, read off the card's suit without hashing the card."""
    entry = _BY_ID.get(id(spec))
    if entry is None or entry[0] is not spec:
        entry = _spec_entry(spec)
    each = entry[2]
    if each and card.suit in _FOUR_SUITS:
        return each
    return entry[1].get(card, 0)


@dataclass(frozen=True, slots=True)
class Shoe:
    """An immutable count of the shoe: cards left in the stub and known cards out of it."""

    spec: DeckSpec
    left: int
    out: Mapping[Card, int] = field(default_factory=dict)
    burned: int = 0
    reshuffles: int = 0

    @classmethod
    def new(cls, spec: DeckSpec) -> Shoe:
        if cls is Shoe:
            return _shoe(spec, spec.size, {}, 0, 0)
        return cls(spec=spec, left=spec.size)

    def copies(self, card: Card) -> int:
        spec = self.spec  # _copies(spec, card), in line: every card dealt asks
        entry = _BY_ID.get(id(spec))
        if entry is None or entry[0] is not spec:
            entry = _spec_entry(spec)
        each = entry[2]
        if each and card.suit in _FOUR_SUITS:
            return each
        return entry[1].get(card, 0)

    def can_deal(self, card: Card) -> bool:
        return self.left > 0 and self.out.get(card, 0) < self.copies(card)

    def why_not(self, card: Card) -> str | None:
        """The dealer-facing reason ``card`` cannot come from the stub now, or ``None``."""
        copies = self.copies(card)
        if copies == 0:
            return f"{card.pretty} is not in this deck"
        if self.left <= 0:
            return "the stub is empty: reshuffle first"
        if self.out.get(card, 0) >= copies:
            if copies == 1:
                return f"{card.pretty} is already out of the stub"
            return f"all {copies} copies of {card.pretty} are already out of the stub"
        return None

    def deal(self, card: Card) -> Shoe:
        copies = _copies(self.spec, card)
        already = self.out.get(card, 0)
        if copies == 0 or self.left <= 0 or already >= copies:
            raise RuleViolation(self.why_not(card) or "", rule="stub")
        out = dict(self.out)
        out[card] = already + 1
        return _shoe(self.spec, self.left - 1, out, self.burned, self.reshuffles)

    def deal_all(self, cards: Iterable[Card], *, burn: bool = False) -> Shoe:
        """:meth:`deal` of each card in turn (refused as :meth:`deal` refuses the first that
        cannot come), after a :meth:`burn` when ``burn``: one shoe made, not one a card."""
        spec = self.spec
        left = self.left
        burned = self.burned
        if burn:
            if left <= 0:
                raise RuleViolation("no card left to burn: reshuffle first", rule="stub")
            left -= 1
            burned += 1
        out = dict(self.out)
        for card in cards:
            copies = _copies(spec, card)
            already = out.get(card, 0)
            if copies == 0 or left <= 0 or already >= copies:
                now = _shoe(spec, left, out, burned, self.reshuffles)
                raise RuleViolation(now.why_not(card) or "", rule="stub")
            out[card] = already + 1
            left -= 1
        return _shoe(spec, left, out, burned, self.reshuffles)

    def deal_checked(self, card: Card) -> Shoe:
        """:meth:`deal` for a card the caller has just checked can come (``why_not`` is
        ``None``): the same shoe, without checking twice."""
        return self.dealt(card, self.out.get(card, 0))

    def dealt(self, card: Card, already: int) -> Shoe:
        """:meth:`deal` for a card the caller has just checked can come, ``already`` being
        ``self.out.get(card, 0)`` (which the check has read): the same shoe, without reading
        anything twice."""
        out = dict(self.out)
        out[card] = already + 1
        return _shoe(self.spec, self.left - 1, out, self.burned, self.reshuffles)

    def burn(self) -> Shoe:
        if self.left <= 0:
            raise RuleViolation("no card left to burn: reshuffle first", rule="stub")
        return _shoe(self.spec, self.left - 1, self.out, self.burned + 1, self.reshuffles)

    def deal_unseen(self, count: int = 1) -> Shoe:
        """Cards dealt face down (their identity unknown to the app)."""
        if self.left < count:
            raise RuleViolation(f"only {self.left} cards left in the stub", rule="stub")
        return _shoe(self.spec, self.left - count, self.out, self.burned, self.reshuffles)

    def reshuffle(self, returned: Iterable[Card], *, burns: bool = True) -> Shoe:
        """Shuffle ``returned`` known cards (and, by default, every burn card) into the stub."""
        out = dict(self.out)
        count = 0
        for card in returned:
            if out.get(card, 0) <= 0:
                raise BadInput(f"{card.pretty} is not out of the stub")
            out[card] -= 1
            if out[card] == 0:
                del out[card]
            count += 1
        back = self.burned if burns else 0
        return replace(
            self,
            left=self.left + count + back,
            out=out,
            burned=0 if burns else self.burned,
            reshuffles=self.reshuffles + 1,
        )


class _ShoeTwin:
    """:class:`Shoe`'s slots in the same order (the same layout), without its frozen guard."""

    __slots__ = ("spec", "left", "out", "burned", "reshuffles")  # noqa: RUF023 (Shoe's order)

    spec: DeckSpec
    left: int
    out: Mapping[Card, int]
    burned: int
    reshuffles: int


def _shoe(spec: DeckSpec, left: int, out: Mapping[Card, int], burned: int, reshuffles: int) -> Shoe:
    """``Shoe(spec, left, out, burned, reshuffles)`` without the frozen constructor's cost (a
    replay makes a shoe for every card dealt): filled in as its twin, then made a shoe."""
    shoe = _new(_ShoeTwin)
    shoe.spec = spec
    shoe.left = left
    shoe.out = out
    shoe.burned = burned
    shoe.reshuffles = reshuffles
    shoe.__class__ = Shoe  # type: ignore[assignment]
    return shoe  # type: ignore[return-value]


def shoe_of(
    spec: DeckSpec, left: int, out: Mapping[Card, int], burned: int, reshuffles: int
) -> Shoe:
    """``Shoe(spec, left, out, burned, reshuffles)``, made as quickly as the shoe's own methods
    make theirs: for a game that counts a hand's shoe in place while it applies events and makes
    the shoe once when the state is read. ``out`` becomes the shoe's: not to be changed after."""
    return _shoe(spec, left, out, burned, reshuffles)


_new = object.__new__
if _ShoeTwin.__slots__ != vars(Shoe)["__slots__"]:
    raise TypeError("_ShoeTwin must list Shoe's slots in Shoe's order")

"""Dicey Poker's own events: the deal of ten hole cards, each die rolled, a card put face up,
drawn, chipped, swapped or discarded, the end of a player's percentile rolls and a joker won."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.cards import Card
from dealer_assist.events import Event, event_type, vocabulary


@event_type("deal", shared=False)
@dataclass(frozen=True, kw_only=True)
class Deal(Event):
    """A seat's ten hole cards (open to the dealer), dealt from the dealer's left."""

    seat: int
    cards: tuple[Card, ...]


@event_type("roll", shared=False)
@dataclass(frozen=True, kw_only=True)
class Roll(Event):
    """A die and the value it shows: ``d10`` (1 = ace ... 10), ``d6`` (the face die), ``d100``
    (the percentile die, 0 to 90) or ``d4`` (the wild die)."""

    seat: int
    die: str
    value: int


@event_type("up", shared=False)
@dataclass(frozen=True, kw_only=True)
class Up(Event):
    """A matching hole card put face up."""

    seat: int
    card: Card


@event_type("draw", shared=False)
@dataclass(frozen=True, kw_only=True)
class Draw(Event):
    """The card drawn from the pile to keep ten in the hole."""

    seat: int
    card: Card


@event_type("chip", shared=False)
@dataclass(frozen=True, kw_only=True)
class Chip(Event):
    """A chip put on an unchipped face-up card."""

    seat: int
    card: Card


@event_type("swap", shared=False)
@dataclass(frozen=True, kw_only=True)
class Swap(Event):
    """The matching hole card swapped for the unchipped face-up card ``up``; the new face-up
    card ``hole`` is chipped by the swap."""

    seat: int
    up: Card
    hole: Card


@event_type("discard", shared=False)
@dataclass(frozen=True, kw_only=True)
class Discard(Event):
    """One hole card thrown face up onto the discard pile."""

    seat: int
    card: Card


@event_type("stop", shared=False)
@dataclass(frozen=True, kw_only=True)
class Stop(Event):
    """A player ends their percentile rolls in a wild challenge."""

    seat: int


@event_type("joker", shared=False)
@dataclass(frozen=True, kw_only=True)
class Joker(Event):
    """The next joker, won on the wild die, placed face up and chipped. With five already face
    up, ``back`` is the face-up card sent back to the hole and ``out`` the hole card
    discarded."""

    seat: int
    back: Card | None = None
    out: Card | None = None


EVENTS = vocabulary(Deal, Roll, Up, Draw, Chip, Swap, Discard, Stop, Joker)

"""Tally's own events: each shape the engine takes from a game's package."""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer_assist.cards import Card
from dealer_assist.events import Event, event_type, vocabulary


@event_type("draw", shared=False)
@dataclass(frozen=True, kw_only=True)
class Draw(Event):
    """A card drawn ``from`` the stock or the pile (``from`` is a Python keyword: the log's
    name differs from the field's)."""

    seat: int
    source: str = field(metadata={"json": "from"})
    card: Card


@event_type("meld", shared=False)
@dataclass(frozen=True, kw_only=True)
class Meld(Event):
    """Three to five cards of one rank (jokers wild; two decks: the same card twice)."""

    seat: int
    cards: tuple[Card, ...]


@event_type("swap", shared=False)
@dataclass(frozen=True, kw_only=True)
class Swap(Event):
    """Two single cards under two names: the face-up card and the hole card swapped."""

    seat: int
    up: Card
    hole: Card


@event_type("roll", shared=False)
@dataclass(frozen=True, kw_only=True)
class Roll(Event):
    """A die named with its value; the app rolls it and records the value."""

    seat: int
    die: str
    value: int


@event_type("call", shared=False)
@dataclass(frozen=True, kw_only=True)
class Call(Event):
    """Two inputs in one action: the cards shown and the combination they make."""

    seat: int
    cards: tuple[Card, ...]
    combination: str


@event_type("stop", shared=False)
@dataclass(frozen=True, kw_only=True)
class Stop(Event):
    """The seat's turn ends."""

    seat: int


@event_type("ruling", shared=False)
@dataclass(frozen=True, kw_only=True)
class Ruling(Event):
    """The floor's decision on a call the game raised: it ``stands`` or is ``void`` (its points
    taken off), and why. Recorded only with a floor person's approval."""

    decision: str
    reason: str


@event_type("choose", shared=False)
@dataclass(frozen=True, kw_only=True)
class Choose(Event):
    """The table's choice between hands: ``go on`` with the game, or ``end`` it (the pot is
    shared)."""

    choice: str


EVENTS = vocabulary(Draw, Meld, Swap, Roll, Call, Stop, Ruling, Choose)

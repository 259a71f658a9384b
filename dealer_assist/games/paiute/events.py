"""Paiute's own events: the wild card and the upcard, a draw ``from`` the stock or the discard
pile, its one-card discard, a call and a pass (``reshuffle`` is the shared one)."""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer_assist.cards import Card
from dealer_assist.events import Event, Reshuffle, event_type, vocabulary


@event_type("wild", shared=False)
@dataclass(frozen=True, kw_only=True)
class Wild(Event):
    """The card turned up: every card of its rank is wild this hand (it stays under the
    stock, out of play)."""

    card: Card


@event_type("upcard", shared=False)
@dataclass(frozen=True, kw_only=True)
class Upcard(Event):
    """The card that starts the discard pile."""

    card: Card


@event_type("draw", shared=False)
@dataclass(frozen=True, kw_only=True)
class Draw(Event):
    """A card drawn ``from`` the ``stock`` (unseen) or the ``discard`` pile (its top card);
    ``from`` is a Python keyword, so the field is ``source``."""

    seat: int
    source: str = field(metadata={"json": "from"})


@event_type("discard", shared=False)
@dataclass(frozen=True, kw_only=True)
class Discard(Event):
    """One card face up on the discard pile (this game's own shape of the shared tag)."""

    seat: int
    card: Card


@event_type("call", shared=False)
@dataclass(frozen=True, kw_only=True)
class Call(Event):
    """The seat's hand face up as a ``combination``: five cards after its discard, six
    straight after its draw (the sixth card is part of the combination)."""

    seat: int
    cards: tuple[Card, ...]
    combination: str


@event_type("pass", shared=False)
@dataclass(frozen=True, kw_only=True)
class Pass(Event):
    """A last turn ended without a call."""

    seat: int


EVENTS = vocabulary(Wild, Upcard, Draw, Discard, Call, Pass)

__all__ = ["EVENTS", "Call", "Discard", "Draw", "Pass", "Reshuffle", "Upcard", "Wild"]

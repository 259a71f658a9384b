"""Commerce's own events: an exchange with the board, a knock, a stand (``board`` and
``show`` are the shared ones)."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.cards import Card
from dealer_assist.events import BoardDealt, Event, Show, event_type, vocabulary


@event_type("exchange", shared=False)
@dataclass(frozen=True, kw_only=True)
class Exchange(Event):
    """One to three cards ``take`` from the board for as many ``give`` to it, face up;
    ``blind``: the dealer's exchange before looking, before the first turn."""

    seat: int
    take: tuple[Card, ...]
    give: tuple[Card, ...]
    blind: bool = False


@event_type("knock", shared=False)
@dataclass(frozen=True, kw_only=True)
class Knock(Event):
    """The seat is satisfied: every other seat takes one last turn."""

    seat: int


@event_type("stand", shared=False)
@dataclass(frozen=True, kw_only=True)
class Stand(Event):
    """A last turn without an exchange."""

    seat: int


EVENTS = vocabulary(Exchange, Knock, Stand)

__all__ = ["EVENTS", "BoardDealt", "Exchange", "Knock", "Show", "Stand"]

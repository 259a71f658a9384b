"""Chinese Poker's events: a hand set into its rows, a natural declared, a surrender."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.events import Event, event_type, vocabulary
from dealer_assist.games.open_face.events import SetHand


@event_type("natural", shared=False)
@dataclass(frozen=True, kw_only=True)
class Natural(Event):
    """A natural declared before the reveal (``dragon``, ``three-flushes``...)."""

    seat: int
    kind: str


@event_type("surrender", shared=False)
@dataclass(frozen=True, kw_only=True)
class Surrender(Event):
    """The player surrenders before the reveal."""

    seat: int


#: What a Chinese Poker hand log may hold.
EVENTS = vocabulary(SetHand, Natural, Surrender)

__all__ = ["EVENTS", "Natural", "SetHand", "Surrender"]

"""Anaconda's own events: a passing round done, a declaration, a card rolled; and the betting
engine's all-in (`betting.AllIn`), which the shared events do not hold."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.cards import Card
from dealer_assist.engine.betting.wagers import AllIn
from dealer_assist.events import Event, event_type, vocabulary


@event_type("pass", shared=False)
@dataclass(frozen=True, kw_only=True)
class Pass(Event):
    """A passing round done: every player still in has passed three cards face down (the app
    does not see them)."""


@event_type("declare", shared=False)
@dataclass(frozen=True, kw_only=True)
class Declare(Event):
    """A player still in declares for the ``high`` or the ``low`` half."""

    seat: int
    way: str


@event_type("roll", shared=False)
@dataclass(frozen=True, kw_only=True)
class Roll(Event):
    """A player turns one of the five cards they kept face up."""

    seat: int
    card: Card


#: What an Anaconda hand log may hold beside the shared events.
EVENTS = vocabulary(AllIn, Pass, Declare, Roll)

"""Guts' own events: a player declares in, or out."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.events import Event, event_type, vocabulary


@event_type("in", shared=False)
@dataclass(frozen=True, kw_only=True)
class In(Event):
    """The player declares in: they play for the pot, and pay into the next one if they lose."""

    seat: int


@event_type("out", shared=False)
@dataclass(frozen=True, kw_only=True)
class Out(Event):
    """The player declares out: they neither win nor pay this hand."""

    seat: int


#: What a Guts hand log may hold beside the shared events (``show``).
EVENTS = vocabulary(In, Out)

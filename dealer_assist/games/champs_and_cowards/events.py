"""Champs and Cowards' own events: a player buys another card (champ) or stops (coward)."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.events import Event, event_type, vocabulary


@event_type("champ", shared=False)
@dataclass(frozen=True, kw_only=True)
class Champ(Event):
    """The player buys another card (pays into the bonus pool)."""

    seat: int


@event_type("coward", shared=False)
@dataclass(frozen=True, kw_only=True)
class Coward(Event):
    """The player stops."""

    seat: int


#: What a Champs and Cowards hand log may hold.
EVENTS = vocabulary(Champ, Coward)

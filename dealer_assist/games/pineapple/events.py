"""The Pineapple games' own events: the dealer killing a hand, a muck at showdown; and the betting
engine's all-in (`betting.AllIn`), which the shared events do not hold."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.engine.betting.wagers import AllIn
from dealer_assist.events import Event, event_type, vocabulary


@event_type("kill", shared=False)
@dataclass(frozen=True, kw_only=True)
class Kill(Event):
    """The dealer declares a hand dead (a missed discard, a fouled hand): out as if folded, its
    chips stay in the pot."""

    seat: int
    reason: str = ""


@event_type("muck", shared=False)
@dataclass(frozen=True, kw_only=True)
class Muck(Event):
    """At showdown a player gives up the hand without showing it."""

    seat: int


#: What a Pineapple hand log may hold beside the shared events.
EVENTS = vocabulary(AllIn, Kill, Muck)

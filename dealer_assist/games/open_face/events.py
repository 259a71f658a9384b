"""The event the three-row games share: a whole hand set into its rows at once."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.cards import Card
from dealer_assist.events import Event, event_type


@event_type("set", shared=False)
@dataclass(frozen=True, kw_only=True)
class SetHand(Event):
    """A whole hand set into its three rows at once (Chinese Poker, fantasyland)."""

    seat: int
    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]

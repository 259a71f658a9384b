"""Open-Face Chinese Poker's events: a card placed in a row, and a whole hand set at once
(fantasyland); discards are the shared ``discard``."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.cards import Card
from dealer_assist.events import Event, event_type, vocabulary
from dealer_assist.games.open_face.events import SetHand


@event_type("place", shared=False)
@dataclass(frozen=True, kw_only=True)
class Place(Event):
    """A card placed in a row (``front``, ``middle`` or ``back``)."""

    seat: int
    card: Card
    row: str


#: What an Open-Face hand log may hold.
EVENTS = vocabulary(Place, SetHand)

__all__ = ["EVENTS", "Place", "SetHand"]

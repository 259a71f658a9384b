"""Mille's own events: the score sheet's lines (melds, the cards left, who went out) and, when
the table records the play turn by turn, the upcard, draws and discards."""

from __future__ import annotations

from dataclasses import dataclass, field

from dealer_assist.cards import Card
from dealer_assist.events import Event, event_type, vocabulary


@event_type("meld", shared=False)
@dataclass(frozen=True, kw_only=True)
class Meld(Event):
    """Three or more cards laid down: one rank with 2s wild, or three or more 2s. Two decks:
    the same card may be named twice."""

    seat: int
    cards: tuple[Card, ...]


@event_type("left", shared=False)
@dataclass(frozen=True, kw_only=True)
class Left(Event):
    """The cards a player still holds when the hand ends (none for the player who went out)."""

    seat: int
    cards: tuple[Card, ...] = ()


@event_type("out", shared=False)
@dataclass(frozen=True, kw_only=True)
class Out(Event):
    """The player who went out (melded or discarded their last card)."""

    seat: int


@event_type("upcard", shared=False)
@dataclass(frozen=True, kw_only=True)
class Upcard(Event):
    """The card turned from the stock after the deal: the first card of the discard pile."""

    card: Card


@event_type("draw", shared=False)
@dataclass(frozen=True, kw_only=True)
class Draw(Event):
    """A turn's draw: one card from the stock (unseen), or the whole discard pile (taken only
    by melding its top card at once). ``from`` in the log: a Python keyword."""

    seat: int
    source: str = field(metadata={"json": "from"})


@event_type("discard", shared=False)
@dataclass(frozen=True, kw_only=True)
class Discard(Event):
    """The card that ends a turn, face up on the discard pile."""

    seat: int
    card: Card


EVENTS = vocabulary(Meld, Left, Out, Upcard, Draw, Discard)

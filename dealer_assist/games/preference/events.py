"""Preference's own events: the ante, the bids, trumps named, the talon, the defenders' choices,
"no aces", and the table's choice to end the game and share the pot."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.cards import Card
from dealer_assist.events import Event, event_type, vocabulary


@event_type("ante", shared=False)
@dataclass(frozen=True, kw_only=True)
class Ante(Event):
    """Each active player puts ``stakes`` stakes into the pot (a multiple of ten)."""

    stakes: int


@event_type("end", shared=False)
@dataclass(frozen=True, kw_only=True)
class End(Event):
    """The players end the game: what is left in the pot is shared among the active players."""


@event_type("bid", shared=False)
@dataclass(frozen=True, kw_only=True)
class Bid(Event):
    """``one`` ... ``four``, ``game``, ``hearts`` or ``pass``."""

    seat: int
    bid: str


@event_type("trump", shared=False)
@dataclass(frozen=True, kw_only=True)
class NameTrump(Event):
    """The suit a declarer (or each Game bidder) names for trumps: ``s``, ``c``, ``d``, ``h``."""

    seat: int
    suit: str


@event_type("talon", shared=False)
@dataclass(frozen=True, kw_only=True)
class Talon(Event):
    """The two talon cards, taken by the declarer of a numeric bid."""

    cards: tuple[Card, ...]


@event_type("defend", shared=False)
@dataclass(frozen=True, kw_only=True)
class Defend(Event):
    """A defender plays, drops, or (the only one playing) invites the other."""

    seat: int
    choice: str


@event_type("no-aces", shared=False)
@dataclass(frozen=True, kw_only=True)
class NoAces(Event):
    """The declarer holds no ace and says so before the first lead."""

    seat: int


EVENTS = vocabulary(Ante, End, Bid, NameTrump, Talon, Defend, NoAces)

__all__ = ["EVENTS", "Ante", "Bid", "Defend", "End", "NameTrump", "NoAces", "Talon"]

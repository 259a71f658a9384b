"""Rams' own events: the turned card, each player's declaration, the dealer taking the trump."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.cards import Card
from dealer_assist.events import Event, event_type, vocabulary


@event_type("trump", shared=False)
@dataclass(frozen=True, kw_only=True)
class Trump(Event):
    """The card turned after the deal: its suit is trumps."""

    card: Card


@event_type("play", shared=False)
@dataclass(frozen=True, kw_only=True)
class Play(Event):
    """The player keeps the hand dealt and plays."""

    seat: int


@event_type("pass", shared=False)
@dataclass(frozen=True, kw_only=True)
class Pass(Event):
    """The player sits the hand out."""

    seat: int


@event_type("widow", shared=False)
@dataclass(frozen=True, kw_only=True)
class Widow(Event):
    """The player switches the hand for the widow, unseen, and must play."""

    seat: int


@event_type("rams", shared=False)
@dataclass(frozen=True, kw_only=True)
class Rams(Event):
    """The player bids to take all five tricks: everyone must play."""

    seat: int


@event_type("take-trump", shared=False)
@dataclass(frozen=True, kw_only=True)
class TakeTrump(Event):
    """The dealer, with one other player in, takes the turned card and discards ``give``."""

    seat: int
    give: Card


EVENTS = vocabulary(Trump, Play, Pass, Widow, Rams, TakeTrump)
DECLARATIONS = (Play, Pass, Widow, Rams)

__all__ = ["DECLARATIONS", "EVENTS", "Pass", "Play", "Rams", "TakeTrump", "Trump", "Widow"]

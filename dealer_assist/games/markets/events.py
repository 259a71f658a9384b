"""Markets poker's own events: the cards dealt face up, the supplier auction, the card given up
for the supplier, the draw for leftover chips and a folded player's advantage card."""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.cards import Card
from dealer_assist.events import Event, event_type, vocabulary


@event_type("advantage", shared=False)
@dataclass(frozen=True, kw_only=True)
class Advantage(Event):
    """First hand of a game: the competitive-advantage card dealt face up to a seat."""

    seat: int
    card: Card


@event_type("disclose", shared=False)
@dataclass(frozen=True, kw_only=True)
class Disclose(Event):
    """A seat's first product card, dealt face up (the disclosure)."""

    seat: int
    card: Card


@event_type("supplier", shared=False)
@dataclass(frozen=True, kw_only=True)
class Supplier(Event):
    """The supplier card, face up in the middle and marked with a chip."""

    card: Card


@event_type("externality", shared=False)
@dataclass(frozen=True, kw_only=True)
class Externality(Event):
    """An externality card, face up in the middle (one before each betting round)."""

    card: Card


@event_type("bid", shared=False)
@dataclass(frozen=True, kw_only=True)
class Bid(Event):
    """A bid for the supplier, in chips."""

    seat: int
    chips: int


@event_type("withdraw", shared=False)
@dataclass(frozen=True, kw_only=True)
class Withdraw(Event):
    """A seat leaves the auction for good."""

    seat: int


@event_type("replace", shared=False)
@dataclass(frozen=True, kw_only=True)
class Replace(Event):
    """The buyer's product card given up for the supplier."""

    seat: int
    card: Card


@event_type("draw", shared=False)
@dataclass(frozen=True, kw_only=True)
class DrawOrder(Event):
    """The app's draw for the leftover chips of a shared half: the tied seats in the order they
    get one chip each."""

    order: tuple[int, ...]


@event_type("choose", shared=False)
@dataclass(frozen=True, kw_only=True)
class Choose(Event):
    """A folded player's advantage card for the next hand, chosen from its own product."""

    seat: int
    card: Card


#: What a Markets poker hand log may hold beside the shared events.
EVENTS = vocabulary(Advantage, Disclose, Supplier, Externality, Bid, Withdraw, Replace,
                    DrawOrder, Choose)

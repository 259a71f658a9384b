"""Paiute's state: the table, the wild card, the discard pile, the stock's count, whose turn
and where it is, the cards known to be held, the calls and the last turns after the first."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from dealer_assist.cards import Card
from dealer_assist.errors import RuleViolation
from dealer_assist.games.ante_pot import AnteTable
from dealer_assist.games.paiute.combos import Value, describe, strength

NAME = "paiute"
HAND = 5
PLAYERS = (2, 5)
DECK = 52
#: Where a turn is: the seat has yet to draw, has drawn (six cards), or has discarded.
DRAW, DRAWN, DISCARDED = "draw", "drawn", "discarded"
SOURCES = ("stock", "discard")


def cards_text(cards: tuple[Card, ...]) -> str:
    """Cards as the log writes them, for the dealer's messages."""
    return " ".join(c.code for c in cards)


def refuse(text: str, n: int | str) -> RuleViolation:
    """A refusal naming the game's ruling ``n`` (or a rule tag given as text)."""
    return RuleViolation(text, rule=f"Paiute {n}" if isinstance(n, int) else n)


@dataclass(frozen=True, slots=True)
class CallMade:
    seat: int
    cards: tuple[Card, ...]
    combination: str
    value: Value

    @property
    def strength(self) -> Value:
        return strength(self.combination, self.value)

    @property
    def description(self) -> str:
        return describe(self.combination, self.value)


@dataclass(frozen=True, slots=True)
class State:
    table: AnteTable
    wild: Card | None = None
    #: The discard pile, its top card last.
    pile: tuple[Card, ...] = ()
    started: bool = False
    #: Cards left in the stock.
    stock: int = 0
    #: The turn's place in the turn order (before the first call), and where the turn is.
    turn: int = 0
    stage: str = DRAW
    #: The card the seat to play just took from the discard pile (it cannot go straight back).
    taken: Card | None = None
    #: Cards taken from the discard pile and not discarded: the seat known to hold each.
    where: Mapping[Card, int] = field(default_factory=lambda: MappingProxyType({}))
    #: Turns each seat has finished (a paiute is called only on the first).
    done: Mapping[int, int] = field(default_factory=lambda: MappingProxyType({}))
    calls: tuple[CallMade, ...] = ()
    #: After the first call: the seats still to take their last turn, in order.
    last: tuple[int, ...] = ()
    over: bool = False

    @property
    def wild_rank(self) -> int:
        return self.wild.rank if self.wild is not None else 0

    @property
    def seat(self) -> int:
        """The seat whose turn it is."""
        if self.calls:
            return self.last[0]
        order = self.table.order
        return order[self.turn % len(order)]

    @property
    def next_seat(self) -> int:
        order = self.table.order
        return order[(self.turn + 1) % len(order)]

    @property
    def drawer(self) -> int | None:
        """The seat that draws next, if a draw may come now."""
        if self.over or not self.started:
            return None
        if self.stage == DRAW:
            return self.seat
        if self.stage == DISCARDED and not self.calls:
            return self.next_seat
        return None

    @property
    def to_act(self) -> int | None:
        if self.over or not self.started:
            return None
        return self.drawer or self.seat

    def known(self, seat: int) -> tuple[Card, ...]:
        return tuple(c for c, s in self.where.items() if s == seat)

    def first_turn(self, seat: int) -> bool:
        return not self.done.get(seat, 0)

    def best(self) -> CallMade | None:
        return max(self.calls, key=lambda c: c.strength) if self.calls else None

    def winners(self) -> list[int]:
        top = self.best()
        if top is None:
            return []
        won = {c.seat for c in self.calls if c.strength == top.strength}
        return [s for s in self.table.order if s in won]

    def holding(self, seat: int) -> int:
        """How many cards ``seat`` holds now (face down, or shown in its call)."""
        if self.started and not self.over and seat == self.seat and self.stage == DRAWN:
            return HAND + 1
        return HAND

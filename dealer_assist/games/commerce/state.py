"""Commerce's state: the table, the board, whose turn, the exchanges and where each card taken
from the board went, the knock and the last turns, the hands shown; and the best hands shown."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from dealer_assist.cards import Card
from dealer_assist.errors import RuleViolation
from dealer_assist.games.ante_pot import AnteTable
from dealer_assist.games.commerce.rank import Hand, rank_hand

NAME = "commerce"
HAND = 3
PLAYERS = (3, 10)


def three_used(state: State, seat: int) -> tuple[str, ...]:
    """The line that says a seat has had its three-card exchange (ruling commerce-2)."""
    if seat not in state.threes:
        return ()
    blind = " (the dealer's blind one counts)" if state.blind and seat == state.table.dealer \
        else ""
    return (f"seat {seat} has made its three-card exchange this hand{blind}: one or two cards",)


def cards_text(cards: tuple[Card, ...]) -> str:
    """Cards as the log writes them, for the dealer's messages."""
    return " ".join(c.code for c in cards)


def refuse(text: str, n: int | str) -> RuleViolation:
    """A refusal naming the game's ruling ``n`` (or a rule tag given as text)."""
    return RuleViolation(text, rule=f"Commerce {n}" if isinstance(n, int) else n)


@dataclass(frozen=True, slots=True)
class State:
    table: AnteTable
    #: The cards face up in the middle, in the order they came.
    board: tuple[Card, ...] = ()
    #: Cards taken from the board: the seat known to hold each.
    where: Mapping[Card, int] = field(default_factory=lambda: MappingProxyType({}))
    #: Turns taken before the knock (the seat to act is the next in turn order).
    turns: int = 0
    #: Whether the dealer made a blind exchange.
    blind: bool = False
    #: Seats that made their three-card exchange.
    threes: frozenset[int] = frozenset()
    knocker: int | None = None
    #: Seats still to take their last turn after the knock, in order.
    last: tuple[int, ...] = ()
    shown: Mapping[int, tuple[Card, ...]] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def dealt(self) -> bool:
        return bool(self.board)

    @property
    def showdown(self) -> bool:
        return self.knocker is not None and not self.last

    @property
    def over(self) -> bool:
        return self.showdown and len(self.shown) == len(self.table.seats)

    @property
    def to_act(self) -> int | None:
        if not self.dealt or self.over:
            return None
        if self.knocker is None:
            order = self.table.order
            return order[self.turns % len(order)]
        if self.last:
            return self.last[0]
        return next(s for s in self.table.order if s not in self.shown)

    def known(self, seat: int) -> tuple[Card, ...]:
        """The cards the app knows ``seat`` holds (taken from the board and kept)."""
        return tuple(c for c, s in self.where.items() if s == seat)


def best(state: State) -> tuple[list[int], dict[int, Hand]]:
    """The winners among the hands shown, and every shown hand ranked."""
    hands = {s: rank_hand(cards) for s, cards in state.shown.items()}
    if not hands:
        return [], hands
    top = max(h.value for h in hands.values())
    return [s for s in state.table.order if s in hands and hands[s].value == top], hands

"""The immutable state of one Caro Hold 'em hand.

Private cards are dealt face down, so the state knows how many cards each player holds, never
which ones, until they are discarded face up or shown.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.deck import Shoe
from dealer_assist.engine.base import FeeLine
from dealer_assist.engine.evolve import builder, evolver, replaced
from dealer_assist.games.caro_holdem.settings import PRIVATE_CARDS, ROUND_NAMES, Settings

BETTING = "betting"
BOARD = "board"
SHOWDOWN = "showdown"
OVER = "over"


@dataclass(frozen=True, slots=True)
class SeatState:
    """One player's position in the hand; amounts in cents, fees not included."""

    seat: int
    stack: int
    held: int = PRIVATE_CARDS
    discards: tuple[Card, ...] = ()
    unseen_discards: int = 0
    hand_in: int = 0
    round_in: int = 0
    folded: bool = False
    all_in: bool = False
    shown: tuple[Card, ...] | None = None

    @property
    def can_act(self) -> bool:
        """Still in and with chips behind: the only players who bet, call or raise."""
        return not self.folded and not self.all_in


@dataclass(frozen=True, slots=True)
class Wager:
    """One betting action as recorded: ``amount`` is the cents actually put in by it.

    ``level`` is the round's level after the action; ``cards_held`` the cards the player held
    when acting (after any discard just before it).
    """

    seat: int
    kind: str
    amount: int
    cards_held: int
    level: int
    street: int
    all_in: bool = False

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "type": self.kind,
            "amount": self.amount,
            "cards_held": self.cards_held,
            "level": self.level,
            "round": ROUND_NAMES[self.street],
            "all_in": self.all_in,
        }


@dataclass(frozen=True, slots=True)
class State:
    """The hand after some events: seats in clockwise order, the board, the round and level.

    ``seats[i]`` is always the seat ``settings.seats[i]``.
    """

    settings: Settings
    seats: tuple[SeatState, ...]
    shoe: Shoe
    phase: str = BETTING
    street: int = 0
    level: int = 0
    acted: frozenset[int] = frozenset()
    to_act: int | None = None
    board: tuple[Card, ...] = ()
    actions: tuple[Wager, ...] = ()
    discarding: int | None = None
    pre_fees: tuple[FeeLine, ...] = ()
    known: frozenset[Card] = frozenset()

    def seat(self, n: int) -> SeatState:
        seats = self.seats
        try:  # seats[i] is the seat settings.seats[i]: look there first
            s = seats[self.settings.seats.index(n)]
        except (ValueError, IndexError):
            pass
        else:
            if s.seat == n:
                return s
        for s in seats:  # a state whose seats are not in the settings' order
            if s.seat == n:
                return s
        raise KeyError(n)

    def with_seat(self, new: SeatState, **changes: Any) -> State:
        """The state with ``new`` in its seat (and any other ``changes`` to the state's fields)."""
        seats = self.seats
        try:
            i = self.settings.seats.index(new.seat)
        except ValueError:
            return evolve_state(self, seats=seats, **changes)
        return evolve_state(self, seats=replaced(seats, i, new), **changes)

    def live(self) -> list[SeatState]:
        return [s for s in self.seats if not s.folded]

    def actors(self) -> list[SeatState]:
        return [s for s in self.seats if s.can_act]

    def clockwise_after(self, seat: int) -> Iterator[SeatState]:
        """Every seat once, starting with the one to the left of ``seat``."""
        order = self.settings.seats
        i = order.index(seat)
        n = len(order)
        seats = self.seats
        for k in range(i + 1, i + n + 1):
            yield seats[k % n]

    @property
    def limit(self) -> int:
        return self.settings.limit(self.street)

    @property
    def round_name(self) -> str:
        return ROUND_NAMES[self.street]

    @property
    def pot_total(self) -> int:
        return sum(s.hand_in for s in self.seats)

    @property
    def saw_flip(self) -> bool:
        """"No flip, no drop": the fee test is whether the flip was dealt."""
        return len(self.board) >= 2


#: ``dataclasses.replace`` for the records, without its per-call cost (a replay rebuilds the
#: state for every event).
evolve_seat = evolver(SeatState)
evolve_state = evolver(State)
#: ``Wager(...)`` without the frozen constructor's cost (a replay records one for most events).
wager = builder(Wager)
#: ``SeatState(...)`` and ``State(...)``, likewise (every replay starts a hand).
seat_state = builder(SeatState)
new_state = builder(State)

"""The pot of an ante game with no betting after the ante (Commerce, Paiute): reading the table
(the seats, the dealer, the ante under the game's own name, the smallest chip, the house fee),
what each seat has put in, and the settlement: the pot to the best hand, a tie split in the
smallest chip with the odd chips one at a time to the tied winners from the dealer's left.
:class:`AnteGame` is what such a game declares and answers alike: each game keeps its own rules
(the events, the turns, who has won and why) and its own words."""

from __future__ import annotations

import random
from abc import abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Protocol, TypeVar

from dealer_assist.engine import start as read
from dealer_assist.engine.base import FeeLine, Game, PushStep, Settlement
from dealer_assist.engine.pots import split_pot
from dealer_assist.engine.seats import from_left
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Start
from dealer_assist.fees import FeeContext, FeePolicy, pot_fees, pre_deal_fees
from dealer_assist.fees.table import table_policy
from dealer_assist.money import format_cents


@dataclass(frozen=True, slots=True)
class AnteTable:
    """One hand's table: amounts in cents."""

    seats: tuple[int, ...]
    dealer: int
    ante: int
    smallest_chip: int
    policy: FeePolicy | None = None
    pre_fees: tuple[FeeLine, ...] = ()

    @property
    def order(self) -> tuple[int, ...]:
        """The seats from the dealer's left, the dealer last."""
        return from_left(self.seats, self.dealer)

    @property
    def pot(self) -> int:
        return self.ante * len(self.seats)

    def put_in(self) -> dict[int, int]:
        """Each seat's ante and any fee it paid before the deal."""
        out = {s: self.ante for s in self.seats}
        for line in self.pre_fees:
            if line.from_seat is not None:
                out[line.from_seat] = out.get(line.from_seat, 0) + line.amount
        return out


def read_table(start: Start, *, ante_key: str, what: str, players: tuple[int, int],
               dealer_key: str = "dealer") -> AnteTable:
    """The table from the start: seats, ``dealer_key`` (the engine's button), the ante under
    ``ante_key`` (``what`` says what it is), the smallest chip and the fee."""
    read.only(start, (dealer_key, ante_key))
    seats = read.seats_between(start, low=players[0], high=players[1])
    dealer = read.button(start, seats, dealer_key)
    if ante_key not in start.params:
        raise RuleViolation(f'the start needs "{ante_key}": {what} in cents', rule="settings")
    ante = read.cents(start.get(ante_key), ante_key, low=1)
    chip = read.cents(start.get("smallest_chip", 100), "smallest_chip", low=1)
    policy = table_policy(start)
    pre = tuple(pre_deal_fees(policy, FeeContext(seats=seats, button=dealer, pot=0,
                                                 saw_flop=False, smallest_chip=chip)))
    for line in pre:
        if line.from_seat is not None and line.from_seat not in seats:
            raise RuleViolation(f"the fee policy's {line.kind} names no seat at this table",
                                rule="settings")
    return AnteTable(seats=seats, dealer=dealer, ante=ante, smallest_chip=chip, policy=policy,
                     pre_fees=pre)


def fee_lines(table: AnteTable) -> tuple[FeeLine, ...]:
    """The house's fees out of the pot (rake, a collection, a drop), never more than it."""
    return tuple(pot_fees(table.policy, FeeContext(
        seats=table.seats, button=table.dealer, pot=table.pot, saw_flop=True,
        smallest_chip=table.smallest_chip)))


def shares(table: AnteTable, winners: Sequence[int]) -> dict[int, int]:
    """The pot after the fees, split among ``winners`` in the smallest chip, the odd chips one
    at a time from the dealer's left."""
    pot = table.pot - sum(f.amount for f in fee_lines(table))
    return split_pot(pot, list(winners), seats=table.seats, button=table.dealer,
                     smallest_chip=table.smallest_chip)


def settle_pot(table: AnteTable, winners: Sequence[int], *, why: str,
               extra: Mapping[str, Any] | None = None) -> Settlement:
    """The dealer's push: the fees, then each winner's share (chips conserved)."""
    if not winners:
        raise RuleViolation("the hand is not over: nobody has won the pot yet")
    fees = fee_lines(table)
    steps: list[PushStep] = []
    for line in fees:
        steps.append(PushStep(len(steps) + 1, f"Drop {format_cents(line.amount)} {line.kind}",
                              line.amount, None, "fee"))
    paid = shares(table, winners)
    split = len(paid) > 1
    for seat in [s for s in table.order if s in paid]:
        cents = paid[seat]
        text = (f"Push {format_cents(cents)} to seat {seat} ({'a share of ' if split else ''}"
                f"the pot: {why})")
        steps.append(PushStep(len(steps) + 1, text, cents, seat, "push"))
    return Settlement(put_in=table.put_in(), payouts=paid, fees=(*table.pre_fees, *fees),
                      steps=tuple(steps)).require_conserved()


class AnteHand(Protocol):
    """What :class:`AnteGame` reads of a game's state: its table and whether the hand is over."""

    @property
    def table(self) -> AnteTable: ...

    @property
    def over(self) -> bool: ...


H = TypeVar("H", bound=AnteHand)


class AnteGame(Game[H]):
    """An ante game with no betting (Commerce, Paiute): a button under the name ``dealer``, the
    ante under the game's :attr:`ante_key`, the pot to the best hand. A game gives its state for
    a new table (:meth:`new_hand`), who has won and why (:meth:`won`), and its sample
    hands (:meth:`deal_sample`); it keeps every rule and word of its own."""

    start_keys: ClassVar[tuple[str, ...]] = ("button",)
    start_key_names: ClassVar[Mapping[str, str]] = MappingProxyType({"button": "dealer"})
    #: The ante's key in the start and what it is (for the message when it is missing).
    ante_key: ClassVar[str]
    ante_what: ClassVar[str]

    @abstractmethod
    def new_hand(self, table: AnteTable) -> H:
        """The state before any card at ``table``."""

    @abstractmethod
    def won(self, state: H) -> tuple[list[int], str]:
        """The winners of a finished hand (from the dealer's left) and why they win."""

    @abstractmethod
    def deal_sample(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any]) -> list[Event]:
        """A random complete hand, ``params`` (keys the game takes) in its start."""

    def start(self, event: Start) -> H:
        return self.new_hand(read_table(event, ante_key=self.ante_key, what=self.ante_what,
                                        players=self.players, dealer_key=self.key("button")))

    def is_over(self, state: H) -> bool:
        return state.over

    def settle(self, state: H) -> Settlement:
        if not state.over:
            raise RuleViolation("the hand is not over: " + self.prompt(state).message,
                                rule="input")
        winners, why = self.won(state)
        return settle_pot(state.table, winners, why=why)

    def contributions(self, state: H) -> Mapping[int, int]:
        return state.table.put_in()

    def sample_hand(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> list[Event]:
        given = dict(params or {})
        unknown = sorted(set(given) - {self.ante_key, "dealer", "fee", "smallest_chip"})
        if unknown:
            raise ValueError(f"{self.title} sample hands do not take {', '.join(unknown)}")
        return self.deal_sample(rng, players=players, params=given)


def seat_in_hand(table: AnteTable, event: Event) -> int:
    """The seat ``event`` names, refused unless it plays this hand."""
    seat = event.seat_of
    if seat is None or seat not in table.seats:
        raise RuleViolation(f"seat {seat} is not playing this hand", rule="seat")
    return seat


def sample_start(game: Game[Any], rng: random.Random, *, players: int, ante_key: str,
                 params: Mapping[str, Any]) -> Start:
    """A sample hand's start: seats 1 to ``players``, a random dealer, a one-dollar ante;
    ``params`` over these."""
    seats = tuple(range(1, players + 1))
    start_params: dict[str, Any] = {"dealer": rng.choice(seats), ante_key: 100}
    start_params.update(params)
    return Start(game=game.name, seats=seats, params=start_params)

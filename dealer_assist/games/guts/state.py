"""A Guts hand: its settings read from the start, and the state after each event.

The pot in the middle is fixed before the first declaration: the pot carried in from the last
hand, or, when that is empty, everyone's ante (ruling guts-1). It is what the winner takes and
what each player in who loses pays into the next pot (ruling guts-4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine import start as read
from dealer_assist.engine.base import FeeLine
from dealer_assist.engine.evolve import evolver
from dealer_assist.engine.seats import from_left
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.events import Start
from dealer_assist.fees import FeeContext, FeePolicy, pre_deal_fees
from dealer_assist.fees.table import table_policy
from dealer_assist.money import format_cents

IN_TURN, TOGETHER = "in-turn", "together"
DECLARE_MODES = (IN_TURN, TOGETHER)
PAY, BARRED = "pay-what-they-have", "barred"
SHORT_MODES = (PAY, BARRED)
MAX_SEATS = 10
#: The start settings a Guts hand takes (beside the fee and the smallest chip).
SETTINGS = ("button", "ante", "pot_in", "max", "declare", "short", "stacks")

DECLARING, SHOWDOWN, OVER = "declaring", "showdown", "over"


@dataclass(frozen=True, slots=True)
class Table:
    """One hand's settings; amounts in cents. ``order``: who declares, from the dealer's
    left."""

    seats: tuple[int, ...]
    button: int
    ante: int
    pot_in: int
    max: int | None
    declare: str
    short: str
    smallest_chip: int
    stacks: Mapping[int, int]
    order: tuple[int, ...]
    policy: FeePolicy | None = None


@dataclass(frozen=True, slots=True)
class State:
    """The hand so far.

    - ``antes``: what each seat anted (nothing when a pot was carried in);
    - ``behind``: each seat's chips behind after fees before the deal and its ante;
    - ``declared``: seat -> in (True) or out, in the order the dealer recorded them;
    - ``shown``: the cards each player in has shown, in the order shown.
    """

    table: Table
    antes: Mapping[int, int]
    behind: Mapping[int, int]
    pre_fees: tuple[FeeLine, ...] = ()
    declared: Mapping[int, bool] = field(default_factory=lambda: MappingProxyType({}))
    shown: Mapping[int, tuple[Card, ...]] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def pot(self) -> int:
        """The pot in the middle: carried in, or the antes."""
        return self.table.pot_in + sum(self.antes.values())

    @property
    def owed(self) -> int:
        """What a player in who loses pays into the next pot: the pot, or the table's maximum
        when it is set and the pot is larger (ruling guts-4)."""
        cap = self.table.max
        return self.pot if cap is None else min(self.pot, cap)

    @property
    def ins(self) -> tuple[int, ...]:
        """The players in, from the dealer's left."""
        return tuple(s for s in self.table.order if self.declared.get(s) is True)

    @property
    def to_declare(self) -> tuple[int, ...]:
        """The seats still to declare, from the dealer's left."""
        return tuple(s for s in self.table.order if s not in self.declared)

    @property
    def to_show(self) -> tuple[int, ...]:
        return tuple(s for s in self.ins if s not in self.shown)

    @property
    def phase(self) -> str:
        return self.phase_of()

    def phase_of(self, ins: tuple[int, ...] | None = None) -> str:
        """:attr:`phase`; ``ins``: the players in (:attr:`ins`), when the caller has them (every
        input and the settlement ask, so it is worked out without building the seats still to
        declare or to show)."""
        declared = self.declared
        for s in self.table.order:
            if s not in declared:
                return DECLARING
        if ins is None:
            ins = self.ins
        if len(ins) >= 2:
            shown = self.shown
            for s in ins:
                if s not in shown:
                    return SHOWDOWN
        return OVER

    def barred(self, seat: int) -> bool:
        """At a table where a player who cannot cover the pot may not declare in (ruling
        guts-5): whether ``seat`` is barred now."""
        return self.table.short == BARRED and self.behind[seat] < self.owed

    def known(self) -> frozenset[Card]:
        return frozenset(c for cards in self.shown.values() for c in cards)


def _choice(start: Start, key: str, options: tuple[str, ...]) -> str:
    value = start.get(key, options[0])
    if value not in options:
        raise BadInput(f'"{key}" must be one of {", ".join(options)}, not {value!r}')
    return str(value)


def read_table(start: Start, button_key: str = "button", pot_key: str = "pot_in") -> Table:
    """The settings, each refusal naming the key and what it allows."""
    read.only(start, SETTINGS)
    seats = read.seats_between(start, low=2, high=MAX_SEATS)
    button = read.button(start, seats, button_key)
    if start.get("ante") is None:
        raise RuleViolation('the start needs "ante": what each player antes when the pot is '
                            "empty, in cents")
    ante = read.cents(start.get("ante"), "ante", low=1)
    pot_in = read.cents(start.get(pot_key, 0), pot_key)
    raw_max = start.get("max")
    cap = None if raw_max is None else read.cents(raw_max, "max", low=1)
    chip = read.cents(start.get("smallest_chip", 100), "smallest_chip", low=1)
    stacks = read.stacks(start, seats)
    order = from_left(seats, button)
    return Table(
        seats=seats, button=button, ante=ante, pot_in=pot_in, max=cap,
        declare=_choice(start, "declare", DECLARE_MODES),
        short=_choice(start, "short", SHORT_MODES), smallest_chip=chip,
        stacks=MappingProxyType(stacks), order=order, policy=table_policy(start),
    )


def start_state(start: Start, pot_key: str = "pot_in") -> State:
    """Fees before the deal, then the antes when the pot is empty (ruling guts-1)."""
    t = read_table(start, pot_key=pot_key)
    behind = dict(t.stacks)
    pre = tuple(pre_deal_fees(t.policy, FeeContext(
        seats=t.seats, button=t.button, pot=0, saw_flop=False, smallest_chip=t.smallest_chip)))
    for line in pre:
        if line.from_seat is None or line.from_seat not in behind:
            raise RuleViolation(f"the fee policy's {line.kind} names no seat at this table")
        if behind[line.from_seat] <= line.amount:
            raise RuleViolation(
                f"seat {line.from_seat} has {format_cents(behind[line.from_seat])}: not enough "
                f"to pay the {line.kind} of {format_cents(line.amount)} and play")
        behind[line.from_seat] -= line.amount
    antes: dict[int, int] = {}
    if t.pot_in == 0:  # ruling guts-1: a player short of the ante antes what they have
        for s in t.seats:
            antes[s] = min(t.ante, behind[s])
            behind[s] -= antes[s]
    return State(table=t, antes=MappingProxyType(antes), behind=MappingProxyType(behind),
                 pre_fees=pre)


def as_json(mapping: Mapping[int, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in mapping.items()}


#: ``dataclasses.replace`` for :class:`State`, without re-running its constructor (a replay
#: makes a state per event).
evolve = evolver(State)

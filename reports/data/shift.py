"""The shift report's record: a table's shift, start to close, with every total derived from its
lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from dealer_assist.reports.data.counts import DropCount
from dealer_assist.reports.data.lines import (
    AdjustmentLine,
    DisputeLine,
    FundBalance,
    HandLine,
    RevealLine,
    StackChange,
    VoidLine,
    fees_by_kind,
    fees_per_hour,
    fund_balance,
)
from dealer_assist.reports.data.records import (
    ChainCheck,
    ExceptionLine,
    FeeSchedule,
    FeeTotal,
    Generated,
    Record,
    Signature,
    TimeCollection,
)
from dealer_assist.services.floorboard.stats import FloorFigures


@dataclass(frozen=True, slots=True)
class ShiftReport(Record):
    """A table's shift, start to close: who ran it, every hand, and where every cent went."""

    cardroom: str
    table: str
    game: str
    shift_id: int
    opened_at: datetime
    closed_at: datetime | None
    dealers: tuple[str, ...]
    floor: tuple[str, ...]
    hands: tuple[HandLine, ...]
    chain: ChainCheck
    generated: Generated
    signatures: tuple[Signature, ...]
    voids: tuple[VoidLine, ...] = ()
    disputes: tuple[DisputeLine, ...] = ()
    reveals: tuple[RevealLine, ...] = ()
    exceptions: tuple[ExceptionLine, ...] = ()
    ledger_fees: tuple[FeeTotal, ...] = ()
    time: tuple[TimeCollection, ...] = ()
    #: Every stack, carry-in or new-game change a hand of the shift started with.
    stack_changes: tuple[StackChange, ...] = ()
    #: The jackpot and promotional funds over the shift (``reports.funds.DropFund``).
    drop_funds: tuple[Any, ...] = ()
    #: The fee schedule in force when the shift opened, then every change during it.
    schedules: tuple[FeeSchedule, ...] = ()
    count: DropCount | None = None
    #: The room's gaming day and named shift the shift opened in ("" when the room names none).
    gaming_day: date | None = None
    room_shift: str = ""
    #: The floor board's figures for the shift's table (reports/floor_section.py).
    floor_board: FloorFigures | None = None
    #: The dealer box's section (``reports.dealer_hours.DealerSection``; None: no downs kept).
    dealer_box: Any = None

    @property
    def day(self) -> date:
        return self.opened_at.date()

    @property
    def hands_dealt(self) -> int:
        return len(self.hands)

    @property
    def put_in(self) -> int:
        return sum(h.put_in for h in self.hands)

    @property
    def pushed(self) -> int:
        return sum(h.pushed for h in self.hands)

    @property
    def carried_in(self) -> int:
        return sum(h.carry_in for h in self.hands)

    @property
    def carried_out(self) -> int:
        return sum(h.carry_out for h in self.hands)

    @property
    def fees_by_kind(self) -> tuple[FeeTotal, ...]:
        """Hand fees by kind, with the time collected from seats as kind ``time``."""
        time = [FeeTotal("time", c.amount, 1) for c in self.time]
        return fees_by_kind([*(f for h in self.hands for f in h.fees), *time])

    @property
    def time_total(self) -> int:
        """Time collected from seats, net of what voided marks gave back (not from pots:
        outside the hands' balance check)."""
        return sum(c.amount for c in self.time)

    @property
    def time_given_back(self) -> int:
        """Time given back to seats when a mark was voided (a positive number of cents)."""
        return -sum(c.amount for c in self.time if c.amount < 0)

    @property
    def house_fees(self) -> int:
        return sum(h.house_fee for h in self.hands)

    @property
    def jackpot_drop(self) -> int:
        return sum(h.fund_drop for h in self.hands)

    @property
    def fees_total(self) -> int:
        return sum(h.fee for h in self.hands)

    @property
    def conserved(self) -> bool:
        return self.put_in + self.carried_in == self.pushed + self.carried_out + self.fees_total

    @property
    def fund(self) -> FundBalance | None:
        return fund_balance(self.table, self.shift_id, self.hands)

    @property
    def adjustments(self) -> tuple[AdjustmentLine, ...]:
        return tuple(AdjustmentLine(self.table, d.hand_number, d.dispute_id, seat, amount, note)
                     for d in self.disputes for seat, amount, note in d.adjustments)

    @property
    def house_adjustments(self) -> int:
        """What dispute rulings moved to (+) or from (-) the house."""
        return sum(a.amount for a in self.adjustments if a.seat is None)

    @property
    def house_net(self) -> int:
        """Every house fee (the hands' fees and rake and the time collected from seats), with
        the dispute adjustments the house paid or received. Jackpot and promotional drops are
        the funds', never the house's."""
        return self.house_fees + self.time_total + self.house_adjustments

    def fees_per_hour(self) -> tuple[tuple[datetime, int], ...]:
        """Fees and drops collected in each clock hour of the shift (by hand end time), and
        time collections by the time they were collected."""
        return fees_per_hour(self.hands, self.opened_at, self.closed_at,
                             [(c.at, c.amount) for c in self.time])


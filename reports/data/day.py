"""The day summary's records: every table's gaming day and the room's totals."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

from dealer_assist.reports.data.counts import DropCount
from dealer_assist.reports.data.lines import AdjustmentLine, FundBalance
from dealer_assist.reports.data.records import (
    ChainCheck,
    ExceptionLine,
    FeeSchedule,
    FeeTotal,
    Generated,
    Record,
    Signature,
)
from dealer_assist.services.floorboard.stats import FloorFigures


@dataclass(frozen=True, slots=True)
class TableDay(Record):
    """One table's day: its shifts' totals, for the cardroom's day summary."""

    table: str
    game: str
    shifts: int
    hands: int
    put_in: int
    carried_in: int
    pushed: int
    carried_out: int
    house_fees: int
    jackpot_drop: int
    voids: int = 0
    disputes: int = 0
    reveals: int = 0
    #: Time collected from seats (outside the hands, so outside their balance check).
    time_fees: int = 0

    @property
    def fees_total(self) -> int:
        return self.house_fees + self.jackpot_drop

    @property
    def conserved(self) -> bool:
        return self.put_in + self.carried_in == self.pushed + self.carried_out + self.fees_total


@dataclass(frozen=True, slots=True)
class ImportedHand(Record):
    """A hand imported into a table that day (training, a dispute): listed on its own, never
    in the day's totals, fees or counts (its money was never on the room's tables)."""

    table: str
    number: int
    game: str
    imported_by: str
    at: datetime
    status: str
    #: What its log put in and carried in, and the fee its log settles (cents).
    money_in: int
    fees: int


@dataclass(frozen=True, slots=True)
class DayReport(Record):
    """The room's gaming day: from the room's day-start hour, local time, to the next one.
    ``period`` is that span in UTC; ``room_shifts`` the hands and fees by named room shift."""

    cardroom: str
    day: date
    tables: tuple[TableDay, ...]
    fees: tuple[FeeTotal, ...]
    chains: tuple[ChainCheck, ...]
    generated: Generated
    signatures: tuple[Signature, ...]
    exceptions: tuple[ExceptionLine, ...] = ()
    shift_lines: tuple[tuple[str, int, datetime, datetime | None, str, int, int], ...] = field(
        default_factory=tuple
    )
    #: Each table's fee schedule in force when the day began, then every change during it.
    schedules: tuple[FeeSchedule, ...] = ()
    counts: tuple[DropCount, ...] = ()
    period: tuple[datetime, datetime] | None = None
    clock: str = ""
    #: (room shift name, hands ended in it, house fees and drops, time collected)
    room_shifts: tuple[tuple[str, int, int, int], ...] = ()
    #: Hands imported that day: never in the totals above.
    imported: tuple[ImportedHand, ...] = ()
    #: Every carried fund by table and by shift (shift None: the table's day).
    funds: tuple[FundBalance, ...] = ()
    #: Every dispute adjustment of the day's hands.
    adjustments: tuple[AdjustmentLine, ...] = ()
    #: The floor board's figures for the day (reports/floor_section.py).
    floor_board: FloorFigures | None = None
    #: The dealer box's section (``reports.dealer_hours.DealerSection``; None: no downs kept).
    dealer_box: Any = None

    @property
    def house_adjustments(self) -> int:
        return sum(a.amount for a in self.adjustments if a.seat is None)

    @property
    def house_net(self) -> int:
        """Every house fee of the day (hands' fees and rake, time collected from seats) with
        the dispute adjustments to or from the house."""
        return self.total("house_fees") + self.total("time_fees") + self.house_adjustments

    def total(self, name: str) -> int:
        """Sum of one numeric column of :class:`TableDay` across the room."""
        return sum(int(getattr(t, name)) for t in self.tables)


"""A table's drop count as the reports show it: the counts entered, their sign-offs, the drop
boxes and the variance against the hands' fees.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from dealer_assist.reports.data.records import FeeTotal, Record


@dataclass(frozen=True, slots=True)
class CountLine(Record):
    """One count entry of a shift's drop box: what the count team counted, by denomination when
    entered, who entered it and when; a correction names the entry it replaces and why."""

    number: int
    at: datetime
    by: str
    box: str
    counted: int
    team: tuple[str, ...]
    denominations: tuple[tuple[int, int], ...] = ()
    corrects: int | None = None
    reason: str = ""
    #: When the count began and ended, and how many boxes the team counted in that session.
    started: datetime | None = None
    ended: datetime | None = None
    boxes: int = 0
    #: The second floor approval that let a team member who approved the shift's voids,
    #: misdeals or disputes sign its count ("": none needed).
    independence: str = ""


@dataclass(frozen=True, slots=True)
class CountSignoff(Record):
    """A variance explained and signed off by a second person (not the one who entered the
    count): its audit entry, when, who, and the explanation; a later sign-off of the same count
    names the one it follows and why it was needed."""

    number: int
    at: datetime
    by: str
    explanation: str
    #: The count entry signed off.
    entry: int = 0
    follows: int | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class DropRecord(Record):
    """A drop box's registration to its table and its drop (removal): when and by whom."""

    box: str
    registered_at: datetime | None = None
    registered_by: str = ""
    dropped_at: datetime | None = None
    dropped_by: str = ""


@dataclass(frozen=True, slots=True)
class DropCount(Record):
    """A table's shift drop: what the records say the box should hold, by fee kind, beside
    the count in force (the latest entry) and every entry before it."""

    table: str
    shift_id: int
    expected: tuple[FeeTotal, ...]
    entries: tuple[CountLine, ...] = ()
    #: Every sign-off of the shift's count entries, in the order entered (none is replaced).
    signoffs: tuple[CountSignoff, ...] = ()
    #: The box's registration and drop (None: none recorded).
    drop: DropRecord | None = None

    @property
    def signoff(self) -> CountSignoff | None:
        """The latest sign-off of the count in force (None: its variance is not signed off)."""
        c = self.in_force
        mine = [so for so in self.signoffs if c is not None and so.entry == c.number]
        return mine[-1] if mine else None

    @property
    def expected_total(self) -> int:
        return sum(f.amount for f in self.expected)

    @property
    def in_force(self) -> CountLine | None:
        return self.entries[-1] if self.entries else None

    @property
    def variance(self) -> int | None:
        """Counted less expected (None: not counted yet)."""
        c = self.in_force
        return None if c is None else c.counted - self.expected_total


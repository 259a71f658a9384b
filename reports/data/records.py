"""The base of every report record and the small records all reports share: the chain check,
signatures, when and by whom a report was made, fee totals, fee schedules and exception lines.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from datetime import datetime
from functools import cache

#: Fee kinds that go to a separate fund (jackpot, promotion) rather than to the house.
FUND_KINDS = frozenset({"jackpot", "promo", "promotion", "jackpot_drop", "promo_drop"})


class Record:
    """Base of the report records: pickled as the class and its field values, which is several
    times cheaper than the default for frozen slotted dataclasses (a large shift's lines travel
    back from the processes that replay its hands)."""

    __slots__ = ()

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:
        cls = type(self)
        names = _FIELDS.get(cls)
        if names is None:
            names = _FIELDS[cls] = tuple(f.name for f in fields(self))  # type: ignore[arg-type]
        return cls, tuple([getattr(self, name) for name in names])


#: Each record class's field names, in order (what ``__reduce__`` hands back to the class).
_FIELDS: dict[type, tuple[str, ...]] = {}


def table_label(name: str) -> str:
    """``T1`` -> ``Table T1``; a table already named ``Table 2`` keeps its name."""
    return name if name.lower().startswith("table") else f"Table {name}"


@cache
def is_fund_kind(kind: str) -> bool:
    """A jackpot or promotional drop is kept in its own fund and reported apart from the rake."""
    k = kind.lower()
    return k in FUND_KINDS or k.startswith(("jackpot", "promo"))


@dataclass(frozen=True, slots=True)
class ChainCheck(Record):
    """The tamper-evident chain a report was built from: its head and whether it verified."""

    table: str
    last_seq: int
    head_hash: str
    verified: bool
    message: str = ""


@dataclass(frozen=True, slots=True)
class Signature(Record):
    """A signature line: the role signing and the person's full name printed under the line."""

    role: str
    name: str


@dataclass(frozen=True, slots=True)
class Generated(Record):
    """When and by whom the report was produced (printed on every page). ``serial`` is the
    number of the audit log entry that records this report's generation (0: not logged)."""

    at: datetime
    by: str
    serial: int = 0
    #: The room's time zone: every time in the report is printed in it, with the zone named.
    zone: str = "UTC"
    #: The signed checkpoint the report was built under and the room key's fingerprint
    #: (None: none signed).
    checkpoint: int | None = None
    key: str = ""
    #: Why no checkpoint was signed ("no checkpoint signed: ..."), printed on every page.
    unsigned: str = ""
    #: The room's paper ("A4" or "Letter").
    paper: str = "A4"


@dataclass(frozen=True, slots=True)
class FeeTotal(Record):
    """Collections of one kind; ``base`` is what those taken from a pot were worked out on
    (the called chips a rake was taken from), 0 for fees not taken from a pot."""

    kind: str
    amount: int
    count: int = 0
    base: int = 0

    @property
    def fund(self) -> bool:
        return is_fund_kind(self.kind)


@dataclass(frozen=True, slots=True)
class TimeCollection(Record):
    """One time collection from a seat, derived by folding the table's seat and period events."""

    at: datetime
    seat: int
    amount: int
    period: int


@dataclass(frozen=True, slots=True)
class FeeSchedule(Record):
    """A table's fee schedule as one settings version set it: in force from ``at``, set by
    ``by`` (the person whose sign-in made the change), the fee in words with its cap, and the
    jurisdiction preset that checked it."""

    table: str
    version: int
    at: datetime
    by: str
    fee: str
    preset: str = ""


@dataclass(frozen=True, slots=True)
class ExceptionLine(Record):
    """Anything out of the ordinary a reviewer must look at (unsettled hand, ledger mismatch...)."""

    hand_number: int | None
    text: str
    severity: str = "note"


"""The plain report-data objects: what a report says, before any page layout.

Builders fill these from the store (read-only) and the renderer lays them out; neither knows the
other. Money is int cents, times are ``datetime`` and cards are their ASCII codes (``"Td"``):
formatting happens only in the renderer. Totals that can be derived from the lines are derived
here, so a report can never print a total its own lines contradict.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from datetime import date, datetime, timedelta
from functools import cache
from typing import Any

from dealer_assist.services.floorboard.stats import FloorFigures

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


@dataclass(frozen=True, slots=True)
class HandLine(Record):
    """One hand in a shift: the line a regulator reads to follow the money hand by hand.

    ``put_in`` is every cent the players put in; ``carry_in``/``carry_out`` come from and go to
    the neighbouring hands; ``pushed`` is paid to players; ``fees`` go to the house or a fund.
    """

    hand_id: int
    number: int
    started_at: datetime
    ended_at: datetime | None
    seats: tuple[int, ...]
    put_in: int
    carry_in: int
    pushed: int
    carry_out: int
    fees: tuple[FeeTotal, ...] = ()
    winners: tuple[tuple[int, int], ...] = ()
    status: str = "settled"
    voids: int = 0
    disputed: bool = False
    revealed: bool = False
    #: Called off as a misdeal: every chip went back to the seat that put it in (no winners).
    misdeal: bool = False

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def pot(self) -> int:
        """Everything on the table this hand: what the players put in plus the carry-in."""
        return self.put_in + self.carry_in

    @property
    def house_fee(self) -> int:
        return sum(f.amount for f in self.fees if not f.fund)

    @property
    def fund_drop(self) -> int:
        return sum(f.amount for f in self.fees if f.fund)

    @property
    def fee(self) -> int:
        return sum(f.amount for f in self.fees)

    @property
    def raked_from(self) -> int:
        """The pot a rake or collection was taken from (the chips called; 0: none taken)."""
        return max((f.base for f in self.fees), default=0)

    @property
    def conserved(self) -> bool:
        return self.pot == self.pushed + self.carry_out + self.fee


@dataclass(frozen=True, slots=True)
class VoidLine(Record):
    """A correction: an event voided, why, by whom and (after the hand) who approved it.

    A voided seat or period mark has no hand (``hand_number`` None); ``what`` names the mark
    and the money its void moved ("mark 4, period 2; gave back $10")."""

    hand_number: int | None
    at: datetime
    actor: str
    target: int
    reason: str
    approved_by: str = ""
    what: str = ""


@dataclass(frozen=True, slots=True)
class StackChange(Record):
    """What a hand started with other than what the last hand left it, from the ``stacks``
    audit entry: a rebuy (the dealer's), or chips taken off while a pot carries, a carry-in
    changed or a new game, which a floor person approved (``approved_by``)."""

    hand_number: int
    at: datetime
    by: str
    changes: str
    approved_by: str = ""


@dataclass(frozen=True, slots=True)
class RevealLine(Record):
    """A reveal of hidden cards: who, when, the reason they gave, and after which event of
    the hand (0: not known)."""

    hand_number: int
    at: datetime
    by: str
    reason: str = ""
    after_event: int = 0


@dataclass(frozen=True, slots=True)
class DisputeNote(Record):
    at: datetime
    by: str
    text: str


@dataclass(frozen=True, slots=True)
class DisputeLine(Record):
    """A dispute on a hand: its notes, the ruling, who ruled and the money it moved."""

    dispute_id: int
    hand_number: int
    opened_at: datetime
    opened_by: str
    notes: tuple[DisputeNote, ...] = ()
    ruling: str = ""
    ruled_by: str = ""
    ruled_at: datetime | None = None
    adjustments: tuple[tuple[int | None, int, str], ...] = ()

    @property
    def status(self) -> str:
        return "ruled" if self.ruling else "open"


@dataclass(frozen=True, slots=True)
class ExceptionLine(Record):
    """Anything out of the ordinary a reviewer must look at (unsettled hand, ledger mismatch...)."""

    hand_number: int | None
    text: str
    severity: str = "note"


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


@dataclass(frozen=True, slots=True)
class FundMove(Record):
    """A hand's movement of the fund that carries between hands (a bonus pool, a carried pot):
    the balance carried in, the change, and the balance it carried out."""

    hand_number: int
    at: datetime
    before: int
    after: int

    @property
    def change(self) -> int:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class FundBalance(Record):
    """A carried fund over a span of hands (a table's shift or day): opening balance (carried
    into the first hand), what the hands paid in and out of it, closing balance (carried out of
    the last hand). ``moves`` are the hands that touched it."""

    table: str
    shift_id: int | None
    opening: int
    closing: int
    moves: tuple[FundMove, ...] = ()

    @property
    def paid_in(self) -> int:
        return sum(m.change for m in self.moves if m.change > 0)

    @property
    def paid_out(self) -> int:
        return -sum(m.change for m in self.moves if m.change < 0)

    @property
    def continuous(self) -> bool:
        """Each hand carried in what the one before carried out (else the balance jumps)."""
        return self.opening + self.paid_in - self.paid_out == self.closing


def fund_balance(table: str, shift_id: int | None, hands: Iterable[HandLine]
                 ) -> FundBalance | None:
    """The carried fund over ``hands`` (None when no hand carried anything)."""
    done = [h for h in hands if h.status != "unfinished"]
    if not done or not any(h.carry_in or h.carry_out for h in done):
        return None
    moves = tuple(FundMove(h.number, h.ended_at or h.started_at, h.carry_in, h.carry_out)
                  for h in done if h.carry_in or h.carry_out)
    return FundBalance(table, shift_id, done[0].carry_in, done[-1].carry_out, moves)


@dataclass(frozen=True, slots=True)
class AdjustmentLine(Record):
    """Money a dispute ruling moved outside a hand's settlement: to a seat (``seat``) or
    from/to the house (``seat`` None); positive is paid to that side."""

    table: str
    hand_number: int
    dispute_id: int
    seat: int | None
    amount: int
    note: str = ""


def fees_by_kind(lines: Iterable[FeeTotal]) -> tuple[FeeTotal, ...]:
    """Sum fee lines by kind (house kinds first, then funds, each alphabetical)."""
    amounts: dict[str, int] = {}
    counts: dict[str, int] = {}
    bases: dict[str, int] = {}
    for f in lines:
        amounts[f.kind] = amounts.get(f.kind, 0) + f.amount
        counts[f.kind] = counts.get(f.kind, 0) + max(f.count, 1)
        bases[f.kind] = bases.get(f.kind, 0) + f.base
    order = sorted(amounts, key=lambda k: (is_fund_kind(k), k))
    return tuple(FeeTotal(k, amounts[k], counts[k], bases[k]) for k in order)


def fees_per_hour(
    hands: tuple[HandLine, ...], start: datetime, end: datetime | None,
    extra: Iterable[tuple[datetime, int]] = (),
) -> tuple[tuple[datetime, int], ...]:
    """Every clock hour from the shift's start to its end (or last hand), with its fees;
    ``extra`` adds collections outside hands (time collections) at their times."""
    more = list(extra)
    if not hands and not more and end is None:
        return ()
    first = start.replace(minute=0, second=0, microsecond=0)
    times = [h.ended_at or h.started_at for h in hands]
    last_time = max([*times, *(t for t, _ in more), *([end] if end else []), start])
    buckets: dict[datetime, int] = {}
    t = first
    while t <= last_time:
        buckets[t] = 0
        t += timedelta(hours=1)
    for h, when in zip(hands, times, strict=True):
        key = when.replace(minute=0, second=0, microsecond=0)
        buckets[key] = buckets.get(key, 0) + h.fee
    for when, amount in more:
        key = when.replace(minute=0, second=0, microsecond=0)
        buckets[key] = buckets.get(key, 0) + amount
    return tuple(sorted(buckets.items()))


@dataclass(frozen=True, slots=True)
class EventLine(Record):
    """One stored event of a hand as the history prints it."""

    n: int
    seq: int
    at: datetime
    actor: str
    kind: str
    text: str
    voided: bool = False
    hidden: bool = False


@dataclass(frozen=True, slots=True)
class SeatLine(Record):
    """A seat in a snapshot. ``face_down`` cards are unknown to the app at that point (not yet
    shown); ``withheld`` cards are known but kept out of the report (a turned-down hand)."""

    seat: int
    cards: tuple[str, ...]
    face_down: int = 0
    status: str = ""
    detail: str = ""
    put_in: int = 0
    revealed: bool = False
    withheld: int = 0


@dataclass(frozen=True, slots=True)
class Snapshot(Record):
    """The table after a key step of the hand (a phase change, or the end)."""

    after_event: int
    label: str
    seats: tuple[SeatLine, ...]
    board: tuple[str, ...] = ()
    pots: tuple[tuple[str, int], ...] = ()
    info: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SettlementData(Record):
    """A hand's settlement as the engine re-derives it by replay."""

    put_in: Mapping[int, int]
    payouts: Mapping[int, int]
    carry_in: int
    carry_out: int
    #: (kind, amount, paying seat or None, how it was worked out: "5% of $178.25, capped...")
    fees: tuple[tuple[str, int, int | None, str], ...]
    steps: tuple[tuple[int, str, int], ...]

    @property
    def total_in(self) -> int:
        return sum(self.put_in.values()) + self.carry_in

    @property
    def total_out(self) -> int:
        return sum(self.payouts.values()) + self.carry_out + sum(f[1] for f in self.fees)

    @property
    def conserved(self) -> bool:
        return self.total_in == self.total_out


@dataclass(frozen=True, slots=True)
class LedgerEntry(Record):
    kind: str
    amount: int
    seat: int | None
    note: str = ""


@dataclass(frozen=True, slots=True)
class HandReport(Record):
    """Hand history (and, with disputes, the dispute report) of one hand.

    ``revealed`` is set only when a floor member authorised showing destroyed or folded hands;
    then those cards appear and are marked as revealed. Otherwise they are withheld.
    """

    cardroom: str
    table: str
    game: str
    hand_id: int
    number: int
    shift_id: int | None
    started_at: datetime
    ended_at: datetime | None
    dealer: str
    events: tuple[EventLine, ...]
    snapshots: tuple[Snapshot, ...]
    settlement: SettlementData | None
    ledger: tuple[LedgerEntry, ...]
    disputes: tuple[DisputeLine, ...]
    chain: ChainCheck
    generated: Generated
    signatures: tuple[Signature, ...]
    revealed: RevealLine | None = None
    exceptions: tuple[ExceptionLine, ...] = ()

    @property
    def is_dispute_report(self) -> bool:
        return bool(self.disputes) or self.revealed is not None

    @property
    def title(self) -> str:
        return "Dispute report" if self.is_dispute_report else "Hand history"


@dataclass(frozen=True, slots=True)
class AuditLine(Record):
    """One sensitive action: a login, lockout, reveal, void, export or report. ``number`` is
    its entry number in the audit log's chain (a report's serial is such a number)."""

    at: datetime
    user: str
    role: str
    action: str
    target: str
    detail: str = ""
    number: int = 0


@dataclass(frozen=True, slots=True)
class AuditReport(Record):
    cardroom: str
    period_from: datetime
    period_to: datetime
    entries: tuple[AuditLine, ...]
    chains: tuple[ChainCheck, ...]
    generated: Generated
    signatures: tuple[Signature, ...]
    #: The audit log's own chain (all of it, not only the period), walked for this report.
    audit_chain: ChainCheck | None = None
    #: The entries that record rows (``record-*``) in the period, by kind: (kind, how many,
    #: their entry numbers as ranges "812-815, 820").
    records: tuple[tuple[str, int, str], ...] = ()
    #: Entry numbers in the period neither printed nor counted ("" when none is missing).
    gaps: str = ""
    #: The jackpot and promotional funds over the period (``reports.funds.DropFund``), and
    #: the exceptions of their carry from the report that closed them before.
    drop_funds: tuple[Any, ...] = ()
    exceptions: tuple[ExceptionLine, ...] = ()
    #: The floor board's records in the period, by kind (reports/floor_section.py).
    floor_board: FloorFigures | None = None

    def counts(self) -> tuple[tuple[str, int], ...]:
        out: dict[str, int] = {}
        for e in self.entries:
            out[e.action] = out.get(e.action, 0) + 1
        return tuple(sorted(out.items()))


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

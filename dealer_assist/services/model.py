"""Plain records the services and the store exchange. Frozen; money in int cents; times UTC."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

#: The room's name until it is given one.
DEFAULT_CARDROOM = "Cardroom"

#: Roles, from least to most administrative. A role grants exactly what :data:`PERMISSIONS` says.
ROLES = ("dealer", "floor", "auditor", "admin")

#: What each role may do. ``deal``: shifts, hands, events; ``approve``: floor sign-off (voids in
#: finished hands, closing a shift, dispute adjustments); ``reveal``: see a destroyed hand's cards;
#: ``review``: hand lists, replays and exports; ``audit``: read the audit log; ``configure``:
#: tables and table settings; ``users``: add users and reset PINs.
PERMISSIONS: Mapping[str, frozenset[str]] = {
    "deal": frozenset({"dealer", "floor"}),
    "approve": frozenset({"floor"}),
    "reveal": frozenset({"floor"}),
    "dispute": frozenset({"floor"}),
    "review": frozenset({"floor", "auditor", "admin"}),
    "audit": frozenset({"floor", "auditor", "admin"}),
    "configure": frozenset({"floor", "admin"}),
    "users": frozenset({"admin"}),
}

#: Hand status: ``open`` while events are being recorded, ``settled`` once its ledger is written.
HAND_STATUSES = ("open", "settled")


@dataclass(frozen=True, slots=True)
class User:
    id: int
    name: str
    full_name: str
    role: str
    active: bool = True


@dataclass(frozen=True, slots=True)
class Approver(User):
    """A floor person who just approved something, and the id of the ``approval`` audit entry
    that says so: the approved change carries it (``approval_id``, schema 0016)."""

    entry: int = 0


@dataclass(frozen=True, slots=True)
class UserSecret:
    """What sign-in needs and nothing else shows: the PIN hash and the lockout state."""

    user: User
    pin_hash: str
    failed: int = 0
    locked_until: datetime | None = None


@dataclass(frozen=True, slots=True)
class Session:
    """A signed-in user. Every service call that changes something takes one."""

    user: User
    signed_in_at: datetime
    #: What the database gave for the right PIN (PostgreSQL): the proof, in the same
    #: transaction as a change of users, that this user signed in. Empty elsewhere.
    token: str = field(default="", repr=False, compare=False)

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def role(self) -> str:
        return self.user.role


@dataclass(frozen=True, slots=True)
class Table:
    id: int
    name: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SettingsVersion:
    """One version of a table's settings. ``document`` is the table-settings document
    (docs/table-settings.md: game, seats, smallest_chip, params, fee, ...) as JSON."""

    id: int
    table_id: int
    version: int
    game: str
    document: Mapping[str, Any]
    created_at: datetime
    created_by: str


@dataclass(frozen=True, slots=True)
class Shift:
    id: int
    table_id: int
    dealer: str
    floor: str
    opened_at: datetime
    closed_at: datetime | None = None
    closed_by: str | None = None
    closed_floor: str | None = None

    @property
    def open(self) -> bool:
        return self.closed_at is None


@dataclass(frozen=True, slots=True)
class Hand:
    """A hand at a table. ``number`` counts hands per table from 1; ``settings_id`` is the
    settings version it ran under (``None`` for an imported hand: its start event says it all)."""

    id: int
    table_id: int
    shift_id: int
    number: int
    game: str
    seats: tuple[int, ...]
    started_at: datetime
    started_by: str
    settings_id: int | None
    status: str = "open"
    events: int = 0
    disputed: bool = False

    @property
    def imported(self) -> bool:
        """Loaded from a hand log (``dealer-assist import``), not dealt at the table."""
        return self.settings_id is None


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One row of the append-only event table.

    ``seq`` numbers the table's events from 1; ``number`` numbers the hand's events from 1 (a
    :class:`~dealer_assist.events.Void` names this number); ``hash`` chains to ``prev_hash``.
    A table-level event (seat_in, seat_out, period) has ``hand_id`` None and ``number``
    counting the table's table-level events from 1. ``fault``: why the stored body cannot be
    read (out of bounds, not JSON; :mod:`dealer_assist.engine.bodies`), its ``body`` then
    empty: the record's fault, which verify names and every screen and report passes by.
    """

    table_id: int
    seq: int
    hand_id: int | None
    number: int
    time: datetime
    actor: str
    body: Mapping[str, Any]
    prev_hash: str
    hash: str
    fault: str = ""

    def where(self) -> str:
        """The record in words: "event 5 (seq 682)" of its hand, or a table-level one."""
        if self.hand_id is None:
            return f"seat/period event {self.number} (seq {self.seq})"
        return f"event {self.number} (seq {self.seq})"

    def to_line_json(self) -> dict[str, Any]:
        """The hand-log line: the event plus its meta keys (seq, time, actor, hash)."""
        out: dict[str, Any] = dict(self.body)
        out.update(
            seq=self.seq, time=self.time.isoformat(timespec="microseconds"),
            actor=self.actor, hash=self.hash,
        )
        return out


@dataclass(frozen=True, slots=True)
class TableNow:
    """A table as the floor's live view reads it: its open shift, its last hand dealt at the
    table and that hand's events after the number the reader already holds."""

    table: Table
    shift: Shift | None = None
    hand: Hand | None = None
    events: tuple[StoredEvent, ...] = ()


@dataclass(frozen=True, slots=True)
class LedgerLine:
    """A money line derived from a settlement. ``kind``: put_in, push, fee, carry_in, carry_out;
    ``detail`` is the fee's kind for fees; ``seat`` is None for the house, the pool or a carry.

    A time collection is a table's line, not a hand's: ``hand_id`` None, kind ``fee``, detail
    ``time``, from ``seat``, for ``period``, collected by the table-level event ``seq`` at
    ``at`` (:meth:`time_line`)."""

    hand_id: int | None
    kind: str
    amount: int
    seat: int | None = None
    detail: str = ""
    settlement: int = 1
    table_id: int | None = None
    period: int | None = None
    seq: int | None = None
    at: datetime | None = None

    @classmethod
    def time_line(
        cls, *, table_id: int, seat: int, amount: int, period: int, seq: int, at: datetime
    ) -> LedgerLine:
        return cls(
            hand_id=None, kind="fee", amount=amount, seat=seat, detail="time", settlement=0,
            table_id=table_id, period=period, seq=seq, at=at,
        )

    def time_key(self) -> tuple[int, int, int, int]:
        """What verify compares for a time collection: (event seq, seat, period, amount)."""
        return (self.seq or 0, -1 if self.seat is None else self.seat, self.period or 0,
                self.amount)

    def key(self) -> tuple[str, str, int, int]:
        return (self.kind, self.detail, -1 if self.seat is None else self.seat, self.amount)


@dataclass(frozen=True, slots=True)
class Adjustment:
    """A correcting money move in a dispute ruling; ``seat`` None is the house. A ruling's
    adjustments balance: they sum to zero."""

    amount: int
    seat: int | None = None
    note: str = ""


@dataclass(frozen=True, slots=True)
class Dispute:
    id: int
    hand_id: int
    notes: str
    ruling: str
    floor: str
    at: datetime
    adjustments: tuple[Adjustment, ...] = ()


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One sensitive action: sign-ins, lockouts, reveals, voids, exports, reports, user changes.

    ``seq`` is its place in the audit log's hash chain, ``prev_hash`` and ``hash`` link it
    (:mod:`dealer_assist.services.audit_chain`)."""

    id: int
    at: datetime
    actor: str | None
    action: str
    detail: str = ""
    table_id: int | None = None
    hand_id: int | None = None
    seq: int = 0
    prev_hash: str = ""
    hash: str = ""


@dataclass(frozen=True, slots=True)
class HandFilter:
    """Filters for :meth:`Services.list_hands`; ``None`` means any. Newest first."""

    table_id: int | None = None
    shift_id: int | None = None
    game: str | None = None
    dealer: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    disputed: bool | None = None
    status: str | None = None
    limit: int | None = 500


@dataclass(frozen=True, slots=True)
class ChainHead:
    """The last event of a table's chain: what a report says it was built from."""

    table_id: int
    seq: int
    hash: str


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event about to be appended (what the services hand the store)."""

    body: Mapping[str, Any]
    actor: str
    time: datetime
    #: The ``approval`` audit entry of a change that needs one (a void in a finished hand, a
    #: misdeal, a floor decision, a start that changes what the last hand carries).
    approval_id: int | None = None
    #: Written with the event that ends its hand: what the next hand at the same seats takes
    #: of what the game carries (:mod:`dealer_assist.services.overmark`, schema 0018).
    over_mark: str | None = None


@dataclass(frozen=True, slots=True)
class ApprovalSubject:
    """What a floor approval approves, as its ``approval`` audit entry says it: the detail
    ("misdeal of hand 12"), the table and the hand. On PostgreSQL the database binds the
    approver's one-time ticket to it (schema 0010): the ticket carries no other approval."""

    detail: str
    table_id: int | None = None
    hand_id: int | None = None


@dataclass(frozen=True, slots=True)
class PinResult:
    """One PIN tried on a name (:meth:`Store.try_pin`), counted and checked in one go.

    ``outcome``: "right", "wrong" or "locked" (the name is locked: the PIN was not checked).
    ``user``: the user of that name, if any (a disabled one too: it is answered as a name
    nobody has); ``failed``: wrong tries in a row with this one; ``locked_until``: the lockout
    running ("locked") or the one this wrong try started; ``token``: see :class:`Session`."""

    outcome: str
    user: User | None
    failed: int = 0
    locked_until: datetime | None = None
    token: str = ""


@dataclass(frozen=True, slots=True)
class PinTry:
    """One sign-in try, counted before its PIN is checked (:meth:`Store.claim_pin_try`).

    ``allowed`` False: the name is locked until ``locked_until`` and the PIN must not be
    checked. Allowed: ``failed`` is the count of tries in a row with this one, ``pin_hash`` the
    hash read in the same transaction, and ``locked_until`` the lockout this try started
    (it was the last one allowed), lifted again only if its PIN is right."""

    allowed: bool
    failed: int
    pin_hash: str = ""
    locked_until: datetime | None = None


@dataclass(frozen=True, slots=True)
class UserState:
    """A user as the admin's Users screen shows them: the row and the sign-in state, never the
    PIN hash. ``failed`` counts wrong PINs in a row since the last right one (a lockout starts
    the count again); ``locked_until`` is set only while a lockout is still running."""

    user: User
    failed: int = 0
    locked_until: datetime | None = None

    @property
    def locked(self) -> bool:
        return self.locked_until is not None


@dataclass(frozen=True, slots=True)
class Seal:
    """A signed checkpoint just taken (shift close, a report): its number, the room key's
    fingerprint, what the incremental verify before it found, and the chain heads it signed
    (table name, last seq, full hash; ``audit log`` for the audit chain). ``number`` None:
    nothing was signed (``message`` says why)."""

    number: int | None
    fingerprint: str = ""
    message: str = ""
    ok: bool = True
    heads: tuple[tuple[str, int, str], ...] = ()

"""The store port: everything the services need from persistence, and nothing about SQL.

It is the read-side port (:class:`~dealer_assist.services.reads.Reads`, what the screens, the
commands and the reports may read) with the services' writes added.

``dealer_assist.db.store.SqlStore`` implements it on SQLite and PostgreSQL;
:class:`~dealer_assist.services.fake.InMemoryStore` implements it in memory for tests.
Each method is one transaction: it happens entirely or not at all. A database that is locked or
unreachable raises :class:`~dealer_assist.services.errors.StoreUnavailable`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from dealer_assist.services.model import (
    Adjustment,
    ApprovalSubject,
    AuditEntry,
    Dispute,
    Hand,
    LedgerLine,
    NewEvent,
    PinResult,
    PinTry,
    Seal,
    SettingsVersion,
    Shift,
    StoredEvent,
    Table,
    User,
    UserSecret,
)
from dealer_assist.services.reads import (
    AuditLogReads,
    HandLogReads,
    LedgerReads,
    Reads,
    ShiftReads,
    TableReads,
    UserReads,
)


class Sealer(Protocol):
    """Signs checkpoints of every chain head with the room's key (the database layer's)."""

    def checkpoint(self, reason: str) -> Seal:
        """Sign a checkpoint now (a report is built under it)."""
        ...

    def close_of_shift(self, reason: str) -> Seal:
        """Verify what came after the last checkpoint; if intact, sign a new one."""
        ...


class PinHasher(Protocol):
    """Hashes and checks PINs (argon2 in production)."""

    def hash(self, pin: str) -> str: ...

    def verify(self, pin_hash: str, pin: str) -> bool: ...


class UserRecords(UserReads, Protocol):
    """The port of users and the cardroom's name (``db/store/users.py``): its reads and its
    writes."""

    def set_cardroom_name(self, name: str, *, token: str = "") -> None:
        """``token``: the signed-in admin's :attr:`Session.token` (none for the first naming
        of a room never named); a store may hold the name as its owner's (PostgreSQL)."""
        ...

    def end_sign_in(self, token: str) -> None:
        """The person signed out: a store that holds sign-ins (PostgreSQL's ``pin_sessions``)
        ends this one, so its token writes nothing more."""
        ...

    def add_user(
        self, *, name: str, full_name: str, role: str, pin_hash: str, at: datetime,
        token: str = "",
    ) -> User:
        """``token``: the signed-in admin's :attr:`Session.token` (none for the first admin)."""
        ...

    def user_secret(self, name: str) -> UserSecret | None: ...

    def try_pin(
        self, name: str, pin: str, hasher: PinHasher, *, now: datetime, limit: int,
        lockout: timedelta, action: str = "login", subject: ApprovalSubject | None = None,
    ) -> PinResult:
        """Count a try of ``pin`` on ``name`` and check it, atomically: refused while the name
        is locked; the try that reaches ``limit`` wrong ones in a row locks the name until
        ``now + lockout``; a right PIN clears the count. A name nobody has (or a disabled one)
        is counted the same way, by name, and never right. ``action``: what the PIN is for
        (``login``, ``approval``, ``pin-change``); a store may hold the right PIN of an
        ``approval`` as the proof its ``approval`` entry needs (PostgreSQL, schema 0009),
        bound to ``subject``, the entry's detail, table and hand (schema 0010)."""
        ...

    def claim_name_try(
        self, name: str, *, now: datetime, limit: int, lockout: timedelta
    ) -> PinTry:
        """:meth:`claim_pin_try` for a name nobody has (or a disabled one), kept by name."""
        ...

    def set_login_state(
        self, user_id: int, *, failed: int, locked_until: datetime | None
    ) -> None: ...

    def claim_pin_try(
        self, user_id: int, *, now: datetime, limit: int, lockout: timedelta
    ) -> PinTry:
        """Count a sign-in try before its PIN is checked, in one transaction with the user's
        row locked: refused (nothing written) while a lockout runs; otherwise the count of
        tries in a row goes up by one (a lockout that has run out starts it again), and the
        try that reaches ``limit`` locks the name until ``now + lockout`` at once. So however
        many stations try at the same moment, at most ``limit`` PINs are checked per lockout."""
        ...

    def pin_try_right(self, user_id: int, *, locked_until: datetime | None) -> None:
        """The PIN of a counted try was right: the count goes back to 0, and the lockout that
        try started (``locked_until``), if any, is lifted; another try's lockout stays."""
        ...

    def set_pin_hash(self, user_id: int, pin_hash: str, *, token: str = "") -> None:
        """A new PIN hash (the wrong-PIN count and any lockout cleared); ``token``: the
        signed-in admin's, or the user's own (:attr:`Session.token`)."""
        ...

    def set_user_active(
        self, user_id: int, active: bool, *, by: int | None = None, token: str = ""
    ) -> bool:
        """Write the flag; with ``by``, only if that user is active in the same transaction
        (``token``: that admin's :attr:`Session.token`)."""
        ...


class TableRecords(TableReads, Protocol):
    """The port of tables and their settings versions (``db/store/tables.py``): its reads and
    its writes."""

    def add_table(self, *, name: str, at: datetime, token: str = "") -> Table: ...

    def add_settings(
        self, *, table_id: int, game: str, document: Mapping[str, Any], by: str, at: datetime,
        token: str = "",
    ) -> SettingsVersion: ...


class ShiftRecords(ShiftReads, Protocol):
    """The port of shifts and the disputes ruled in them (``db/store/shifts.py``): its reads and
    its writes."""

    def open_shift(self, *, table_id: int, dealer: str, floor: str, at: datetime) -> Shift: ...

    def close_shift(
        self, shift_id: int, *, dealer: str, floor: str, at: datetime,
        approval_id: int | None = None,
    ) -> Shift: ...

    def add_dispute(
        self, *, hand_id: int, notes: str, ruling: str, floor: str, at: datetime,
        adjustments: Sequence[Adjustment], approval_id: int | None = None,
    ) -> Dispute: ...


class HandLogRecords(HandLogReads, Protocol):
    """The port of hands, their events and each table's chain (``db/store/hands.py``,
    ``db/store/hand_log.py``): its reads and its writes."""

    def start_hand(
        self, *, table_id: int, shift_id: int, settings_id: int | None, game: str,
        seats: Sequence[int], start: NewEvent,
    ) -> tuple[Hand, StoredEvent]:
        """Create the hand and append its start event, in one transaction."""
        ...

    def import_hand(
        self, *, table_id: int, actor: str, at: datetime, game: str, seats: Sequence[int],
        events: Sequence[NewEvent], lines: Sequence[LedgerLine] | None, note: str,
    ) -> Hand:
        """Store an imported hand whole, in one transaction with its audit entry ("import",
        ``hand N: note``): a closed shift of its own, the hand with no settings version (so it
        is marked imported), its events on the table's chain and, when ``lines`` is given, its
        ledger (settled). Nothing of it is stored if any part fails."""
        ...

    def append_event(self, hand_id: int, *, expected: int, event: NewEvent) -> StoredEvent:
        """Append to the hand (and its table's chain) if the hand has exactly ``expected``
        events; otherwise raise :class:`~dealer_assist.services.errors.Conflict`."""
        ...

    def append_table_event(
        self, table_id: int, *, expected: int, event: NewEvent, lines: Sequence[LedgerLine]
    ) -> tuple[StoredEvent, list[LedgerLine]]:
        """Append a table-level event (no hand: seat_in, seat_out, period) to the table's chain
        with the time collections it makes, in one transaction, if the table has exactly
        ``expected`` table-level events; otherwise raise
        :class:`~dealer_assist.services.errors.Conflict`. Returns the row and the lines with
        their ``seq`` and ``at`` set to the event's."""
        ...


class LedgerRecords(LedgerReads, Protocol):
    """The port of what each hand settled and the time collected (``db/store/ledger.py``): its
    reads and its writes."""

    def settle_hand(self, hand_id: int, lines: Sequence[LedgerLine]) -> None:
        """Write the hand's ledger lines (a new settlement number) and mark it settled."""
        ...

    def reopen_hand(self, hand_id: int) -> None:
        """Mark a settled hand open again (a void after settlement); its ledger stays."""
        ...


class AuditLogRecords(AuditLogReads, Protocol):
    """The port of the chained audit log (``db/store/audit.py``): its reads and its writes."""

    def add_audit(
        self, *, at: datetime, actor: str | None, action: str, detail: str = "",
        table_id: int | None = None, hand_id: int | None = None, token: str = "",
    ) -> AuditEntry:
        """``token``: the signed-in :attr:`Session.token` of an entry the database holds to
        its writer (a room record: PostgreSQL takes it only from that live sign-in, and a
        station's journal never keeps it for later)."""
        ...


class Store(UserRecords, TableRecords, ShiftRecords, HandLogRecords, LedgerRecords,
            AuditLogRecords, Reads, Protocol):
    """The services' port: every aggregate's port (its reads and writes) and the read-side
    port's own (the bulk reader, reads sharing one connection)."""

"""The read-side port: what the screens, the commands and the reports read, and nothing more.

The screens, the command line and the reports never reach the store itself (the guard is
``tests/test_layers_store.py``): they read through :attr:`Services.reads
<dealer_assist.services.base.ServicesBase.reads>`, typed as :class:`Reads`, which has no write
in it, and they change the records only through the services' use cases. The wide
:class:`~dealer_assist.services.ports.Store` port the services write through is this port with
the writes added, so every store (``dealer_assist.db.store.SqlStore``, the station's journal,
:class:`~dealer_assist.services.fake.InMemoryStore`) is one.

:class:`BulkReads` is the database's own reader for reports over thousands of hands (a few
statements instead of a read per hand); a store without one (the in-memory store, a station's
journal) answers :meth:`Reads.bulk_reads` with ``None`` and is read through the port.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from datetime import datetime
from pathlib import Path
from typing import Protocol

from dealer_assist.services.audit_chain import AuditHead
from dealer_assist.services.model import (
    AuditEntry,
    ChainHead,
    Dispute,
    Hand,
    HandFilter,
    LedgerLine,
    SettingsVersion,
    Shift,
    StoredEvent,
    Table,
    TableNow,
    User,
)

#: One stored event as read for the chain check: seq, hand id, number, time as hashed, actor,
#: event text, previous hash, hash.
ChainRow = tuple[int, "int | None", int, str, str, str, str, str]

#: A hand's ledger line as read: hand id, kind, amount, seat, detail, settlement (a plain tuple,
#: cheap to hand to another process; :func:`ledger_line` makes the line).
LedgerRow = tuple[int, str, int, "int | None", str, int]

#: A fee line of the funds' drops: hand id, table id, the hand's start, detail, amount.
FeeRow = tuple[int, int, datetime, str, int]


def ledger_line(r: LedgerRow) -> LedgerLine:
    hand_id, kind, amount, seat, detail, settlement = r
    return LedgerLine(hand_id=hand_id, kind=kind, amount=amount, seat=seat, detail=detail,
                      settlement=settlement)


class BulkReads(Protocol):
    """Read-only bulk queries over the whole store, for the reports (``db/bulk_reads.py``)."""

    def chain_batches(self, table_id: int) -> Iterator[list[ChainRow]]:
        """The table's chain in sequence order, with each event's previous and own hash, a
        batch at a time; each time exactly as hashed."""
        ...

    def part_starts(self, table_id: int, rows: int) -> list[int]:
        """The chain cut into parts of about ``rows`` events, each but the first beginning
        where a hand begins: each part's first sequence number, then one past the last event
        (empty: no events)."""
        ...

    def chain_part(self, table_id: int, first: int, end: int) -> Iterator[list[ChainRow]]:
        """:meth:`chain_batches` of the events from sequence ``first`` up to (not with)
        ``end``."""
        ...

    def forked(self) -> None:
        """In a process forked from the one that opened the store: connect afresh (a driver's
        connection must not be shared with the parent), leaving the parent's connections be."""
        ...

    def ledger_rows(self, hand_ids: Sequence[int]) -> dict[int, list[LedgerRow]]:
        """Each hand's ledger lines of its latest settlement, in the order they were written."""
        ...

    def ledgers(self, hand_ids: Sequence[int]) -> dict[int, list[LedgerLine]]:
        """:meth:`ledger_rows` as lines."""
        ...

    def fee_lines(self, details: Sequence[str], until: datetime) -> list[FeeRow]:
        """Each fee line whose detail is one of ``details`` in the latest settlement of a hand
        started before ``until``, in the order of the hands' starts."""
        ...


class UserReads(Protocol):
    """The reads of users and the cardroom's name (``db/store/users.py``)."""

    def cardroom_name(self) -> str: ...

    def count_users(self) -> int: ...

    def list_users(self) -> list[User]: ...


class TableReads(Protocol):
    """The reads of tables and their settings versions (``db/store/tables.py``)."""

    def get_table(self, table_id: int) -> Table | None: ...

    def find_table(self, name: str) -> Table | None: ...

    def list_tables(self) -> list[Table]: ...

    def latest_settings(self, table_id: int) -> SettingsVersion | None: ...

    def settings_versions(self, table_id: int) -> list[SettingsVersion]:
        """Every settings version of the table, oldest first."""
        ...

    def get_settings(self, settings_id: int) -> SettingsVersion | None: ...


class ShiftReads(Protocol):
    """The reads of shifts and the disputes ruled in them (``db/store/shifts.py``)."""

    def get_shift(self, shift_id: int) -> Shift | None: ...

    def current_shift(self, table_id: int) -> Shift | None: ...

    def list_shifts(self, table_id: int | None = None) -> list[Shift]: ...

    def disputes(self, hand_id: int | None = None) -> list[Dispute]: ...


class HandLogReads(Protocol):
    """The reads of hands, their events and each table's chain (``db/store/hands.py``,
    ``db/store/hand_log.py``)."""

    def table_level_events(self, table_id: int) -> list[StoredEvent]:
        """The table's table-level events (hand None) in sequence order."""
        ...

    def get_hand(self, hand_id: int) -> Hand | None: ...

    def last_hand(self, table_id: int) -> Hand | None:
        """The table's last hand dealt at the table (imported hands never count: they feed no
        live hand's stacks, button or carry)."""
        ...

    def list_hands(self, flt: HandFilter) -> list[Hand]: ...

    def tables_now(
        self, table_ids: Sequence[int], held: Mapping[int, int]
    ) -> dict[int, TableNow]:
        """For each table that exists: its open shift, its last hand dealt at the table and
        that hand's events numbered above ``held[hand id]`` (0 when not held): a few reads for
        the whole batch, whatever its size."""
        ...

    def hand_events(self, hand_id: int, *, after: int = 0) -> list[StoredEvent]:
        """The hand's events in order; with ``after``, only those numbered above it."""
        ...

    def table_events(self, table_id: int) -> Iterator[StoredEvent]:
        """The table's chain in sequence order (streamed)."""
        ...

    def chain_head(self, table_id: int) -> ChainHead | None: ...


class LedgerReads(Protocol):
    """The reads of what each hand settled and the time collected (``db/store/ledger.py``)."""

    def time_ledger(
        self, table_id: int | None = None, *, since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[LedgerLine]:
        """Recorded time collections (of one table or all), in order, with their event's time;
        ``since``/``until`` bound that time (until excluded)."""
        ...

    def ledger(self, hand_id: int) -> list[LedgerLine]:
        """The hand's lines from its latest settlement."""
        ...


class AuditLogReads(Protocol):
    """The reads of the chained audit log (``db/store/audit.py``)."""

    def audit_head(self) -> AuditHead:
        """How many audit entries are chained, and the last one's hash."""
        ...

    def audit_log(
        self, *, since: datetime | None = None, until: datetime | None = None,
        action: str | None = None, hand_id: int | None = None, records: bool = False,
    ) -> list[AuditEntry]:
        """The audit log in the order it was recorded; the entries that record rows
        (``record-*``) only with ``records`` (the whole chain, as verify walks it)."""
        ...


class Reads(UserReads, TableReads, ShiftReads, HandLogReads, LedgerReads, AuditLogReads, Protocol):
    """Every read of the records the screens, the commands and the reports make: each
    aggregate's reads, the bulk reader, and reads sharing one connection."""

    def bulk_reads(self) -> BulkReads | None:
        """The store's bulk reader, or ``None``: read through this port, a hand at a time."""
        ...

    def reading(self) -> AbstractContextManager[None]:
        """Reads made inside share one connection (the floor's live view reads a batch of
        rows so: one checkout, not one per read); outside, each read takes its own."""
        ...


class JournalState(Protocol):
    """What the station's line about its server says: offline, inputs kept, tables stopped."""

    @property
    def offline(self) -> bool: ...

    @property
    def pending(self) -> int: ...

    @property
    def stopped(self) -> dict[int, str]: ...

    def line(self) -> str: ...


class JournalFile(Protocol):
    """The station's journal file: where it is, how many inputs it keeps, which tables stopped."""

    @property
    def path(self) -> Path: ...

    def count(self) -> int: ...

    def stops(self) -> dict[int, str]: ...


class StationJournal(Protocol):
    """A station's journal over its PostgreSQL server (``dealer_assist.db.journal``): what the
    station's line shows and the ``journal`` command does with it."""

    @property
    def closed(self) -> bool: ...

    @property
    def journal(self) -> JournalFile: ...

    @property
    def sent_at_open(self) -> int:
        """Inputs sent by the sync made on opening the journal."""
        ...

    def status(self) -> JournalState: ...

    def sync(self, table_id: int | None = None) -> int:
        """Send what the journal keeps, in order; how many inputs were sent."""
        ...

    def try_sync(self) -> JournalState:
        """Send if the server answers; the status after."""
        ...

    def set_aside(self, table_id: int, *, floor: str) -> int:
        """A stopped table's kept inputs set aside (the floor's decision); how many."""
        ...

    def close(self) -> None: ...

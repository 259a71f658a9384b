"""The floor board's records in the database: the sealed table ``floor_entries`` (schema 0020).

Each write is one transaction that first locks the table's head row (:func:`sealed.lock`),
then reads the records and lets the handler decide, then appends: so two floor stations
seating two players in one seat, or calling one player to two seats, are put in one order and
the second decides on what the first recorded (and is refused, told why). Nothing is left
half-written: a refusal or a lost server rolls the whole transaction back.

Most actions go in without that lock first (:meth:`SqlFloorRecords.append_after`): the board
decides on the records it read last, and the record goes in only if they are still all there
are, and the tables still those it decided on, checked where it is written. On PostgreSQL that
is one statement on the board's own connection (a compare-and-swap on the records' head and
its tables' mark, schema 0026, the sign-in set for the table's trigger, the insert and the
NOTIFY), one round trip; on SQLite one short transaction (the tables counted there).
Otherwise nothing is written and the board takes the locking path.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Integer,
    MetaData,
    String,
    Table,
    and_,
    func,
    insert,
    or_,
    select,
    true,
    update,
)
from sqlalchemy import event as sa_event
from sqlalchemy.exc import DBAPIError

from dealer_assist.db import sealed
from dealer_assist.db.bootstrap import Database
from dealer_assist.db.floor_tables import TablesSeen
from dealer_assist.db.models import TableRow, TableSettingsRow, UTCDateTime
from dealer_assist.db.store.base import free_held_locks, lock_timed_out
from dealer_assist.services.floorboard.records import FloorEntry, NewEntry
from dealer_assist.services.sealed import SealedRow

_meta = MetaData()
#: The sealed table (made by migration 0020; described here for reads and appends).
FLOOR_ENTRIES = Table(
    "floor_entries", _meta,
    Column("id", Integer, primary_key=True),
    Column("seq", BigInteger, unique=True),
    Column("at", UTCDateTime),
    Column("actor", String(40)),
    Column("prev_hash", String(64)),
    Column("hash", String(64)),
    Column("action", String(16)),
    Column("table_id", Integer),
    Column("seat", Integer),
    Column("player", String(40)),
    Column("game", String(40)),
    Column("stakes", String(40)),
    Column("entry", BigInteger),
    Column("amount", BigInteger),
    Column("minutes", Integer),
    Column("other_table", Integer),
    Column("setting", String(24)),
    Column("value", String(40)),
)


def entry_of(row: SealedRow) -> FloorEntry:
    v = row.values
    return FloorEntry(seq=row.seq, at=row.at, actor=row.actor, what=NewEntry(
        action=v["action"], table_id=v["table_id"], seat=v["seat"], player=v["player"],
        game=v["game"], stakes=v["stakes"], entry=v["entry"], amount=v["amount"],
        minutes=v["minutes"], other_table=v["other_table"], setting=v["setting"],
        value=v["value"]))


#: The tables' part of the one-statement append: the head row's tables' mark (schema 0026,
#: moved by the database with every table and settings version written) still the one read
#: with the tables the board decided on (:class:`TablesSeen`); checked on the row the
#: compare-and-swap moves, so a table added meanwhile is seen even after waiting for its lock.
_TABLES_AS_SEEN = "tables_mark = %(seen_mark)s"
_APPEND_AFTER_PG = sealed.append_after_sql(FLOOR_ENTRIES, _TABLES_AS_SEEN)
T, TS = TableRow.__table__, TableSettingsRow.__table__


class _MovedOn(Exception):
    """The records or the tables moved on since the board read them (nothing is written)."""


@dataclass
class _Last:
    """The last record this board read or wrote: its place and hash (where the next one-
    statement append starts from)."""

    seq: int
    hash: str


class _Tx:
    def __init__(self, records: SqlFloorRecords, conn: Connection, head: sealed.Head) -> None:
        self.records = records
        self.conn = conn
        self.head = head
        self.wrote: _Last | None = None

    def entries(self, after: int = 0) -> list[FloorEntry]:
        return self.records.read_entries(self.conn, after)

    def append(self, what: NewEntry, *, at: datetime, actor: str, token: str) -> FloorEntry:
        row = sealed.append(self.conn, FLOOR_ENTRIES, at=at, actor=actor, token=token,
                            values=what.columns(), head=self.head)
        self.wrote = _Last(row.seq, row.hash)
        return entry_of(row)


class SqlFloorRecords:
    """:class:`~dealer_assist.services.floorboard.ports.FloorRecords` on SQLite or PostgreSQL."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._pg = db.dialect == "postgresql"
        #: The last record read or written here (None: none yet).
        self._last: _Last | None = None
        #: PostgreSQL: the board's own driver connection for the one-statement append (in
        #: autocommit, out of the engine's pool), for one thread at a time.
        self._own: Any = None
        self._own_lock = threading.Lock()
        self._driver_error: type[Exception] = db.engine.dialect.loaded_dbapi.Error
        sa_event.listen(db.engine, "engine_disposed", lambda *_: self._drop_own())
        #: Records that went in by :meth:`append_after` (the others took the locking path).
        self.one_statement_appends = 0

    def read_entries(self, conn: Connection, after: int) -> list[FloorEntry]:
        rows = sealed.read(conn, FLOOR_ENTRIES, FLOOR_ENTRIES.c.seq > after)
        if rows:
            self._last = _Last(rows[-1].seq, rows[-1].hash)
        return [entry_of(r) for r in rows]

    @contextmanager
    def writing(self) -> Iterator[_Tx]:
        with sealed.writing(self.db) as conn:
            tx = _Tx(self, conn, sealed.lock_head(conn, FLOOR_ENTRIES))
            yield tx
        if tx.wrote is not None:  # committed
            self._last = tx.wrote

    def entries(self, after: int = 0) -> list[FloorEntry]:
        with sealed.reading(self.db) as conn:
            return self.read_entries(conn, after)

    def append_after(self, what: NewEntry, *, after: int, tables: object, at: datetime,
                     actor: str, token: str) -> FloorEntry | None:
        """Record ``what`` as record ``after`` + 1, only if the records still end at the
        ``after``-th (the last this board read or wrote) and the tables are still as ``tables``
        (:class:`TablesSeen`) said; else, or when the database does not take it, write nothing
        and return None: the board decides again under its lock (:meth:`writing`), and hears
        there whatever the database said."""
        last = self._last
        if last is None or last.seq != after or not isinstance(tables, TablesSeen):
            return None
        row = sealed.chained(FLOOR_ENTRIES, seq=after + 1, prev_hash=last.hash, at=at,
                             actor=actor, values=what.columns())
        written = (self._append_pg(row, token, tables) if self._pg
                   else self._append_sqlite(row, tables))
        if not written:
            return None
        self._last = _Last(row.seq, row.hash)
        self.one_statement_appends += 1
        return entry_of(row)

    def _append_pg(self, row: SealedRow, token: str, tables: TablesSeen) -> bool:
        if tables.mark is None:
            return False  # the tables' mark was not read with them: the locking path
        if not self._own_lock.acquire(blocking=False):
            return False  # another thread of this station is using it: the locking path
        try:
            try:
                con = self._own_connection()
                params = sealed.append_after_params(row, token)
                params["seen_mark"] = tables.mark
                return con.execute(_APPEND_AFTER_PG, params).fetchone() is not None
            except (self._driver_error, DBAPIError) as exc:
                # refused or cut off: the statement was undone (or, the connection lost after
                # the server committed it, the locking path finds the record there)
                self._drop_own()
                if lock_timed_out(exc):  # a session idle on the head: the locking path need
                    free_held_locks(self.db)  # not wait it out again
                return False
        finally:
            self._own_lock.release()

    def _append_sqlite(self, row: SealedRow, tables: TablesSeen) -> bool:
        try:
            with self.db.engine.begin() as conn:  # BEGIN IMMEDIATE: the board's turn
                seen = conn.execute(select(
                    select(func.count()).select_from(T).scalar_subquery(),
                    select(func.coalesce(func.max(TS.c.id), 0)).scalar_subquery())).one()
                moved = conn.execute(
                    update(sealed.H).where(sealed.H.c.kind == FLOOR_ENTRIES.name,
                                           sealed.H.c.entries == row.seq - 1,
                                           sealed.H.c.head_hash == row.prev_hash)
                    .values(entries=row.seq, head_hash=row.hash)).rowcount
                if moved != 1 or tuple(seen) != (tables.tables, tables.versions):
                    raise _MovedOn
                conn.execute(insert(FLOOR_ENTRIES).values(
                    seq=row.seq, at=row.at, actor=row.actor, prev_hash=row.prev_hash,
                    hash=row.hash, **row.values))
            return True
        except (_MovedOn, DBAPIError):  # rolled back: nothing written
            return False

    def _own_connection(self) -> Any:
        if self._own is None:
            pooled = self.db.engine.raw_connection()
            con: Any = pooled.driver_connection
            pooled.detach()
            con.rollback()
            con.autocommit = True
            self._own = con
        return self._own

    def _drop_own(self) -> None:
        con, self._own = self._own, None
        if con is not None:
            with suppress(Exception):
                con.close()

    def close(self) -> None:
        """Close the board's own connection (the engine is its database's to close)."""
        self._drop_own()

    def count(self) -> int:
        with sealed.reading(self.db) as conn:
            n = conn.execute(select(sealed.H.c.entries)
                             .where(sealed.H.c.kind == "floor_entries")).scalar()
            return int(n or 0)


@dataclass(frozen=True, slots=True)
class SeatsSince:
    """Where a checkpoint's verify starts the seat check: how many hands each table had when
    it was signed (``hands``: table id → count), how many floor records (``entries``), and
    when it was signed (``at``: a hand started since is checked whatever its number)."""

    hands: dict[int, int]
    entries: int
    at: datetime


def floor_seat_faults(db: Database, since: SeatsSince | None = None) -> list[str]:
    """verify: each hand dealt to other seats than the floor's record gave at its start.
    ``since``: only the hands a checkpoint did not sign or started since it, and every hand
    from the time of the earliest floor record written after it (a record dated back changes
    the seating of the hands after that time); the records are folded whole either way."""
    import json

    from dealer_assist.db.models import HandRow, TableRow
    from dealer_assist.services.floorboard.checks import HandStart, seat_faults

    with sealed.reading(db) as conn:
        entries = [entry_of(r) for r in sealed.read(conn, FLOOR_ENTRIES)]
        if not entries:
            return []
        names = {int(i): str(n) for i, n in conn.execute(select(TableRow.id, TableRow.name))}
        h = HandRow.__table__
        query = select(h.c.table_id, h.c.number, h.c.started_at,
                       h.c.seats).where(h.c.settings_id.is_not(None))
        if since is not None:
            start = min([since.at, *(e.at for e in entries if e.seq > since.entries)])
            query = query.where(or_(
                h.c.table_id.not_in(list(since.hands)) if since.hands else true(),
                h.c.started_at >= start,
                *(and_(h.c.table_id == t, h.c.number > n) for t, n in since.hands.items())))
        hands = [HandStart(table_id=int(r.table_id), number=int(r.number),
                           started_at=r.started_at,
                           seats=tuple(int(s) for s in json.loads(r.seats)))
                 for r in conn.execute(query)]
    return seat_faults(entries, hands, names)

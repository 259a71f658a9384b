"""The event store on SQLite or PostgreSQL: the services' store port in SQL.

Each method is one transaction. An append locks its table's row (``BEGIN IMMEDIATE`` on
SQLite, ``SELECT ... FOR NO KEY UPDATE`` on PostgreSQL: a row added under the table in another
open transaction does not stop it), takes the chain head from it, inserts the
event with the next sequence number and its hash, and moves the head, so stations writing to
different tables never wait for each other on PostgreSQL and a table's chain never forks. On
PostgreSQL a dealer input usually goes in as one statement instead: a compare-and-swap from the
head the store wrote last, which the locking path takes over when another station wrote since.
"""

from __future__ import annotations

import functools
import json
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import replace
from datetime import datetime
from typing import Any, TypeVar, cast

from sqlalchemy import Connection, and_, case, exists, func, insert, select, update
from sqlalchemy import event as sa_event
from sqlalchemy.exc import DBAPIError, IntegrityError

from dealer_assist.db.bootstrap import Database, unavailable
from dealer_assist.db.models import (
    AdjustmentRow,
    AuditHeadRow,
    AuditRow,
    DisputeRow,
    EventRow,
    HandRow,
    LedgerRow,
    ShiftRow,
    TableRow,
    TableSettingsRow,
)
from dealer_assist.db.users import UserStore, _definer
from dealer_assist.engine.bodies import read_body
from dealer_assist.errors import BadInput
from dealer_assist.services.audit_chain import AuditHead, audit_hash
from dealer_assist.services.chain import GENESIS, canonical, event_hash, utc
from dealer_assist.services.errors import (
    Conflict,
    DatabaseFileChanged,
    NotFound,
    StoreUnavailable,
)
from dealer_assist.services.model import (
    Adjustment,
    AuditEntry,
    ChainHead,
    Dispute,
    Hand,
    HandFilter,
    LedgerLine,
    NewEvent,
    SettingsVersion,
    Shift,
    StoredEvent,
    Table,
    TableNow,
)
from dealer_assist.services.records import (
    dispute_state,
    record_entry,
    settings_state,
    shift_state,
    table_state,
)

T = TableRow.__table__
TS = TableSettingsRow.__table__
SH = ShiftRow.__table__
H = HandRow.__table__
E = EventRow.__table__
L = LedgerRow.__table__
D = DisputeRow.__table__
ADJ = AdjustmentRow.__table__
A = AuditRow.__table__
AH = AuditHeadRow.__table__

#: The append's statements, run on the driver's own cursor: the locking path. On SQLite the hot
#: path (one per dealer input) runs them in a ``BEGIN IMMEDIATE`` transaction on the store's own
#: driver connection, so it costs little more than the inserts; on PostgreSQL they run, with the
#: table's row locked, when the one-statement append below does not apply.
_APPEND_SQL = {
    "head": "SELECT h.table_id, h.events, t.head_seq, t.head_hash FROM hands h "
            "JOIN card_tables t ON t.id = h.table_id WHERE h.id = ?",
    "count": "UPDATE hands SET events = ? WHERE id = ? AND events = ?",
    "insert": "INSERT INTO events (table_id, seq, hand_id, number, time, actor, type, body, "
              "prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    # an event a floor person approved: with its approval entry (schema 0016)
    "insert_approved": "INSERT INTO events (table_id, seq, hand_id, number, time, actor, type, "
                       "body, prev_hash, hash, approval_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, "
                       "?, ?)",
    "move": "UPDATE card_tables SET head_seq = ?, head_hash = ? WHERE id = ?",
}
_APPEND_PG = {k: v.replace("?", "%s") for k, v in _APPEND_SQL.items()}
_APPEND_PG["head"] += " FOR NO KEY UPDATE OF t"

#: PostgreSQL's one-statement append: one round trip, its own transaction (autocommit). It is a
#: compare-and-swap on the chain head this store wrote last: the table's head moves only if it is
#: still that head and the hand still has ``expected`` events; the hand's count moves only if the
#: head did; the event goes in only if both did (a head moved without its hand would insert a
#: NULL number, which the column refuses, undoing the whole statement). No row back: another
#: station wrote at the table since, or the hand is not where the caller thinks; the locking path
#: then decides, with today's head.
_APPEND_ONE_PG = (
    "WITH t AS (UPDATE card_tables SET head_seq = %(seq)s, head_hash = %(hash)s::text"
    " WHERE id = %(table_id)s AND head_seq = %(head_seq)s AND head_hash = %(prev_hash)s::text"
    " AND EXISTS (SELECT 1 FROM hands WHERE id = %(hand_id)s AND table_id = %(table_id)s"
    " AND events = %(expected)s) RETURNING id),"
    " h AS (UPDATE hands SET events = %(number)s WHERE id = %(hand_id)s"
    " AND events = %(expected)s AND EXISTS (SELECT 1 FROM t) RETURNING events)"
    " INSERT INTO events (table_id, seq, hand_id, number, time, actor, type, body, prev_hash,"
    " hash) SELECT t.id, %(seq)s, %(hand_id)s, h.events, %(time)s, %(actor)s::text,"
    " %(type)s::text, %(body)s::text, %(prev_hash)s::text, %(hash)s::text"
    " FROM t LEFT JOIN h ON true RETURNING seq"
)
#: How many hands' tables a store remembers for that append (hands are dealt one after another).
_HANDS_REMEMBERED = 256

HAND_COLUMNS = (
    H.c.id, H.c.table_id, H.c.shift_id, H.c.number, H.c.game, H.c.seats, H.c.started_at,
    H.c.started_by, H.c.settings_id, H.c.status, H.c.events,
)


class _Prefixed:
    """A joined row's columns of one table, read by their names without the prefix."""

    __slots__ = ("_prefix", "_row")

    def __init__(self, row: Any, prefix: str) -> None:
        self._row = row
        self._prefix = prefix

    def __getattr__(self, name: str) -> Any:
        return getattr(self._row, self._prefix + name)


def _table(r: Any) -> Table:
    return Table(id=r.id, name=r.name, created_at=r.created_at)


def _settings(r: Any) -> SettingsVersion:
    return SettingsVersion(
        id=r.id, table_id=r.table_id, version=r.version, game=r.game,
        document=json.loads(r.document), created_at=r.created_at, created_by=r.created_by,
    )


def _shift(r: Any) -> Shift:
    return Shift(
        id=r.id, table_id=r.table_id, dealer=r.dealer, floor=r.floor, opened_at=r.opened_at,
        closed_at=r.closed_at, closed_by=r.closed_by, closed_floor=r.closed_floor,
    )


def _hand(r: Any, disputed: bool = False) -> Hand:
    return Hand(
        id=r.id, table_id=r.table_id, shift_id=r.shift_id, number=r.number, game=r.game,
        seats=tuple(json.loads(r.seats)), started_at=r.started_at, started_by=r.started_by,
        settings_id=r.settings_id, status=r.status, events=r.events, disputed=disputed,
    )


def _event(r: Any) -> StoredEvent:
    """A stored row; a body that cannot be read (out of bounds, not JSON) is kept as the
    row's ``fault`` rather than raised, so that the hand's other rows, and the other hands,
    are still read."""
    try:
        body, fault = read_body(r.body), ""
    except BadInput as exc:
        body, fault = {}, str(exc)
    return StoredEvent(
        table_id=r.table_id, seq=r.seq, hand_id=r.hand_id, number=r.number, time=r.time,
        actor=r.actor, body=body, prev_hash=r.prev_hash, hash=r.hash, fault=fault,
    )


def _ledger(r: Any) -> LedgerLine:
    return LedgerLine(
        hand_id=r.hand_id, kind=r.kind, amount=r.amount, seat=r.seat, detail=r.detail,
        settlement=r.settlement,
    )


def _time_line(r: Any) -> LedgerLine:
    return LedgerLine(
        hand_id=None, kind=r.kind, amount=r.amount, seat=r.seat, detail=r.detail,
        settlement=r.settlement, table_id=r.table_id, period=r.period, seq=r.seq, at=r.time,
    )


def _audit(r: Any) -> AuditEntry:
    return AuditEntry(
        id=r.id, at=r.at, actor=r.actor, action=r.action, detail=r.detail,
        table_id=r.table_id, hand_id=r.hand_id, seq=r.seq or 0, prev_hash=r.prev_hash or "",
        hash=r.hash or "",
    )


def append_audit(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> list[AuditEntry]:
    """Chain and insert audit entries (``at, actor, action, detail, table_id, hand_id``) in the
    caller's transaction, and move the audit chain's head: the head row is locked first, so
    entries from several stations queue up in one order."""
    stmt = select(AH.c.entries, AH.c.head_hash).where(AH.c.id == 1)
    if conn.dialect.name == "postgresql":
        stmt = stmt.with_for_update(key_share=True)
    head = conn.execute(stmt).first()
    if head is None:  # the head row is gone: go on from the last entry (verify names it)
        tail = conn.execute(select(A.c.seq, A.c.hash).order_by(A.c.id.desc()).limit(1)).first()
        seq, last = (int(tail.seq or 0), tail.hash or GENESIS) if tail else (0, GENESIS)
        conn.execute(insert(AH).values(id=1, entries=seq, head_hash=last))
    else:
        seq, last = int(head.entries), head.head_hash
    entries: list[AuditEntry] = []
    for row in rows:
        seq += 1
        at = utc(row["at"])
        detail = row.get("detail") or ""
        h = audit_hash(
            seq=seq, at=at, actor=row["actor"], action=row["action"], detail=detail,
            table_id=row.get("table_id"), hand_id=row.get("hand_id"), prev_hash=last,
        )
        new_id = int(conn.execute(
            insert(A).values(
                at=at, actor=row["actor"], action=row["action"], detail=detail,
                table_id=row.get("table_id"), hand_id=row.get("hand_id"), seq=seq,
                prev_hash=last, hash=h,
            ).returning(A.c.id)
        ).scalar_one())
        entries.append(AuditEntry(
            id=new_id, at=at, actor=row["actor"], action=row["action"], detail=detail,
            table_id=row.get("table_id"), hand_id=row.get("hand_id"), seq=seq, prev_hash=last,
            hash=h,
        ))
        last = h
    conn.execute(update(AH).where(AH.c.id == 1).values(entries=seq, head_hash=last))
    return entries


class SqlStore(UserStore):
    """Implements :class:`~dealer_assist.services.ports.Store` on a :class:`Database`."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.engine = db.engine
        self._pg = db.dialect == "postgresql"
        self._sql = _APPEND_PG if self._pg else _APPEND_SQL
        dbapi = self.engine.dialect.loaded_dbapi
        self._driver_error: type[Exception] = dbapi.Error
        self._driver_integrity: type[Exception] = dbapi.IntegrityError
        #: PostgreSQL's one-statement append starts from the chain head this store wrote last at
        #: each table (table id -> seq, hash) and the table of each hand it wrote for; the
        #: database checks both, so a stale one only sends the input down the locking path.
        self._heads: dict[int, tuple[int, str]] = {}
        self._hand_table: dict[int, int] = {}
        #: Appends that went in by that one statement (the others took the locking path).
        self.one_statement_appends = 0
        #: The store's own driver connection for appends (see :meth:`_own_connection`), for one
        #: thread at a time; not for an in-memory SQLite database (one per connection).
        self._own: Any = None
        self._own_lock = threading.Lock()
        #: The connection :meth:`reading` holds for this thread's reads, if any.
        self._held = threading.local()
        self._keep_own = self._pg or db.sqlite_path is not None
        sa_event.listen(self.engine, "engine_disposed", self._drop_own)
        #: A SQLite file's identity (device, inode) when the station opened it, and a handle on
        #: it: held open, the file's inode cannot be freed and reused, so a file deleted and
        #: another put at its path are always told apart from the one the station opened.
        self._file = db.sqlite_path
        self._file_fd: int | None = None
        self._file_id: tuple[int, int] | None = None
        if self._file is not None:
            self._file_fd = os.open(self._file, os.O_RDONLY)
            st = os.fstat(self._file_fd)
            self._file_id = (st.st_dev, st.st_ino)

    def close(self) -> None:
        self._drop_own()
        self.db.close()
        fd, self._file_fd = self._file_fd, None
        if fd is not None:
            with suppress(OSError):
                os.close(fd)

    def check_file(self) -> None:
        """Before anything is read or recorded: the SQLite file at the path is still the one
        this station opened. Deleted, moved away or replaced, nothing more is written to the old
        file, no new database is made, and :class:`DatabaseFileChanged` says what to do."""
        if self._file_id is None or self._file is None:
            return
        try:
            st = os.stat(self._file)
        except FileNotFoundError:
            self._drop_own()
            self.engine.dispose()
            raise DatabaseFileChanged(
                f"The database file {self._file} is gone (deleted or moved away) since this "
                "station opened it. Nothing was recorded, and no new database was made. Stop "
                "dealing and call the floor: put the file back at that path (or restore the "
                "latest backup there), then press Retry [F5]."
            ) from None
        except OSError as exc:
            raise unavailable(exc, self.db.describe()) from exc
        if (st.st_dev, st.st_ino) != self._file_id:
            self._drop_own()
            self.engine.dispose()
            raise DatabaseFileChanged(
                f"The database file {self._file} was replaced by another file since this "
                "station opened it. Nothing was recorded in either. Stop dealing and call the "
                "floor: check the file now at that path (`dealer-assist verify`), then close "
                "the app and start it again to deal on it, or put the station's own file back "
                "and press Retry [F5]."
            )

    # --- transactions ------------------------------------------------------------------------
    @contextmanager
    def _write(self) -> Iterator[Connection]:
        self.check_file()
        try:
            with self.engine.begin() as conn:
                yield conn
        except IntegrityError:
            raise
        except DBAPIError as exc:
            raise unavailable(exc, self.db.describe()) from exc
        except Exception as exc:
            if isinstance(exc, self._driver_integrity):
                raise Conflict(
                    "another station recorded at this table at the same moment: enter it again"
                ) from exc
            if isinstance(exc, self._driver_error):
                raise unavailable(exc, self.db.describe()) from exc
            raise

    def _cursor(self, conn: Connection) -> Any:
        """The driver's cursor on the connection of the current transaction."""
        return conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]

    def _time(self, at: datetime) -> Any:
        """Naive UTC, as :class:`UTCDateTime` stores it (SQLite: its exact text)."""
        naive = at.replace(tzinfo=None)
        return naive if self._pg else naive.strftime("%Y-%m-%d %H:%M:%S.%f")

    @contextmanager
    def reading(self) -> Iterator[None]:
        """This thread's reads inside share one connection (see the Store port)."""
        if getattr(self._held, "conn", None) is not None:
            yield
            return
        try:
            with self.engine.connect() as conn:
                conn.execution_options(dealer_assist_read=True)
                if self._pg:  # each read sees what is committed as it runs; no BEGIN, no ROLLBACK
                    conn.execution_options(isolation_level="AUTOCOMMIT")
                self._held.conn = conn
                try:
                    yield
                finally:
                    self._held.conn = None
        except DBAPIError as exc:
            raise unavailable(exc, self.db.describe()) from exc

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        held = getattr(self._held, "conn", None)
        if held is not None:
            yield held
            return
        self.check_file()
        try:
            with self.engine.connect() as conn:
                conn.execution_options(dealer_assist_read=True)
                yield conn
        except DBAPIError as exc:
            raise unavailable(exc, self.db.describe()) from exc

    def _lock_table(self, conn: Connection, table_id: int) -> Any:
        stmt = select(T.c.id, T.c.head_seq, T.c.head_hash).where(T.c.id == table_id)
        if self._pg:
            stmt = stmt.with_for_update(key_share=True)
        row = conn.execute(stmt).first()
        if row is None:
            raise NotFound(f"there is no table {table_id}")
        return row

    def _insert_event(
        self, cur: Any, *, table_id: int, head_seq: int, head_hash: str,
        hand_id: int | None,
        number: int, ev: NewEvent,
    ) -> StoredEvent:
        """Insert the event after the locked head on the driver cursor ``cur``; move the head."""
        seq = head_seq + 1
        at = utc(ev.time)
        body_text = canonical(ev.body)
        h = event_hash(
            table_id=table_id, seq=seq, time=at, actor=ev.actor, hand_id=hand_id,
            body=body_text, prev_hash=head_hash,
        )
        row = (table_id, seq, hand_id, number, self._time(at), ev.actor,
               str(ev.body.get("type", "")), body_text, head_hash, h)
        if ev.approval_id is None:
            cur.execute(self._sql["insert"], row)
        else:
            cur.execute(self._sql["insert_approved"], (*row, ev.approval_id))
        cur.execute(self._sql["move"], (seq, h, table_id))
        return StoredEvent(
            table_id=table_id, seq=seq, hand_id=hand_id, number=number, time=at, actor=ev.actor,
            body=dict(ev.body), prev_hash=head_hash, hash=h,
        )

    def _own_connection(self) -> Any:
        """The store's own driver connection, taken from the engine (so it is set up the same
        way: SQLite's pragmas) and detached from its pool, so an append pays no checkout and no
        ping. On PostgreSQL it is in autocommit: each statement is its own transaction."""
        if self._own is None:
            pooled = self.engine.raw_connection()
            con: Any = pooled.driver_connection
            pooled.detach()
            if self._pg:
                con.rollback()
                con.autocommit = True
            self._own = con
        return self._own

    def _drop_own(self, *_: Any) -> None:
        """Close the store's own connection (the next append opens another)."""
        con, self._own = self._own, None
        if con is not None:
            with suppress(Exception):
                con.close()

    @contextmanager
    def _driver_write(self) -> Iterator[Any]:
        """SQLite's hot path: :meth:`_write`'s ``BEGIN IMMEDIATE`` ... ``COMMIT`` on a driver
        cursor, without a SQLAlchemy connection around it: on the store's own connection, or a
        pooled one while another thread of this process is using it."""
        self.check_file()
        own = self._keep_own and self._own_lock.acquire(blocking=False)
        pooled = None
        drop = False
        try:
            try:
                if own:
                    con = self._own_connection()
                else:
                    pooled = self.engine.raw_connection()
                    con = pooled.driver_connection
            except DBAPIError as exc:
                raise unavailable(exc, self.db.describe()) from exc
            cur = con.cursor()
            try:
                cur.execute("BEGIN IMMEDIATE")
                yield cur
                con.commit()
            except BaseException as exc:
                # anything but a refusal of ours: the own connection starts afresh next time
                drop = not isinstance(exc, Conflict | NotFound)
                try:
                    if con.in_transaction:
                        con.rollback()
                except Exception:
                    drop = True
                raise
            finally:
                cur.close()
        except Exception as exc:
            if isinstance(exc, self._driver_integrity):
                raise Conflict(
                    "another station recorded at this table at the same moment: enter it again"
                ) from exc
            if isinstance(exc, self._driver_error):
                raise unavailable(exc, self.db.describe()) from exc
            raise
        finally:
            if pooled is not None:
                pooled.close()
            if own:
                if drop:
                    self._drop_own()
                self._own_lock.release()

    def _remember(self, table_id: int, hand_id: int | None, seq: int, head_hash: str) -> None:
        """The chain head this store just committed at the table (and the hand it was for)."""
        if not self._pg:
            return
        self._heads[table_id] = (seq, head_hash)
        if hand_id is not None:
            if len(self._hand_table) >= _HANDS_REMEMBERED and hand_id not in self._hand_table:
                self._hand_table.clear()
            self._hand_table[hand_id] = table_id

    def _append_one_statement(
        self, hand_id: int, expected: int, event: NewEvent
    ) -> StoredEvent | None:
        """PostgreSQL: the append in one statement from the head this store wrote last, or None
        (nothing written) when that head is unknown or no longer the table's, or when another
        thread of this process is using the store's own connection."""
        if event.approval_id is not None:  # (rare: the locking path carries it)
            return None
        table_id = self._hand_table.get(hand_id)
        head = self._heads.pop(table_id, None) if table_id is not None else None
        if table_id is None or head is None:
            return None
        if not self._own_lock.acquire(blocking=False):
            return None
        try:
            seq, prev = head[0] + 1, head[1]
            at = utc(event.time)
            body_text = canonical(event.body)
            h = event_hash(
                table_id=table_id, seq=seq, time=at, actor=event.actor, hand_id=hand_id,
                body=body_text, prev_hash=prev,
            )
            try:
                done = self._own_connection().execute(_APPEND_ONE_PG, {
                    "table_id": table_id, "hand_id": hand_id, "head_seq": seq - 1, "seq": seq,
                    "prev_hash": prev, "hash": h, "expected": expected, "number": expected + 1,
                    "time": self._time(at), "actor": event.actor,
                    "type": str(event.body.get("type", "")), "body": body_text,
                }).fetchone()
            except (DBAPIError, self._driver_error) as exc:
                # Refused or cut off. The statement was undone, or (the connection dropped after
                # the server committed it) the locking path finds the hand moved: a Conflict.
                con = self._own
                if con is not None and (con.closed or con.broken):
                    self._drop_own()
                if lock_timed_out(exc):  # a session idle on the table: the locking path
                    free_held_locks(self.db)  # need not wait it out again
                return None
            except BaseException:
                self._drop_own()
                raise
        finally:
            self._own_lock.release()
        if done is None:
            return None
        self._heads[table_id] = (seq, h)
        self.one_statement_appends += 1
        return StoredEvent(
            table_id=table_id, seq=seq, hand_id=hand_id, number=expected + 1, time=at,
            actor=event.actor, body=dict(event.body), prev_hash=prev, hash=h,
        )

    # --- tables, settings, shifts ------------------------------------------------------------
    def add_table(self, *, name: str, at: datetime, token: str = "") -> Table:
        """A new table. On PostgreSQL only the owner's ``da_table_add`` adds one (schema
        0016): ``token`` must be a signed-in floor person's or admin's session."""
        try:
            with self._write() as conn:
                if self._pg:
                    new_id = _definer(conn, "SELECT da_table_add(%s, %s, %s)",
                                      (token, name, utc(at).replace(tzinfo=None)))
                else:
                    new_id = conn.execute(
                        insert(T).values(name=name, created_at=at).returning(T.c.id)
                    ).scalar_one()
                append_audit(conn, [record_entry("table", table_state(id=new_id, name=name), at)])
        except IntegrityError as exc:
            raise BadInput(f'a table named "{name}" already exists') from exc
        return Table(id=int(new_id), name=name, created_at=utc(at))

    def get_table(self, table_id: int) -> Table | None:
        with self._read() as conn:
            r = conn.execute(select(T).where(T.c.id == table_id)).first()
        return _table(r) if r else None

    def find_table(self, name: str) -> Table | None:
        with self._read() as conn:
            r = conn.execute(select(T).where(T.c.name == name)).first()
        return _table(r) if r else None

    def list_tables(self) -> list[Table]:
        with self._read() as conn:
            return [_table(r) for r in conn.execute(select(T).order_by(T.c.id))]

    def add_settings(
        self, *, table_id: int, game: str, document: Mapping[str, Any], by: str, at: datetime,
        token: str = "",
    ) -> SettingsVersion:
        """A new settings version. On PostgreSQL only the owner's ``da_settings_add`` writes
        one (schema 0016): ``token`` must be the session of ``by``, a floor person or admin."""
        with self._write() as conn:
            self._lock_table(conn, table_id)
            version = 1 + int(conn.execute(
                select(func.coalesce(func.max(TS.c.version), 0)).where(TS.c.table_id == table_id)
            ).scalar_one())
            if self._pg:
                new_id = _definer(conn, "SELECT da_settings_add(%s, %s, %s, %s, %s, %s, %s)", (
                    token, table_id, version, game, canonical(dict(document)),
                    utc(at).replace(tzinfo=None), by))
            else:
                new_id = conn.execute(
                    insert(TS).values(
                        table_id=table_id, version=version, game=game,
                        document=canonical(dict(document)),
                        created_at=at, created_by=by,
                    ).returning(TS.c.id)
                ).scalar_one()
            append_audit(conn, [record_entry("settings", settings_state(
                id=new_id, table_id=table_id, version=version, game=game,
                document=canonical(dict(document)), created_at=at, created_by=by,
            ), at)])
        return SettingsVersion(
            id=int(new_id), table_id=table_id, version=version, game=game, document=dict(document),
            created_at=utc(at), created_by=by,
        )

    def latest_settings(self, table_id: int) -> SettingsVersion | None:
        with self._read() as conn:
            r = conn.execute(
                select(TS).where(TS.c.table_id == table_id).order_by(TS.c.version.desc()).limit(1)
            ).first()
        return _settings(r) if r else None

    def settings_versions(self, table_id: int) -> list[SettingsVersion]:
        with self._read() as conn:
            rows = conn.execute(
                select(TS).where(TS.c.table_id == table_id).order_by(TS.c.version)
            )
            return [_settings(r) for r in rows]

    def get_settings(self, settings_id: int) -> SettingsVersion | None:
        with self._read() as conn:
            r = conn.execute(select(TS).where(TS.c.id == settings_id)).first()
        return _settings(r) if r else None

    def open_shift(self, *, table_id: int, dealer: str, floor: str, at: datetime) -> Shift:
        with self._write() as conn:
            self._lock_table(conn, table_id)
            new_id = conn.execute(
                insert(SH).values(table_id=table_id, dealer=dealer, floor=floor, opened_at=at)
                .returning(SH.c.id)
            ).scalar_one()
            append_audit(conn, [record_entry("shift", shift_state(
                id=new_id, table_id=table_id, dealer=dealer, floor=floor, opened_at=at,
                closed_at=None, closed_by=None, closed_floor=None,
            ), at)])
        return Shift(id=int(new_id), table_id=table_id, dealer=dealer, floor=floor,
                     opened_at=utc(at))

    def close_shift(
        self, shift_id: int, *, dealer: str, floor: str, at: datetime,
        approval_id: int | None = None,
    ) -> Shift:
        with self._write() as conn:
            conn.execute(
                update(SH).where(SH.c.id == shift_id)
                .values(closed_at=at, closed_by=dealer, closed_floor=floor,
                        close_approval_id=approval_id)
            )
            r = conn.execute(select(SH).where(SH.c.id == shift_id)).first()
            if r is not None:
                append_audit(conn, [record_entry("shift", shift_state(
                    id=r.id, table_id=r.table_id, dealer=r.dealer, floor=r.floor,
                    opened_at=r.opened_at, closed_at=r.closed_at, closed_by=r.closed_by,
                    closed_floor=r.closed_floor,
                ), at)])
        if r is None:
            raise NotFound(f"there is no shift {shift_id}")
        return _shift(r)

    def get_shift(self, shift_id: int) -> Shift | None:
        with self._read() as conn:
            r = conn.execute(select(SH).where(SH.c.id == shift_id)).first()
        return _shift(r) if r else None

    def current_shift(self, table_id: int) -> Shift | None:
        with self._read() as conn:
            r = conn.execute(
                select(SH).where(SH.c.table_id == table_id, SH.c.closed_at.is_(None))
                .order_by(SH.c.id.desc()).limit(1)
            ).first()
        return _shift(r) if r else None

    def list_shifts(self, table_id: int | None = None) -> list[Shift]:
        stmt = select(SH).order_by(SH.c.id)
        if table_id is not None:
            stmt = stmt.where(SH.c.table_id == table_id)
        with self._read() as conn:
            return [_shift(r) for r in conn.execute(stmt)]

    # --- hands and events --------------------------------------------------------------------
    def start_hand(
        self, *, table_id: int, shift_id: int, settings_id: int | None, game: str,
        seats: Sequence[int], start: NewEvent,
    ) -> tuple[Hand, StoredEvent]:
        at = utc(start.time)
        with self._write() as conn:
            head = self._lock_table(conn, table_id)
            number = 1 + int(conn.execute(
                select(func.coalesce(func.max(H.c.number), 0)).where(H.c.table_id == table_id)
            ).scalar_one())
            hand_id = int(conn.execute(
                insert(H).values(
                    table_id=table_id, shift_id=shift_id, number=number, game=game,
                    seats=json.dumps(list(seats)), started_at=at, started_by=start.actor,
                    settings_id=settings_id, status="open", events=1,
                ).returning(H.c.id)
            ).scalar_one())
            cur = self._cursor(conn)
            row = self._insert_event(
                cur, table_id=table_id, head_seq=head.head_seq, head_hash=head.head_hash,
                hand_id=hand_id, number=1, ev=start,
            )
            cur.close()
        self._remember(table_id, hand_id, row.seq, row.hash)
        hand = Hand(
            id=hand_id, table_id=table_id, shift_id=shift_id, number=number, game=game,
            seats=tuple(seats), started_at=at, started_by=start.actor, settings_id=settings_id,
            status="open", events=1,
        )
        return hand, row

    def _import_once(self, conn: Connection, note: str) -> None:
        """In the import's transaction: refuse a log already imported (its fingerprint in an
        earlier import's audit entry). On PostgreSQL imports take turns (an advisory lock, held
        to the commit), so two stations importing the same log at once cannot both pass."""
        from dealer_assist.services.imports import already_imported, fingerprint_in

        fingerprint = fingerprint_in(note)
        if fingerprint is None:
            return
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(hashtext('dealer-assist-import'))")
        row = conn.execute(select(A.c.hand_id).where(
            A.c.action == "import", A.c.detail.like(f"%{fingerprint}%")).limit(1)).first()
        if row is not None:
            raise BadInput(already_imported(self.get_hand(int(row.hand_id))
                                            if row.hand_id is not None else None))

    def import_hand(
        self, *, table_id: int, actor: str, at: datetime, game: str, seats: Sequence[int],
        events: Sequence[NewEvent], lines: Sequence[LedgerLine] | None, note: str,
    ) -> Hand:
        """An imported hand, whole, in one transaction: a shift of its own (opened and closed at
        once), the hand (no settings version: that marks it imported), its events on the
        table's chain, its ledger lines when it is settled, and its audit entry. A failure or a
        kill at any point leaves nothing of it."""
        with self._write() as conn:
            head = self._lock_table(conn, table_id)
            self._import_once(conn, note)
            shift_id = int(conn.execute(
                insert(SH).values(table_id=table_id, dealer=actor, floor=actor, opened_at=at,
                                  closed_at=at, closed_by=actor, closed_floor=actor)
                .returning(SH.c.id)
            ).scalar_one())
            append_audit(conn, [record_entry("shift", shift_state(
                id=shift_id, table_id=table_id, dealer=actor, floor=actor, opened_at=at,
                closed_at=at, closed_by=actor, closed_floor=actor,
            ), at)])
            number = 1 + int(conn.execute(
                select(func.coalesce(func.max(H.c.number), 0)).where(H.c.table_id == table_id)
            ).scalar_one())
            status = "open" if lines is None else "settled"
            hand_id = int(conn.execute(
                insert(H).values(
                    table_id=table_id, shift_id=shift_id, number=number, game=game,
                    seats=json.dumps(list(seats)), started_at=at, started_by=actor,
                    settings_id=None, status=status, events=len(events),
                ).returning(H.c.id)
            ).scalar_one())
            seq, prev = int(head.head_seq), str(head.head_hash)
            rows = []
            for n, ev in enumerate(events, start=1):
                seq += 1
                when = utc(ev.time)
                body = canonical(ev.body)
                h = event_hash(table_id=table_id, seq=seq, time=when, actor=ev.actor,
                               hand_id=hand_id, body=body, prev_hash=prev)
                rows.append((table_id, seq, hand_id, n, self._time(when), ev.actor,
                             str(ev.body.get("type", "")), body, prev, h))
                prev = h
            cur = self._cursor(conn)
            cur.executemany(self._sql["insert"], rows)
            cur.execute(self._sql["move"], (seq, prev, table_id))
            cur.close()
            if lines:
                conn.execute(insert(L), [
                    {"hand_id": hand_id, "settlement": 1, "kind": x.kind, "detail": x.detail,
                     "seat": x.seat, "amount": x.amount} for x in lines
                ])
            append_audit(conn, [{
                "at": at, "actor": actor, "action": "import", "detail": f"hand {number}: {note}",
                "table_id": table_id, "hand_id": hand_id,
            }])
        self._remember(table_id, None, seq, prev)
        return Hand(
            id=hand_id, table_id=table_id, shift_id=shift_id, number=number, game=game,
            seats=tuple(seats), started_at=utc(at), started_by=actor, settings_id=None,
            status=status, events=len(events),
        )

    def append_event(self, hand_id: int, *, expected: int, event: NewEvent) -> StoredEvent:
        """One dealer input: the hand must still have ``expected`` events. SQLite: the locking
        path on the driver connection. PostgreSQL: one statement from the head this store
        wrote last, else the locking path with the table's row locked."""
        if not self._pg:
            with self._driver_write() as cur:
                return self._append_locked(cur, hand_id, expected, event)
        row = self._append_one_statement(hand_id, expected, event)
        if row is not None:
            return row
        with self._write() as conn:
            cur = self._cursor(conn)
            row = self._append_locked(cur, hand_id, expected, event)
            cur.close()
        self._remember(row.table_id, hand_id, row.seq, row.hash)
        return row

    def _append_locked(
        self, cur: Any, hand_id: int, expected: int, event: NewEvent
    ) -> StoredEvent:
        """Read the hand's count and its table's head (locked), move the count, insert."""
        cur.execute(self._sql["head"], (hand_id,))
        head = cur.fetchone()
        if head is None:
            raise NotFound(f"there is no hand {hand_id}")
        table_id, events, head_seq, head_hash = head
        moved = 0
        if events == expected:
            cur.execute(self._sql["count"], (expected + 1, hand_id, expected))
            moved = cur.rowcount
        if moved != 1:
            raise Conflict(
                "the hand changed at another station: reload it and enter the input again"
            )
        return self._insert_event(
            cur, table_id=table_id, head_seq=head_seq, head_hash=head_hash,
            hand_id=hand_id, number=expected + 1, ev=event,
        )

    def append_table_event(
        self, table_id: int, *, expected: int, event: NewEvent, lines: Sequence[LedgerLine]
    ) -> tuple[StoredEvent, list[LedgerLine]]:
        with self._write() as conn:
            head = self._lock_table(conn, table_id)
            count = int(conn.execute(
                select(func.count()).select_from(E)
                .where(E.c.table_id == table_id, E.c.hand_id.is_(None))
            ).scalar_one())
            if count != expected:
                raise Conflict(
                    "the table's seats changed at another station: reload and enter it again"
                )
            cur = self._cursor(conn)
            row = self._insert_event(
                cur, table_id=table_id, head_seq=head.head_seq, head_hash=head.head_hash,
                hand_id=None, number=expected + 1, ev=event,
            )
            cur.close()
            done = [replace(x, hand_id=None, table_id=table_id, seq=row.seq, at=row.time)
                    for x in lines]
            if done:
                conn.execute(insert(L), [
                    {"hand_id": None, "settlement": 0, "kind": x.kind, "detail": x.detail,
                     "seat": x.seat, "amount": x.amount, "table_id": table_id,
                     "period": x.period, "seq": row.seq} for x in done
                ])
        self._remember(table_id, None, row.seq, row.hash)
        return row, done

    def table_level_events(self, table_id: int) -> list[StoredEvent]:
        with self._read() as conn:
            rows = conn.execute(
                select(E).where(E.c.table_id == table_id, E.c.hand_id.is_(None))
                .order_by(E.c.seq)
            )
            return [_event(r) for r in rows]

    def time_ledger(
        self, table_id: int | None = None, *, since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[LedgerLine]:
        stmt = select(L, E.c.time).select_from(
            L.join(E, and_(E.c.table_id == L.c.table_id, E.c.seq == L.c.seq))
        ).where(L.c.hand_id.is_(None), L.c.table_id.is_not(None))
        if table_id is not None:
            stmt = stmt.where(L.c.table_id == table_id)
        if since is not None:
            stmt = stmt.where(E.c.time >= utc(since))
        if until is not None:
            stmt = stmt.where(E.c.time < utc(until))
        with self._read() as conn:
            return [_time_line(r) for r in conn.execute(stmt.order_by(L.c.table_id, L.c.id))]

    def _disputed(self) -> Any:
        return exists().where(D.c.hand_id == H.c.id)

    def get_hand(self, hand_id: int) -> Hand | None:
        with self._read() as conn:
            r = conn.execute(
                select(*HAND_COLUMNS, self._disputed().label("disputed")).where(H.c.id == hand_id)
            ).first()
        return _hand(r, bool(r.disputed)) if r else None

    def last_hand(self, table_id: int) -> Hand | None:
        with self._read() as conn:
            r = conn.execute(
                select(*HAND_COLUMNS, self._disputed().label("disputed"))
                .where(H.c.table_id == table_id, H.c.settings_id.is_not(None))
                .order_by(H.c.number.desc()).limit(1)
            ).first()
        return _hand(r, bool(r.disputed)) if r else None

    def list_hands(self, flt: HandFilter) -> list[Hand]:
        disputed = self._disputed()
        stmt = select(*HAND_COLUMNS, disputed.label("disputed")).select_from(
            H.join(SH, SH.c.id == H.c.shift_id)
        )
        conds = []
        if flt.table_id is not None:
            conds.append(H.c.table_id == flt.table_id)
        if flt.shift_id is not None:
            conds.append(H.c.shift_id == flt.shift_id)
        if flt.game is not None:
            conds.append(H.c.game == flt.game)
        if flt.dealer is not None:
            conds.append((H.c.started_by == flt.dealer) | (SH.c.dealer == flt.dealer))
        if flt.since is not None:
            conds.append(H.c.started_at >= utc(flt.since))
        if flt.until is not None:
            conds.append(H.c.started_at < utc(flt.until))
        if flt.disputed is not None:
            conds.append(disputed if flt.disputed else ~disputed)
        if flt.status is not None:
            conds.append(H.c.status == flt.status)
        if conds:
            stmt = stmt.where(and_(*conds))
        stmt = stmt.order_by(H.c.started_at.desc(), H.c.id.desc())
        if flt.limit is not None:
            stmt = stmt.limit(flt.limit)
        with self._read() as conn:
            return [_hand(r, bool(r.disputed)) for r in conn.execute(stmt)]

    def tables_now(
        self, table_ids: Sequence[int], held: Mapping[int, int]
    ) -> dict[int, TableNow]:
        """Two reads for the whole batch: each table with its open shift and its last hand
        (outer joins), then the new events of those hands."""
        ids = sorted(set(table_ids))
        if not ids:
            return {}
        h2 = H.alias("h2")
        latest = (select(func.max(h2.c.number))
                  .where(h2.c.table_id == T.c.id, h2.c.settings_id.is_not(None))
                  .scalar_subquery())
        cols = [T.c.id.label("t_id"), T.c.name.label("t_name"),
                T.c.created_at.label("t_created_at")]
        cols += [c.label(f"s_{c.name}") for c in SH.c]
        cols += [c.label(f"h_{c.name}") for c in HAND_COLUMNS]
        cols.append(self._disputed().label("h_disputed"))
        joined = (T.outerjoin(SH, and_(SH.c.table_id == T.c.id, SH.c.closed_at.is_(None)))
                  .outerjoin(H, and_(H.c.table_id == T.c.id, H.c.number == latest)))
        rows_stmt = (select(*cols).select_from(joined).where(T.c.id.in_(ids))
                     .order_by(T.c.id, SH.c.id))
        out: dict[int, TableNow] = {}
        events: dict[int, list[StoredEvent]] = {}
        with self._read() as conn:
            for r in conn.execute(rows_stmt):  # a table's latest open shift comes last
                shift = hand = None
                if r.s_id is not None:
                    shift = _shift(_Prefixed(r, "s_"))
                if r.h_id is not None:
                    hand = _hand(_Prefixed(r, "h_"), bool(r.h_disputed))
                table = Table(id=int(r.t_id), name=r.t_name, created_at=r.t_created_at)
                out[table.id] = TableNow(table=table, shift=shift, hand=hand)
            new = {now.hand.id: held.get(now.hand.id, 0) for now in out.values()
                   if now.hand is not None and held.get(now.hand.id, 0) < now.hand.events}
            if new:
                after = (case(new, value=E.c.hand_id, else_=0) if any(new.values()) else 0)
                for r in conn.execute(select(E).where(E.c.hand_id.in_(sorted(new)),
                                                      E.c.number > after)
                                      .order_by(E.c.hand_id, E.c.number)):
                    events.setdefault(int(r.hand_id), []).append(_event(r))
        for i, now in out.items():
            if now.hand is not None and now.hand.id in events:
                out[i] = replace(now, events=tuple(events[now.hand.id]))
        return out

    def hand_events(self, hand_id: int, *, after: int = 0) -> list[StoredEvent]:
        where = [E.c.hand_id == hand_id]
        if after:
            where.append(E.c.number > after)
        with self._read() as conn:
            rows = conn.execute(select(E).where(*where).order_by(E.c.number))
            out = [_event(r) for r in rows]
        if not out and not after and self.get_hand(hand_id) is None:
            raise NotFound(f"there is no hand {hand_id}")
        return out

    def table_events(self, table_id: int) -> Iterator[StoredEvent]:
        with self._read() as conn:
            result = conn.execution_options(yield_per=2000).execute(
                select(E).where(E.c.table_id == table_id).order_by(E.c.seq)
            )
            for r in result:
                yield _event(r)

    def chain_head(self, table_id: int) -> ChainHead | None:
        with self._read() as conn:
            r = conn.execute(select(T.c.head_seq, T.c.head_hash).where(T.c.id == table_id)).first()
        if r is None or not r.head_seq:
            return None
        return ChainHead(table_id=table_id, seq=int(r.head_seq), hash=r.head_hash)

    def settle_hand(self, hand_id: int, lines: Sequence[LedgerLine]) -> None:
        with self._write() as conn:
            n = 1 + int(conn.execute(
                select(func.coalesce(func.max(L.c.settlement), 0)).where(L.c.hand_id == hand_id)
            ).scalar_one())
            if lines:
                conn.execute(insert(L), [
                    {"hand_id": hand_id, "settlement": n, "kind": x.kind, "detail": x.detail,
                     "seat": x.seat, "amount": x.amount} for x in lines
                ])
            conn.execute(update(H).where(H.c.id == hand_id).values(status="settled"))

    def reopen_hand(self, hand_id: int) -> None:
        with self._write() as conn:
            conn.execute(update(H).where(H.c.id == hand_id).values(status="open"))

    def ledger(self, hand_id: int) -> list[LedgerLine]:
        latest = (
            select(func.max(L.c.settlement)).where(L.c.hand_id == hand_id).scalar_subquery()
        )
        with self._read() as conn:
            rows = conn.execute(
                select(L).where(L.c.hand_id == hand_id, L.c.settlement == latest).order_by(L.c.id)
            )
            return [_ledger(r) for r in rows]

    # --- disputes and audit ------------------------------------------------------------------
    def add_dispute(
        self, *, hand_id: int, notes: str, ruling: str, floor: str, at: datetime,
        adjustments: Sequence[Adjustment], approval_id: int | None = None,
    ) -> Dispute:
        with self._write() as conn:
            new_id = int(conn.execute(
                insert(D).values(hand_id=hand_id, notes=notes, ruling=ruling, floor=floor, at=at,
                                 approval_id=approval_id)
                .returning(D.c.id)
            ).scalar_one())
            if adjustments:
                conn.execute(insert(ADJ), [
                    {"dispute_id": new_id, "seat": a.seat, "amount": a.amount, "note": a.note}
                    for a in adjustments
                ])
            append_audit(conn, [record_entry("dispute", dispute_state(
                id=new_id, hand_id=hand_id, notes=notes, ruling=ruling, floor=floor, at=at,
                adjustments=[(a.seat, a.amount, a.note) for a in adjustments],
            ), at)])
        return Dispute(id=new_id, hand_id=hand_id, notes=notes, ruling=ruling, floor=floor,
                       at=utc(at), adjustments=tuple(adjustments))

    def disputes(self, hand_id: int | None = None) -> list[Dispute]:
        stmt = select(D).order_by(D.c.id)
        if hand_id is not None:
            stmt = stmt.where(D.c.hand_id == hand_id)
        with self._read() as conn:
            rows = conn.execute(stmt).all()
            ids = [r.id for r in rows]
            adj: dict[int, list[Adjustment]] = {i: [] for i in ids}
            if ids:
                for a in conn.execute(
                    select(ADJ).where(ADJ.c.dispute_id.in_(ids)).order_by(ADJ.c.id)
                ):
                    adj[a.dispute_id].append(Adjustment(amount=a.amount, seat=a.seat, note=a.note))
        return [
            Dispute(id=r.id, hand_id=r.hand_id, notes=r.notes, ruling=r.ruling, floor=r.floor,
                    at=r.at, adjustments=tuple(adj[r.id]))
            for r in rows
        ]

    def add_audit(
        self, *, at: datetime, actor: str | None, action: str, detail: str = "",
        table_id: int | None = None, hand_id: int | None = None, token: str = "",
    ) -> AuditEntry:
        with self._write() as conn:
            if token and self._pg:  # the sign-in the database holds this entry to (0021)
                conn.exec_driver_sql("SELECT set_config('da.token', %(t)s, true)",
                                     {"t": token})
            (entry,) = append_audit(conn, [{
                "at": at, "actor": actor, "action": action, "detail": detail,
                "table_id": table_id, "hand_id": hand_id,
            }])
        return entry

    def audit_head(self) -> AuditHead:
        with self._read() as conn:
            row = conn.execute(select(AH.c.entries, AH.c.head_hash).where(AH.c.id == 1)).first()
        return AuditHead(0) if row is None else AuditHead(int(row.entries), row.head_hash)

    def audit_log(
        self, *, since: datetime | None = None, until: datetime | None = None,
        action: str | None = None, hand_id: int | None = None, records: bool = False,
    ) -> list[AuditEntry]:
        """The audit log; the records of rows (``record-*``, see
        :mod:`dealer_assist.services.records`) only with ``records`` (the whole chain)."""
        stmt = select(A).order_by(A.c.id)
        if not records and action is None:
            stmt = stmt.where(~A.c.action.startswith("record-"))
        if since is not None:
            stmt = stmt.where(A.c.at >= utc(since))
        if until is not None:
            stmt = stmt.where(A.c.at < utc(until))
        if action is not None:
            stmt = stmt.where(A.c.action == action)
        if hand_id is not None:
            stmt = stmt.where(A.c.hand_id == hand_id)
        with self._read() as conn:
            return [_audit(r) for r in conn.execute(stmt)]


def lock_timed_out(exc: BaseException) -> bool:
    """The error (or one it was raised from) is PostgreSQL's lock timeout (SQLSTATE 55P03)."""
    seen: BaseException | None = exc
    while seen is not None:
        if str(getattr(getattr(seen, "orig", seen), "sqlstate", "") or "") == "55P03":
            return True
        seen = seen.__cause__
    return False


def free_held_locks(db: Database) -> int:
    """PostgreSQL: end the sessions that block another while they sit idle (a station left in
    ``BEGIN; SELECT ... FOR UPDATE``), through the owner's ``da_free_held_locks`` (schema
    0012); how many were ended. Asked by a write that waited out its lock timeout."""
    try:
        with db.engine.connect() as conn:
            conn = conn.execution_options(isolation_level="AUTOCOMMIT")
            return int(conn.exec_driver_sql("SELECT da_free_held_locks()").scalar() or 0)
    except DBAPIError:
        return 0


_W = TypeVar("_W", bound=Callable[..., Any])


def _frees_held_locks(method: _W) -> _W:
    """A write that gave up waiting for a lock asks the database to end the idle session that
    holds it, then runs once more: one station left holding a row cannot freeze the room. A
    write that timed out wrote nothing (its transaction was undone), so running it again is
    the dealer's own retry, made at once."""

    @functools.wraps(method)
    def run(self: SqlStore, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except StoreUnavailable as exc:
            if not (self._pg and lock_timed_out(exc) and free_held_locks(self.db)):
                raise
        return method(self, *args, **kwargs)

    return cast(_W, run)


#: The store's writes that wait for a row lock on PostgreSQL (a table's chain head, a hand, the
#: audit chain's head, a user's sign-in row).
_LOCKING_WRITES = (
    "add_table", "add_settings", "open_shift", "close_shift", "start_hand", "import_hand",
    "append_event", "append_table_event", "settle_hand", "reopen_hand", "add_dispute",
    "add_audit", "set_cardroom_name", "add_user", "try_pin", "set_login_state",
    "claim_name_try", "claim_pin_try", "pin_try_right", "set_pin_hash", "set_user_active",
)
for _name in _LOCKING_WRITES:
    setattr(SqlStore, _name, _frees_held_locks(getattr(SqlStore, _name)))

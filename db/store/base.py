"""The store's connections and transactions: what every part of
:class:`~dealer_assist.db.store.SqlStore` writes and reads through.

A write is one transaction (:meth:`StoreBase._write`); a dealer input on SQLite goes in on the
store's own driver connection (:meth:`StoreBase._driver_write`); reads may share one connection
per thread (:meth:`StoreBase.reading`). A write that waits out PostgreSQL's lock timeout asks
the database to end the idle session holding the lock (:func:`free_held_locks`).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy import event as sa_event
from sqlalchemy.exc import DBAPIError, IntegrityError

from dealer_assist.db.bootstrap import Database, unavailable
from dealer_assist.db.store.rows import T
from dealer_assist.services.errors import Conflict, DatabaseFileChanged, NotFound

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
    # an event that ends its hand, or is approved: its mark and approval (schemas 0018, 0016)
    "insert_marked": "INSERT INTO events (table_id, seq, hand_id, number, time, actor, type, "
                     "body, prev_hash, hash, approval_id, over_mark) VALUES (?, ?, ?, ?, ?, ?, "
                     "?, ?, ?, ?, ?, ?)",
    "move": "UPDATE card_tables SET head_seq = ?, head_hash = ? WHERE id = ?",
}
_APPEND_PG = {k: v.replace("?", "%s") for k, v in _APPEND_SQL.items()}
_APPEND_PG["head"] += " FOR NO KEY UPDATE OF t"


class StoreBase:
    """The connection core of :class:`~dealer_assist.db.store.SqlStore`: the database, its
    transactions and the store's own driver connection; each aggregate's part builds on it."""

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
            failure = self._driver_failure(exc)
            if failure is not None:
                raise failure from exc
            raise

    def _driver_failure(self, exc: Exception) -> Exception | None:
        """A driver's own error (raised past SQLAlchemy on the fast paths) as what the station
        says: another station's write at the same moment, or the database not answering."""
        if isinstance(exc, self._driver_integrity):
            return Conflict(
                "another station recorded at this table at the same moment: enter it again")
        if isinstance(exc, self._driver_error):
            return unavailable(exc, self.db.describe())
        return None

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
            failure = self._driver_failure(exc)
            if failure is not None:
                raise failure from exc
            raise
        finally:
            if pooled is not None:
                pooled.close()
            if own:
                if drop:
                    self._drop_own()
                self._own_lock.release()


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

"""Verify's reader: the rows of one part of a table's chain read in (plain SQL on a DB-API
connection), on this process's connection or on a worker process's own, and checked there.

Each event's hash covers its stored previous hash, so a run of a table's rows can be checked on
its own: a worker process opens its own connection, reads one seq range (ending where a hand
ends), checks every hash and link inside it, replays the hands that lie wholly in it and
compares them with their ledger lines. Every worker reads what the verify's read transaction
sees: on PostgreSQL the same snapshot, on SQLite no row written after it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from multiprocessing.util import Finalize
from pathlib import Path
from typing import Any, TypeVar

from dealer_assist.db.bootstrap import BUSY_TIMEOUT_S, unavailable
from dealer_assist.errors import DealerAssistError
from dealer_assist.gc_pause import paused_gc
from dealer_assist.services.chain import time_text
from dealer_assist.services.handrules import carried_by
from dealer_assist.services.model import LedgerLine, SettingsVersion
from dealer_assist.services.verify import HandInfo, Part, StoredLine, TableCheck, time_findings

#: Hand ids per ``IN (...)`` list.
CHUNK = 500


def _sqlite_time(value: Any) -> str:
    """SQLite keeps 'YYYY-MM-DD HH:MM:SS.ffffff' (naive UTC): the hashed text, cheaply."""
    if isinstance(value, str):
        if len(value) == 26:
            return f"{value[:10]}T{value[11:]}+00:00"
        value = datetime.fromisoformat(value)
    return time_text(value)


def _pg_time(value: Any) -> str:
    return time_text(value if isinstance(value, datetime) else datetime.fromisoformat(value))


def aware(value: Any) -> datetime:
    """A stored time (SQLite: text; PostgreSQL: naive datetime) as aware UTC."""
    when = datetime.fromisoformat(value) if isinstance(value, str) else value
    assert isinstance(when, datetime)
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class Source:
    """How a worker process reads the database, and what it may see (sent to each worker).

    ``snapshot``: PostgreSQL's exported snapshot of the verify's read transaction. On SQLite,
    ``max_event`` and ``max_ledger``: the last row ids that transaction saw (rows are only ever
    appended, so a later row has a larger id). ``max_hand`` and ``open_hands``: the hands that
    existed, and the status of each one not settled, as that transaction saw them.
    """

    dialect: str
    where: str
    path: str | None = None
    connect: tuple[tuple[str, Any], ...] = ()
    snapshot: str | None = None
    max_event: int | None = None
    max_ledger: int | None = None
    max_hand: int = 0
    open_hands: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Task:
    """One part: table ``table_id``'s events with ``lo <= seq < hi`` (None: no bound)."""

    table_id: int
    name: str
    lo: int | None
    hi: int | None


class Reader:
    """The queries of a part, on a DB-API connection (raw rows, no ORM)."""

    def __init__(self, conn: Any, source: Source) -> None:
        self.conn = conn
        self.source = source
        self.pg = source.dialect == "postgresql"
        self.mark = "%s" if self.pg else "?"
        self.to_time: Callable[[Any], str] = _pg_time if self.pg else _sqlite_time

    def _rows(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        cur = self.conn.cursor()
        try:
            cur.execute(sql, tuple(params))
            return list(cur.fetchall())
        finally:
            cur.close()

    def events(self, task: Task) -> list[tuple[Any, ...]]:
        m = self.mark
        sql = ("SELECT seq, hand_id, number, time, actor, body, prev_hash, hash FROM events "
               f"WHERE table_id = {m}")
        params: list[Any] = [task.table_id]
        if task.lo is not None:
            sql += f" AND seq >= {m}"
            params.append(task.lo)
        if task.hi is not None:
            sql += f" AND seq < {m}"
            params.append(task.hi)
        if self.source.max_event is not None:
            sql += f" AND id <= {m}"
            params.append(self.source.max_event)
        return self._rows(sql + " ORDER BY seq", params)

    def hand_infos(self, ids: Sequence[int]) -> dict[int, HandInfo]:
        """The hands table's word on these hands, as the verify's transaction saw it."""
        out: dict[int, HandInfo] = {}
        statuses = self.source.open_hands
        for i in range(0, len(ids), CHUNK):
            chunk = ids[i:i + CHUNK]
            marks = ",".join([self.mark] * len(chunk))
            for hand_id, table_id, number, _status in self._rows(
                f"SELECT id, table_id, number, status FROM hands WHERE id IN ({marks})", chunk
            ):
                if hand_id <= self.source.max_hand:
                    out[hand_id] = HandInfo(table_id, number, statuses.get(hand_id, "settled"))
        return out

    def ledgers(self, ids: Sequence[int]) -> dict[int, list[StoredLine]]:
        """Each hand's ledger lines of its latest settlement, in the order they were written."""
        out: dict[int, list[StoredLine]] = {}
        latest: dict[int, int] = {}
        bound = ""
        extra: list[Any] = []
        if self.source.max_ledger is not None:
            bound = f" AND id <= {self.mark}"
            extra = [self.source.max_ledger]
        for i in range(0, len(ids), CHUNK):
            chunk = ids[i:i + CHUNK]
            marks = ",".join([self.mark] * len(chunk))
            for hand_id, settlement, kind, detail, seat, amount in self._rows(
                "SELECT hand_id, settlement, kind, detail, seat, amount FROM ledger_lines "
                f"WHERE hand_id IN ({marks}){bound} ORDER BY hand_id, settlement, id",
                [*chunk, *extra],
            ):
                if latest.get(hand_id) != settlement:
                    latest[hand_id] = settlement
                    out[hand_id] = []
                out[hand_id].append(StoredLine(kind, detail, seat, int(amount)))
        return out

    def time_rows(self, table_id: int) -> list[tuple[int, str, str, str]]:
        """The table's table-level (seat and period) events: seq, time text, actor, text."""
        m = self.mark
        sql = ("SELECT seq, time, actor, body FROM events "
               f"WHERE table_id = {m} AND hand_id IS NULL")
        params: list[Any] = [table_id]
        if self.source.max_event is not None:
            sql += f" AND id <= {m}"
            params.append(self.source.max_event)
        to_time = self.to_time
        return [(seq, to_time(at), actor, body)
                for seq, at, actor, body in self._rows(sql + " ORDER BY seq", params)]

    def hand_events(self, table_id: int, hand_id: int) -> tuple[list[int], list[str]]:
        m = self.mark
        sql = f"SELECT seq, body FROM events WHERE table_id = {m} AND hand_id = {m}"
        params: list[Any] = [table_id, hand_id]
        if self.source.max_event is not None:
            sql += f" AND id <= {m}"
            params.append(self.source.max_event)
        rows = self._rows(sql + " ORDER BY seq", params)
        return [r[0] for r in rows], [r[1] for r in rows]


def check_part_on(reader: Reader, task: Task) -> Part:
    """Read one part, check its rows, replay its whole hands against their ledger lines."""
    with paused_gc():
        check = TableCheck(task.table_id, task.name, opening=False)
        check.feed(reader.events(task), reader.to_time)
        infos = reader.hand_infos(check.replayable())
        mine = [h for h, info in infos.items() if info.table_id == task.table_id]
        return check.part(infos, reader.ledgers(mine))



_CONNECTION: dict[tuple[Any, ...], Any] = {}


def _worker_connection(source: Source) -> Any:
    key = (source.dialect, source.path, source.connect)
    conn = _CONNECTION.get(key)
    if conn is not None:
        return conn
    if source.dialect == "sqlite":
        assert source.path is not None
        try:  # read-only; WAL lets it read beside the stations that write
            conn = sqlite3.connect(Path(source.path).as_uri() + "?mode=ro", uri=True,
                                   timeout=BUSY_TIMEOUT_S, isolation_level=None)
            conn.execute("SELECT 1 FROM card_tables LIMIT 1").fetchall()
        except sqlite3.OperationalError:  # (no -shm file it may create): read-write, unused
            conn = sqlite3.connect(Path(source.path).as_uri() + "?mode=rw", uri=True,
                                   timeout=BUSY_TIMEOUT_S, isolation_level=None)
            conn.execute("PRAGMA query_only = ON")
    else:
        import psycopg

        conn = psycopg.connect(**dict(source.connect), autocommit=True)
    _CONNECTION[key] = conn
    Finalize(None, conn.close, exitpriority=10)
    return conn


def check_part(source: Source, task: Task) -> Part:
    """A worker's job: one part, read on the worker's own connection (importable by spawn)."""
    return _with_reader(source, lambda reader: check_part_on(reader, task))


_T = TypeVar("_T")


def _with_reader(source: Source, work: Callable[[Reader], _T]) -> _T:
    """Run ``work`` on this worker's connection, in the verify's snapshot on PostgreSQL."""
    try:
        conn = _worker_connection(source)
        if source.dialect != "postgresql":
            return work(Reader(conn, source))
        conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try:
            if source.snapshot is not None:
                conn.execute(f"SET TRANSACTION SNAPSHOT '{source.snapshot}'")
            # a long read, idle between its queries while it replays: not a station left idle
            conn.execute("SET LOCAL idle_in_transaction_session_timeout = 0")
            return work(Reader(conn, source))
        finally:
            conn.execute("ROLLBACK")
    except DealerAssistError:
        raise
    except Exception as exc:
        if driver_error(exc):
            raise unavailable(exc, source.where) from None
        raise


TimeJob = tuple[int, str, list[SettingsVersion], list[LedgerLine]]
TimeResult = tuple[list[tuple[int, str, str, str]], list[tuple[int, str]]]


def check_time_rows(source: Source, job: TimeJob) -> TimeResult:
    """A worker's job: a table's seat and period events, read and folded while the parts are
    checked; the join uses the findings if the chain gives exactly these rows."""
    table_id, name, versions, stored = job
    return _with_reader(source, lambda reader: _time_result(reader, table_id, name, versions,
                                                            stored))


def _time_result(
    reader: Reader, table_id: int, name: str, versions: list[SettingsVersion],
    stored: list[LedgerLine],
) -> TimeResult:
    rows = reader.time_rows(table_id)
    return rows, time_findings(table_id, name, rows, versions, stored)


def driver_error(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.Error):
        return True
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return False
    return isinstance(exc, psycopg.Error)


#: What the hand rules replay for a game that carries something into the next hand: the hand
#: before's id, and the next hand's seats.
CarryJob = tuple[int, list[int]]


def carried_of(source: Source, jobs: list[CarryJob]) -> dict[int, dict[str, Any]]:
    """A worker's job: what each hand before carries into the next (``carried_by``), its
    events read on the worker's own connection, while this verify's parts are checked."""
    return _with_reader(source, lambda reader: carries_read(
        reader._rows, reader.mark, reader.source.max_event, jobs))


def carries_read(fetch: Callable[[str, Sequence[Any]], list[tuple[Any, ...]]], mark: str,
                 max_event: int | None, jobs: Sequence[CarryJob]) -> dict[int, dict[str, Any]]:
    """``carried_by`` of each job's hand, its events read a chunk of hands at a time."""
    bound = "" if max_event is None else f" AND id <= {int(max_event)}"
    out: dict[int, dict[str, Any]] = {}
    for i in range(0, len(jobs), CHUNK):
        chunk = jobs[i:i + CHUNK]
        bodies: dict[int, list[str]] = {hand_id: [] for hand_id, _ in chunk}
        for hand_id, body in fetch(
            f"SELECT hand_id, body FROM events WHERE hand_id IN ({','.join([mark] * len(chunk))})"
            f"{bound} ORDER BY hand_id, seq", [hand_id for hand_id, _ in chunk],
        ):
            bodies[int(hand_id)].append(body)
        with paused_gc():
            for hand_id, seats in chunk:
                want = carried_by(bodies[hand_id], seats)
                if want is not None:
                    out[hand_id] = want
    return out

"""``dealer-assist verify``: the whole database checked, each table's chain in parts on every CPU.

Each event's hash covers its stored previous hash, so a run of a table's rows can be checked on
its own: a worker process opens its own connection, reads one seq range (ending where a hand
ends), checks every hash and link inside it, replays the hands that lie wholly in it and
compares them with their ledger lines; this process joins the parts in order (the link between
two parts, each hand's first number in a part, the hands read in more than one part) with the
core's checks (:class:`dealer_assist.services.verify.TableCheck`), the same the in-memory store
is verified by. Every worker reads what this process's read transaction sees: on PostgreSQL
the same snapshot, on SQLite no row written after it. Small databases are checked in this
process (starting workers costs more than it saves).
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime
from multiprocessing import get_context
from multiprocessing.util import Finalize
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from dealer_assist.db.approvals_check import check_approvals_db, start_approvals
from dealer_assist.db.bootstrap import BUSY_TIMEOUT_S, Database, unavailable
from dealer_assist.engine.bodies import read_body
from dealer_assist.errors import DealerAssistError
from dealer_assist.gc_pause import paused_gc
from dealer_assist.services.audit_chain import AuditCheck, AuditHead, check_audit_chain
from dealer_assist.services.chain import GENESIS, time_text
from dealer_assist.services.handrules import (
    HandStart,
    Outcome,
    ShiftSpan,
    carried_by,
    carries,
    decisions,
    floor_events,
    floor_findings,
    hand_findings,
    outcomes,
    recorded_changes,
    takes_over,
)
from dealer_assist.services.model import LedgerLine, SettingsVersion
from dealer_assist.services.records import baselines
from dealer_assist.services.rulecheck import RuleFinding, RuleRecords, rule_findings
from dealer_assist.services.verify import (
    LINK_BROKEN,
    HandInfo,
    HandJob,
    Part,
    Problem,
    StoredLine,
    TableCheck,
    VerifyReport,
    check_hand,
    time_findings,
)
from dealer_assist.workers import pool_options

#: Below this many hands the whole check runs in this process (starting workers costs more).
PARALLEL_FROM = 2000
#: Rows per part: about this many, or fewer so that every worker gets several parts.
PART_ROWS = 8000
#: The fewest rows in a part (parts of a small database: one per table).
PART_MIN_ROWS = 1000
#: Parts end where a hand ends (a hand read in two parts is replayed again by the join).
ALIGN_PARTS = True
#: The multiprocessing start method for the workers (None: the platform's default).
START_METHOD: str | None = None
#: From this many seat and period events, a table's are folded on a worker beside its parts.
TIME_ROWS_AHEAD = 500
#: Hand ids per ``IN (...)`` list.
CHUNK = 500
#: The checks of each hand against its settings and the hand before, and of the hands table's
#: word, after the chain and replay (off only where a test compares the chain's join alone).
HAND_RULES = True

_SNAPSHOT = re.compile(r"[0-9A-Fa-f-]+")


def _sqlite_time(value: Any) -> str:
    """SQLite keeps 'YYYY-MM-DD HH:MM:SS.ffffff' (naive UTC): the hashed text, cheaply."""
    if isinstance(value, str):
        if len(value) == 26:
            return f"{value[:10]}T{value[11:]}+00:00"
        value = datetime.fromisoformat(value)
    return time_text(value)


def _pg_time(value: Any) -> str:
    return time_text(value if isinstance(value, datetime) else datetime.fromisoformat(value))


def _aware(value: Any) -> datetime:
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


class _Reader:
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


def _check_part(reader: _Reader, task: Task) -> Part:
    """Read one part, check its rows, replay its whole hands against their ledger lines."""
    with paused_gc():
        check = TableCheck(task.table_id, task.name, opening=False)
        check.feed(reader.events(task), reader.to_time)
        infos = reader.hand_infos(check.replayable())
        mine = [h for h, info in infos.items() if info.table_id == task.table_id]
        return check.part(infos, reader.ledgers(mine))


#: A worker process's own connection, opened at its first part, closed when it exits.
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
    return _with_reader(source, lambda reader: _check_part(reader, task))


_T = TypeVar("_T")


def _with_reader(source: Source, work: Callable[[_Reader], _T]) -> _T:
    """Run ``work`` on this worker's connection, in the verify's snapshot on PostgreSQL."""
    try:
        conn = _worker_connection(source)
        if source.dialect != "postgresql":
            return work(_Reader(conn, source))
        conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        try:
            if source.snapshot is not None:
                conn.execute(f"SET TRANSACTION SNAPSHOT '{source.snapshot}'")
            # a long read, idle between its queries while it replays: not a station left idle
            conn.execute("SET LOCAL idle_in_transaction_session_timeout = 0")
            return work(_Reader(conn, source))
        finally:
            conn.execute("ROLLBACK")
    except DealerAssistError:
        raise
    except Exception as exc:
        if _driver_error(exc):
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
    reader: _Reader, table_id: int, name: str, versions: list[SettingsVersion],
    stored: list[LedgerLine],
) -> TimeResult:
    rows = reader.time_rows(table_id)
    return rows, time_findings(table_id, name, rows, versions, stored)


def _driver_error(exc: BaseException) -> bool:
    if isinstance(exc, sqlite3.Error):
        return True
    try:
        import psycopg
    except ImportError:  # pragma: no cover - psycopg is a dependency
        return False
    return isinstance(exc, psycopg.Error)


def _ready() -> int:
    return os.getpid()


def verify_database(
    db: Database,
    *,
    progress: Callable[[int, int], None] | None = None,
    workers: int | None = None,
    key: Any = None,
    anchors: Any = None,
    since_checkpoint: bool = False,
) -> VerifyReport:
    """Walk every chain, replay every hand, check every settlement against the ledger, every
    fee against its settings version and every hand against the one before; compare the rows
    of users, tables, settings, shifts and disputes with their records on the audit chain; and
    check the signed checkpoints (with ``key``, the room's :class:`~dealer_assist.db.keys.RoomKey`:
    their signatures) and an exported anchors file (``anchors``).

    Every faulty table is named, each at its first bad sequence number.
    ``since_checkpoint``: check only what came after the newest checkpoint that verifies (and
    the whole of a hand it cut); without a key to check its signature, everything.
    ``progress(hands_done, hands_total)`` is called as the parts are joined. The parts are
    checked on ``workers`` processes (default: every CPU, for large databases).
    """
    from dealer_assist.db.checkpoints import check_checkpoints
    from dealer_assist.db.floor_records import floor_seat_faults

    try:
        with db.engine.connect() as conn:
            conn.execution_options(dealer_assist_read=True)
            anchored = check_checkpoints(conn, key, anchors, every=not since_checkpoint)
        # a checkpoint whose signature was not checked (no key here) is not trusted to start
        # from: without the room's key (or an anchors file's), verify in full
        # start only from a checkpoint signed after a check found everything intact (one
        # signed for a report vouches for nothing); the audit chain is walked whole (a few
        # thousand entries), so an entry changed before the checkpoint is named too
        if since_checkpoint and anchored.base is not None and anchored.signed:
            report = _verify_since(db, anchored.base)
            report.since = anchored.base.number
            report.audit = check_audit_log(db)
        else:
            report = _verify(db, progress, workers)
            report.audit = check_audit_log(db)
        report.findings.extend(check_records_db(db))
        report.findings.extend(check_sealed_db(db))
        report.findings.extend(floor_seat_faults(db))  # the floor board's seating
        report.findings.extend(str(f) for f in check_rules_db(db))
        approvals, old = check_approvals_db(db)
        report.findings.extend(approvals)
        report.notes.extend(old)
        report.findings.extend(anchored.problems)
        report.anchored = anchored.summary()
        return report
    except DBAPIError as exc:
        raise unavailable(exc, db.describe()) from exc
    except Exception as exc:
        if _driver_error(exc):
            raise unavailable(exc, db.describe()) from exc
        raise


def check_sealed_db(db: Database) -> list[str]:
    """Every sealed table's records walked against their head (schema 0017)."""
    from dealer_assist.db.sealed import sealed_faults

    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        return sealed_faults(conn)


def check_records_db(db: Database) -> list[str]:
    """The rows of users, tables, settings, shifts, disputes and the cardroom's name compared
    with their records on the audit chain (:func:`dealer_assist.services.records.check_records`)."""
    from sqlalchemy import select

    from dealer_assist.db.models import (
        AdjustmentRow,
        AuditRow,
        DisputeRow,
        Setting,
        ShiftRow,
        TableRow,
        TableSettingsRow,
    )
    from dealer_assist.services import records as rec

    a = AuditRow.__table__
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        entries = [(r.action, r.detail) for r in conn.execute(
            select(a.c.action, a.c.detail).where(a.c.action.startswith(rec.PREFIX))
            .order_by(a.c.id)
        )]
        from dealer_assist.db.users import SHOWN, pin_digest

        users = [rec.user_state(name=r.name, full_name=r.full_name, role=r.role,
                                active=bool(r.active), pin=pin_digest(conn, r.name))
                 for r in conn.execute(select(*SHOWN))]
        t = TableRow.__table__
        tables = [rec.table_state(id=r.id, name=r.name) for r in conn.execute(select(t))]
        ts = TableSettingsRow.__table__
        settings = [rec.settings_state(id=r.id, table_id=r.table_id, version=r.version,
                                       game=r.game, document=r.document,
                                       created_at=r.created_at, created_by=r.created_by)
                    for r in conn.execute(select(ts))]
        sh = ShiftRow.__table__
        shifts = [rec.shift_state(id=r.id, table_id=r.table_id, dealer=r.dealer, floor=r.floor,
                                  opened_at=r.opened_at, closed_at=r.closed_at,
                                  closed_by=r.closed_by, closed_floor=r.closed_floor)
                  for r in conn.execute(select(sh))]
        adj: dict[int, list[tuple[int | None, int, str]]] = {}
        ad = AdjustmentRow.__table__
        for r in conn.execute(select(ad).order_by(ad.c.id)):
            adj.setdefault(r.dispute_id, []).append((r.seat, int(r.amount), r.note or ""))
        d = DisputeRow.__table__
        disputes = [rec.dispute_state(id=r.id, hand_id=r.hand_id, notes=r.notes,
                                      ruling=r.ruling, floor=r.floor, at=r.at,
                                      adjustments=adj.get(r.id, []))
                    for r in conn.execute(select(d))]
        kv = Setting.__table__
        name = conn.execute(select(kv.c.value).where(kv.c.key == "cardroom")).scalar()
    rows = {"user": users, "table": tables, "settings": settings, "shift": shifts,
            "dispute": disputes, "cardroom": [rec.cardroom_state(name)] if name else []}
    return list(rec.check_records(entries, rows).problems)


def rule_records_db(db: Database) -> RuleRecords:
    """The rows the input rules are re-checked on (:mod:`dealer_assist.services.rulecheck`),
    read with plain SQL: the whole audit log, shifts, users, tables, hands' shifts, disputes."""
    from sqlalchemy import select

    from dealer_assist.db.models import (
        AuditRow,
        DisputeRow,
        HandRow,
        ShiftRow,
        TableRow,
        UserRow,
    )
    from dealer_assist.services.model import AuditEntry, Shift
    from dealer_assist.services.room import ROOM_ACTION, RoomClock, read_room

    a, sh, u, t, h, d = (AuditRow.__table__, ShiftRow.__table__, UserRow.__table__,
                         TableRow.__table__, HandRow.__table__, DisputeRow.__table__)
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        audit = [AuditEntry(id=r.id, at=_aware(r.at), actor=r.actor, action=r.action,
                            detail=r.detail or "", table_id=r.table_id, hand_id=r.hand_id,
                            seq=r.seq or 0)
                 for r in conn.execute(select(a.c.id, a.c.at, a.c.actor, a.c.action, a.c.detail,
                                              a.c.table_id, a.c.hand_id, a.c.seq)
                                       .order_by(a.c.id))]
        shifts = [Shift(r.id, r.table_id, r.dealer, r.floor, _aware(r.opened_at),
                        None if r.closed_at is None else _aware(r.closed_at), r.closed_by,
                        r.closed_floor) for r in conn.execute(select(sh))]
        people = list(conn.execute(select(u.c.name, u.c.full_name, u.c.role, u.c.active)))
        names = {r.name: r.full_name for r in people}
        tables = {int(r.id): r.name for r in conn.execute(select(t.c.id, t.c.name))}
        hand_shift = {int(i): int(s) for i, s in conn.execute(select(h.c.id, h.c.shift_id))}
        floors = [(int(i), f) for i, f in conn.execute(select(d.c.hand_id, d.c.floor))]
    clock = RoomClock()
    for e in audit:
        if e.action == ROOM_ACTION:
            clock = read_room(e.detail) or clock
    return RuleRecords(audit, shifts, names, tables, hand_shift, floors, clock.tolerance,
                       {r.name: (r.role, bool(r.active)) for r in people})


def check_rules_db(db: Database) -> list[RuleFinding]:
    """The rules enforced at input, re-checked on the database's rows, each breach named."""
    return rule_findings(rule_records_db(db))


def check_audit_log(db: Database, *, after: Mapping[str, Any] | None = None) -> AuditCheck:
    """Walk the audit log's chain in the order it was recorded, and compare it with its head.

    ``after``: a checkpoint's audit head (``entries``, ``hash``): walk only the entries after
    it, from that hash."""
    from sqlalchemy import select

    from dealer_assist.db.models import AuditHeadRow, AuditRow
    from dealer_assist.services.model import AuditEntry

    a, h = AuditRow.__table__, AuditHeadRow.__table__
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        head = conn.execute(select(h.c.entries, h.c.head_hash).where(h.c.id == 1)).first()
        entries = [
            AuditEntry(
                id=r.id, at=r.at, actor=r.actor, action=r.action, detail=r.detail,
                table_id=r.table_id, hand_id=r.hand_id, seq=r.seq or 0,
                prev_hash=r.prev_hash or "", hash=r.hash or "",
            )
            for r in conn.execute(
                select(a).order_by(a.c.id) if after is None else
                select(a).where(a.c.seq > int(after.get("entries", 0))).order_by(a.c.id)
            )
        ]
    start = (0, GENESIS) if after is None else (int(after.get("entries", 0)),
                                                 str(after.get("hash", GENESIS)))
    return check_audit_chain(
        entries, AuditHead(0) if head is None else AuditHead(int(head.entries), head.head_hash),
        start=start,
    )


def _verify(
    db: Database, progress: Callable[[int, int], None] | None, workers: int | None
) -> VerifyReport:
    with db.engine.connect() as conn:
        total = conn.exec_driver_sql("SELECT COUNT(*) FROM hands").scalar() or 0
    procs = workers if workers is not None else (os.cpu_count() or 1)
    with ExitStack() as stack:
        pool: ProcessPoolExecutor | None = None
        shared = db.dialect == "postgresql" or db.sqlite_path is not None
        if procs > 1 and total >= PARALLEL_FROM and shared:
            context = get_context(START_METHOD) if START_METHOD else None
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=procs,
                                                           mp_context=context,
                                                           **pool_options()))
            # Start the workers now, before this process opens its read transaction (a forked
            # worker must not inherit a connection in use).
            pool.submit(_ready)
        conn = stack.enter_context(db.engine.connect())
        return _Walk(db, conn, pool, procs, progress).run()


def _verify_since(db: Database, cp: Any) -> VerifyReport:
    """Check what came after checkpoint ``cp`` (whose signed heads the database still has)."""
    with db.engine.connect() as conn:
        return _Walk(db, conn, None, 1, None).run_since(cp)


class _HandRules:
    """The fee and continuity checks (:mod:`dealer_assist.services.handrules`): each hand's
    start event and hands-table row, the ledger lines continuity needs, the recorded changes."""

    def __init__(self, walk: _Walk, hands: Mapping[int, HandInfo], max_event: int | None,
                 since: Mapping[int, int] | None = None) -> None:
        self.walk = walk
        self.hands = hands
        self.max_event = max_event
        #: Incremental verify: per table, only hands starting after this seq (and the one
        #: before the first of them).
        self.since = since
        self.starts: dict[int, list[HandStart]] = {}
        self.ledger: dict[int, Outcome] = {}
        self.changes: dict[int, set[str]] = {}
        self.baselines: dict[int, int] = {}
        self.shifts: dict[int, ShiftSpan] = {}
        self.imported: set[int] = set()
        #: By hand id: why a hand that claims to be imported does not carry an import's marks.
        self.import_marks: dict[int, str] = {}
        #: By hand id: what the hand before it carries (games with ``Game.carries``).
        self.carried: dict[int, dict[str, Any]] = {}
        #: By hand id: its floor decisions (event number, seq, type), and the event numbers
        #: the audit log records a floor person approving.
        self.floor: dict[int, list[tuple[int, int, str]]] = {}
        self.decided: dict[int, set[int]] = {}
        #: By hand id: what a floor person approved of its start (schema 0016).
        self.approved: dict[int, set[str]] = {}

    def read(self) -> None:
        walk = self.walk
        cur = walk.conn.connection.driver_connection.cursor()  # type: ignore[union-attr]

        def fetch(sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
            cur.execute(sql, tuple(params))
            return list(cur.fetchall())

        mark = "%s" if walk.pg else "?"
        bound = "" if self.max_event is None else f" AND e.id <= {int(self.max_event)}"
        sql = ("SELECT h.id, h.table_id, h.number, h.game, h.settings_id, e.seq, e.time, e.body, "
               "h.started_by, e.actor, h.shift_id, h.seats, h.started_at, e.approval_id "
               "FROM hands h JOIN events e ON e.hand_id = h.id AND e.number = 1" + bound)
        params: list[Any] = []
        if self.since:  # every hand of the table (its row against its start event: cheap)
            sql += " WHERE h.table_id IN (" + ",".join([mark] * len(self.since)) + ")"
            params.extend(self.since)
        shift_ids: set[int] = set()
        for (hand_id, table_id, number, game, settings_id, seq, at, body, by, actor, shift,
             seats, started, approval) in fetch(sql + " ORDER BY h.table_id, e.seq", params):
            info = self.hands.get(hand_id)
            self.starts.setdefault(int(table_id), []).append(HandStart(
                hand_id=int(hand_id), table_id=int(table_id), number=int(number), game=game,
                status=info.status if info is not None else "open", settings_id=settings_id,
                seq=int(seq), time=_aware(at), body=body, started_by=by, actor=actor,
                shift_id=shift, seats=seats, started_at=_aware(started), approval_id=approval,
            ))
            shift_ids.add(int(shift))
        self.shifts = {
            int(i): ShiftSpan(int(t), _aware(o), None if c is None else _aware(c))
            for i, t, o, c in fetch("SELECT id, table_id, opened_at, closed_at FROM shifts")
            if int(i) in shift_ids
        }
        audit = fetch(
            "SELECT hand_id, action, detail, at, actor FROM audit_log WHERE action = 'stacks' "
            "OR action = 'record-baseline' OR action = 'import' ORDER BY id"
        )
        self.imported = {int(h) for h, a, *_ in audit if a == "import" and h is not None}
        entries: dict[int, tuple[Any, str]] = {}
        for h, a, _, at, actor in audit:
            if a == "import" and h is not None:
                entries.setdefault(int(h), (at, str(actor or "")))
        audit = [(h, a, d) for h, a, d, *_ in audit]
        self._read_imports(fetch, mark, entries)
        self.changes = recorded_changes(audit)
        self.approved = start_approvals(fetch, self.starts, self.changes)
        self.baselines = baselines((a, d) for _, a, d in audit)
        wanted: list[int] = []
        follows: list[tuple[HandStart, HandStart]] = []  # (hand before, hand) of carrying games
        for rows in self.starts.values():
            before: HandStart | None = None  # the last hand dealt (imported ones feed none)
            for after in rows:
                if after.settings_id is None:
                    continue
                recent = self.since is None or after.seq >= self.since.get(after.table_id, 0)
                if (recent and before is not None and after.game == before.game
                        and after.seq > self.baselines.get(after.table_id, 0)):
                    if takes_over(after.game, after.body):
                        wanted.append(before.hand_id)
                    if before.status == "settled" and carries(after.game):
                        follows.append((before, after))
                before = after
        for before, after in follows:  # replay the hand before: what its game carries
            try:
                seats = read_body(after.body).get("seats", [])
            except DealerAssistError:  # (the hand's replay names its unreadable start)
                continue
            bodies = [b for (b,) in fetch(
                f"SELECT body FROM events WHERE hand_id = {mark}{bound.replace('e.id', 'id')} "
                "ORDER BY seq", [before.hand_id])]
            want = carried_by(bodies, seats if isinstance(seats, list) else [])
            if want is not None:
                self.carried[after.hand_id] = want
        lines: list[tuple[int, int, str, int | None, int]] = []
        for i in range(0, len(wanted), CHUNK):
            chunk = wanted[i:i + CHUNK]
            lines.extend(fetch(
                "SELECT hand_id, settlement, kind, seat, amount FROM ledger_lines WHERE "
                f"hand_id IN ({','.join([mark] * len(chunk))}) AND kind IN "
                "('put_in', 'push', 'carry_out') ORDER BY hand_id, settlement, id", chunk,
            ))
        self._read_floor(fetch, mark, bound)
        cur.close()
        self.ledger = outcomes(lines)

    def _read_imports(self, fetch: Callable[..., list[tuple[Any, ...]]], mark: str,
                      entries: Mapping[int, tuple[Any, str]]) -> None:
        """A hand the hands table gives no settings version is held to the marks an import
        leaves in its hashed events: every event recorded at once, at its ``import`` entry's
        time, by that entry's actor. A live hand's settings version set to NULL beside an
        appended ``import`` entry keeps its dealer's inputs at their own times, and is named."""
        claimed = [h.hand_id for rows in self.starts.values() for h in rows
                   if h.settings_id is None and h.hand_id in entries]
        self.import_marks = {}
        for i in range(0, len(claimed), CHUNK):
            chunk = claimed[i:i + CHUNK]
            for hand_id, first, last, least, most in fetch(
                "SELECT hand_id, MIN(time), MAX(time), MIN(actor), MAX(actor) FROM events "
                f"WHERE hand_id IN ({','.join([mark] * len(chunk))}) GROUP BY hand_id", chunk,
            ):
                at, actor = entries[int(hand_id)]
                when = _aware(at)
                if (_aware(first) != when or _aware(last) != when or least != actor
                        or most != actor):
                    self.import_marks[int(hand_id)] = (
                        f"its events were recorded from {_aware(first):%Y-%m-%d %H:%M:%S} to "
                        f"{_aware(last):%H:%M:%S} by {least}"
                        + (f" and {most}" if most != least else "")
                        + f", not at once by {actor} at {when:%Y-%m-%d %H:%M:%S} as its "
                        "import entry says")

    def _read_floor(self, fetch: Callable[..., list[tuple[Any, ...]]], mark: str,
                    bound: str) -> None:
        """The floor decisions of games that have them, and the audit log's approvals."""
        games = sorted({h.game for rows in self.starts.values() for h in rows
                        if floor_events(h.game)})
        if not games:
            return
        numbers = {h.hand_id: h for rows in self.starts.values() for h in rows}
        found = fetch(
            "SELECT e.hand_id, e.number, e.seq, e.body FROM events e JOIN hands h ON "
            f"h.id = e.hand_id WHERE h.game IN ({','.join([mark] * len(games))}){bound}",
            games)
        for hand_id, number, seq, body in found:
            h = numbers.get(int(hand_id))
            if h is None or seq <= self.baselines.get(h.table_id, 0):
                continue
            try:
                kind = read_body(body).get("type")
            except DealerAssistError:  # (the hand's replay names it)
                continue
            if kind in floor_events(h.game):
                self.floor.setdefault(int(hand_id), []).append((int(number), int(seq), kind))
        self.decided = decisions(fetch(
            "SELECT hand_id, detail FROM audit_log WHERE action = 'floor-decision'"))

    def findings(
        self, table_id: int, name: str, versions: Sequence[SettingsVersion]
    ) -> list[tuple[int, str, int]]:
        found = hand_findings(name, self.starts.get(table_id, []), versions, self.ledger,
                              self.changes, self.baselines.get(table_id, 0), self.shifts,
                              imported=self.imported, check_numbers=True, first_number=1,
                              carried=self.carried, approved=self.approved)
        for h in self.starts.get(table_id, []):
            if h.hand_id in self.import_marks:
                found.append((h.seq, f"hand {h.number}: the hands table gives it no settings "
                              f"version and an import entry names it, but "
                              f"{self.import_marks[h.hand_id]} (a live hand made to look "
                              "imported behind the app's back: its fee and continuity would go "
                              "unchecked, and the day's totals would leave it out)", h.hand_id))
            if h.hand_id in self.floor:
                found.extend(floor_findings(h.number, h.hand_id, self.floor[h.hand_id],
                                            self.decided.get(h.hand_id, set())))
        return found


class _Walk:
    """One verify: read what this transaction sees, plan the parts, join them table by table."""

    def __init__(
        self, db: Database, conn: Connection, pool: ProcessPoolExecutor | None, procs: int,
        progress: Callable[[int, int], None] | None,
    ) -> None:
        self.db = db
        self.pg = db.dialect == "postgresql"
        if self.pg:
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        else:
            conn = conn.execution_options(dealer_assist_read=True)
        self.conn = conn
        self.pool = pool
        self.procs = procs
        self.progress = progress

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(self.conn.exec_driver_sql(sql, tuple(params)).all())

    def run(self) -> VerifyReport:
        snapshot = None
        if self.pg:
            # The transaction's snapshot, for the workers: the first statement fixes it.
            snapshot = self.conn.exec_driver_sql("SELECT pg_export_snapshot()").scalar()
            # idle while the workers check the parts, for as long as they take
            self.conn.exec_driver_sql("SET LOCAL idle_in_transaction_session_timeout = 0")
            if not isinstance(snapshot, str) or not _SNAPSHOT.fullmatch(snapshot):
                snapshot = None
        tables = self._all("SELECT id, name, head_seq, head_hash FROM card_tables ORDER BY id")
        hands = {
            r[0]: HandInfo(r[1], r[2], r[3])
            for r in self._all("SELECT id, table_id, number, status FROM hands ORDER BY id")
        }
        max_event = max_ledger = None
        if not self.pg:
            max_event = self.conn.exec_driver_sql("SELECT MAX(id) FROM events").scalar()
            max_ledger = self.conn.exec_driver_sql("SELECT MAX(id) FROM ledger_lines").scalar()
        source = Source(
            dialect=self.db.dialect, where=self.db.describe(),
            path=str(self.db.sqlite_path.resolve()) if self.db.sqlite_path else None,
            connect=self._connect_args() if self.pg else (), snapshot=snapshot,
            max_event=max_event or 0 if not self.pg else None,
            max_ledger=max_ledger or 0 if not self.pg else None,
            max_hand=max(hands, default=0),
            open_hands={h: i.status for h, i in hands.items() if i.status != "settled"},
        )
        versions = self._versions()
        time_lines = self._time_lines()
        names = {t[0]: t[1] for t in tables}
        heads = {t[0]: (t[2], t[3]) for t in tables}
        ids = sorted(set(names) | set(self._event_tables()))
        spans = {t: self._span(t) for t in ids}
        size = max(PART_MIN_ROWS, PART_ROWS)
        if self.pool is not None:  # several parts for every worker, for an even load
            rows = sum(high - low + 1 for low, high in spans.values()
                       if low is not None and high is not None)
            size = max(PART_MIN_ROWS, min(PART_ROWS, rows // (self.procs * 6)))
        plans = {t: self._plan(t, names.get(t, f"#{t}"), *spans[t], size) for t in ids}
        reader = _Reader(self.conn.connection.driver_connection, source)
        rules = _HandRules(self, hands, max_event)
        futures: dict[tuple[int, int], Future[Part]] = {}
        timed: dict[int, Future[TimeResult]] = {}
        if self.pool is not None:
            # a table's seat and period events are folded in order, after its parts are
            # joined; many of them: fold them on a worker meanwhile
            for t, count in self._all(
                "SELECT table_id, COUNT(*) FROM events WHERE hand_id IS NULL GROUP BY table_id"
            ):
                if count >= TIME_ROWS_AHEAD and t in plans:
                    job = (t, names.get(t, f"#{t}"), versions.get(t, []), time_lines.get(t, []))
                    timed[t] = self.pool.submit(check_time_rows, source, job)
            for t in ids:
                for i, task in enumerate(plans[t]):
                    futures[(t, i)] = self.pool.submit(check_part, source, task)
        rules.read()  # (while the workers check the parts)
        report = VerifyReport()
        for t in ids:
            head_seq, head_hash = heads.get(t, (None, None))
            check = TableCheck(t, names.get(t, f"#{t}"), head_seq=head_seq,
                               head_hash=head_hash)
            for i, task in enumerate(plans[t]):
                check.join(self._part(futures.get((t, i)), reader, task))
                if self.progress is not None:
                    self.progress(report.hands + len(check.hands), len(hands))
            rest = check.close(hands)
            check.absorb(check_hand(job) for job in self._jobs(reader, check, rest, hands))
            check.check_time(versions.get(t, []), time_lines.get(t, []),
                             self._time_found(timed.get(t), check))
            if HAND_RULES and check.problem is None:  # (a broken chain first: its rows are suspect)
                check.absorb(rules.findings(t, names.get(t, f"#{t}"), versions.get(t, [])))
            report.tables += 1
            report.events += check.rows
            report.hands += len(check.hands)
            if self.progress is not None:
                self.progress(report.hands, len(hands))
            report.add(check.problem)
            report.problems.extend(check.faults)
            report.notes.extend(check.notes)
        return report

    def run_since(self, cp: Any) -> VerifyReport:
        """Each table from the newest checkpoint's head on (from the first event of a hand the
        checkpoint cut), in this process: the chain links to the signed hash, every hand
        begun after it replays and matches its ledger, its fee and continuity hold."""
        mark = "%s" if self.pg else "?"
        tables = self._all("SELECT id, name, head_seq, head_hash FROM card_tables ORDER BY id")
        source = Source(dialect=self.db.dialect, where=self.db.describe())
        reader = _Reader(self.conn.connection.driver_connection, source)
        versions = self._versions()
        time_lines = self._time_lines()
        report = VerifyReport()
        for table_id, name, head_seq, head_hash in tables:
            signed = cp.table_head(table_id)
            seq_cp, hash_cp = signed if signed is not None else (0, GENESIS)
            start, last_hash = seq_cp + 1, hash_cp
            nxt = self.conn.exec_driver_sql(
                f"SELECT hand_id, number FROM events WHERE table_id = {mark} AND seq = {mark}",
                (table_id, seq_cp + 1),
            ).first()
            if nxt is not None and nxt[0] is not None and nxt[1] != 1:
                first = self.conn.exec_driver_sql(
                    f"SELECT seq, prev_hash FROM events WHERE hand_id = {mark} AND number = 1",
                    (nxt[0],),
                ).first()
                if first is not None and first[0] <= seq_cp:
                    start, last_hash = int(first[0]), first[1]
            # the events before: every hash and link again (no replay), so an event changed
            # or deleted behind the signed head is named as a full verify names it
            sealed = TableCheck(table_id, name)
            sealed.feed(reader.events(Task(table_id, name, None, start)), reader.to_time)
            sealed.hands.clear()
            if (sealed.problem is None and start > 1
                    and (sealed.last_seq, sealed.last_hash) != (start - 1, last_hash)):
                sealed.problem = Problem(table_id, name, start, LINK_BROKEN)
            check = TableCheck(table_id, name, head_seq=head_seq, head_hash=head_hash)
            check.last_seq, check.last_hash = start - 1, last_hash
            check.time_rows = [
                (seq, reader.to_time(at), actor, body) for seq, at, actor, body in self._all(
                    "SELECT seq, time, actor, body FROM events WHERE table_id = "
                    f"{mark} AND hand_id IS NULL AND seq < {mark} ORDER BY seq",
                    (table_id, start),
                )
            ]
            check.feed(reader.events(Task(table_id, name, start, None)), reader.to_time)
            before = self.conn.exec_driver_sql(
                "SELECT MAX(h.number) FROM hands h JOIN events e ON e.hand_id = h.id "
                f"AND e.number = 1 WHERE h.table_id = {mark} AND e.seq < {mark}",
                (table_id, start),
            ).scalar() or 0
            hands = {
                r[0]: HandInfo(r[1], r[2], r[3]) for r in self._all(
                    "SELECT id, table_id, number, status FROM hands WHERE table_id = "
                    f"{mark} AND number > {mark}", (table_id, before),
                )
            }
            for hand_id in check.hands:  # (a hand of another table's number range)
                if hand_id not in hands:
                    found = self._all(
                        f"SELECT id, table_id, number, status FROM hands WHERE id = {mark}",
                        (hand_id,),
                    )
                    hands.update({r[0]: HandInfo(r[1], r[2], r[3]) for r in found})
            check.finish(hands, reader.ledgers(list(check.hands)))
            # hands the checkpoint signed open, and hands given ledger lines since: replayed
            # and compared with their ledger too, wherever their events are
            signed_t: dict[str, Any] = next(
                (t for t in cp.data.get("tables", ()) if t.get("id") == table_id), {})
            extra = {int(h) for h in signed_t.get("open", ())}
            extra.update(int(r[0]) for r in self._all(
                "SELECT DISTINCT l.hand_id FROM ledger_lines l JOIN hands h ON h.id = l.hand_id "
                f"WHERE h.table_id = {mark} AND l.id > {mark}",
                (table_id, int(signed_t.get("last_line", 0))),
            ))
            extra -= set(check.hands)
            if extra and check.problem is None:
                infos = {r[0]: HandInfo(r[1], r[2], r[3]) for r in self._all(
                    "SELECT id, table_id, number, status FROM hands WHERE id IN ("
                    + ",".join([mark] * len(extra)) + ")", sorted(extra))}
                ledgers = reader.ledgers(sorted(infos))
                for hand_id, info in sorted(infos.items()):
                    seqs, bodies = reader.hand_events(table_id, hand_id)
                    if not seqs:
                        continue
                    # (a hand settled under an earlier rule is a note here too)
                    check.absorb([check_hand((hand_id, info, seqs, bodies,
                                              ledgers.get(hand_id, [])))])
            check.check_time(versions.get(table_id, []), time_lines.get(table_id, []))
            dealt = self._all(  # the last hand dealt before (imported ones feed none)
                "SELECT h.id, h.table_id, h.number, h.status, e.seq FROM hands h JOIN events e "
                f"ON e.hand_id = h.id AND e.number = 1 WHERE h.table_id = {mark} "
                f"AND h.settings_id IS NOT NULL AND e.seq < {mark} ORDER BY h.number DESC "
                "LIMIT 1", (table_id, start),
            )
            known = dict(hands)
            known.update({r[0]: HandInfo(r[1], r[2], r[3]) for r in dealt})
            rules = _HandRules(self, known, None,
                               since={table_id: int(dealt[0][4]) if dealt else start})
            rules.read()
            if HAND_RULES and check.problem is None:
                check.absorb(rules.findings(table_id, name, versions.get(table_id, [])))
            report.tables += 1
            report.events += check.rows + sealed.rows
            report.hands += len(check.hands)
            report.add(sealed.problem or check.problem)
            report.problems.extend(check.faults)
            report.notes.extend(check.notes)
        report.findings.extend(self._ledger_since(cp))
        return report

    def _ledger_since(self, cp: Any) -> list[str]:
        """The ledger lines checkpoint ``cp`` signed, against its digest of them: a line
        changed since (a push moved to another seat with the totals kept) is named."""
        from dealer_assist.db.checkpoints import ledger_digests

        signed = {int(t["id"]): t for t in cp.data.get("tables", ()) if "ledger" in t}
        now = ledger_digests(self.conn, {t: int(v.get("last_line", 0))
                                         for t, v in signed.items()})
        return [f"table {t.get('name')} (id {table_id}): its ledger lines up to line "
                f"{t.get('last_line')} differ from those checkpoint {cp.number} signed (a line "
                "was changed since: a push, a fee or a seat)"
                for table_id, t in sorted(signed.items()) if now.get(table_id) != t["ledger"]]

    def _part(self, future: Future[Part] | None, reader: _Reader, task: Task) -> Part:
        """The part from its worker; read here when there is no pool (or it broke)."""
        if future is not None:
            try:
                return future.result()
            except BrokenProcessPool:
                self.pool = None
        return _check_part(reader, task)

    def _time_found(
        self, future: Future[TimeResult] | None, check: TableCheck
    ) -> list[tuple[int, str]] | None:
        """A worker's findings on the table's seat and period events, if it folded exactly the
        rows the chain gave (else None: :meth:`TableCheck.check_time` folds them here)."""
        if future is None or self.pool is None:
            return None
        try:
            rows, found = future.result()
        except BrokenProcessPool:
            self.pool = None
            return None
        return found if rows == check.time_rows else None

    def _jobs(
        self, reader: _Reader, check: TableCheck, ids: Iterable[int], hands: Mapping[int, HandInfo]
    ) -> Iterator[HandJob]:
        """The hands the join replays itself (read in more than one part), read again whole."""
        for hand_id in ids:
            seqs, bodies = reader.hand_events(check.table_id, hand_id)
            ledger = reader.ledgers([hand_id]).get(hand_id)
            yield hand_id, hands[hand_id], seqs, bodies, ledger

    def _connect_args(self) -> tuple[tuple[str, Any], ...]:
        """psycopg's connect arguments for this database's URL."""
        engine = self.db.engine
        _, params = engine.dialect.create_connect_args(engine.url)
        params = {k: v for k, v in params.items() if isinstance(v, (str, int, float))}
        params.setdefault("connect_timeout", 5)
        return tuple(sorted(params.items()))

    def _event_tables(self) -> list[int]:
        """Every table id the events name (a loose index scan: one probe per table)."""
        rows = self._all(
            "WITH RECURSIVE t(id) AS (SELECT MIN(table_id) FROM events UNION ALL "
            "SELECT (SELECT MIN(table_id) FROM events WHERE table_id > t.id) FROM t "
            "WHERE t.id IS NOT NULL) SELECT id FROM t WHERE id IS NOT NULL"
        )
        return [int(r[0]) for r in rows]

    def _span(self, table_id: int) -> tuple[int | None, int | None]:
        """The table's lowest and highest seq (whole numbers; else None: read in one part)."""
        mark = "%s" if self.pg else "?"
        low, high = self.conn.exec_driver_sql(
            f"SELECT MIN(seq), MAX(seq) FROM events WHERE table_id = {mark}", (table_id,)
        ).one()
        if type(low) is not int or type(high) is not int:
            return None, None
        return low, high

    def _plan(
        self, table_id: int, name: str, low: int | None, high: int | None, size: int
    ) -> list[Task]:
        """The table's seq ranges: the first open below, the last open above, so every row is
        in exactly one; each inner bound at a hand's first event (where the row there says
        which number of its hand it is)."""
        mark = "%s" if self.pg else "?"
        cuts: list[int] = []
        if low is not None and high is not None:
            at = low + size
            while at <= high:
                cut = at
                if ALIGN_PARTS:
                    found = self.conn.exec_driver_sql(
                        f"SELECT hand_id, number FROM events WHERE table_id = {mark} "
                        f"AND seq = {mark}", (table_id, at),
                    ).first()
                    if found is not None and found[0] is not None and type(found[1]) is int:
                        cut = at - found[1] + 1
                if cut > (cuts[-1] if cuts else low):
                    cuts.append(cut)
                at += size
        bounds: list[int | None] = [None, *cuts, None]
        return [Task(table_id, name, bounds[i], bounds[i + 1]) for i in range(len(cuts) + 1)]

    def _versions(self) -> dict[int, list[SettingsVersion]]:
        out: dict[int, list[SettingsVersion]] = {}
        for r in self._all(
            "SELECT id, table_id, version, game, document, created_at, created_by "
            "FROM table_settings ORDER BY table_id, version"
        ):
            out.setdefault(r.table_id, []).append(SettingsVersion(
                id=r.id, table_id=r.table_id, version=r.version, game=r.game,
                document=json.loads(r.document), created_at=_aware(r.created_at),
                created_by=r.created_by,
            ))
        return out

    def _time_lines(self) -> dict[int, list[LedgerLine]]:
        out: dict[int, list[LedgerLine]] = {}
        for table_id, seq, kind, detail, seat, amount, period in self._all(
            "SELECT table_id, seq, kind, detail, seat, amount, period FROM ledger_lines "
            "WHERE hand_id IS NULL ORDER BY id"
        ):
            out.setdefault(int(table_id or 0), []).append(LedgerLine(
                hand_id=None, kind=kind, amount=int(amount), seat=seat, detail=detail,
                settlement=0, table_id=table_id, period=period, seq=seq,
            ))
        return out

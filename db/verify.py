"""``dealer-assist verify``: the whole database checked, streamed table by table.

Rows come in sequence order straight from the driver (no ORM objects), hands and ledger lines
in a few batch queries; the checks themselves are the core's
(:class:`dealer_assist.services.verify.TableCheck`), the same the in-memory store is verified by.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from dealer_assist.db.bootstrap import Database, unavailable
from dealer_assist.services.chain import time_text
from dealer_assist.services.model import LedgerLine, TableSettings
from dealer_assist.services.verify import (
    HandInfo,
    HandProblem,
    TableCheck,
    VerifyReport,
    check_hand,
)

EVENTS_SQL = (
    "SELECT table_id, seq, hand_id, number, time, actor, body, prev_hash, hash "
    "FROM events ORDER BY table_id, seq"
)


def _sqlite_time(value: Any) -> str:
    """SQLite keeps 'YYYY-MM-DD HH:MM:SS.ffffff' (naive UTC): the hashed text, cheaply."""
    if isinstance(value, str):
        if len(value) == 26:
            return f"{value[:10]}T{value[11:]}+00:00"
        value = datetime.fromisoformat(value)
    return time_text(value)


def _aware(value: Any) -> datetime:
    """A stored time (SQLite: text; PostgreSQL: naive datetime) as aware UTC."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


#: Below this many hands the replays run in this process (starting workers costs more).
PARALLEL_FROM = 2000


def verify_database(
    db: Database,
    *,
    progress: Callable[[int, int], None] | None = None,
    workers: int | None = None,
) -> VerifyReport:
    """Walk every chain, replay every hand, check every settlement against the ledger.

    Stops at the first table with a problem and names its first bad sequence number.
    ``progress(hands_done, hands_total)`` is called after each table. The hands are replayed
    on ``workers`` processes (default: every CPU, for large databases).
    """
    try:
        return _verify(db, progress, workers)
    except DBAPIError as exc:
        raise unavailable(exc, db.describe()) from exc


def _verify(
    db: Database, progress: Callable[[int, int], None] | None, workers: int | None
) -> VerifyReport:
    with ExitStack() as stack:
        with db.engine.connect() as conn:
            total = conn.exec_driver_sql("SELECT COUNT(*) FROM hands").scalar() or 0
        procs = workers if workers is not None else (os.cpu_count() or 1)
        pool: ProcessPoolExecutor | None = None
        if procs > 1 and total >= PARALLEL_FROM:
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=procs))
        return _walk(db, progress, pool, procs)


def _walk(
    db: Database, progress: Callable[[int, int], None] | None,
    pool: ProcessPoolExecutor | None, procs: int,
) -> VerifyReport:
    """Read each table's chain; its hands replay on the pool while the next table is read."""
    report = VerifyReport()
    to_time = _sqlite_time if db.dialect == "sqlite" else time_text
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        tables = conn.execute(
            text("SELECT id, name, head_seq, head_hash FROM card_tables ORDER BY id")
        ).all()
        hands = {
            r[0]: HandInfo(r[1], r[2], r[3])
            for r in conn.execute(text("SELECT id, table_id, number, status FROM hands"))
        }
        ledgers: dict[int, list[LedgerLine]] = {}
        latest: dict[int, int] = {}
        for hand_id, settlement, kind, detail, seat, amount in conn.execute(
            text("SELECT hand_id, settlement, kind, detail, seat, amount FROM ledger_lines "
                 "WHERE hand_id IS NOT NULL ORDER BY hand_id, settlement, id")
        ):
            if latest.get(hand_id) != settlement:
                latest[hand_id] = settlement
                ledgers[hand_id] = []
            ledgers[hand_id].append(LedgerLine(
                hand_id=hand_id, kind=kind, amount=int(amount), seat=seat, detail=detail,
                settlement=settlement,
            ))
        time_lines: dict[int, list[LedgerLine]] = {}
        for table_id, seq, kind, detail, seat, amount, period in conn.execute(
            text("SELECT table_id, seq, kind, detail, seat, amount, period FROM ledger_lines "
                 "WHERE hand_id IS NULL ORDER BY id")
        ):
            time_lines.setdefault(int(table_id or 0), []).append(LedgerLine(
                hand_id=None, kind=kind, amount=int(amount), seat=seat, detail=detail,
                settlement=0, table_id=table_id, period=period, seq=seq,
            ))
        versions: dict[int, list[TableSettings]] = {}
        for r in conn.execute(text(
            "SELECT id, table_id, version, game, document, created_at, created_by "
            "FROM table_settings ORDER BY table_id, version"
        )):
            versions.setdefault(r.table_id, []).append(TableSettings(
                id=r.id, table_id=r.table_id, version=r.version, game=r.game,
                document=json.loads(r.document), created_at=_aware(r.created_at),
                created_by=r.created_by,
            ))
        by_id = {t.id: t for t in tables}
        checks: dict[int, TableCheck] = {}
        current: TableCheck | None = None
        result = conn.execution_options(stream_results=True, yield_per=5000).execute(
            text(EVENTS_SQL)
        )

        queue: list[tuple[TableCheck, Iterable[HandProblem]]] = []

        def finish(check: TableCheck) -> None:
            """The table is read: start replaying its hands (on the pool: in the background)."""
            jobs = check.pending(hands, ledgers)
            if pool is None:
                queue.append((check, [check_hand(job) for job in jobs]))
            else:
                size = max(16, len(jobs) // (procs * 8) or 1)
                queue.append((check, pool.map(check_hand, jobs, chunksize=size)))

        for table_id, seq, hand_id, number, at, actor, body, prev, hash_ in result:
            if current is None or current.table_id != table_id:
                if current is not None:
                    finish(current)
                t = by_id.get(table_id)
                current = checks[table_id] = TableCheck(
                    table_id, t.name if t else f"#{table_id}",
                    head_seq=t.head_seq if t else None, head_hash=t.head_hash if t else None,
                )
            current.row(seq, hand_id, number, to_time(at), actor, body, prev, hash_)
        if current is not None:
            finish(current)
        for t in tables:  # tables without any event: their heads must say so
            if t.id not in checks:
                check = checks[t.id] = TableCheck(
                    t.id, t.name, head_seq=t.head_seq, head_hash=t.head_hash
                )
                finish(check)
    queue.sort(key=lambda item: item[0].table_id)
    for check, results in queue:  # in table order: the first bad table is the one named
        check.absorb(results)
        check.check_time(versions.get(check.table_id, []), time_lines.get(check.table_id, []))
        report.tables += 1
        report.events += check.rows
        report.hands += len(check.hands)
        if progress is not None:
            progress(report.hands, len(hands))
        if check.problem is not None:
            report.problem = check.problem
            if pool is not None:
                pool.shutdown(cancel_futures=True)
            break
    return report

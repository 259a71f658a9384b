"""``dealer-assist verify``: the whole database checked, streamed table by table.

Rows come in sequence order straight from the driver (no ORM objects), hands and ledger lines
in a few batch queries; the checks themselves are the core's
(:class:`dealer_assist.services.verify.TableCheck`), the same the in-memory store is verified by.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from dealer_assist.db.bootstrap import Database, unavailable
from dealer_assist.services.chain import time_text
from dealer_assist.services.model import LedgerLine
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
                 "ORDER BY hand_id, settlement, id")
        ):
            if latest.get(hand_id) != settlement:
                latest[hand_id] = settlement
                ledgers[hand_id] = []
            ledgers[hand_id].append(LedgerLine(
                hand_id=hand_id, kind=kind, amount=int(amount), seat=seat, detail=detail,
                settlement=settlement,
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

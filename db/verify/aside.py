"""The checks ``verify --since-checkpoint`` cannot start from the checkpoint: the sealed
records' chains (re-hashed whole, so a record changed behind a signed head is named) and the
floor's seating (folded from the first record). On a large database they run on a worker
process of their own while this process walks the tables' chains from the checkpoint, as a
full verify runs them in this process while its workers walk the chains.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager

from dealer_assist.db.bootstrap import Database, build_engine
from dealer_assist.db.floor_records import SeatsSince, floor_seat_faults
from dealer_assist.db.verify.records import check_sealed_db
from dealer_assist.workers import pool_options

#: From this many hands the two checks go to a worker (below, starting it costs more).
ASIDE_FROM = 2000

Found = tuple[list[str], list[str]]


def whole_checks(url: str, seats: SeatsSince) -> Found:
    """In a worker: the sealed records' faults and the seating's, on a connection of its own."""
    db = Database(build_engine(url, create=False), url)
    try:
        return check_sealed_db(db), floor_seat_faults(db, seats)
    finally:
        db.close()


def _here(db: Database, seats: SeatsSince) -> Found:
    return check_sealed_db(db), floor_seat_faults(db, seats)


def _large(db: Database) -> bool:
    with db.engine.connect() as conn:
        return int(conn.exec_driver_sql("SELECT COUNT(*) FROM hands").scalar() or 0) \
            >= ASIDE_FROM


@contextmanager
def aside(db: Database, seats: SeatsSince, workers: int | None) -> Iterator[Callable[[], Found]]:
    """Run the two checks beside the block; the callable yielded gives their findings (it
    waits for the worker, or checks in this process when no worker was worth starting or
    the worker was lost)."""
    shared = db.dialect == "postgresql" or db.sqlite_path is not None
    procs = workers if workers is not None else (os.cpu_count() or 1)
    if procs < 2 or not shared or not _large(db):
        yield lambda: _here(db, seats)
        return
    with ProcessPoolExecutor(max_workers=1, **pool_options()) as pool:
        future = pool.submit(whole_checks, db.url, seats)

        def found() -> Found:
            try:
                return future.result()
            except Exception:  # a lost worker: check here (a real fault is raised again)
                return _here(db, seats)

        yield found

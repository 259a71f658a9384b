"""Benchmark: a 5,000-hand shift report against querying the same rows.

``ours`` is the whole report as the CLI makes it: read the shift's hands, walk and re-check the
table's hash chain and replay every hand and compare it with the ledger (in parts on a worker
process per processor), lay out and write the PDF, log the generation. ``query`` is the bare
cost of fetching the same rows with sqlite3 (the shift's hands, the table's events in chain
order, the hands' ledger lines), measured in the same run, each query run just before a report
run; each figure is the best of ``--runs``. The demo database is built once and kept in the
temporary folder.

    /tmp/venv/bin/python bench/bench_report.py [--hands 5000] [--runs 3]
"""

from __future__ import annotations

import argparse
import os
import sqlite3
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path


def _database(hands: int) -> Path:
    """A one-table demo database whose hands are all one shift (built once, then reused)."""
    from dealer_assist.db import demo, demo_plan, demo_rows
    from dealer_assist.db.bootstrap import open_database
    from dealer_assist.services import Argon2PinHasher

    folder = Path(tempfile.gettempdir()) / "dealer-assist-bench"
    folder.mkdir(exist_ok=True)
    path = folder / f"report-shift-{hands}.sqlite3"
    if path.exists():
        with sqlite3.connect(path) as conn:
            row = conn.execute(
                "SELECT count(*) FROM hands GROUP BY shift_id ORDER BY 1 DESC LIMIT 1"
            ).fetchone()
        if row is not None and row[0] == hands:
            return path
        path.unlink()
    # one long shift: every hand in it (the rows' writer reads the length it imported)
    demo_plan.SHIFT_LENGTH = demo_rows.SHIFT_LENGTH = timedelta(days=3650)
    db = open_database(f"sqlite:///{path}")
    try:
        start = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)
        demo.fill_demo(db, hands=hands, tables=1, seed=5, start=start,
                       hasher=Argon2PinHasher(fast=True))
    finally:
        db.close()
    return path


def _query(path: Path, shift_id: int, table_id: int) -> float:
    """Fetch the rows the report reads, with the bare driver: the floor to compare against."""
    began = time.perf_counter()
    conn = sqlite3.connect(path)
    try:
        conn.execute("SELECT id, number, game, seats, started_at, started_by, status FROM hands "
                     "WHERE shift_id = ? ORDER BY number", (shift_id,)).fetchall()
        conn.execute("SELECT seq, hand_id, number, time, actor, body, prev_hash, hash "
                     "FROM events WHERE table_id = ? ORDER BY seq", (table_id,)).fetchall()
        conn.execute("SELECT hand_id, settlement, kind, detail, seat, amount FROM ledger_lines "
                     "WHERE hand_id IN (SELECT id FROM hands WHERE shift_id = ?) ORDER BY id",
                     (shift_id,)).fetchall()
    finally:
        conn.close()
    return time.perf_counter() - began


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--runs", type=int, default=3, help="best of this many runs (3)")
    args = ap.parse_args(argv)

    from dealer_assist.db.bootstrap import open_services
    from dealer_assist.reports import generate
    from dealer_assist.reports.build.shift import build_shift
    from dealer_assist.reports.layouts.shift import render_shift
    from dealer_assist.services import Session

    path = _database(args.hands)
    svc = open_services(f"sqlite:///{path}")
    shift = max(svc.list_shifts(), key=lambda s: s.opened_at)
    fran = next(u for u in svc.store.list_users() if u.role == "floor")
    session = Session(user=fran, signed_in_at=datetime.now(UTC))
    out = Path(tempfile.gettempdir()) / "dealer-assist-bench" / "report-shift.pdf"

    ours = query = float("inf")
    pages = hands = 0
    cpu = (0.0, 0.0)
    for _ in range(args.runs):  # the two interleaved: a busy moment hits both alike
        query = min(query, _query(path, shift.id, shift.table_id))
        before = os.times()
        began = time.perf_counter()
        done = generate.shift_report(svc, session, out, shift_id=shift.id)
        took = time.perf_counter() - began
        after = os.times()
        if took < ours:
            ours = took
            cpu = (after.user + after.system - before.user - before.system,
                   after.children_user + after.children_system
                   - before.children_user - before.children_system)
        pages, hands = done.pages, getattr(done.report, "hands_dealt", 0)
    began = time.perf_counter()
    report = build_shift(svc.store, shift_id=shift.id, by="bench", at=datetime.now(UTC))
    built = time.perf_counter() - began
    began = time.perf_counter()
    render_shift(report, out)
    rendered = time.perf_counter() - began
    print(f"# {hands} hands, {pages} pages, {out}; best run's processor time: this process "
          f"{cpu[0]:.2f} s, worker processes {cpu[1]:.2f} s; one more run: read, re-check "
          f"and replay {built:.2f} s, lay out and write {rendered:.2f} s (load average "
          f"{os.getloadavg()[0]:.1f})", file=sys.stderr)
    print(f"BENCH report-shift-{args.hands} ours={ours:.2f} query={query:.3f} "
          f"ratio={ours / query:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A large report's chain re-checked and its hands replayed in parts on worker processes gives,
byte for byte, the report one process gives: for every table's shift and the day of several
tables, for a chain broken inside a part, and for an event deleted between two parts."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest
from reportlab import rl_config

from dealer_assist.db.bulk_reads import SqlBulkReads
from dealer_assist.reports.build import replays as replaying
from dealer_assist.reports.build.day import build_day
from dealer_assist.reports.build.shift import build_shift
from dealer_assist.reports.layouts.day import render_day
from dealer_assist.reports.layouts.shift import render_shift

AT = datetime(2026, 11, 23, 2, 0, tzinfo=UTC)
START = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)


@dataclass
class Counted:
    """How often the report made a pool and handed a part to it, and how often this process
    read a table's whole chain."""

    pools: int = 0
    parts: int = 0
    whole_chains: int = 0


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from dealer_assist.db import demo
    from dealer_assist.db.bootstrap import open_database
    from dealer_assist.services import Argon2PinHasher

    path = tmp_path_factory.mktemp("parts") / "demo.sqlite3"
    db = open_database(f"sqlite:///{path}")
    try:
        demo.fill_demo(db, hands=90, tables=3, seed=7, start=START,
                       hasher=Argon2PinHasher(fast=True))
    finally:
        db.close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return path


def _copy(demo_file: Path, tmp_path: Path) -> Path:
    path = tmp_path / "copy.sqlite3"
    shutil.copy(demo_file, path)
    return path


def _store(path: Path) -> Any:
    from dealer_assist.db.bootstrap import open_services

    return open_services(f"sqlite:///{path}").store


def _in_parts(monkeypatch: pytest.MonkeyPatch) -> Counted:
    """Every report counts as large: two workers, parts of about two hands each."""
    counted = Counted()
    real_pool = replaying.ProcessPoolExecutor
    real_parts = (replaying._check_part, replaying._read_part)
    real_chain = SqlBulkReads.chain_batches

    def whole_chain(self: SqlBulkReads, table_id: int) -> Any:
        counted.whole_chains += 1
        return real_chain(self, table_id)

    class CountingPool(real_pool):  # type: ignore[valid-type, misc]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            counted.pools += 1
            super().__init__(*args, **kwargs)

        def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
            if fn in real_parts:
                counted.parts += 1
            return super().submit(fn, *args, **kwargs)

    monkeypatch.setattr(replaying, "ProcessPoolExecutor", CountingPool)
    monkeypatch.setattr(SqlBulkReads, "chain_batches", whole_chain)
    monkeypatch.setattr(replaying, "PARALLEL_MIN", 2)
    monkeypatch.setattr(replaying, "PART_ROWS", 40)
    monkeypatch.setattr(replaying, "_idle_processors", lambda: 2)
    return counted


def _pdf(render: Callable[[Any, Path], int], report: Any, out: Path) -> bytes:
    render(report, out)
    return out.read_bytes()


@pytest.fixture
def invariant(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rl_config, "invariant", 1)  # no time stamp or random id in the file


def test_regression_every_shift_and_the_day_in_parts_equal_one_process_byte_for_byte(
        demo_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        invariant: None) -> None:
    store = _store(demo_file)
    shifts = [s for s in store.list_shifts(None)]
    assert len({s.table_id for s in shifts}) == 3
    here = [build_shift(store, shift_id=s.id, by="test", at=AT) for s in shifts]
    day_here = build_day(store, day=date(2026, 11, 21), by="test", at=AT)
    counted = _in_parts(monkeypatch)
    there = [build_shift(store, shift_id=s.id, by="test", at=AT) for s in shifts]
    day_there = build_day(store, day=date(2026, 11, 21), by="test", at=AT)
    assert counted.pools == len(shifts) + 3  # every shift, and each table of the day
    assert counted.parts > 2 * counted.pools  # several parts each, cut where a hand begins
    assert counted.whole_chains == 0  # each part is read where it is checked, not here
    assert there == here
    assert day_there == day_here
    assert sum(r.hands_dealt for r in here) == 90 and all(r.chain.verified for r in here)
    assert sum(t.hands for t in day_here.tables) == 90 and len(day_here.chains) == 3
    for i, (a, b) in enumerate(zip(here, there, strict=True)):
        assert _pdf(render_shift, a, tmp_path / f"a{i}.pdf") == _pdf(
            render_shift, b, tmp_path / f"b{i}.pdf")
    assert _pdf(render_day, day_here, tmp_path / "day-a.pdf") == _pdf(
        render_day, day_there, tmp_path / "day-b.pdf")


def _tampered(demo_file: Path, tmp_path: Path, sql: str) -> tuple[Any, int, int]:
    """A copy of the demo with ``sql`` run on the events of its first table, 60 rows in
    (``?``: the table and the seq); the store, the table's shift and that seq."""
    path = _copy(demo_file, tmp_path)
    con = sqlite3.connect(path)
    table_id = con.execute("SELECT MIN(table_id) FROM events").fetchone()[0]
    seq = 60
    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' "
                               "AND tbl_name = 'events'").fetchall():
        con.execute(f"DROP TRIGGER {name}")  # what an insider with the file does first
    con.execute(sql, (table_id, seq))
    con.commit()
    con.close()
    store = _store(path)
    shift = next(s for s in store.list_shifts(None) if s.table_id == table_id)
    return store, shift.id, seq


@pytest.mark.parametrize(("sql", "message"), [
    ("UPDATE events SET body = replace(body, '\"seat\":', '\"seat\": ') "
     "WHERE table_id = ? AND seq = ?", "event 60: "),
    ("DELETE FROM events WHERE table_id = ? AND seq = ?", "event 60 is missing"),
], ids=["hash", "deleted"])
def test_regression_a_broken_chain_in_parts_is_named_as_one_process_names_it(
        demo_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sql: str,
        message: str) -> None:
    store, shift_id, _ = _tampered(demo_file, tmp_path, sql)
    here = build_shift(store, shift_id=shift_id, by="test", at=AT)
    counted = _in_parts(monkeypatch)
    there = build_shift(store, shift_id=shift_id, by="test", at=AT)
    assert counted.parts > 2
    assert not here.chain.verified and message in here.chain.message
    assert there == here

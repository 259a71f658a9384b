"""The fast paths of a large report give the same report: hands replayed on worker processes
while the chain is read, a hand whose rows go on after the next hand began, the driver-level
reads on SQLite and PostgreSQL, and the table writer that remembers encoded text."""

from __future__ import annotations

import pickle
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from db.pg import PgCluster, pg_bin
from reportlab import rl_config

from dealer_assist.reports.build import replays as replaying
from dealer_assist.reports.build.replays import Replays
from dealer_assist.reports.build.shift import build_shift
from dealer_assist.reports.data.lines import HandLine
from dealer_assist.reports.data.records import FeeTotal
from dealer_assist.reports.layouts.shift import render_shift
from dealer_assist.reports.render import longtable, style
from dealer_assist.reports.source import full_names, ledger_rows, scan_table, shift_hands
from dealer_assist.services import Approval, Services

from .room import FAST, Room, make_room
from .samples import shift_report

AT = datetime(2026, 11, 22, 2, 0, tzinfo=UTC)


@pytest.fixture
def on_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every shift counts as large: replayed on two worker processes, a hand per batch."""
    monkeypatch.setattr(replaying, "PARALLEL_MIN", 2)
    monkeypatch.setattr(replaying, "BATCH", 1)
    monkeypatch.setattr(replaying, "_idle_processors", lambda: 2)


def _sqlite_room(tmp_path: Path, hands: int = 8) -> Room:
    from dealer_assist.db.bootstrap import open_database
    from dealer_assist.db.store import SqlStore

    db = open_database(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    return make_room(hands=hands, svc=Services(SqlStore(db), hasher=FAST))


@pytest.fixture
def room_sqlite(tmp_path: Path) -> Room:
    return _sqlite_room(tmp_path)


def test_regression_a_worker_replays_a_hand_as_this_process_does(room_sqlite: Room,
                                                                 on_workers: None) -> None:
    store = room_sqlite.store
    shift = store.get_shift(room_sqlite.shift_id)
    assert shift is not None
    table = store.get_table(shift.table_id)
    assert table is not None
    hands = shift_hands(store, shift)
    ids = [h.id for h in hands]
    scan = scan_table(store, table, ids)
    with Replays(hands, ledger_rows(store, ids), full_names(store), {}) as replays:
        assert replays.pool is not None  # forked: the workers know the hands already
        second = ids[1]  # the hand with a void
        columns = tuple(zip(*scan.rows[second], strict=True))
        there = replays.pool.submit(replaying._replay_batch, [(second, columns)]).result()
        here = replays.figures([(second, scan.rows[second])])
    assert there == here
    assert there[0].line.voids == 1 and there[0].voids[0].target == 2
    assert there[0].line.fee == 700 and not there[0].exceptions


def test_regression_a_shift_replayed_on_workers_equals_one_replayed_here(
        room_sqlite: Room, monkeypatch: pytest.MonkeyPatch) -> None:
    here = build_shift(room_sqlite.store, by="test", at=AT)
    pools: list[int] = []
    real_pool = replaying.ProcessPoolExecutor

    def counting_pool(*args: object, **kwargs: object) -> object:
        pools.append(1)
        return real_pool(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(replaying, "PARALLEL_MIN", 2)
    monkeypatch.setattr(replaying, "BATCH", 1)
    monkeypatch.setattr(replaying, "_idle_processors", lambda: 2)
    monkeypatch.setattr(replaying, "ProcessPoolExecutor", counting_pool)
    there = build_shift(room_sqlite.store, by="test", at=AT)
    assert pools == [1]
    assert there == here
    assert there.hands_dealt == 8 and there.chain.verified
    assert [h.number for h in there.hands] == list(range(1, 9))
    assert there.fees_total == 8 * 700 and there.conserved


def test_regression_a_correction_after_the_next_hand_began_is_replayed_with_it(
        tmp_path: Path, on_workers: None) -> None:
    room = _sqlite_room(tmp_path, hands=4)
    first = room.hand_ids[0]
    events = room.store.hand_events(first)
    last = len(events)
    # The first hand is corrected after three more hands were dealt: its rows are not all
    # together in the chain, and the scan hands it over (once) before its void is read.
    room.svc.void(room.dealer, first, last, "card keyed to the wrong seat",
                  approval=Approval("fran", "2222"))
    r = build_shift(room.store, by="test", at=AT)
    line = r.hands[0]
    assert line.number == 1 and line.voids == 1
    assert line.status == "unfinished"  # the voided last card leaves the hand to finish
    assert (1, last) in [(v.hand_number, v.target) for v in r.voids]
    assert any(e.hand_number == 1 and e.severity == "unfinished" for e in r.exceptions)
    assert r.chain.verified and r.chain.last_seq == len(events) + sum(
        len(room.store.hand_events(h)) for h in room.hand_ids[1:]) + 1


def test_regression_rows_read_after_a_hand_was_handed_over_are_not_lost(
        room_sqlite: Room, on_workers: None) -> None:
    store = room_sqlite.store
    shift = store.get_shift(room_sqlite.shift_id)
    assert shift is not None
    table = store.get_table(shift.table_id)
    assert table is not None
    hands = shift_hands(store, shift)
    ids = [h.id for h in hands]
    scan = scan_table(store, table, ids)
    full = scan.rows[ids[1]]
    with Replays(hands, ledger_rows(store, ids), full_names(store), {}) as replays:
        replays.ready(ids[1], full[:3])  # handed over early: only its first three rows
        figures = replays.results(scan)
    assert figures[1] == replays.figures([(ids[1], full)])[0]
    assert figures[1].line.voids == 1 and figures[1].line.status == "settled"


def test_report_records_pickle_as_their_fields() -> None:
    line = HandLine(hand_id=7, number=3, started_at=AT, ended_at=None, seats=(1, 2), put_in=400,
                    carry_in=0, pushed=300, carry_out=0, fees=(FeeTotal("rake", 100, 1),))
    assert line.__reduce__() == (HandLine, (7, 3, AT, None, (1, 2), 400, 0, 300, 0,
                                            (FeeTotal("rake", 100, 1),), (), "settled", 0,
                                            False, False, False))
    assert pickle.loads(pickle.dumps(line)) == line


@pytest.fixture(scope="module")
def pg() -> Iterator[PgCluster]:
    if pg_bin() is None:
        pytest.skip("PostgreSQL is not installed")
    with PgCluster() as cluster:
        yield cluster


@pytest.mark.postgres
def test_shift_report_on_postgresql_reads_the_chain_and_ledger_in_bulk(
        pg: PgCluster, monkeypatch: pytest.MonkeyPatch) -> None:
    from dealer_assist.db.bootstrap import open_database
    from dealer_assist.db.store import SqlStore

    db = open_database(pg.create_database())
    try:
        room = make_room(hands=6, svc=Services(SqlStore(db), hasher=FAST))
        here = build_shift(room.store, by="test", at=AT)
        assert here.chain.verified, here.chain.message
        assert here.hands_dealt == 6 and here.fees_total == 6 * 700 and here.conserved
        assert not [e for e in here.exceptions if e.severity in ("ledger", "integrity")]
        monkeypatch.setattr(replaying, "PARALLEL_MIN", 2)
        monkeypatch.setattr(replaying, "_idle_processors", lambda: 2)
        assert build_shift(room.store, by="test", at=AT) == here
    finally:
        db.close()


def _pdf(tmp_path: Path, name: str) -> bytes:
    out = tmp_path / name
    render_shift(shift_report(150), out)
    return out.read_bytes()


@pytest.mark.parametrize("fallback", [False, True], ids=["dejavu", "helvetica"])
def test_the_table_writer_writes_what_reportlab_itself_writes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fallback: bool) -> None:
    monkeypatch.setattr(rl_config, "invariant", 1)  # no time stamp or random id in the file
    if fallback:
        style.use_fallback_fonts()
    real_init = longtable._TextWriter.__init__
    used: list[bool] = []

    def as_is(self: longtable._TextWriter, canv: object, t: object) -> None:
        real_init(self, canv, t)  # type: ignore[arg-type]
        used.append(self.fast)

    def public_calls_only(self: longtable._TextWriter, canv: object, t: object) -> None:
        real_init(self, canv, t)  # type: ignore[arg-type]
        self.fast = False

    try:
        monkeypatch.setattr(longtable._TextWriter, "__init__", as_is)
        fast = _pdf(tmp_path, "fast.pdf")
        monkeypatch.setattr(longtable._TextWriter, "__init__", public_calls_only)
        slow = _pdf(tmp_path, "slow.pdf")
    finally:
        style.reset_fonts()
    assert used and all(used)  # the hands table went through the remembering writer
    assert fast == slow and len(fast) > 10_000


def test_regression_reading_a_chain_for_a_report_leaves_the_tables_free_to_record(
        room_sqlite: Room, tmp_path: Path) -> None:
    import sqlite3

    from dealer_assist.reports.sql import sql_source

    sql = sql_source(room_sqlite.store)
    assert sql is not None
    batches = sql.chain_batches(room_sqlite.table_id)
    first = next(batches)  # the chain is being read: its statement is open
    assert first[0][0] == 1 and first[0][3].endswith("+00:00") and "T" in first[0][3]
    other = sqlite3.connect(tmp_path / "room.sqlite3", timeout=0)
    try:
        other.execute("BEGIN IMMEDIATE")  # a station recording an input takes the write lock
        other.execute("ROLLBACK")
    finally:
        other.close()
    assert sum(len(b) for b in batches) + len(first) == room_sqlite.store.chain_head(
        room_sqlite.table_id).seq

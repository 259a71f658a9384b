"""The room's records as typed rows (schema 0022): drop boxes, drop counts and their
corrections, count sign-offs and the room clock are kept in sealed tables beside their audit
entries, which stay as they were; the readers read the rows' columns.

- the upgrade moves every existing entry of these kinds into its table, with the entry's
  number, time and writer, in the audit log's order, and skips (verify notes) an entry whose
  detail cannot be read;
- a use case writes the entry and its row in one transaction, with ``entry`` = the audit
  entry's number;
- verify checks both ways: an entry without its row, a row that says something else, and a row
  whose ``entry`` is no such audit entry are each named.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic import command
from services.support import Room, make_room
from sqlalchemy.exc import IntegrityError

from dealer_assist.db import sealed
from dealer_assist.db.bootstrap import Database, _alembic_config, build_engine, run_upgrade
from dealer_assist.db.room_records import TABLES
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.services.base import Approval
from dealer_assist.services.counts import (
    box_entries,
    counts,
    record_count,
    record_drop,
    register_box,
    room_clock_of,
    signoff_count,
    signoffs,
)
from dealer_assist.services.room import (
    Count,
    box_detail,
    count_detail,
    drop_detail,
    new_count,
    room_clock,
    room_detail,
    signoff_detail,
)
from dealer_assist.services.room_rows import DROP_COUNTS, count_values

from .pg import PgCluster

STARTED = datetime(2026, 11, 21, 23, 10, tzinfo=UTC)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def at_0021(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """An empty room database at schema 0021, the last without the typed rows."""
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path}/room.db"
    else:
        cluster: PgCluster = request.getfixturevalue("pg_cluster")
        url = cluster.create_database()
    db = Database(engine=build_engine(url), url=url)
    with db.engine.connect() as conn:
        command.upgrade(_alembic_config(conn), "0021")
        conn.commit()
    yield db
    db.close()


def _log(room: Room, actor: str, action: str, detail: str) -> int:
    """An entry as the app wrote it at schema 0021 (only the audit entry)."""
    room.clock.advance(minutes=1)
    entry = room.store.add_audit(at=room.clock(), actor=actor, action=action, detail=detail,
                                 table_id=room.table_id)
    return entry.seq


def test_upgrade_moves_counts_drops_signoffs_and_clocks_into_typed_rows(
        at_0021: Database) -> None:
    room = make_room(SqlStore(at_0021))
    sid = room.store.list_shifts(room.table_id)[0].id
    chicago = room_clock(zone="America/Chicago", day_starts=6,
                         shifts=(("day", 6), ("swing", 14), ("grave", 22)), paper="letter",
                         retention_years=5, tolerance_minutes=10)
    first_clock = _log(room, "admin", "room-settings", room_detail(room_clock(zone="UTC")))
    second_clock = _log(room, "fran", "room-settings", room_detail(chicago))
    reg = _log(room, "fran", "drop-box", box_detail("T1-0001", room.table_id))
    drop = _log(room, "fran", "drop", drop_detail("T1-0001", room.table_id, sid))
    original = new_count(table_id=room.table_id, shift_id=sid, box="T1-0001", counted=None,
                         team=["Carl Counter", "Cora Counter"],
                         denominations={10_000: 12, 25: 4}, started=STARTED,
                         ended=STARTED + timedelta(minutes=30), boxes=3)
    count = _log(room, "fran", "count", count_detail(original))
    corrected = replace(original, counted=120_000, denominations={10_000: 12}, corrects=count,
                        reason="a chip of another table", independence="Fran Floor (fran)")
    correction = _log(room, "admin", "count", count_detail(corrected))
    first_so = _log(room, "otto", "count-signoff", signoff_detail(correction, "lid chips"))
    later_so = _log(room, "admin", "count-signoff",
                    signoff_detail(correction, "another table's", follows=first_so,
                                   reason="the first was wrong"))
    broken = _log(room, "fran", "count", 'drop count {"table": 1')
    before = {e.seq: e for e in room.store.audit_log()}

    run_upgrade(at_0021)

    store = SqlStore(at_0021)
    assert [(c.number, c.by, c.count) for c in counts(store)] == [
        (count, "fran", original), (correction, "admin", corrected)]
    assert [c.at for c in counts(store)] == [before[count].at, before[correction].at]
    assert [(b.number, b.box, b.table_id, b.shift_id) for b in box_entries(store)] == [
        (reg, "T1-0001", room.table_id, None), (drop, "T1-0001", room.table_id, sid)]
    assert [(s.number, s.by, s.entry, s.explanation, s.follows, s.reason)
            for s in signoffs(store)] == [
        (first_so, "otto", correction, "lid chips", None, ""),
        (later_so, "admin", correction, "another table's", first_so, "the first was wrong")]
    assert room_clock_of(store) == chicago
    with sealed.reading(at_0021) as conn:
        clocks = sealed.read(conn, TABLES["room_clocks"])
        row = sealed.read(conn, TABLES[DROP_COUNTS])[0]
    assert [r["entry"] for r in clocks] == [first_clock, second_clock]
    assert row["denominations"] == "25x4\n10000x12"
    assert row["team"] == "Carl Counter\nCora Counter" and row["counted"] == 120_100
    assert clocks[1]["shifts"] == "day=6\nswing=14\ngrave=22"
    # the audit log itself is as it was, and verify finds both sides agreeing
    assert {e.seq: e for e in store.audit_log()} == before
    report = verify_database(at_0021, workers=1)
    assert report.ok, report.findings
    assert [n.message for n in report.notes if "typed row" in n.message] == [
        f"audit entry {broken} (drop count): its detail cannot be read, so it has no typed row"]


@pytest.fixture
def room_db(db_url: str) -> Iterator[tuple[Room, Database]]:
    store = SqlStore(Database(engine=build_engine(db_url), url=db_url))
    yield make_room(store), store.db
    store.close()


def _counted(room: Room) -> tuple[int, Count]:
    """A box registered, dropped and counted the app's way; the count's entry."""
    sid = room.store.list_shifts(room.table_id)[0].id
    room.clock.advance(minutes=30)
    room.svc.close_shift(room.dealer, sid, approval=Approval("fran", "2222"))
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-01")
    record_drop(room.svc, room.floor, shift_id=sid, box="T1-01")
    now = room.clock()
    count = new_count(table_id=room.table_id, shift_id=sid, box="T1-01", counted=5_000,
                      team=["Carl Counter", "Cora Counter"], started=now,
                      ended=now + timedelta(minutes=5))
    room.clock.advance(minutes=10)
    return record_count(room.svc, room.floor, count).seq, count


def test_a_count_is_written_as_its_audit_entry_and_its_row_together(
        room_db: tuple[Room, Database]) -> None:
    room, db = room_db
    entry, count = _counted(room)
    signoff_count(room.svc, room.auditor, entry=entry, explanation="even")
    with sealed.reading(db) as conn:
        rows = sealed.read(conn, TABLES[DROP_COUNTS])
        (so,) = sealed.read(conn, TABLES["count_signoffs"])
    assert [(r["entry"], r["counted"], r.actor) for r in rows] == [(entry, 5_000, "fran")]
    assert (so["count_entry"], so["explanation"], so.actor) == (entry, "even", "otto")
    audit = {e.seq: e for e in room.store.audit_log()}
    assert audit[entry].detail == count_detail(count) and audit[entry].at == rows[0].at
    assert verify_database(db, workers=1).ok


def test_verify_names_an_entry_without_its_row_a_row_that_differs_and_a_stray_row(
        room_db: tuple[Room, Database]) -> None:
    room, db = room_db
    entry, count = _counted(room)
    sid = count.shift_id
    # an entry written behind the app, with no row
    lone = room.store.add_audit(at=room.clock(), actor="fran", action="count",
                                detail=count_detail(replace(count, corrects=entry,
                                                            reason="recount")),
                                table_id=room.table_id).seq
    # an entry whose row says another amount
    other = replace(count, counted=6_000, corrects=entry, reason="second recount")
    written = room.store.add_audit(at=room.clock(), actor="fran", action="count",
                                   detail=count_detail(other), table_id=room.table_id)
    differs = written.seq
    login = room.store.audit_log(action="login")[0].seq
    with sealed.writing(db) as conn:
        sealed.append(conn, TABLES[DROP_COUNTS], at=written.at, actor="fran", token="",
                      values={"entry": differs, **count_values(replace(other, counted=600))})
        # a row naming an entry that is a sign-in, not a drop count
        sealed.append(conn, TABLES[DROP_COUNTS], at=room.clock(), actor="fran", token="",
                      values={"entry": login, **count_values(count)})
    report = verify_database(db, workers=1)
    found = [f for f in report.findings if "entry" in f and "drop_counts" in f]
    assert found == [
        f"audit entry {lone} (drop count) has no row in drop_counts: the record was written "
        "without its typed row, or the row was removed",
        f"drop_counts record 2 (entry {differs}) differs from audit entry {differs} (drop "
        "count) in: counted",
        f"drop_counts record 3 names entry {login}, which is not a drop count on the audit "
        "log"], report.findings
    assert not report.ok
    # the readers read the rows: the count whose row says 600 reads 600 (verify named it)
    assert [c.count.counted for c in counts(room.store)] == [5_000, 600, 5_000]
    assert sid == counts(room.store)[0].count.shift_id


def test_in_memory_store_keeps_the_same_rows_chained() -> None:
    """The port's in-memory side: rows chained as the database's, entry = the audit seq."""
    from dealer_assist.services.sealed import chain_faults

    room = make_room()
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-07")
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-08")
    rows = room.store.room_records("drop_boxes")
    assert [r["entry"] for r in rows] == [e.seq for e in room.store.audit_log(action="drop-box")]
    assert chain_faults("drop_boxes", rows, len(rows), rows[-1].hash) == []


def test_a_count_whose_row_is_refused_leaves_no_audit_entry_either(
        sqlite_url: str) -> None:
    """One transaction: the entry and its row are kept together or not at all."""
    store = SqlStore(Database(engine=build_engine(sqlite_url), url=sqlite_url))
    room = make_room(store)
    with store.db.engine.begin() as conn:
        conn.exec_driver_sql("CREATE TRIGGER refuse_counts BEFORE INSERT ON drop_counts "
                             "BEGIN SELECT RAISE(ABORT, 'drop_counts refused'); END")
    before = len(store.audit_log(action="count"))
    with pytest.raises(IntegrityError, match="drop_counts refused"):
        _counted(room)
    assert len(store.audit_log(action="count")) == before == 0
    assert counts(store) == [] and len(box_entries(store)) == 2
    store.close()

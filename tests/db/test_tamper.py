"""Tampering: the database refuses UPDATE and DELETE on events; a row changed, deleted or
reordered behind the app's back (triggers dropped) is named by verify, table and sequence."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError

from dealer_assist.db.bootstrap import Database
from dealer_assist.db.demo import fill_demo
from dealer_assist.db.models import EventRow
from dealer_assist.db.verify import verify_database
from dealer_assist.services import Argon2PinHasher
from dealer_assist.services.chain import event_hash

FAST = Argon2PinHasher(fast=True)


@pytest.fixture
def demo(database: Database) -> Database:
    fill_demo(database, hands=6, tables=1, seed=3, hasher=FAST,
              start=datetime(2026, 11, 20, 18, tzinfo=UTC))
    assert verify_database(database).ok
    return database


def _sql(db: Database, sql: str) -> None:
    with db.engine.begin() as conn:
        conn.exec_driver_sql(sql)


def _drop_triggers(db: Database) -> None:
    if db.dialect == "sqlite":
        _sql(db, "DROP TRIGGER events_no_update")
        _sql(db, "DROP TRIGGER events_no_delete")
    else:
        _sql(db, "DROP TRIGGER events_append_only ON events")


REFUSED = (
    ("UPDATE events SET body = '{\"type\":\"reshuffle\"}' WHERE seq = 3", "events"),
    ("DELETE FROM events WHERE seq = 3", "events"),
    ("UPDATE ledger_lines SET amount = amount + 100", "ledger_lines"),
    ("DELETE FROM disputes", "disputes"),
    ("DELETE FROM audit_log", "audit_log"),
)


def test_update_and_delete_are_refused_by_the_database(demo: Database) -> None:
    for sql, table in REFUSED:
        with pytest.raises(DBAPIError, match=f"{table} is append-only"):
            _sql(demo, sql)
    assert verify_database(demo).ok


def test_changed_event_is_named_by_table_and_seq(demo: Database) -> None:
    _drop_triggers(demo)
    _sql(demo, "UPDATE events SET actor = 'mallory' WHERE seq = 7")
    report = verify_database(demo)
    assert report.problem is not None
    assert (report.problem.table, report.problem.seq) == ("Table 1", 7)
    assert "hash does not match its content" in report.problem.message


def test_changed_card_with_rehashed_row_breaks_the_next_link(demo: Database) -> None:
    """Even recomputing the changed row's own hash is caught by the next row's link."""
    _drop_triggers(demo)
    events = EventRow.__table__
    with demo.engine.begin() as conn:
        row = conn.execute(select(events).where(events.c.seq == 5)).one()
    forged = event_hash(table_id=row.table_id, seq=5, time=row.time, actor="mallory",
                        hand_id=row.hand_id, body=row.body, prev_hash=row.prev_hash)
    _sql(demo, f"UPDATE events SET actor = 'mallory', hash = '{forged}' WHERE seq = 5")
    report = verify_database(demo)
    assert report.problem is not None and report.problem.seq == 6
    assert "previous-hash does not match" in report.problem.message


def test_deleted_event_is_named(demo: Database) -> None:
    _drop_triggers(demo)
    _sql(demo, "DELETE FROM events WHERE seq = 10")
    report = verify_database(demo)
    assert report.problem is not None and report.problem.seq == 10
    assert "event 10 is missing (deleted)" in report.problem.message


def test_deleted_last_event_is_caught_by_the_chain_head(demo: Database) -> None:
    _drop_triggers(demo)
    with demo.engine.begin() as conn:
        last = conn.execute(text("SELECT MAX(seq) FROM events")).scalar_one()
    _sql(demo, f"DELETE FROM events WHERE seq = {last}")
    report = verify_database(demo)
    assert report.problem is not None and report.problem.seq == last
    assert f"says {last} events but {last - 1} are stored" in report.problem.message


def test_reordered_events_are_named(demo: Database) -> None:
    _drop_triggers(demo)
    _sql(demo, "UPDATE events SET seq = -4 WHERE seq = 4")
    _sql(demo, "UPDATE events SET seq = 4 WHERE seq = 5")
    _sql(demo, "UPDATE events SET seq = 5 WHERE seq = -4")
    report = verify_database(demo)
    assert report.problem is not None and report.problem.seq == 4
    assert "previous-hash does not match" in report.problem.message


def test_ledger_changed_behind_the_apps_back_is_named(demo: Database) -> None:
    if demo.dialect == "sqlite":
        _sql(demo, "DROP TRIGGER ledger_lines_no_update")
    else:
        _sql(demo, "DROP TRIGGER ledger_lines_append_only ON ledger_lines")
    _sql(demo, "UPDATE ledger_lines SET amount = amount + 100 WHERE id = "
               "(SELECT MIN(id) FROM ledger_lines WHERE kind = 'push')")
    report = verify_database(demo)
    assert report.problem is not None
    assert "ledger lines do not match its events" in report.problem.message


def test_cli_verify_exits_nonzero_naming_table_and_seq(tmp_path: object) -> None:
    url = f"sqlite:///{tmp_path}/t.db"
    from dealer_assist.db.bootstrap import open_database

    db = open_database(url)
    fill_demo(db, hands=4, tables=1, seed=5, hasher=FAST)
    _drop_triggers(db)
    _sql(db, "UPDATE events SET body = replace(body, '\"seat\":2', '\"seat\":3') WHERE seq = 3")
    db.close()
    run = [sys.executable, "-m", "dealer_assist.cli", "--db", url, "verify"]
    r = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "NOT INTACT: table Table 1 (id 1), seq 3: its hash does not match" in r.stderr


def test_verify_on_worker_processes_names_the_same_problem(
    demo: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dealer_assist.db.verify import walk as verify

    if demo.dialect == "sqlite":
        _sql(demo, "DROP TRIGGER ledger_lines_no_update")
    else:
        _sql(demo, "DROP TRIGGER ledger_lines_append_only ON ledger_lines")
    _sql(demo, "UPDATE ledger_lines SET seat = 9 WHERE id = "
               "(SELECT MAX(id) FROM ledger_lines WHERE kind = 'put_in')")
    serial = verify_database(demo, workers=1)
    monkeypatch.setattr(verify, "PARALLEL_FROM", 1)
    parallel = verify_database(demo, workers=2)
    assert serial.problem is not None and parallel.problem == serial.problem
    assert "ledger has put_in seat 9" in serial.problem.message

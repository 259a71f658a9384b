"""The audit log's hash chain: every sensitive action is numbered and linked to the one before
it, the head moves in the same transaction, and an entry changed, deleted, inserted or cut from
the end behind the app's back (trigger dropped) is named by verify."""

from __future__ import annotations

import itertools
import shutil
import sqlite3
import subprocess
import sys
import threading
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy.exc import DBAPIError

from dealer_assist.db.bootstrap import Database, open_database, schema_state
from dealer_assist.db.demo import fill_demo
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.services import Argon2PinHasher, Services
from dealer_assist.services.audit_chain import (
    GENESIS,
    AuditHead,
    check_audit_chain,
    entry_hash,
)
from dealer_assist.services.fake import InMemoryStore
from dealer_assist.services.verify import verify_store

FAST = Argon2PinHasher(fast=True)
DATA = Path(__file__).resolve().parent.parent / "data" / "db"
AT = datetime(2026, 11, 20, 18, 30, 15, 123456, tzinfo=UTC)


def _sql(db: Database, sql: str) -> None:
    with db.engine.begin() as conn:
        conn.exec_driver_sql(sql)


def _unguard(db: Database) -> None:
    """Tampering behind the app's back: the append-only trigger dropped first."""
    if db.dialect == "sqlite":
        _sql(db, "DROP TRIGGER audit_log_no_update")
        _sql(db, "DROP TRIGGER audit_log_no_delete")
    else:
        _sql(db, "DROP TRIGGER audit_log_append_only ON audit_log")


def _check(db: Database) -> object:
    store = SqlStore(db)
    return check_audit_chain(store.audit_log(records=True), store.audit_head())


@pytest.fixture
def audited(database: Database) -> Database:
    store = SqlStore(database)
    for i, action in enumerate(("login", "reveal", "void", "export", "login")):
        store.add_audit(at=AT.replace(minute=i), actor=f"user{i}", action=action,
                        detail=f"détail {i}", table_id=1 if i % 2 else None,
                        hand_id=i if i % 2 else None)
    return database


def test_entries_are_numbered_and_chained_in_the_order_recorded(audited: Database) -> None:
    store = SqlStore(audited)
    log = store.audit_log()
    assert [e.seq for e in log] == [1, 2, 3, 4, 5]
    assert log[0].prev_hash == GENESIS
    assert all(b.prev_hash == a.hash for a, b in itertools.pairwise(log))
    assert all(entry_hash(e, e.prev_hash) == e.hash for e in log)
    assert store.audit_head() == AuditHead(5, log[-1].hash)
    check = check_audit_chain(log, store.audit_head())
    assert check.ok and check.entries == 5


def test_update_and_delete_of_an_audit_entry_are_refused(audited: Database) -> None:
    for sql in ("UPDATE audit_log SET detail = 'x'", "DELETE FROM audit_log WHERE seq = 5"):
        with pytest.raises(DBAPIError, match="audit_log is append-only"):
            _sql(audited, sql)


def test_changed_entry_is_named_by_its_place_and_id(audited: Database) -> None:
    _unguard(audited)
    _sql(audited, "UPDATE audit_log SET actor = 'someone' WHERE seq = 3")
    check = _check(audited)
    assert not check.ok  # type: ignore[attr-defined]
    assert "entry 3 (id 3, void by someone): its hash does not match its content" in (
        check.problem)  # type: ignore[attr-defined]


def test_deleted_entry_in_the_middle_is_named(audited: Database) -> None:
    _unguard(audited)
    _sql(audited, "DELETE FROM audit_log WHERE seq = 2")
    check = _check(audited)
    assert check.problem == (  # type: ignore[attr-defined]
        "audit entry 2 is missing (deleted); the next stored entry says it is 3")


def test_entries_cut_from_the_end_are_caught_by_the_head(audited: Database) -> None:
    _unguard(audited)
    _sql(audited, "DELETE FROM audit_log WHERE seq >= 4")
    check = _check(audited)
    assert check.problem == (  # type: ignore[attr-defined]
        "the audit chain's head says 5 entries but 3 are stored (entries at the end were "
        "deleted)")


def test_renumbered_and_rehashed_entry_still_breaks_the_next_link(audited: Database) -> None:
    """Whoever rewrites one entry with a fresh hash breaks the link from the entry after it."""
    store = SqlStore(audited)
    e = store.audit_log()[1]
    forged = entry_hash(e.__class__(**{**{f: getattr(e, f) for f in e.__slots__},
                                       "detail": "nothing happened"}), e.prev_hash)
    _unguard(audited)
    _sql(audited, f"UPDATE audit_log SET detail = 'nothing happened', hash = '{forged}' "
                  "WHERE seq = 2")
    check = _check(audited)
    assert "entry 3 (id 3, void by user2): its previous-hash does not match" in (
        check.problem)  # type: ignore[attr-defined]


def test_services_audit_chain_on_the_in_memory_store_verifies() -> None:
    store = InMemoryStore()
    svc = Services(store, hasher=FAST)
    svc.create_first_admin(name="admin", full_name="Ada Admin", pin="1000")
    svc.sign_in("admin", "1000")
    with pytest.raises(Exception, match="PIN"):
        svc.sign_in("admin", "9999")
    check = check_audit_chain(store.audit_log(), store.audit_head())
    assert check.ok and check.entries == len(store.audit) >= 2
    assert verify_store(store).ok


def test_audit_entries_from_many_stations_at_once_form_one_chain(db_url: str) -> None:
    """Stations share one database: the head row is locked, so entries queue in one order."""
    db = open_database(db_url)
    errors: list[BaseException] = []

    def station(k: int) -> None:
        store = SqlStore(open_database(db_url, upgrade=False))
        try:
            for i in range(8):
                store.add_audit(at=AT, actor=f"s{k}", action="login", detail=str(i))
        except BaseException as exc:
            errors.append(exc)
        finally:
            store.close()

    threads = [threading.Thread(target=station, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    check = _check(db)
    assert check.ok and check.entries == 32, check  # type: ignore[attr-defined]
    db.close()


def test_schema_0003_file_is_upgraded_and_its_audit_entries_chained(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    shutil.copy(DATA / "schema-0003.sqlite3", path)
    con = sqlite3.connect(path)
    before = con.execute("SELECT id, action FROM audit_log ORDER BY id").fetchall()
    con.close()
    db = open_database(f"sqlite:///{path}")
    current, head, _ = schema_state(db)
    assert current == head
    store = SqlStore(db)
    log = store.audit_log(records=True)
    # the entries stored before, chained in order; then (schema 0007) the records of the rows;
    # then (schema 0016) the last rows written before approved changes carried their approval
    assert [(e.id, e.action) for e in log[:7]] == before and len(before) == 7
    assert all(e.action.startswith("record-") for e in log[7:-1])
    assert log[-1].action == "approvals-baseline"
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    check = check_audit_chain(log, store.audit_head())
    assert check.ok, check
    store.add_audit(at=AT, actor="admin", action="login", detail="after the upgrade")
    check = _check(db)
    assert check.ok and check.entries == len(log) + 1  # type: ignore[attr-defined]
    with pytest.raises(DBAPIError, match="audit_log is append-only"):
        _sql(db, "UPDATE audit_log SET detail = 'x'")
    db.close()


def test_demo_database_audit_chain_verifies(database: Database) -> None:
    fill_demo(database, hands=8, tables=2, seed=4, hasher=FAST)
    check = _check(database)
    assert check.ok and check.entries > 4, check  # type: ignore[attr-defined]
    assert verify_database(database).ok


def test_cli_verify_names_a_changed_audit_entry(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/t.db"
    db = open_database(url)
    fill_demo(db, hands=4, tables=1, seed=5, hasher=FAST)
    _unguard(db)
    _sql(db, "UPDATE audit_log SET detail = 'nothing to see' WHERE seq = 2")
    db.close()
    run = [sys.executable, "-m", "dealer_assist.cli", "--db", url, "verify"]
    r = subprocess.run(run, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1, r.stdout + r.stderr
    assert "audit log NOT INTACT: entry 2 (id 2" in r.stderr
    assert "its hash does not match its content" in r.stderr

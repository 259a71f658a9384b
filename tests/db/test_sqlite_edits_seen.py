"""Issue 40.6: edits of a real SQLite file that verify missed.

Whoever holds the file drops the append-only triggers and edits rows in place. A live hand
given no settings version beside an appended ``import`` entry passed as imported (so its fee
and continuity went unchecked and the day's totals left it out); edits before the newest
checkpoint that leave the signed heads alone (an event's body or actor changed without
rehashing, an event deleted from the middle of a chain, a push moved to another seat with the
totals kept, an audit entry's detail changed) passed ``verify --since-checkpoint``, and the
shift close, which runs only that check, signed a fresh checkpoint over them. Each edit below
is named by ``verify``, by ``verify --since-checkpoint`` and by the shift close, which signs
nothing.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest
from services.support import FAST

from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.demo import fill_demo
from dealer_assist.db.keys import create_key, load_key
from dealer_assist.db.sealer import DbSealer
from dealer_assist.db.store import append_audit
from dealer_assist.db.verify import verify_database

START = datetime(2026, 11, 20, 18, tzinfo=UTC)


def _sql(db: Database, sql: str, params: tuple[object, ...] = ()) -> None:
    with db.engine.begin() as conn:
        conn.exec_driver_sql(sql, params)


def _one(db: Database, sql: str, params: tuple[object, ...] = ()) -> tuple[object, ...]:
    with db.engine.connect() as conn:
        row = conn.exec_driver_sql(sql, params).first()
    assert row is not None, sql
    return tuple(row)


@pytest.fixture
def room(sqlite_url: str, tmp_path: Path) -> tuple[Database, Path]:
    """A real SQLite file: a demo day's hands, a shift close's checkpoint signed over them,
    then every trigger dropped (what the insider with the file does first)."""
    db = open_database(sqlite_url)
    fill_demo(db, hands=12, tables=2, seed=3, hasher=FAST, start=START)
    keyfile = tmp_path / "room-key.pem"
    create_key(keyfile)
    seal = DbSealer(db, keyfile).close_of_shift("shift close")
    assert seal.ok and seal.number == 1, seal.message
    with db.engine.connect() as conn:
        names = [r[0] for r in conn.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type = 'trigger'")]
    for name in names:
        _sql(db, f"DROP TRIGGER {name}")
    return db, keyfile


def _body_edited(db: Database) -> str:
    _sql(db, "UPDATE events SET body = replace(body, '\"type\"', '\"type\" ') "
         "WHERE table_id = 1 AND seq = 5")
    return r"table Table 1 \(id 1\), seq 5: its hash does not match its content"


def _actor_edited(db: Database) -> str:
    _sql(db, "UPDATE events SET actor = 'mallory' WHERE table_id = 1 AND seq = 6")
    return r"table Table 1 \(id 1\), seq 6: its hash does not match its content"


def _event_deleted(db: Database) -> str:
    _sql(db, "DELETE FROM events WHERE table_id = 1 AND seq = 7")
    return (r"table Table 1 \(id 1\), seq 7: event 7 is missing \(deleted\); the next stored "
            "event is 8")


def _push_moved(db: Database) -> str:
    """Two pushes of one settled hand trade seats: every total stays what it was."""
    _hand, a, b = _one(
        db, "SELECT x.hand_id, x.id, y.id FROM ledger_lines x JOIN ledger_lines y ON "
        "y.hand_id = x.hand_id AND y.settlement = x.settlement AND y.kind = 'push' AND "
        "y.id > x.id AND y.seat <> x.seat AND y.amount <> x.amount JOIN hands h ON "
        "h.id = x.hand_id WHERE x.kind = 'push' AND h.table_id = 1 ORDER BY x.id LIMIT 1")
    _sql(db, "UPDATE ledger_lines SET seat = CASE id WHEN ? THEN (SELECT seat FROM "
         "ledger_lines WHERE id = ?) ELSE (SELECT seat FROM ledger_lines WHERE id = ?) END "
         "WHERE id IN (?, ?)", (a, b, a, a, b))
    # the full check replays the hand; the incremental one holds the lines to the digest
    # checkpoint 1 signed of them
    return (r"hand \d+'s ledger lines do not match its events: events give push seat \d+|"
            r"table Table 1 \(id 1\): its ledger lines up to line \d+ differ from those "
            "checkpoint 1 signed")


def _audit_detail_edited(db: Database) -> str:
    _sql(db, "UPDATE audit_log SET detail = 'nothing to see' WHERE seq = 3")
    return r"audit log NOT INTACT: entry 3 \(id 3, [a-z -]+\): its hash does not match"


def _live_hand_made_imported(db: Database) -> str:
    """``UPDATE hands SET settings_id = NULL`` and an appended ``import`` entry, chained."""
    hand_id, number, table_id, events = _one(
        db, "SELECT id, number, table_id, events FROM hands WHERE table_id = 1 AND status = "
        "'settled' ORDER BY number DESC LIMIT 1")
    _sql(db, "UPDATE hands SET settings_id = NULL WHERE id = ?", (hand_id,))
    with db.engine.begin() as conn:
        append_audit(conn, [{
            "at": datetime(2026, 11, 21, 9, tzinfo=UTC), "actor": "fran", "action": "import",
            "detail": f"hand {number}: {events} events imported from a hand log; log sha256 "
                      + hashlib.sha256(b"forged").hexdigest(),
            "table_id": table_id, "hand_id": hand_id}])
    return (f"hand {number}: the hands table gives it no settings version and an import entry "
            r"names it, but its events were recorded from .* by dana, not at once by fran")


EDITS: dict[str, Callable[[Database], str]] = {
    "event-body": _body_edited, "event-actor": _actor_edited,
    "event-deleted": _event_deleted, "push-moved": _push_moved,
    "audit-detail": _audit_detail_edited, "live-hand-imported": _live_hand_made_imported,
}


@pytest.mark.parametrize("edit", list(EDITS))
def test_regression_an_edit_of_the_file_is_named_by_every_verify_and_the_shift_close(
    room: tuple[Database, Path], edit: str,
) -> None:
    db, keyfile = room
    said = EDITS[edit](db)
    key = load_key(keyfile)
    full = verify_database(db, key=key)
    assert not full.ok and re.search(said, full.summary()), full.summary()
    since = verify_database(db, key=key, since_checkpoint=True)
    assert since.since == 1, since.summary()
    assert not since.ok and re.search(said, since.summary()), since.summary()
    seal = DbSealer(db, keyfile).close_of_shift("shift close")
    assert not seal.ok and seal.number is None and re.search(said, seal.message), seal.message
    assert _one(db, "SELECT COUNT(*) FROM checkpoints") == (1,)  # nothing signed over it
    db.close()


def test_a_report_checkpoint_is_no_starting_point_for_the_incremental_check(
    room: tuple[Database, Path],
) -> None:
    """A checkpoint signed with no check before it (a report's, an export's) vouches for
    nothing: a push moved before it is still named, from the shift close's checkpoint."""
    from dealer_assist.db.checkpoints import sign_checkpoint

    db, keyfile = room
    key = load_key(keyfile)
    said = _push_moved(db)
    sign_checkpoint(db, key, reason="report")  # signs the moved push's digest
    since = verify_database(db, key=key, since_checkpoint=True)
    assert since.since == 1 and not since.ok, since.summary()
    assert re.search(said, since.summary()), since.summary()
    db.close()

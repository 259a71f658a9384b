"""Rows outside the hashes that steer money and checks, and the shift close's incremental verify.

Every column of a hand's row that verify, the reports or the next hand read is held to the
hand's (hashed) start event or to the chain's order; ``verify --since-checkpoint`` checks what
the newest checkpoint signed (its ledger lines and fees, the hands it signed settled, the
audit entries it numbered) as well as what came after it. On SQLite (the file's owner is the
insider); on PostgreSQL a station's role may not change these columns at all
(tests/db/test_station_rights.py).
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from services.support import FAST

from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.checkpoints import sign_checkpoint
from dealer_assist.db.demo import fill_demo
from dealer_assist.db.keys import RoomKey, create_key
from dealer_assist.db.verify import verify_database

#: What a shift close signs with its checkpoint: a check found the database intact.
CHECKED = {"full": True}

START = datetime(2026, 11, 20, 18, tzinfo=UTC)


@pytest.fixture(scope="module")
def demo_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    db = open_database(f"sqlite:///{path}")
    fill_demo(db, hands=16, tables=2, seed=5, hasher=FAST, start=START)
    db.close()
    return path


@pytest.fixture
def demo(demo_file: Path, tmp_path: Path) -> Database:
    import shutil

    shutil.copy(demo_file, tmp_path / "d.db")
    db = open_database(f"sqlite:///{tmp_path}/d.db")
    report = verify_database(db)
    assert report.ok, report.summary()
    return db


@pytest.fixture
def key(tmp_path: Path) -> RoomKey:
    return create_key(tmp_path / "room-key.pem")


def _sql(db: Database, sql: str, params: tuple[object, ...] = ()) -> None:
    with db.engine.begin() as conn:
        conn.exec_driver_sql(sql, params)


def _one(db: Database, sql: str, params: tuple[object, ...] = ()) -> tuple[object, ...]:
    with db.engine.connect() as conn:
        row = conn.exec_driver_sql(sql, params).first()
    assert row is not None
    return tuple(row)


def _other_game(db: Database) -> str:
    game = _one(db, "SELECT game FROM hands WHERE table_id = 1 AND number = 3")[0]
    return "ofc" if game != "ofc" else "champs-and-cowards"


# --- item: rows outside the hashes -------------------------------------------------------------
@pytest.mark.parametrize("since", [False, True], ids=["full", "since-checkpoint"])
def test_regression_a_hands_game_changed_in_sql_is_named(
    demo: Database, key: RoomKey, since: bool
) -> None:
    """``UPDATE hands SET game='ofc'`` made the next hand start every seat at the buy-in, and
    verify said intact: the game is the start event's."""
    sign_checkpoint(demo, key, reason="test", checked=CHECKED)
    other = _other_game(demo)
    _sql(demo, "UPDATE hands SET game = ? WHERE table_id = 1 AND number = 3", (other,))
    text = verify_database(demo, key=key, since_checkpoint=since).summary()
    assert f"hand 3: the hands table says its game is {other}, its start event says" in text


@pytest.mark.parametrize("since", [False, True], ids=["full", "since-checkpoint"])
def test_regression_a_hands_settings_version_cleared_in_sql_is_named(
    demo: Database, key: RoomKey, since: bool
) -> None:
    """``settings_id`` NULL marks an imported hand, which is held to no fee and no
    continuity: a dealt hand set so is named (only an imported one may have none)."""
    sign_checkpoint(demo, key, reason="test", checked=CHECKED)
    _sql(demo, "UPDATE hands SET settings_id = NULL WHERE table_id = 2 AND number = 4")
    text = verify_database(demo, key=key, since_checkpoint=since).summary()
    assert "hand 4: the hands table gives it no settings version, but it was not imported" in text


@pytest.mark.parametrize("since", [False, True], ids=["full", "since-checkpoint"])
def test_regression_a_hands_number_changed_in_sql_is_named(
    demo: Database, key: RoomKey, since: bool
) -> None:
    sign_checkpoint(demo, key, reason="test", checked=CHECKED)
    _sql(demo, "UPDATE hands SET number = 99 WHERE table_id = 1 AND number = 5")
    text = verify_database(demo, key=key, since_checkpoint=since).summary()
    assert ("hand 99: the hands table numbers it 99, but it is the hand after hand 4 on the "
            "table's chain") in text


def test_a_hands_seats_and_start_time_changed_in_sql_are_named(demo: Database) -> None:
    _sql(demo, "UPDATE hands SET seats = '[1]' WHERE table_id = 1 AND number = 2")
    _sql(demo, "UPDATE hands SET started_at = '2026-11-19 03:00:00.000000' "
               "WHERE table_id = 2 AND number = 2")
    text = verify_database(demo).summary()
    assert "hand 2: the hands table says its seats are [1], its start event says" in text
    assert "hand 2: the hands table says it started at 2026-11-19T03:00:00+00:00" in text


# --- item: the shift close's verify checks what the last checkpoint signed ----------------------
def test_regression_since_checkpoint_names_a_second_settlement_of_an_old_hand(
    demo: Database, key: RoomKey
) -> None:
    """A second settlement with no fee, added to a hand settled before the checkpoint: the
    checkpoint's signed fee totals no longer match, and no event reopened the hand."""
    hand_id = _one(demo, "SELECT h.id FROM hands h WHERE h.table_id = 1 AND h.status = "
                         "'settled' AND EXISTS (SELECT 1 FROM ledger_lines l WHERE l.hand_id = "
                         "h.id AND l.kind = 'fee' AND l.amount > 0) ORDER BY h.number LIMIT 1")[0]
    sign_checkpoint(demo, key, reason="test", checked=CHECKED)
    _sql(demo, "INSERT INTO ledger_lines (hand_id, settlement, kind, detail, seat, amount) "
               "SELECT hand_id, settlement + 1, kind, detail, seat, amount FROM ledger_lines "
               "WHERE hand_id = ? AND kind <> 'fee'", (hand_id,))
    report = verify_database(demo, key=key, since_checkpoint=True)
    assert not report.ok  # (the checkpoint no longer matches: verified in full, and named)
    assert "got ledger lines since with no event reopening it" in report.summary()


def test_since_checkpoint_compares_the_fees_the_checkpoint_signed(
    demo: Database, key: RoomKey
) -> None:
    """The file's owner sets the append-only trigger aside and lowers a fee signed over."""
    sign_checkpoint(demo, key, reason="test", checked=CHECKED)
    with demo.engine.begin() as conn:
        triggers = [r[0] for r in conn.exec_driver_sql(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'ledger_lines'")]
        for name in triggers:
            conn.exec_driver_sql(f"DROP TRIGGER {name}")
        conn.exec_driver_sql(
            "UPDATE ledger_lines SET amount = 0 WHERE id = (SELECT MIN(l.id) FROM ledger_lines l "
            "JOIN hands h ON h.id = l.hand_id WHERE h.table_id = 1 AND l.kind = 'fee' "
            "AND l.amount > 0)")
    report = verify_database(demo, key=key, since_checkpoint=True)
    assert not report.ok
    assert "Table 1 (id 1): checkpoint 1 signed fees of" in report.summary()


def test_regression_since_checkpoint_names_an_old_hand_set_back_to_open(
    demo: Database, key: RoomKey
) -> None:
    sign_checkpoint(demo, key, reason="test", checked=CHECKED)
    _sql(demo, "UPDATE hands SET status = 'open' WHERE table_id = 2 AND number = 2")
    report = verify_database(demo, key=key, since_checkpoint=True)
    assert not report.ok
    assert ("hand 2 is marked open, but it was settled when checkpoint 1 was signed"
            in report.summary())


def test_regression_since_checkpoint_names_an_old_hand_moved_to_another_shift(
    demo: Database, key: RoomKey
) -> None:
    sign_checkpoint(demo, key, reason="test", checked=CHECKED)
    _sql(demo, "UPDATE hands SET shift_id = (SELECT MAX(id) FROM shifts WHERE table_id = 2) "
               "WHERE table_id = 1 AND number = 1")
    report = verify_database(demo, key=key, since_checkpoint=True)
    assert report.since == 1
    assert "hand 1: the hands table puts it in shift" in report.summary()


def test_regression_since_checkpoint_names_an_audit_entry_reusing_an_old_number(
    demo: Database, key: RoomKey
) -> None:
    sign_checkpoint(demo, key, reason="test", checked=CHECKED)
    _sql(demo, "INSERT INTO audit_log (at, actor, action, detail, seq, prev_hash, hash) "
               "SELECT at, actor, 'approval', 'forged', seq, prev_hash, hash FROM audit_log "
               "WHERE seq = 3")
    report = verify_database(demo, key=key, since_checkpoint=True)
    assert not report.ok
    assert "an entry was added with a number already taken" in report.summary()


def test_since_checkpoint_still_passes_a_hand_settled_or_voided_after_the_checkpoint(
    tmp_path: Path, key: RoomKey
) -> None:
    """What the app does after a checkpoint (settle a hand left open, void in a settled hand
    with the floor's approval) is not taken for a tamper."""
    from services.support import make_room

    from dealer_assist.cards import parse_card
    from dealer_assist.db.store import SqlStore
    from dealer_assist.events import CardDealt
    from dealer_assist.services.app import Approval

    db = open_database(f"sqlite:///{tmp_path}/room.db")
    room = make_room(SqlStore(db))  # type: ignore[arg-type]
    svc = room.svc
    now = svc.start_hand(room.dealer, room.table_id)
    for seat, c in zip((1, 2, 3), ("Ad", "Kd", "Qd"), strict=True):
        now = svc.record(room.dealer, now.hand.id, CardDealt(seat=seat, card=parse_card(c)))
    sign_checkpoint(db, key, reason="test", checked=CHECKED)  # the hand open, its cards dealt
    svc.settle(room.dealer, now.hand.id)
    report = verify_database(db, key=key, since_checkpoint=True)
    assert report.ok and report.since == 1, report.summary()
    sign_checkpoint(db, key, reason="test", checked=CHECKED)  # the hand settled
    svc.void(room.dealer, now.hand.id, now.last.number, reason="keyed too early",
             approval=Approval("fran", "2222"))
    report = verify_database(db, key=key, since_checkpoint=True)
    assert report.ok and report.since == 2, report.summary()
    db.close()

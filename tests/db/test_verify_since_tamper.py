"""``verify --since-checkpoint`` names an edit behind the signed head as a full verify names it:
the columns the event hash covers and the one it does not (an event's number in its hand)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from services.support import FAST

from dealer_assist.db.bootstrap import Database
from dealer_assist.db.checkpoints import sign_checkpoint
from dealer_assist.db.demo import fill_demo
from dealer_assist.db.keys import RoomKey, create_key
from dealer_assist.db.verify import verify_database

START = datetime(2026, 11, 20, 18, tzinfo=UTC)


@pytest.fixture
def signed(database: Database, tmp_path: Path) -> tuple[Database, RoomKey]:
    """A checked demo, a checkpoint signed on it, then more hands dealt after it."""
    fill_demo(database, hands=8, tables=2, seed=3, hasher=FAST, start=START)
    assert verify_database(database).ok
    key = create_key(tmp_path / "room-key.pem")
    sign_checkpoint(database, key, reason="shift close", checked={"full": True})
    fill_demo(database, hands=4, tables=2, seed=9, hasher=FAST)
    return database, key


def _unguarded_sql(db: Database, sql: str) -> None:
    with db.engine.begin() as conn:
        if db.dialect == "sqlite":
            for (name,) in list(conn.exec_driver_sql(
                    "SELECT name FROM sqlite_master WHERE type = 'trigger'")):
                conn.exec_driver_sql(f"DROP TRIGGER {name}")
        else:
            conn.exec_driver_sql("ALTER TABLE events DISABLE TRIGGER USER")
        conn.exec_driver_sql(sql)


def _mid_hand_seq(db: Database) -> int:
    """The seq of table 1's third event of its first hand (well before the checkpoint)."""
    with db.engine.connect() as conn:
        seq = conn.exec_driver_sql(
            "SELECT seq FROM events WHERE table_id = 1 AND hand_id IS NOT NULL AND number = 3 "
            "ORDER BY seq LIMIT 1").scalar()
    assert isinstance(seq, int)
    return seq


@pytest.mark.parametrize("edit", [
    "UPDATE events SET body = body || ' ' WHERE table_id = 1 AND seq = {seq}",
    "UPDATE events SET actor = 'mallory' WHERE table_id = 1 AND seq = {seq}",
    "UPDATE events SET number = number + 1000 WHERE table_id = 1 AND seq = {seq}",
    "DELETE FROM events WHERE table_id = 1 AND seq = {seq}",
])
def test_an_event_edited_before_the_checkpoint_is_named_by_the_incremental_check_as_by_full(
    signed: tuple[Database, RoomKey], edit: str,
) -> None:
    db, key = signed
    before = verify_database(db, key=key, since_checkpoint=True)
    assert before.ok and before.since == 1, before.summary()
    seq = _mid_hand_seq(db)
    _unguarded_sql(db, edit.format(seq=seq))
    inc = verify_database(db, key=key, since_checkpoint=True)
    full = verify_database(db, key=key)
    assert inc.problem is not None and full.problem is not None, (inc.summary(), full.summary())
    assert (inc.problem.table_id, inc.problem.seq) == (full.problem.table_id, full.problem.seq)
    assert (inc.problem.table_id, inc.problem.seq) == (1, seq)

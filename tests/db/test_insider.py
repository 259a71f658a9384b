"""An insider with database access (the SQLite file, or the app's PostgreSQL role) attacks the
records: each attack of the threat model is written here in plain SQL, and verify names it.

Chains rewritten with their hashes recomputed are caught by the signed checkpoints (the room's
key is outside the database); rows changed without any hashing (a role, a shift's floor person,
a table's name, an adjustment) by their records on the audit chain; a hand's fee by its settings
version; a carry-in by the hand before it.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from services.support import FAST, Room, make_room
from sqlalchemy.exc import DBAPIError

from dealer_assist.cli import main
from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.checkpoints import export_anchors, read_anchors, sign_checkpoint
from dealer_assist.db.demo import fill_demo
from dealer_assist.db.keys import RoomKey, create_key, load_key
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.engine.hand import Folded
from dealer_assist.engine.stored import fold, parse_body
from dealer_assist.errors import BadInput
from dealer_assist.services import Approval
from dealer_assist.services.audit_chain import audit_hash
from dealer_assist.services.chain import GENESIS, event_hash
from dealer_assist.services.ledger import ledger_lines

#: What a shift close signs with its checkpoint: a check found the database intact.
CHECKED = {"full": True}

START = datetime(2026, 11, 20, 18, tzinfo=UTC)


def _sql(db: Database, sql: str, params: tuple[object, ...] = ()) -> None:
    with db.engine.begin() as conn:
        conn.exec_driver_sql(sql, params)


def _rows(db: Database, sql: str, params: tuple[object, ...] = ()) -> list[tuple[object, ...]]:
    with db.engine.connect() as conn:
        return [tuple(r) for r in conn.exec_driver_sql(sql, params)]


def _unguard(db: Database) -> None:
    """What an insider with the file does first: drop every append-only trigger."""
    if db.dialect == "sqlite":
        for (name,) in _rows(db, "SELECT name FROM sqlite_master WHERE type = 'trigger'"):
            _sql(db, f"DROP TRIGGER {name}")
    else:
        for table in ("events", "ledger_lines", "disputes", "dispute_adjustments", "audit_log",
                      "checkpoints"):
            _sql(db, f"ALTER TABLE {table} DISABLE TRIGGER USER")


def _m(db: Database) -> str:
    return "?" if db.dialect == "sqlite" else "%s"


def _rechain(db: Database, table_id: int) -> None:
    """Recompute every hash of the table's chain and its head (the chain has no key)."""
    m = _m(db)
    prev = GENESIS
    seq = 0
    for id_, seq, hand_id, at, actor, body in _rows(
        db, f"SELECT id, seq, hand_id, time, actor, body FROM events WHERE table_id = {m} "
        "ORDER BY seq", (table_id,),
    ):
        when = datetime.fromisoformat(str(at)) if not isinstance(at, datetime) else at
        h = event_hash(table_id=table_id, seq=int(seq), time=when, actor=str(actor),
                       hand_id=hand_id, body=str(body), prev_hash=prev)  # type: ignore[arg-type]
        _sql(db, f"UPDATE events SET prev_hash = {m}, hash = {m} WHERE id = {m}", (prev, h, id_))
        prev = h
    _sql(db, f"UPDATE card_tables SET head_seq = {m}, head_hash = {m} WHERE id = {m}",
         (seq, prev, table_id))


def _rechain_audit(db: Database) -> None:
    """Renumber and rehash the whole audit chain and move its head."""
    m = _m(db)
    prev, n = GENESIS, 0
    for id_, at, actor, action, detail, table_id, hand_id in _rows(
        db, "SELECT id, at, actor, action, detail, table_id, hand_id FROM audit_log ORDER BY id"
    ):
        n += 1
        when = datetime.fromisoformat(str(at)) if not isinstance(at, datetime) else at
        h = audit_hash(seq=n, at=when, actor=actor, action=str(action),  # type: ignore[arg-type]
                       detail=str(detail), table_id=table_id, hand_id=hand_id,  # type: ignore[arg-type]
                       prev_hash=prev)
        _sql(db, f"UPDATE audit_log SET seq = {m}, prev_hash = {m}, hash = {m} WHERE id = {m}",
             (n, prev, h, id_))
        prev = h
    _sql(db, f"UPDATE audit_head SET entries = {m}, head_hash = {m}", (n, prev))


@pytest.fixture
def key(tmp_path: Path) -> RoomKey:
    return create_key(tmp_path / "room-key.pem")


@pytest.fixture
def demo(database: Database) -> Database:
    fill_demo(database, hands=12, tables=2, seed=3, hasher=FAST, start=START)
    report = verify_database(database)
    assert report.ok, report.summary()
    return database


def _last_hand(db: Database, table_id: int) -> tuple[int, int, int]:
    """(hand id, its first seq, its number) of the table's last hand."""
    m = _m(db)
    ((hand_id, number),) = _rows(
        db, f"SELECT id, number FROM hands WHERE table_id = {m} ORDER BY number DESC LIMIT 1",
        (table_id,))
    ((first,),) = _rows(db, f"SELECT MIN(seq) FROM events WHERE hand_id = {m}", (hand_id,))
    return int(hand_id), int(first), int(number)  # type: ignore[call-overload]


def _move_head_back(db: Database, table_id: int) -> None:
    m = _m(db)
    ((seq, h),) = _rows(db, f"SELECT seq, hash FROM events WHERE table_id = {m} ORDER BY seq "
                        "DESC LIMIT 1", (table_id,))
    _sql(db, f"UPDATE card_tables SET head_seq = {m}, head_hash = {m} WHERE id = {m}",
         (seq, h, table_id))


# --- SQLite: REPLACE cannot rewrite a sealed row -------------------------------------------
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_insert_or_replace_cannot_rewrite_events_or_audit_entries(demo: Database) -> None:
    """Regression: REPLACE deletes the old row without firing its DELETE trigger; a BEFORE
    INSERT trigger now refuses any row whose key is stored, with every trigger in place."""
    attacks = (
        "INSERT OR REPLACE INTO events (id, table_id, seq, hand_id, number, time, actor, type, "
        "body, prev_hash, hash) SELECT id, table_id, seq, hand_id, number, time, 'mallory', type, "
        "body, prev_hash, hash FROM events WHERE seq = 3 AND table_id = 1",
        "REPLACE INTO events (table_id, seq, hand_id, number, time, actor, type, body, "
        "prev_hash, hash) SELECT table_id, seq, hand_id, number, time, 'mallory', type, body, "
        "prev_hash, hash FROM events WHERE seq = 4 AND table_id = 1",
        "REPLACE INTO audit_log (id, at, actor, action, detail, table_id, hand_id, seq, "
        "prev_hash, hash) SELECT id, at, actor, action, 'nothing', table_id, hand_id, seq, "
        "prev_hash, hash FROM audit_log WHERE action = 'reveal'",
        "INSERT OR REPLACE INTO ledger_lines (id, hand_id, settlement, kind, detail, seat, "
        "amount) SELECT id, hand_id, settlement, kind, detail, seat, 0 FROM ledger_lines "
        "WHERE kind = 'fee' LIMIT 1",
        "INSERT OR REPLACE INTO dispute_adjustments (id, dispute_id, seat, amount, note) "
        "SELECT id, dispute_id, seat, 50000, note FROM dispute_adjustments LIMIT 1",
    )
    for sql in attacks:
        with pytest.raises(DBAPIError, match="append-only: a row with this key is stored"):
            _sql(demo, sql)
    assert verify_database(demo).ok


# --- every faulty table, not only the first -----------------------------------------------
def test_verify_names_every_faulty_table(demo: Database) -> None:
    _unguard(demo)
    _sql(demo, "UPDATE events SET actor = 'mallory' WHERE table_id = 1 AND seq = 7")
    _sql(demo, "UPDATE events SET actor = 'mallory' WHERE table_id = 2 AND seq = 9")
    report = verify_database(demo)
    assert [(p.table, p.seq) for p in report.problems] == [("Table 1", 7), ("Table 2", 9)]
    assert report.summary().count("NOT INTACT: table") == 2


# --- chains rewritten behind the app: caught by the signed checkpoints ---------------------
def test_last_hand_deleted_and_head_moved_back_is_named_by_the_checkpoint(
    demo: Database, key: RoomKey
) -> None:
    sign_checkpoint(demo, key, reason="shift close", checked=CHECKED)
    hand_id, _first, _ = _last_hand(demo, 1)
    _unguard(demo)
    m = _m(demo)
    _sql(demo, f"DELETE FROM events WHERE hand_id = {m}", (hand_id,))
    _sql(demo, f"DELETE FROM ledger_lines WHERE hand_id = {m}", (hand_id,))
    _sql(demo, f"DELETE FROM audit_log WHERE hand_id = {m}", (hand_id,))
    _sql(demo, f"DELETE FROM hands WHERE id = {m}", (hand_id,))
    _move_head_back(demo, 1)
    report = verify_database(demo, key=key)
    assert not report.ok
    assert any("signed this event but it is no longer stored (events at the end were cut)" in f
               for f in report.findings), report.summary()


def test_cut_events_of_the_last_hand_set_open_again_are_named(
    demo: Database, key: RoomKey
) -> None:
    sign_checkpoint(demo, key, reason="report", checked=CHECKED)
    hand_id, _first, _ = _last_hand(demo, 2)
    _unguard(demo)
    m = _m(demo)
    _sql(demo, f"DELETE FROM events WHERE hand_id = {m} AND number > 3", (hand_id,))
    _sql(demo, f"DELETE FROM ledger_lines WHERE hand_id = {m}", (hand_id,))
    _sql(demo, f"UPDATE hands SET status = 'open', events = 3 WHERE id = {m}", (hand_id,))
    _move_head_back(demo, 2)
    report = verify_database(demo, key=key)
    assert any("Table 2" in f and "events at the end were cut" in f for f in report.findings)


def _zero_fee_and_rechain(db: Database, table_id: int, number: int) -> int:
    """Hand ``number``'s fee set to none, its ledger lines rewritten from the replay, every
    later hash and the head recomputed: the chain links and every hand replays."""
    m = _m(db)
    ((hand_id,),) = _rows(db, f"SELECT id FROM hands WHERE table_id = {m} AND number = {m}",
                          (table_id, number))
    rows = _rows(db, f"SELECT id, body FROM events WHERE hand_id = {m} ORDER BY number",
                 (hand_id,))
    start = json.loads(str(rows[0][1]))
    start.pop("fee", None)
    text = json.dumps(start, sort_keys=True, separators=(",", ":"))
    _unguard(db)
    _sql(db, f"UPDATE events SET body = {m} WHERE id = {m}", (text, rows[0][0]))
    game = str(start["game"])
    folded = fold([parse_body(text), *(parse_body(str(b), game) for _, b in rows[1:])])
    assert isinstance(folded, Folded)
    _sql(db, f"DELETE FROM ledger_lines WHERE hand_id = {m}", (hand_id,))
    for x in ledger_lines(int(hand_id), folded.settle()):  # type: ignore[call-overload]
        _sql(db, "INSERT INTO ledger_lines (hand_id, settlement, kind, detail, seat, amount) "
                 f"VALUES ({m}, 1, {m}, {m}, {m}, {m})",
             (hand_id, x.kind, x.detail, x.seat, x.amount))
    _rechain(db, table_id)
    return int(hand_id)  # type: ignore[call-overload]


def test_fee_zeroed_with_ledger_and_chain_recomputed_is_named(
    demo: Database, key: RoomKey
) -> None:
    sign_checkpoint(demo, key, reason="shift close", checked=CHECKED)
    _zero_fee_and_rechain(demo, 1, 3)
    report = verify_database(demo, key=key)
    assert report.problem is not None and report.problem.table == "Table 1"
    assert "hand 3's fee null is not the fee" in report.problem.message
    assert any("hash differs from the one checkpoint 1 signed (the chain was rewritten"
               in f for f in report.findings), report.summary()


def test_recomputed_chain_after_the_last_checkpoint_is_named_by_an_anchors_file(
    demo: Database, key: RoomKey, tmp_path: Path
) -> None:
    """The insider deletes the stored checkpoints too; the exported file still has them."""
    export_anchors(demo, key, tmp_path / "anchors.json")
    hand_id, _, _ = _last_hand(demo, 1)
    _unguard(demo)
    m = _m(demo)
    _sql(demo, f"DELETE FROM events WHERE hand_id = {m}", (hand_id,))
    _sql(demo, f"DELETE FROM ledger_lines WHERE hand_id = {m}", (hand_id,))
    _sql(demo, f"DELETE FROM audit_log WHERE hand_id = {m}", (hand_id,))
    _sql(demo, f"DELETE FROM hands WHERE id = {m}", (hand_id,))
    _move_head_back(demo, 1)
    _sql(demo, "DELETE FROM checkpoints")
    _rechain_audit(demo)
    plain = verify_database(demo)
    anchored = verify_database(demo, anchors=read_anchors(tmp_path / "anchors.json"))
    assert plain.ok  # nothing inside the database can tell
    assert not anchored.ok
    text = anchored.summary()
    assert "checkpoint 1 of the anchors file is not in the database (deleted)" in text
    assert "Table 1 (id 1)" in text and "events at the end were cut" in text


def test_audit_tail_cut_is_named_by_the_checkpoint(demo: Database, key: RoomKey) -> None:
    sign_checkpoint(demo, key, reason="report", checked=CHECKED)
    ((n,),) = _rows(demo, "SELECT MAX(seq) FROM audit_log")
    _unguard(demo)
    m = _m(demo)
    _sql(demo, f"DELETE FROM audit_log WHERE seq > {m}", (int(n) - 3,))  # type: ignore[call-overload]
    _rechain_audit(demo)
    report = verify_database(demo, key=key)
    assert report.audit is not None and report.audit.ok  # the chain itself links
    assert any(f"checkpoint 1 signed entry {n}, which is no longer stored" in f
               for f in report.findings), report.summary()


def test_reveal_deleted_and_audit_chain_recomputed_is_named(demo: Database, key: RoomKey) -> None:
    sign_checkpoint(demo, key, reason="report", checked=CHECKED)
    _unguard(demo)
    _sql(demo, "DELETE FROM audit_log WHERE action = 'reveal'")
    _rechain_audit(demo)
    report = verify_database(demo, key=key)
    assert any("the audit chain was rewritten" in f or "no longer stored" in f
               for f in report.findings), report.summary()


def test_forged_checkpoint_and_deleted_checkpoint_are_named(demo: Database, key: RoomKey,
                                                            tmp_path: Path) -> None:
    for _ in range(3):
        sign_checkpoint(demo, key, reason="report", checked=CHECKED)
    _unguard(demo)
    _sql(demo, "DELETE FROM checkpoints WHERE number = 2")
    mallory = create_key(tmp_path / "mallory.pem")
    forged = mallory.sign(b"{}")
    m = _m(demo)
    _sql(demo, f"UPDATE checkpoints SET signature = {m} WHERE number = 3", (forged,))
    text = verify_database(demo, key=key).summary()
    assert "checkpoint 2 is missing (deleted); the next stored is 3" in text
    assert "checkpoint 3: its signature does not verify with the room's key" in text


# --- rows with no hashing at all: checked against their records on the audit chain --------
@pytest.fixture
def room(database: Database) -> Room:
    r = make_room(SqlStore(database))
    r.svc.settle(r.dealer, r.hand(["9d", "Kc", "2h"]))
    r.svc.settle(r.dealer, r.hand(["Ad", "Kd", "Qd"]))
    return r


def test_role_raised_in_plain_sql_is_named(room: Room, database: Database) -> None:
    assert verify_database(database).ok
    _sql(database, "UPDATE users SET role = 'admin' WHERE name = 'dee'")
    text = verify_database(database).summary()
    assert ('user dee: role is "admin" but the audit chain records "dealer" (changed behind '
            "the app's back)") in text


def test_full_name_pin_and_shift_floor_changed_are_named(room: Room, database: Database) -> None:
    _sql(database, "UPDATE users SET full_name = 'Someone Else' WHERE name = 'fran'")
    _sql(database, "UPDATE users SET pin_hash = 'x' WHERE name = 'otto'")
    _sql(database, "UPDATE shifts SET floor = 'admin', dealer = 'otto'")
    text = verify_database(database).summary()
    assert 'user fran: full_name is "Someone Else" but the audit chain records "Fran Floor"' in text
    assert "user otto: the PIN differs from the audit chain's record" in text
    assert 'shift 1: floor is "admin" but the audit chain records "fran"' in text
    assert 'shift 1: dealer is "otto" but the audit chain records "dee"' in text


def test_unbalanced_dispute_adjustment_inserted_is_named(room: Room, database: Database) -> None:
    from dealer_assist.services.model import Adjustment

    hand_id = room.svc.list_hands()[0].id
    from dealer_assist.services import Approval

    room.svc.add_user(room.admin, name="gil", full_name="Gil Floor", role="floor", pin="5555")
    room.svc.record_dispute(room.floor, hand_id, notes="n", ruling="r",
                            adjustments=[Adjustment(100, 1), Adjustment(-100, None)],
                            approval=Approval("gil", "5555"))
    assert verify_database(database).ok
    _sql(database, "INSERT INTO dispute_adjustments (dispute_id, seat, amount, note) "
                   "VALUES (1, 2, 50000, 'for the trouble')")
    text = verify_database(database).summary()
    assert "dispute 1: adjustments is" in text
    assert "its adjustments add up to 50000 cents, not 0 (they must balance)" in text


def test_table_names_swapped_are_named(demo: Database) -> None:
    _sql(demo, "UPDATE card_tables SET name = 'tmp' WHERE id = 1")
    _sql(demo, "UPDATE card_tables SET name = 'Table 1' WHERE id = 2")
    _sql(demo, "UPDATE card_tables SET name = 'Table 2' WHERE id = 1")
    text = verify_database(demo).summary()
    assert 'table id 1 (Table 2): name is "Table 2" but the audit chain records "Table 1"' in text
    assert 'table id 2 (Table 1): name is "Table 1" but the audit chain records "Table 2"' in text


def test_a_row_inserted_behind_the_app_has_no_record(room: Room, database: Database) -> None:
    _sql(database, "INSERT INTO users (name, full_name, role, pin_hash, failed, active, "
                   "created_at) VALUES ('mallory', 'M', 'admin', 'x', 0, true, "
                   "'2026-11-21 20:00:00')")
    assert "user mallory is not in the audit chain's records" in verify_database(
        database).summary()


# --- continuity and empty hands --------------------------------------------------------------
def test_carry_in_changed_and_chain_recomputed_is_named_unless_recorded(
    room: Room, database: Database
) -> None:
    """Hands of the test game carry over: a carry-in other than the last hand's carry-out needs
    a floor person's approval (schema 0016), which the start carries and verify accepts; with
    its approval entry deleted behind the app's back, verify names the start."""
    from dealer_assist.services.app import Approval
    from dealer_assist.services.errors import ApprovalRequired

    first = room.hand(["2d", "2c", "3h"])  # a tie carries the pot
    room.svc.settle(room.dealer, first)
    with pytest.raises(ApprovalRequired, match=r"carry-in \$7 \(\$"):
        room.svc.start_hand(room.dealer, room.table_id, carry_in=700)
    room.svc.start_hand(room.dealer, room.table_id, carry_in=700,
                        approval=Approval("fran", "2222"))
    assert "carry-in" in room.store.audit_log(action="stacks")[-1].detail
    assert verify_database(database).ok, verify_database(database).summary()
    _unguard(database)
    _sql(database, "DELETE FROM audit_log WHERE action = 'approval'")
    _rechain_audit(database)
    report = verify_database(database)
    assert not report.ok
    assert "starts with a carry-in of 700 but hand" in report.summary()
    assert "is not an approval on the audit log" in report.summary()


#: A Caro Hold 'em hand with no antes where everyone checks to the showdown: no chip moves.
NOTHING_MOVES = [
    {"type": "start", "game": "caro-holdem", "seats": [1, 2], "button": 1, "unit": 500, "cap": 4,
     "smallest_chip": 100, "ante": 0, "stacks": {"1": 50000, "2": 50000}},
    {"type": "check", "seat": 2}, {"type": "check", "seat": 1},
    {"type": "board", "cards": ["3c", "5s"]},
    {"type": "check", "seat": 2}, {"type": "check", "seat": 1},
    {"type": "board", "cards": ["Kd"]},
    {"type": "check", "seat": 2}, {"type": "check", "seat": 1},
    {"type": "board", "cards": ["6s", "Tc"]},
    {"type": "check", "seat": 2}, {"type": "check", "seat": 1},
    {"type": "show", "seat": 1, "cards": ["8d", "6d", "Kc", "8s", "Td"]},
    {"type": "show", "seat": 2, "cards": ["6h", "3s", "Qc", "Jd", "Ah"]},
]


def test_a_hand_with_nothing_to_settle_verifies_clean(room: Room, database: Database) -> None:
    """Regression: a hand that moves no chip writes no ledger lines; verify took the missing
    lines for a fault. Dealt live at a Caro Hold 'em table with no ante."""
    from dealer_assist.events import event_from_json

    svc = room.svc
    table = svc.add_table(room.admin, {
        "game": "caro-holdem", "seats": [1, 2], "smallest_chip": 100, "buy_in": 50000,
        "params": {"unit": 500, "cap": 4, "ante": 0},
    }, name="Caro")
    dealer = svc.sign_in("dee", "1111")
    svc.open_shift(dealer, table.id, floor="fran",  # dee deals T1 too: the floor allows it
                   approval=Approval(name="fran", pin="2222"))
    now = svc.start_hand(dealer, table.id, button=1)
    assert now.replay.start.to_json() | {"fee": None} == NOTHING_MOVES[0] | {"fee": None}
    for body in NOTHING_MOVES[1:]:
        now = svc.record(dealer, now.hand.id, event_from_json(body))
    svc.settle(dealer, now.hand.id)
    assert room.store.ledger(now.hand.id) == []
    report = verify_database(database)
    assert report.ok, report.summary()


# --- incremental verify, shift close, CLI -----------------------------------------------------
def test_since_checkpoint_checks_only_what_came_after(demo: Database, key: RoomKey) -> None:
    sign_checkpoint(demo, key, reason="shift close", checked=CHECKED)
    fill_demo(demo, hands=4, tables=2, seed=9, hasher=FAST)  # more hands, after it
    report = verify_database(demo, key=key, since_checkpoint=True)
    assert report.ok and report.since == 1, report.summary()
    assert report.hands == 4
    unsigned = verify_database(demo, since_checkpoint=True)  # no key: not trusted, in full
    assert unsigned.ok and unsigned.since is None and unsigned.hands == 16
    _unguard(demo)
    _hand_id, first, _ = _last_hand(demo, 2)
    _sql(demo, f"UPDATE events SET actor = 'mallory' WHERE table_id = 2 AND seq = {first + 1}")
    report = verify_database(demo, key=key, since_checkpoint=True)
    assert report.problem is not None and report.problem.seq == first + 1


def test_shift_close_verifies_and_signs_a_checkpoint(tmp_path: Path) -> None:
    from dealer_assist.db.bootstrap import open_services
    from dealer_assist.services.app import Approval

    svc = open_services(f"sqlite:///{tmp_path}/room.db", hasher=FAST)
    room = make_room(svc.store, clock=None)  # type: ignore[arg-type]
    room.svc.sealer = svc.sealer
    room.svc.settle(room.dealer, room.hand(["Ad", "Kd", "Qd"]))
    shift = room.svc.current_shift(room.table_id)
    assert shift is not None
    room.svc.close_shift(room.dealer, shift.id, approval=Approval("fran", "2222"))
    seal = room.svc.last_seal
    assert seal is not None and seal.ok and seal.number == 1, seal
    assert "verified in full (no checkpoint before): intact" in seal.message
    assert room.store.audit_log(action="checkpoint")[-1].detail == seal.message
    db = svc.store.db  # type: ignore[attr-defined]
    key = load_key(Path(__import__("os").environ["DEALER_ASSIST_KEY"]))
    assert verify_database(db, key=key, since_checkpoint=True).since == 1


def test_cli_export_then_verify_with_anchors(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                             key: RoomKey) -> None:
    url = f"sqlite:///{tmp_path}/demo.db"
    db = open_database(url)
    fill_demo(db, hands=6, tables=1, seed=2, hasher=FAST, start=START)
    db.close()
    out = tmp_path / "anchors.json"
    keyfile = str(key.path)
    assert main(["--db", url, "checkpoints", "export", "--out", str(out), "--key", keyfile]) == 0
    assert main(["--db", url, "verify", "--anchors", str(out), "--key", keyfile]) == 0
    assert "the newest, 1, matches the database" in capsys.readouterr().out
    db = open_database(url)
    _unguard(db)
    _sql(db, "DELETE FROM checkpoints")
    db.close()
    assert main(["--db", url, "verify", "--anchors", str(out)]) == 1
    assert "checkpoint 1 of the anchors file is not in the database" in capsys.readouterr().err
    assert main(["--db", url, "verify", "--since-checkpoint"]) == 0  # none left: in full


# --- demo -------------------------------------------------------------------------------------
def test_demo_refuses_a_database_with_real_records(database: Database) -> None:
    make_room(SqlStore(database))
    with pytest.raises(BadInput, match="already has records of its own"):
        fill_demo(database, hands=2, tables=1, hasher=FAST)


def test_demo_refuses_a_demo_database_a_real_user_was_added_to(database: Database) -> None:
    fill_demo(database, hands=2, tables=1, hasher=FAST, start=START)
    _sql(database, "UPDATE users SET full_name = 'Real Person' WHERE name = 'dana'")
    with pytest.raises(BadInput, match="users the demo did not make"):
        fill_demo(database, hands=2, tables=1, hasher=FAST)


# --- PostgreSQL: the stations' role does not own the tables ----------------------------------
@pytest.mark.postgres
def test_station_role_records_but_cannot_delete_alter_or_disable_triggers(
    pg_cluster: object, pg_url: str
) -> None:
    """The attack on PostgreSQL was ``ALTER TABLE events DISABLE TRIGGER USER`` as the app's
    role: after ``db upgrade --station-role``, that role inserts and selects only."""
    import psycopg

    owner = open_database(pg_url)
    with owner.engine.begin() as conn:
        conn.exec_driver_sql("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = "
                             "'station') THEN CREATE ROLE station LOGIN; END IF; END $$")
    room = make_room(SqlStore(owner))
    owner.close()
    assert main(["--db", pg_url, "db", "upgrade", "--station-role", "station"]) == 0
    station_url = pg_url.replace("postgres@", "station@")
    db = open_database(station_url)
    from dealer_assist.cards import parse_card
    from dealer_assist.events import CardDealt
    from dealer_assist.services import Services

    svc = Services(SqlStore(db), clock=room.clock, hasher=FAST)  # the app, as the station
    dealer = svc.sign_in("dee", "1111")
    now = svc.start_hand(dealer, room.table_id)
    for seat, c in zip((1, 2, 3), ("Ad", "Kd", "Qd"), strict=True):
        now = svc.record(dealer, now.hand.id, CardDealt(seat=seat, card=parse_card(c)))
    svc.settle(dealer, now.hand.id)
    svc.add_user(svc.sign_in("admin", "9999"), name="nina", full_name="Nina New",
                 role="dealer", pin="4444")
    assert verify_database(db).ok
    dsn = station_url.replace("postgresql+psycopg://", "postgresql://")
    for sql in (
        "ALTER TABLE events DISABLE TRIGGER USER",
        "DROP TRIGGER events_append_only ON events",
        "DELETE FROM events",
        "UPDATE events SET actor = 'mallory'",
        "TRUNCATE audit_log",
        "DELETE FROM checkpoints",
        "UPDATE users SET role = 'admin' WHERE name = 'dee'",
        "UPDATE shifts SET floor = 'admin'",
        "UPDATE card_tables SET name = 'X'",
    ):
        with psycopg.connect(dsn, autocommit=True) as conn, pytest.raises(
            psycopg.errors.InsufficientPrivilege
        ):
            conn.execute(sql)
    db.close()


# --- hands rows checked against their start events and shifts ------------------------------------
def test_hand_moved_to_another_shift_or_dealer_is_named(demo: Database) -> None:
    """Reports group hands by shift and name who dealt them: those columns of the hands table
    are checked against the hand's (hashed) start event and the shifts' records."""
    _sql(demo, "UPDATE hands SET started_by = 'otto' WHERE table_id = 1 AND number = 2")
    _sql(demo, "UPDATE hands SET shift_id = (SELECT MAX(id) FROM shifts WHERE table_id = 1) "
               "WHERE table_id = 2 AND number = 3")
    text = verify_database(demo).summary()
    assert "hand 2: the hands table says otto started it, its start event says" in text
    assert "hand 3: the hands table puts it in shift" in text


def test_shift_close_after_tampering_signs_nothing_and_logs_what_verify_found(
    tmp_path: Path,
) -> None:
    from dealer_assist.db.bootstrap import open_services
    from dealer_assist.services.app import Approval

    svc = open_services(f"sqlite:///{tmp_path}/room.db", hasher=FAST)
    room = make_room(svc.store)  # type: ignore[arg-type]
    room.svc.sealer = svc.sealer
    assert svc.sealer is not None and svc.sealer.checkpoint("report").number == 1
    room.svc.settle(room.dealer, room.hand(["Ad", "Kd", "Qd"]))
    db = svc.store.db  # type: ignore[attr-defined]
    _unguard(db)
    _sql(db, "UPDATE events SET actor = 'mallory' WHERE seq = 2")
    shift = room.svc.current_shift(room.table_id)
    assert shift is not None
    room.svc.close_shift(room.dealer, shift.id, approval=Approval("fran", "2222"))
    seal = room.svc.last_seal
    assert seal is not None and not seal.ok and seal.number is None
    assert "seq 2: its hash does not match its content" in seal.message
    assert room.store.audit_log(action="verify-failed")[-1].detail == seal.message
    assert _rows(db, "SELECT COUNT(*) FROM checkpoints") == [(1,)]


def test_report_carries_the_checkpoint_key_and_full_head_hash(tmp_path: Path) -> None:
    from dealer_assist.db.bootstrap import open_services
    from dealer_assist.reports import generate
    from tests.reports.pdftext import pages

    url = f"sqlite:///{tmp_path}/demo.db"
    db = open_database(url)
    fill_demo(db, hands=6, tables=1, seed=2, hasher=FAST, start=START)
    db.close()
    svc = open_services(url, hasher=FAST)
    fran = svc.sign_in("fran", "2000")
    done = generate.shift_report(svc, fran, tmp_path / "shift.pdf", table="Table 1")
    gen = done.report.generated
    assert gen.checkpoint == 1 and len(gen.key.split()) == 8
    ((head,),) = _rows(svc.store.db, "SELECT head_hash FROM card_tables")  # type: ignore[attr-defined]
    text = " ".join(pages(tmp_path / "shift.pdf"))
    assert f"Built under signed checkpoint 1 · room key {gen.key}" in text
    assert str(head) in "".join(text.split())
    entry = svc.store.audit_log(action="report")[-1].detail
    assert f"checkpoint 1, key {gen.key}; heads Table 1 #" in entry and str(head) in entry


def test_stacks_follow_from_the_hand_before_unless_a_rebuy_is_recorded() -> None:
    """Continuity of stacks (games played with stacks): each seat starts with what it left the
    hand before with (stack, less what it put in, plus what was pushed to it)."""
    from dealer_assist.services.handrules import HandStart, Outcome, hand_findings
    from dealer_assist.services.model import SettingsVersion

    def start(hand_id: int, number: int, stacks: dict[str, int],
              settings_id: int | None = 1) -> HandStart:
        body = json.dumps({"type": "start", "game": "caro-holdem", "seats": [1, 2],
                           "stacks": stacks})
        return HandStart(hand_id, 1, number, "caro-holdem", "settled", settings_id,
                         number * 10, START, body)

    # (a settings document the fee check cannot read: only continuity is looked at here)
    v = [SettingsVersion(id=1, table_id=1, version=1, game="caro-holdem", document={},
                       created_at=START, created_by="admin")]
    first = start(1, 1, {"1": 1000, "2": 1000})
    out = {1: Outcome(put_in={1: 300, 2: 300}, push={1: 600})}
    right = start(3, 3, {"1": 1300, "2": 700})
    wrong = start(3, 3, {"1": 1300, "2": 5000})
    imported = start(2, 2, {"1": 9, "2": 9}, settings_id=None)  # feeds no later hand
    assert hand_findings("T", [first, right], v, out, {}) == []
    assert hand_findings("T", [first, imported, right], v, out, {}) == []
    (found,) = hand_findings("T", [first, wrong], v, out, {})
    assert found == (30, "hand 3 starts seat 2 with 5000 but it left hand 1 with 700, and no "
                     "rebuy is recorded", 3)
    assert hand_findings("T", [first, wrong], v, out, {3: {"seat 2"}}) == []  # a rebuy
    assert hand_findings("T", [first, wrong], v, out, {}, baseline=30) == []  # before 0007


def test_since_checkpoint_replays_a_hand_the_checkpoint_cut_in_two(
    room: Room, database: Database, key: RoomKey
) -> None:
    from dealer_assist.cards import parse_card
    from dealer_assist.events import CardDealt

    now = room.svc.start_hand(room.dealer, room.table_id)
    now = room.svc.record(room.dealer, now.hand.id, CardDealt(seat=1, card=parse_card("Ad")))
    sign_checkpoint(database, key, reason="export", checked=CHECKED)  # in the middle of the hand
    for seat, c in ((2, "Kd"), (3, "Qd")):
        now = room.svc.record(room.dealer, now.hand.id, CardDealt(seat=seat, card=parse_card(c)))
    room.svc.settle(room.dealer, now.hand.id)
    report = verify_database(database, key=key, since_checkpoint=True)
    assert report.ok and report.since == 1 and report.hands == 1, report.summary()
    m = _m(database)
    _unguard(database)
    _sql(database, f"UPDATE ledger_lines SET amount = amount + 1 WHERE hand_id = {m} "
                   "AND kind = 'push'", (now.hand.id,))
    report = verify_database(database, key=key, since_checkpoint=True)
    assert report.problem is not None and "ledger lines do not match" in report.problem.message


def test_settled_hand_set_back_to_open_is_named(demo: Database) -> None:
    """An open hand is not held to its ledger (it is still being dealt): a settled one marked
    open in plain SQL would hide its ledger from the check, unless a void or misdeal reopened it."""
    m = _m(demo)
    ((hand_id,),) = _rows(demo, "SELECT id FROM hands WHERE table_id = 2 AND number = 2")
    _sql(demo, f"UPDATE hands SET status = 'open' WHERE id = {m}", (hand_id,))
    report = verify_database(demo)
    assert report.problem is not None
    assert "hand 2 has ledger lines but is marked open, and no void or misdeal" in (
        report.problem.message)


def test_cli_keys_and_checkpoints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    keyfile = tmp_path / "keys" / "room-key.pem"
    assert main(["keys", "init", "--key", str(keyfile)]) == 0
    made = capsys.readouterr().out
    assert (keyfile.stat().st_mode & 0o777) == 0o600
    fingerprint = load_key(keyfile).fingerprint
    assert f"public key fingerprint: {fingerprint}" in made
    assert main(["keys", "init", "--key", str(keyfile)]) == 2  # never overwritten
    assert "exists already" in capsys.readouterr().err
    assert main(["keys", "show", "--key", str(keyfile)]) == 0
    assert fingerprint in capsys.readouterr().out
    url = f"sqlite:///{tmp_path}/demo.db"
    db = open_database(url)
    fill_demo(db, hands=3, tables=1, seed=2, hasher=FAST, start=START)
    db.close()
    assert main(["--db", url, "--key", str(keyfile), "checkpoints", "sign"]) == 0
    assert main(["--db", url, "checkpoints", "list"]) == 0
    listed = capsys.readouterr().out
    assert "checkpoint 1 signed" in listed and "signed by hand" in listed
    assert f"key {fingerprint}" in listed
    assert main(["--db", url, "verify", "--key", str(keyfile), "--since-checkpoint"]) == 0
    assert "since checkpoint 1" in capsys.readouterr().out


def test_imported_hand_is_recorded_and_feeds_no_continuity(room: Room, database: Database) -> None:
    """An import's shift of its own is recorded like any shift; the imported hand is held to
    no carry-over, and the next hand dealt takes over from the last hand dealt before it."""
    tie = room.hand(["2d", "2c", "3h"])  # a tie carries the pot to the next hand
    room.svc.settle(room.dealer, tie)
    lines = room.svc.export_hand(room.floor, room.svc.list_hands()[-1].id).splitlines()
    room.svc.import_hand(room.admin, room.table_id, lines)
    room.svc.settle(room.dealer, room.hand(["Ad", "Kd", "Qd"]))
    report = verify_database(database)
    assert report.ok, report.summary()


@pytest.mark.postgres
def test_station_role_on_a_database_needing_an_upgrade_is_told_to_upgrade_as_the_owner(
    pg_cluster: object, pg_url: str
) -> None:
    """Regression: the stations' role (``db upgrade --station-role``) opening a database one
    schema behind got a generic database error from the failed upgrade. Now it is told that the
    database needs an upgrade and who runs it; nothing was changed."""
    from alembic.script import ScriptDirectory

    from dealer_assist.db.bootstrap import _alembic_config
    from dealer_assist.services.errors import StoreUnavailable

    owner = open_database(pg_url)
    with owner.engine.begin() as conn:
        conn.exec_driver_sql("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = "
                             "'station') THEN CREATE ROLE station LOGIN; END IF; END $$")
    make_room(SqlStore(owner))
    owner.close()
    assert main(["--db", pg_url, "db", "upgrade", "--station-role", "station"]) == 0
    head = ScriptDirectory.from_config(_alembic_config()).get_revision("head")
    assert head is not None and isinstance(head.down_revision, str)
    owner = open_database(pg_url, upgrade=False)
    _sql(owner, "UPDATE alembic_version SET version_num = %s", (head.down_revision,))
    owner.close()

    with pytest.raises(StoreUnavailable) as refused:
        open_database(pg_url.replace("postgres@", "station@"))
    text = str(refused.value)
    assert text.startswith("this database needs an upgrade")
    assert "run `dealer-assist db upgrade` as the owner role" in text
    import psycopg

    with psycopg.connect(pg_url.replace("postgresql+psycopg://", "postgresql://")) as conn:
        row = conn.execute("SELECT version_num FROM alembic_version").fetchone()
    assert row == (head.down_revision,)  # nothing was changed


def test_regression_export_to_a_missing_folder_is_refused_before_anything_is_signed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], key: RoomKey) -> None:
    """It used to sign a checkpoint, then stop with an internal error (exit 70) at the write."""
    url = f"sqlite:///{tmp_path}/demo.db"
    db = open_database(url)
    fill_demo(db, hands=2, tables=1, seed=2, hasher=FAST, start=START)
    db.close()
    out = tmp_path / "no-such-folder" / "anchors.json"
    assert main(["--db", url, "checkpoints", "export", "--out", str(out),
                 "--key", str(key.path)]) == 2
    err = capsys.readouterr().err
    assert f"the folder {out.parent} does not exist" in err
    assert main(["--db", url, "checkpoints", "export", "--out", str(tmp_path),
                 "--key", str(key.path)]) == 2
    assert "is a folder: name a file" in capsys.readouterr().err
    assert main(["--db", url, "checkpoints", "list"]) == 0
    assert capsys.readouterr().out == "no checkpoint yet\n"  # nothing was signed

"""Verify follows what a game carries from hand to hand, under the game's own names (Tally, the
test game in tests/anygame: the carried pot is its ``pot_in``, the running total its
``totals_in``): a start rewritten behind the app's back, with the chain recomputed, is named
by the key it changed; a new game the dealer started is on the record and accepted."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anygame.play import play_rolls, tally_table
from services.support import Room, make_room

from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.services import Approval

from .test_insider import _rechain, _rechain_audit, _rows, _sql, _unguard


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    db = open_database(sqlite_url)
    yield db
    db.close()


def _two_hands(database: Database) -> tuple[Room, int, int]:
    room = make_room(SqlStore(database))
    table, dee = tally_table(room.svc, room.admin)
    play_rolls(room.svc, dee, table, [[6], [5], [4], [3]])
    second = play_rolls(room.svc, dee, table, [[1], [1], [1], [1]])
    return room, table, second.hand.id


def _rewrite_start(database: Database, hand_id: int, table_id: int, **changes: object) -> None:
    ((event_id, body),) = _rows(database, "SELECT id, body FROM events WHERE hand_id = ? AND "
                                "number = 1", (hand_id,))
    start = json.loads(str(body))
    start.update(changes)
    _unguard(database)
    _sql(database, "UPDATE events SET body = ? WHERE id = ?",
         (json.dumps(start, separators=(",", ":"), sort_keys=True), event_id))
    _rechain(database, table_id)


def test_hands_that_follow_on_verify_clean(database: Database) -> None:
    _two_hands(database)
    report = verify_database(database)
    assert report.ok, report.summary()


def test_a_tampered_running_total_is_named(database: Database) -> None:
    _, table, second = _two_hands(database)
    _rewrite_start(database, second, table, totals_in={"1": 26, "2": 5, "3": 4, "4": 3})
    text = verify_database(database).summary()
    assert ('hand 2 starts with totals_in {"1": 26, "2": 5, "3": 4, "4": 3} but hand 1 '
            'carries {"1": 6, "2": 5, "3": 4, "4": 3}, and no new game is approved by a floor '
            'person') in text


def test_a_tampered_carried_pot_is_named_by_the_games_name(database: Database) -> None:
    room = make_room(SqlStore(database))
    table, dee = tally_table(room.svc, room.admin)
    play_rolls(room.svc, dee, table, [[6], [5], [4], [3]])
    second = room.svc.start_hand(dee, table).hand.id  # still open: no ledger lines yet
    _rewrite_start(database, second, table, pot_in=900)
    text = verify_database(database).summary()
    assert ("hand 2 starts with a carry-in (pot_in) of 900 but hand 1 carried out 400, and no "
            "change is approved by a floor person") in text


def test_a_new_game_on_the_record_is_accepted(database: Database, tmp_path: Path) -> None:
    room = make_room(SqlStore(database))
    table, dee = tally_table(room.svc, room.admin)
    play_rolls(room.svc, dee, table, [[6], [5], [4], [3]])
    room.svc.start_hand(dee, table, new_game=True, approval=Approval("fran", "2222"))
    report = verify_database(database)
    assert report.ok, report.summary()


def test_the_demo_deals_each_tables_hands_in_sequence_with_what_the_game_carries() -> None:
    from anygame.game import GAME

    from dealer_assist.db.demo_plan import plan_table
    from dealer_assist.engine.hand import Folded
    from dealer_assist.engine.log import hand_events
    from dealer_assist.engine.stored import fold
    from dealer_assist.services.next_hand import carried_from

    plan = plan_table(GAME.name, 8, seed=4, with_void=False)
    before = None
    followed = 0
    for hand in plan:
        events = hand_events(json.loads(b) for b in hand.bodies)
        start = events[0]
        if before is not None:
            want = carried_from(GAME, before[0], before[1].state, start.seats,  # type: ignore[attr-defined]
                                misdealt=False)
            assert start.get("totals_in") == want.get("totals_in")  # type: ignore[attr-defined]
            followed += bool(want)
        result = fold(events)
        assert isinstance(result, Folded)
        before = (start, result)
    assert followed >= 3


def test_replay_reads_a_tally_log_with_its_own_names(tmp_path: Path, capsys: Any) -> None:
    import random

    from anygame.game import GAME

    from dealer_assist.cli import main
    from dealer_assist.engine.hand import to_lines

    events = GAME.sample_hand(random.Random(2), players=3, params={"pot_in": 500})
    log = tmp_path / "tally.jsonl"
    log.write_text(to_lines(events))
    assert '"from": "' in log.read_text() and '"pot_in": 500' in log.read_text()
    assert main(["replay", str(log), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # $5 carried in and three $1 antes carry on: nobody reached 40 and the table went on
    assert (out["game"], out["carry"], out["game_over"], out["conserved"]) == \
        ("tally-test", 800, False, True)


def test_a_floor_decision_without_the_floors_approval_on_record_is_named(
    database: Database,
) -> None:
    from anygame.play import move

    from dealer_assist.cards import parse_cards
    from dealer_assist.services import Approval

    room = make_room(SqlStore(database))
    table, dee = tally_table(room.svc, room.admin)
    now = room.svc.start_hand(dee, table)
    now = move(room.svc, dee, now, "call", {"cards": parse_cards("Qs Qs Qh"),
                                            "combination": "trips"})
    ruling = now.prompt().actions[0]
    from dealer_assist.engine.build import build_event

    event = build_event(ruling, {"decision": "stands", "reason": "checked"},
                        vocab=now.game.events)
    room.svc.record(dee, now.hand.id, event, approval=Approval("fran", "2222"))
    report = verify_database(database)
    assert report.ok, report.summary()
    # an insider takes the approval off the record and recomputes the audit chain
    _unguard(database)
    _sql(database, "DELETE FROM audit_log WHERE action = 'floor-decision'")
    _rechain_audit(database)
    text = verify_database(database).summary()
    assert ("hand 1 event 3 (ruling) is a floor decision, but no floor person's approval of "
            "it is on the audit chain") in text


def test_ruling_ofc_5_a_start_that_drops_the_earned_fantasyland_is_named(
    database: Database,
) -> None:
    """RULINGS OFC 5: the seat that earned fantasyland plays the next hand in it; a start
    rewritten to leave it out is named by verify (OFC declares ``in_fantasyland`` carried)."""
    from dealer_assist.engine.hand import read_log

    room = make_room(SqlStore(database))
    table = room.svc.add_table(room.admin, {
        "game": "ofc", "seats": [1, 2], "smallest_chip": 100,
        "params": {"unit": 100, "royalties": "rules-text",
                   "fantasyland": {"enabled": True, "stay": "rules-text"}},
    }, name="OFC-1").id
    room.svc.add_user(room.admin, name="dora", full_name="Dora Dealer", role="dealer",
                      pin="4444")
    dee = room.svc.sign_in("dora", "4444")
    room.svc.open_shift(dee, table, floor="fran")
    events, _ = read_log(Path(__file__).resolve().parent.parent / "data" / "examples"
                         / "ofc-two-players.jsonl")
    now = room.svc.start_hand(dee, table, button=2)
    for ev in events[1:]:
        now = room.svc.record(dee, now.hand.id, ev)
    room.svc.settle(dee, now.hand.id)
    second = room.svc.start_hand(dee, table)
    assert second.replay.start.get("in_fantasyland") == [1]
    assert verify_database(database).ok
    _rewrite_start(database, second.hand.id, table, in_fantasyland=[])
    text = verify_database(database).summary()
    assert "hand 2 starts with in_fantasyland [] but hand 1 carries [1]" in text

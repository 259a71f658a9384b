"""RULINGS OFC 5 when the seats change: a seat that earned fantasyland and stays plays the next
hand in it, whoever sits down; a seat that leaves takes it away (nobody else gets it). The
services start the next hand so, and verify names a start rewritten behind the app's back to
add or drop fantasyland."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from services.support import Room, make_room

from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.engine.hand import read_log
from dealer_assist.services import Session

from .test_any_game_verify import _rewrite_start


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    db = open_database(sqlite_url)
    yield db
    db.close()


def _first_hand(database: Database) -> tuple[Room, int, Session]:
    """A three-seat OFC table whose first hand, at seats 1 and 2 (the worked example), gives
    seat 1 fantasyland."""
    room = make_room(SqlStore(database))
    table = room.svc.add_table(room.admin, {
        "game": "ofc", "seats": [1, 2, 3], "smallest_chip": 100,
        "params": {"unit": 100, "royalties": "rules-text",
                   "fantasyland": {"enabled": True, "stay": "rules-text"}},
    }, name="OFC-1").id
    room.svc.add_user(room.admin, name="dora", full_name="Dora Dealer", role="dealer",
                      pin="4444")
    dee = room.svc.sign_in("dora", "4444")
    room.svc.open_shift(dee, table, floor="fran")
    events, _ = read_log(Path(__file__).resolve().parent.parent / "data" / "examples"
                         / "ofc-two-players.jsonl")
    now = room.svc.start_hand(dee, table, seats=[1, 2], button=2)
    for ev in events[1:]:
        now = room.svc.record(dee, now.hand.id, ev)
    room.svc.settle(dee, now.hand.id)
    return room, table, dee


def test_ruling_ofc_5_a_seat_that_stays_keeps_fantasyland_when_a_player_sits_down(
    database: Database,
) -> None:
    room, table, dee = _first_hand(database)
    second = room.svc.start_hand(dee, table, seats=[1, 2, 3])
    assert second.replay.start.get("in_fantasyland") == [1]
    assert second.replay.start.get("button") == 3  # nobody played in fantasyland: it moves
    assert verify_database(database).ok
    _rewrite_start(database, second.hand.id, table, in_fantasyland=[])
    text = verify_database(database).summary()
    assert "hand 2 starts with in_fantasyland [] but hand 1 carries [1]" in text
    _rewrite_start(database, second.hand.id, table, in_fantasyland=[1, 3])
    text = verify_database(database).summary()
    assert "hand 2 starts with in_fantasyland [1, 3] but hand 1 carries [1]" in text


def test_ruling_ofc_5_a_seat_that_leaves_takes_its_fantasyland_with_it(
    database: Database,
) -> None:
    room, table, dee = _first_hand(database)
    second = room.svc.start_hand(dee, table, seats=[2, 3])
    assert second.replay.start.get("in_fantasyland") is None
    assert verify_database(database).ok
    _rewrite_start(database, second.hand.id, table, in_fantasyland=[3])
    text = verify_database(database).summary()
    assert "hand 2 starts with in_fantasyland [3] but hand 1 carries" in text


def test_ruling_ofc_5_a_carry_worked_out_on_the_workers_names_the_same_start(
    database: Database, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A large verify replays the hands before each carrying hand on its workers (not in the
    process that joins the parts): the rewritten start is named word for word as before."""
    from dealer_assist.db.verify import hand_rules, walk

    room, table, dee = _first_hand(database)
    second = room.svc.start_hand(dee, table, seats=[1, 2, 3])
    _rewrite_start(database, second.hand.id, table, in_fantasyland=[1, 3])
    here_calls: list[int] = []
    real = hand_rules.HandRules._carried_here

    def counted(self: hand_rules.HandRules, jobs: object, *args: object) -> None:
        here_calls.append(len(jobs))  # type: ignore[arg-type]
        real(self, jobs, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(hand_rules.HandRules, "_carried_here", counted)
    here = verify_database(database).summary()
    assert here_calls == [1]
    monkeypatch.setattr(hand_rules, "CARRY_AHEAD", 1)
    monkeypatch.setattr(walk, "PARALLEL_FROM", 1)
    there = verify_database(database, workers=2).summary()
    assert here_calls == [1]  # the carry was worked out on a worker
    assert there == here
    assert "hand 2 starts with in_fantasyland [1, 3] but hand 1 carries [1]" in there

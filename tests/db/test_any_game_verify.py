"""Verify follows what a game carries from hand to hand, under the game's own names (Tally, the
test game in tests/anygame: the carried pot is its ``pot_in``, the running total its
``totals_in``): a start rewritten behind the app's back, with the chain recomputed, is named
by the key it changed; a new game the dealer started is on the record and accepted."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from anygame.play import play_rolls, tally_table
from services.support import Room, make_room

from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database

from .test_insider import _rechain, _rows, _sql, _unguard


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
            'carries {"1": 6, "2": 5, "3": 4, "4": 3}, and no new game is recorded') in text


def test_a_tampered_carried_pot_is_named_by_the_games_name(database: Database) -> None:
    room = make_room(SqlStore(database))
    table, dee = tally_table(room.svc, room.admin)
    play_rolls(room.svc, dee, table, [[6], [5], [4], [3]])
    second = room.svc.start_hand(dee, table).hand.id  # still open: no ledger lines yet
    _rewrite_start(database, second, table, pot_in=900)
    text = verify_database(database).summary()
    assert ("hand 2 starts with a carry-in (pot_in) of 900 but hand 1 carried out 400, and no "
            "change is recorded") in text


def test_a_new_game_on_the_record_is_accepted(database: Database, tmp_path: Path) -> None:
    room = make_room(SqlStore(database))
    table, dee = tally_table(room.svc, room.admin)
    play_rolls(room.svc, dee, table, [[6], [5], [4], [3]])
    room.svc.start_hand(dee, table, new_game=True)
    report = verify_database(database)
    assert report.ok, report.summary()

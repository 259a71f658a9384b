"""The floor board on real databases: its records are sealed typed rows that read back as
written and that verify walks; two floor stations (on SQLite and on PostgreSQL) racing for one
seat, or to call one player to two seats, are put in one order and exactly one succeeds, the
other told why (issue 43)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from typing import Any

import pytest
from services.support import make_room

from dealer_assist.db import sealed
from dealer_assist.db.bootstrap import Database, floor_board, open_database
from dealer_assist.db.floor_records import FLOOR_ENTRIES
from dealer_assist.db.store import SqlStore
from dealer_assist.errors import RuleViolation
from dealer_assist.services.floorboard import FloorBoard

GAME = ("high-card-test", "")


def _board(db: Database, clock: Callable[[], datetime]) -> FloorBoard:
    return floor_board(db, clock)


def test_floor_records_read_back_and_the_chain_is_intact(database: Database) -> None:
    room = make_room(SqlStore(database))
    board = _board(database, room.clock)
    board.open_table(room.floor, room.table_id)
    board.add_to_list(room.floor, "Ann", *GAME)
    board.add_to_list(room.floor, "Bob", *GAME)
    ann = board.state().lists[GAME][0].entry
    board.call(room.floor, ann, room.table_id, 2)
    board.seat(room.floor, room.table_id, 2)
    state = board.state()
    assert state.seated(room.table_id)[2].player == "Ann"
    assert [w.player for w in state.lists[GAME]] == ["Bob"]
    with sealed.reading(database) as conn:
        rows = sealed.read(conn, FLOOR_ENTRIES)
        assert [r["action"] for r in rows] == ["open", "list-add", "list-add", "call", "seat"]
        assert rows[-1].actor == "fran" and rows[-1]["seat"] == 2
        assert sealed.sealed_faults(conn) == []
    assert board.records.count() == 5


def test_a_dealer_is_refused_by_the_board_and_nothing_is_written(database: Database) -> None:
    room = make_room(SqlStore(database))
    board = _board(database, room.clock)
    from dealer_assist.services.errors import NotAllowed

    with pytest.raises(NotAllowed, match="only the floor or an admin can open a table"):
        board.open_table(room.dealer, room.table_id)
    assert board.records.count() == 0


def _blocked_on_lock(url: str) -> bool:
    import psycopg

    from dealer_assist.db.notify import libpq_url

    with psycopg.connect(libpq_url(url)) as conn:
        row = conn.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = "
                           "'Lock' AND datname = current_database()").fetchone()
        return bool(row and row[0])


def _race(url: str, first: Callable[[FloorBoard], Any], second: Callable[[FloorBoard], Any],
          clock: Callable[[], datetime]) -> BaseException | None:
    """``first`` runs on one station; while it holds the board's lock (it has decided and is
    about to write), ``second`` starts on another station and waits for it. Returns what the
    second one raised (None: it succeeded)."""
    db_a, db_b = open_database(url), open_database(url)
    outcome: list[BaseException | None] = []

    def run_second() -> None:
        try:
            second(_board(db_b, clock))
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=run_second)
    started = False

    def clock_a() -> datetime:  # called by the first station inside its transaction
        nonlocal started
        if not started:
            started = True
            worker.start()
            for _ in range(500 if url.startswith("postgresql") else 20):
                # until the second station waits on the lock (PostgreSQL says so; on SQLite
                # it waits on BEGIN IMMEDIATE: the outcome is the same if it comes later)
                if url.startswith("postgresql") and _blocked_on_lock(url):
                    break
                time.sleep(0.01)
        return clock()

    first(_board(db_a, clock_a))
    worker.join(timeout=30)
    db_a.close()
    db_b.close()
    assert outcome, "the second station never finished"
    return outcome[0]


@pytest.fixture
def race_room(db_url: str) -> Iterator[Any]:
    db = open_database(db_url)
    room = make_room(SqlStore(db))
    board = _board(db, room.clock)
    board.open_table(room.floor, room.table_id)
    yield room, board
    db.close()


def test_two_floor_stations_seating_two_players_in_one_seat_one_wins(
        db_url: str, race_room: Any) -> None:
    room, board = race_room
    refused = _race(
        db_url,
        lambda b: b.seat(room.floor, room.table_id, 3, player="Ann"),
        lambda b: b.seat(room.floor, room.table_id, 3, player="Bob"),
        room.clock)
    assert isinstance(refused, RuleViolation)
    assert str(refused) == "T1 seat 3 is taken by Ann: choose an open seat"
    seated = board.state().seated(room.table_id)
    assert {s: p.player for s, p in seated.items()} == {3: "Ann"}
    assert [e.what.action for e in board.records.entries()] == ["open", "seat"]


def test_two_floor_stations_calling_one_player_to_two_seats_one_wins(
        db_url: str, race_room: Any) -> None:
    room, board = race_room
    board.add_to_list(room.floor, "Ann", *GAME)
    ann = board.state().lists[GAME][0].entry
    refused = _race(db_url, lambda b: b.call(room.floor, ann, room.table_id, 1),
                    lambda b: b.call(room.floor, ann, room.table_id, 2), room.clock)
    assert isinstance(refused, RuleViolation)
    assert str(refused) == "Ann is already called to T1 seat 1"
    calls = board.state().calls
    assert [(c.player, c.seat) for c in calls.values()] == [("Ann", 1)]


def test_verify_names_a_hand_dealt_to_other_seats_than_the_floors_record(
        database: Database) -> None:
    from dealer_assist.db.verify import verify_database

    room = make_room(SqlStore(database))
    board = _board(database, room.clock)
    board.open_table(room.floor, room.table_id)
    board.seat(room.floor, room.table_id, 1, player="Ann")
    board.seat(room.floor, room.table_id, 3, player="Bob")
    room.svc.settle(room.dealer, room.hand(["As", "Kd"], seats=(1, 3)))  # as seated
    assert verify_database(database, workers=1).findings == []
    room.hand(["Qs", "Jd", "9c"], seats=(1, 2, 3))  # seat 2 typed behind the record
    findings = verify_database(database, workers=1).findings
    assert findings == ["T1 hand 2: dealt to seats 1, 2, 3, but the floor's record seats 1, 3 "
                        "then — the seats were changed behind the floor board's record"]


def test_verify_does_not_hold_hands_in_a_room_without_the_board(database: Database) -> None:
    from dealer_assist.db.verify import verify_database

    room = make_room(SqlStore(database))
    board = _board(database, room.clock)
    board.open_table(room.floor, room.table_id)
    board.set_rule(room.floor, "board", "off")
    room.hand(["Qs", "Jd", "9c"], seats=(1, 2, 3))
    assert verify_database(database, workers=1).findings == []


def test_demo_fills_the_floor_lists_and_seating_of_its_day_and_verifies_intact(
        sqlite_url: str) -> None:
    import json

    from sqlalchemy import select

    from dealer_assist.db.demo import fill_demo
    from dealer_assist.db.models import HandRow
    from dealer_assist.db.verify import verify_database

    db = open_database(sqlite_url)
    fill_demo(db, hands=40, tables=2, seed=3, workers=1)
    fill_demo(db, hands=10, tables=2, seed=4, workers=1)  # filled again: it follows on
    board = _board(db, lambda: datetime.now().astimezone())
    state = board.state()
    actions = [e.what.action for e in board.records.entries()]
    assert actions.count("open") == 2 and actions.count("seat") >= 4
    assert actions.count("seat") == actions.count("call")
    h = HandRow.__table__
    with db.engine.connect() as conn:
        for table_id in (1, 2):
            last = conn.execute(select(h.c.seats).where(h.c.table_id == table_id)
                                .order_by(h.c.number.desc()).limit(1)).scalar_one()
            assert sorted(state.seated(table_id)) == sorted(json.loads(last))
    assert sum(len(v) for v in state.lists.values()) >= 2  # still waiting at the day's end
    assert verify_database(db, workers=1).findings == []
    db.close()


@pytest.mark.postgres
def test_the_board_hears_a_floor_record_on_postgresql_as_it_commits(pg_url: str) -> None:
    from dealer_assist.db.board_feed import PgBoardFeed, open_board_feed

    db = open_database(pg_url)
    room = make_room(SqlStore(db))
    board = _board(db, room.clock)
    feed = open_board_feed(db)
    assert isinstance(feed, PgBoardFeed)
    assert feed.wait(0.1) is True          # connected: read everything once
    assert feed.wait(0.1) is False         # nothing recorded since
    board.open_table(room.floor, room.table_id)
    assert feed.wait(5.0) is True          # the commit's notification
    assert feed.wait(0.1) is False
    feed.close()
    db.close()


def test_the_board_polls_the_records_head_on_sqlite(sqlite_url: str) -> None:
    from dealer_assist.db.board_feed import PollBoardFeed, open_board_feed

    db = open_database(sqlite_url)
    room = make_room(SqlStore(db))
    board = _board(db, room.clock)
    feed = open_board_feed(db)
    assert isinstance(feed, PollBoardFeed)
    assert feed.wait(0.1) is True and feed.wait(0.05) is False
    board.open_table(room.floor, room.table_id)
    assert feed.wait(1.0) is True
    db.close()


def test_the_shift_close_check_names_a_floor_record_dated_back_before_its_checkpoint(
        database: Database, tmp_path: Any) -> None:
    """``verify --since-checkpoint`` checks the seats of the hands dealt since the checkpoint
    only, except that a floor record written after it but dated before it changes the
    seating of older hands: those from its time on are checked again, and named."""
    from datetime import timedelta

    from dealer_assist.db.checkpoints import sign_checkpoint
    from dealer_assist.db.keys import create_key
    from dealer_assist.db.verify import verify_database

    room = make_room(SqlStore(database))
    board = _board(database, room.clock)
    board.open_table(room.floor, room.table_id)
    board.seat(room.floor, room.table_id, 1, player="Ann")
    board.seat(room.floor, room.table_id, 3, player="Bob")
    before = room.clock()
    room.clock.advance(minutes=1)
    room.svc.settle(room.dealer, room.hand(["As", "Kd"], seats=(1, 3)))  # as seated
    key = create_key(tmp_path / "room-key.pem")
    sign_checkpoint(database, key, reason="shift close", checked={"full": True})
    room.clock.advance(minutes=1)
    room.svc.settle(room.dealer, room.hand(["Qs", "Jd"], seats=(1, 3)))
    since = verify_database(database, key=key, since_checkpoint=True)
    assert since.since == 1 and since.findings == [], since.summary()
    # Cal seated at seat 2 by a record written now, dated before hand 1
    _board(database, lambda: before + timedelta(seconds=1)).seat(
        room.floor, room.table_id, 2, player="Cal")
    since = verify_database(database, key=key, since_checkpoint=True)
    assert since.findings == [
        f"T1 hand {n}: dealt to seats 1, 3, but the floor's record seats 1, 2, 3 then — the "
        "seats were changed behind the floor board's record" for n in (1, 2)]

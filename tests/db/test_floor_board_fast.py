"""The floor board's one-statement append on real databases (issue 43's speed): a board that
read the room writes its next action without the board's lock, on the same sealed chain the
locking path keeps; the records or the tables moved on since, it writes nothing and decides
again under the lock, so two warm floor stations racing for one seat still end with exactly
one seated and the other told why. On PostgreSQL the statement goes through the same trigger
as every sealed row: a floor or admin sign-in, in that person's own name."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from typing import Any

import pytest
from services.support import FAST, make_room, settings

from dealer_assist.db import sealed
from dealer_assist.db.bootstrap import Database, floor_board, open_database
from dealer_assist.db.floor_records import FLOOR_ENTRIES
from dealer_assist.db.floor_tables import TablesSeen
from dealer_assist.db.store import SqlStore
from dealer_assist.errors import RuleViolation
from dealer_assist.services import Services
from dealer_assist.services.floorboard import FloorBoard
from dealer_assist.services.floorboard import records as r
from dealer_assist.services.floorboard.records import NewEntry

from .pg import PgCluster
from .stations import station_room
from .test_floor_board_db import _blocked_on_lock

GAME = ("high-card-test", "")


def _one_statement(board: FloorBoard) -> int:
    return int(board.records.one_statement_appends)  # type: ignore[attr-defined]


def _seen(board: FloorBoard) -> Any:
    read = board.tables.last_read()
    assert read is not None
    return read[0]


def _rows(db: Database) -> list[Any]:
    with sealed.reading(db) as conn:
        assert sealed.sealed_faults(conn) == []  # the chain and its head walk intact
        return sealed.read(conn, FLOOR_ENTRIES)


def test_a_warm_board_writes_in_one_statement_on_the_one_sealed_chain(
        database: Database) -> None:
    room = make_room(SqlStore(database))
    board = floor_board(database, room.clock)
    board.open_table(room.floor, room.table_id)  # nothing read yet: under the lock
    assert _one_statement(board) == 0
    board.add_to_list(room.floor, "Ann", *GAME)
    board.add_to_list(room.floor, "Bob", *GAME)
    ann = board.state().lists[GAME][0].entry
    board.call(room.floor, ann, room.table_id, 2)
    board.seat(room.floor, room.table_id, 2)
    assert _one_statement(board) == 4
    rows = _rows(database)
    assert [(x.seq, x["action"], x["player"], x["seat"]) for x in rows] == [
        (1, "open", None, None), (2, "list-add", "Ann", None), (3, "list-add", "Bob", None),
        (4, "call", "Ann", 2), (5, "seat", "Ann", 2)]
    assert {x.actor for x in rows} == {"fran"}
    fresh = floor_board(database, room.clock).state()  # the records read from the start
    warm = board.state()
    assert (fresh.entries, fresh.seats, fresh.lists, fresh.calls) == (
        warm.entries, warm.seats, warm.lists, warm.calls)


def test_two_warm_floor_stations_one_seat_the_second_to_write_is_refused(db_url: str) -> None:
    db_a, db_b = open_database(db_url), open_database(db_url)
    room = make_room(SqlStore(db_a))
    b = floor_board(db_b, room.clock)
    bob_first: list[bool] = []

    def clock_a() -> datetime:
        # a has decided on the room as read (seat 3 free) and is about to write: b seats
        # Bob in seat 3 first, in one statement
        if not bob_first:
            bob_first.append(True)
            b.seat(room.floor, room.table_id, 3, player="Bob")
        return room.clock()

    a = floor_board(db_a, room.clock)
    a.open_table(room.floor, room.table_id)
    a.clock = clock_a
    b.state()
    b.choices()  # both stations have read the room and the tables
    with pytest.raises(RuleViolation) as refused:
        a.seat(room.floor, room.table_id, 3, player="Ann")
    assert str(refused.value) == "T1 seat 3 is taken by Bob: choose an open seat"
    assert (_one_statement(a), _one_statement(b)) == (0, 1)
    assert [(x["action"], x["player"]) for x in _rows(db_a)] == [("open", None), ("seat", "Bob")]
    assert {s: p.player for s, p in a.state().seated(room.table_id).items()} == {3: "Bob"}
    db_a.close()
    db_b.close()


@pytest.mark.postgres
def test_a_statement_waiting_on_the_boards_lock_writes_nothing_once_the_head_moved(
        pg_url: str) -> None:
    """b's statement waits while a holds the board's lock and seats Ann; when a commits, the
    database checks b's head again as it now is: nothing written, and b, deciding again
    under the lock, is told the seat is Ann's."""
    db_a, db_b = open_database(pg_url), open_database(pg_url)
    room = make_room(SqlStore(db_a))
    a, b = floor_board(db_a, room.clock), floor_board(db_b, room.clock)
    a.open_table(room.floor, room.table_id)
    b.state()
    b.choices()
    outcome: list[BaseException | None] = []

    def seat_bob() -> None:
        try:
            b.seat(room.floor, room.table_id, 3, player="Bob")
            outcome.append(None)
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=seat_bob)
    with a.records.writing() as tx:
        tx.append(NewEntry(r.SEAT, table_id=room.table_id, seat=3, player="Ann"),
                  at=room.clock(), actor="fran", token=room.floor.token)
        worker.start()
        for _ in range(500):
            if _blocked_on_lock(pg_url):
                break
            time.sleep(0.01)
        else:
            pytest.fail("b's statement never waited on the board's lock")
    worker.join(timeout=30)
    assert outcome and isinstance(outcome[0], RuleViolation)
    assert str(outcome[0]) == "T1 seat 3 is taken by Ann: choose an open seat"
    assert _one_statement(b) == 0
    assert [(x["action"], x["player"]) for x in _rows(db_a)] == [("open", None), ("seat", "Ann")]
    db_a.close()
    db_b.close()


def test_tables_changed_since_the_board_read_them_are_decided_on_under_the_lock(
        database: Database) -> None:
    room = make_room(SqlStore(database))
    board = floor_board(database, room.clock)
    board.open_table(room.floor, room.table_id)
    board.add_to_list(room.floor, "Ann", *GAME)
    seen = _seen(board)
    assert _one_statement(board) == 1
    t2 = room.svc.add_table(room.admin, settings(), name="T2")
    board.open_table(room.floor, t2.id)  # not among the tables as read: read again
    assert _one_statement(board) == 1
    board.seat(room.floor, t2.id, 1, player="Bob")  # the tables as read now: one statement
    assert _one_statement(board) == 2
    # the statement itself refuses tables other than they now are, and an old head
    now = _seen(board)
    assert now != seen
    entry = NewEntry(r.CLOSE, table_id=t2.id)
    for after, tables in ((4, seen), (4, TablesSeen(now.tables, now.versions - 1)), (3, now)):
        assert board.records.append_after(entry, after=after, tables=tables, at=room.clock(),
                                          actor="fran", token=room.floor.token) is None
    assert board.records.count() == 4
    assert board.records.append_after(entry, after=4, tables=now, at=room.clock(),
                                      actor="fran", token=room.floor.token) is not None
    assert [x["action"] for x in _rows(database)] == ["open", "list-add", "open", "seat",
                                                      "close"]


@pytest.mark.postgres
def test_the_board_hears_a_one_statement_record_as_it_commits(pg_url: str) -> None:
    from dealer_assist.db.board_feed import open_board_feed

    db = open_database(pg_url)
    room = make_room(SqlStore(db))
    board = floor_board(db, room.clock)
    board.open_table(room.floor, room.table_id)
    feed = open_board_feed(db)
    assert feed.wait(0.1) is True and feed.wait(0.1) is False
    board.add_to_list(room.floor, "Ann", *GAME)
    assert _one_statement(board) == 1
    assert feed.wait(5.0) is True
    feed.close()
    db.close()


@pytest.mark.postgres
def test_the_one_statement_takes_only_a_floor_sign_in_in_its_own_name_as_a_station(
        pg_cluster: PgCluster, pg_template: str) -> None:
    """As the stations' role: the statement goes through the table's trigger. A dealer's
    sign-in, in their own name or the floor's, or none at all: nothing written (the board
    then hears the database's refusal under its lock); the floor's own: written."""
    url, room = station_room(pg_cluster, pg_template, "floor_fast_station")
    db = open_database(url)
    svc = Services(SqlStore(db), clock=room.clock, hasher=FAST)
    board = floor_board(db, room.clock)
    fran, dee = svc.sign_in("fran", "2222"), svc.sign_in("dee", "1111")
    board.open_table(fran, room.table_id)
    board.seat(fran, room.table_id, 2, player="Ann")
    assert _one_statement(board) == 1
    entry = NewEntry(r.CLOSE, table_id=room.table_id)

    def forge(actor: str, token: str) -> Any:
        return board.records.append_after(entry, after=2, tables=_seen(board),
                                          at=datetime.now(UTC), actor=actor, token=token)

    assert forge("dee", dee.token) is None    # a dealer, in their own name
    assert forge("fran", dee.token) is None   # a dealer's sign-in in the floor's name
    assert forge("fran", "") is None          # no sign-in at all
    assert [e.what.action for e in board.records.entries()] == ["open", "seat"]
    assert forge("fran", fran.token) is not None
    assert [e.what.action for e in board.records.entries()] == ["open", "seat", "close"]
    db.close()


@pytest.mark.postgres
def test_a_lost_own_connection_sends_the_action_down_the_locking_path(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The board's own connection dropped, or a new one refused: the action is decided and
    written under the lock on the engine's connections instead, and the next one goes in
    one statement again on a new connection."""
    from sqlalchemy.exc import OperationalError

    db = open_database(pg_url)
    room = make_room(SqlStore(db))
    board = floor_board(db, room.clock)
    board.open_table(room.floor, room.table_id)
    board.add_to_list(room.floor, "Ann", *GAME)
    assert _one_statement(board) == 1
    board.records._own.close()  # type: ignore[attr-defined]  # the server cut it off
    board.add_to_list(room.floor, "Bob", *GAME)
    assert _one_statement(board) == 1

    def refused() -> Any:
        raise OperationalError("connect", {}, Exception("connection refused"))

    monkeypatch.setattr(board.records, "_own_connection", refused)
    board.add_to_list(room.floor, "Cy", *GAME)  # no new own connection: the locking path
    assert _one_statement(board) == 1
    monkeypatch.undo()
    board.add_to_list(room.floor, "Di", *GAME)
    assert _one_statement(board) == 2
    assert [x["player"] for x in _rows(db)] == [None, "Ann", "Bob", "Cy", "Di"]
    db.close()


def _tables_mark(db: Database) -> int:
    with sealed.reading(db) as conn:
        return int(conn.exec_driver_sql("SELECT tables_mark FROM record_heads "
                                        "WHERE kind = 'floor_entries'").scalar_one())


@pytest.mark.postgres
def test_schema_0026_a_table_or_settings_version_moves_the_tables_mark_the_statement_checks(
        pg_url: str) -> None:
    """The one statement checks the head row's tables' mark, not the tables counted: a table
    added, or a settings version, moves it (by the database's triggers), and a decision on the
    mark before either writes nothing."""
    db = open_database(pg_url)
    room = make_room(SqlStore(db))
    board = floor_board(db, room.clock)
    board.open_table(room.floor, room.table_id)
    board.add_to_list(room.floor, "Ann", *GAME)
    before, mark = _seen(board), _tables_mark(db)
    assert before.mark == mark
    t2 = room.svc.add_table(room.admin, settings(), name="T2")
    assert _tables_mark(db) > mark
    entry = NewEntry(r.CLOSE, table_id=room.table_id)
    assert board.records.append_after(entry, after=2, tables=before, at=room.clock(),
                                      actor="fran", token=room.floor.token) is None
    board.open_table(room.floor, t2.id)  # read again under the lock
    now = _seen(board)
    assert now.mark == _tables_mark(db)
    room.svc.change_settings(room.admin, t2.id, settings(ante=200))
    assert _tables_mark(db) > now.mark  # type: ignore[operator]
    assert board.records.append_after(entry, after=3, tables=now, at=room.clock(),
                                      actor="fran", token=room.floor.token) is None
    assert TablesSeen(1, 1) == TablesSeen(1, 1, None)  # SQLite's: no mark
    assert board.records.append_after(entry, after=3, tables=TablesSeen(2, 99),
                                      at=room.clock(), actor="fran",
                                      token=room.floor.token) is None
    assert [x["action"] for x in _rows(db)] == ["open", "list-add", "open"]
    board.add_to_list(room.floor, "Bob", *GAME)  # the tables read again, under the lock
    assert _one_statement(board) == 1
    board.add_to_list(room.floor, "Cy", *GAME)  # on the mark as read now: one statement
    assert _one_statement(board) == 2
    db.close()


@pytest.mark.postgres
def test_schema_0026_a_station_cannot_move_the_tables_mark(
        pg_cluster: PgCluster, pg_template: str) -> None:
    """Only the owner's functions move the mark: the stations' role updates a head's entries
    and hash, never its tables' mark (else it could make a board decide on tables it has not
    read)."""
    from sqlalchemy.exc import ProgrammingError

    url, _room = station_room(pg_cluster, pg_template, "floor_mark_station")
    db = open_database(url)
    with pytest.raises(ProgrammingError, match="permission denied"), \
            db.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE record_heads SET tables_mark = 0 "
                             "WHERE kind = 'floor_entries'")
    assert _tables_mark(db) >= 1  # the room's table and settings, added by the owner
    db.close()

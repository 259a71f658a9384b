"""The floor board's action without its lock first (issue 43's speed): decided on the room and
the tables as the board read them last, written only if nothing was recorded since and the
tables are the same; otherwise, or when that first decision refuses, decided again under the
lock on what is recorded now, so the outcome is the locking path's (in-memory records)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

import pytest

from dealer_assist.errors import RuleViolation
from dealer_assist.services.errors import NotAllowed
from dealer_assist.services.floorboard import FloorBoard
from dealer_assist.services.floorboard.fake import InMemoryFloor

from .test_floor_board import DEALER, FLOOR, Clock, _tables

GAME = ("caro_holdem", "$2/$4")


class CountedFloor(InMemoryFloor):
    """In-memory records that count the actions decided under the board's lock."""

    def __init__(self) -> None:
        super().__init__(_tables())
        self.locked = 0

    @contextmanager
    def writing(self) -> Iterator[Any]:
        self.locked += 1
        with super().writing() as tx:
            yield tx


@pytest.fixture
def mem() -> CountedFloor:
    return CountedFloor()


def _board(mem: CountedFloor) -> FloorBoard:
    return FloorBoard(mem, mem, Clock())


def test_a_board_that_read_the_room_records_its_next_actions_without_the_lock(
        mem: CountedFloor) -> None:
    board = _board(mem)
    board.open_table(FLOOR, 1)  # the first: nothing read yet, under the lock
    assert mem.locked == 1
    board.add_to_list(FLOOR, "Ann", *GAME)
    board.seat(FLOOR, 1, 2, player="Bob", amount=10000)
    ann = board.state().lists[GAME][0].entry
    board.call(FLOOR, ann, 1, 3)
    assert mem.locked == 1
    assert [(e.seq, e.what.action) for e in mem.rows] == [
        (1, "open"), (2, "list-add"), (3, "seat"), (4, "call")]
    s = board.state()
    assert s.seated(1)[2].player == "Bob" and s.call_on(1, 3) is not None
    assert s.entries == 4


def test_another_stations_record_since_the_last_read_is_decided_on_under_the_lock(
        mem: CountedFloor) -> None:
    """Two floor stations, each having read the room: the second to seat a player in seat 3
    is refused on the first one's record, and nothing of its own is written."""
    a, b = _board(mem), _board(mem)
    a.open_table(FLOOR, 1)
    b.state()
    b.table(1)  # both have read the room and the tables
    a.seat(FLOOR, 1, 3, player="Ann", amount=10000)
    locked = mem.locked
    with pytest.raises(RuleViolation) as refused:
        b.seat(FLOOR, 1, 3, player="Bob", amount=10000)
    assert str(refused.value) == "Table 1 seat 3 is taken by Ann: choose an open seat"
    assert mem.locked == locked + 1  # b's room was old: decided again under the lock
    assert [e.what.action for e in mem.rows] == ["open", "seat"]
    assert {s: p.player for s, p in b.state().seated(1).items()} == {3: "Ann"}


def test_a_refusal_on_an_old_room_is_decided_again_and_the_action_goes_in(
        mem: CountedFloor) -> None:
    """Seat 3 was taken when this board last read the room, and freed since at another
    station: the action is not refused on what the board saw, but decided on the records."""
    a, b = _board(mem), _board(mem)
    a.open_table(FLOOR, 1)
    a.seat(FLOOR, 1, 3, player="Ann", amount=10000)
    assert b.state().seated(1)[3].player == "Ann"
    b.table(1)
    a.leave(FLOOR, 1, 3)
    b.seat(FLOOR, 1, 3, player="Bob", amount=10000)
    assert [e.what.action for e in mem.rows] == ["open", "seat", "leave", "seat"]
    assert {s: p.player for s, p in b.state().seated(1).items()} == {3: "Bob"}


def test_a_table_added_since_the_last_read_is_found_under_the_lock(mem: CountedFloor) -> None:
    board = _board(mem)
    board.open_table(FLOOR, 1)
    board.add_to_list(FLOOR, "Ann", *GAME)
    mem.tables.append(replace(mem.tables[0], id=4, name="Table 4"))  # the tables moved on
    locked = mem.locked
    board.open_table(FLOOR, 4)
    assert mem.locked == locked + 1
    assert mem.rows[-1].what.table_id == 4
    board.add_to_list(FLOOR, "Bob", *GAME)  # the tables as read now: no lock again
    assert mem.locked == locked + 1


def test_settings_changed_since_the_last_read_are_decided_on_under_the_lock(
        mem: CountedFloor) -> None:
    """A table's buy-in raised since the board read the tables: the seat at the old buy-in is
    refused by the new one, never written on the old."""
    board = _board(mem)
    board.open_table(FLOOR, 1)
    mem.tables[0] = replace(mem.tables[0], buy_in=20000)
    with pytest.raises(RuleViolation, match=r"Table 1.s buy-in is \$200 to \$1,000, not \$100"):
        board.seat(FLOOR, 1, 1, player="Ann", amount=10000)
    assert [e.what.action for e in mem.rows] == ["open"]


def test_a_dealer_is_refused_once_and_nothing_is_written(mem: CountedFloor) -> None:
    board = _board(mem)
    board.open_table(FLOOR, 1)
    checks: list[str] = []
    board.still_active = lambda session, what: checks.append(what)
    with pytest.raises(NotAllowed, match="only the floor or an admin can open a table"):
        board.open_table(DEALER, 2)
    board.add_to_list(FLOOR, "Ann", *GAME)
    assert checks == ["put players on a list"]  # checked once, not again under the lock
    assert [e.what.action for e in mem.rows] == ["open", "list-add"]

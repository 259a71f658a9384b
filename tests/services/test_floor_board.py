"""The floor board's use cases on the in-memory records: tables, lists, calls, seats, away
marks, must-move, and the refusals that write nothing (issue 43)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.services.errors import NotAllowed
from dealer_assist.services.floorboard import FloorBoard, FloorTable
from dealer_assist.services.floorboard.fake import InMemoryFloor
from dealer_assist.services.floorboard.seating import next_seating
from dealer_assist.services.floorboard.view import board_view
from dealer_assist.services.model import Session, User

T0 = datetime(2026, 3, 7, 18, 0, tzinfo=UTC)


def _session(name: str, role: str) -> Session:
    return Session(user=User(id=1, name=name, full_name=name, role=role, active=True),
                   signed_in_at=T0)


FLOOR = _session("fran", "floor")
DEALER = _session("dana", "dealer")
AUDITOR = _session("audrey", "auditor")


def _tables() -> list[FloorTable]:
    return [
        FloorTable(id=1, name="Table 1", game="caro_holdem", stakes="$2/$4", seats=(1, 2, 3, 4),
                   min_players=2, smallest_chip=100, buy_in=10000, dealer="dana"),
        FloorTable(id=2, name="Table 2", game="caro_holdem", stakes="$2/$4", seats=(1, 2, 3),
                   min_players=2, smallest_chip=100, buy_in=10000, dealer="dan"),
        FloorTable(id=3, name="Table 3", game="guts", stakes="$1", seats=(1, 2, 3, 4, 5),
                   min_players=3, smallest_chip=100, buy_in=None),
    ]


class Clock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def room() -> tuple[FloorBoard, InMemoryFloor, Clock]:
    mem = InMemoryFloor(_tables())
    clock = Clock()
    return FloorBoard(mem, mem, clock), mem, clock


def test_open_table_and_list_call_seat_in_order(room) -> None:
    board, mem, _ = room
    board.open_table(FLOOR, 1)
    for name in ("Ann", "Bob", "Cy"):
        board.add_to_list(FLOOR, name, "caro_holdem", "$2/$4")
    s = board.state()
    assert [w.player for w in s.lists[("caro_holdem", "$2/$4")]] == ["Ann", "Bob", "Cy"]
    bob = s.lists[("caro_holdem", "$2/$4")][1].entry
    board.call(FLOOR, bob, 1, 4)
    board.seat(FLOOR, 1, 4, amount=20000)
    s = board.state()
    assert s.seated(1)[4].player == "Bob" and s.seated(1)[4].amount == 20000
    assert [w.player for w in s.lists[("caro_holdem", "$2/$4")]] == ["Ann", "Cy"]
    assert [e.what.action for e in mem.rows] == ["open", "list-add", "list-add", "list-add",
                                                  "call", "seat"]
    assert mem.rows[-1].actor == "fran" and mem.rows[-1].at == T0


def test_not_here_goes_to_the_end_then_off(room) -> None:
    board, _, _ = room
    for name in ("Ann", "Bob"):
        board.add_to_list(FLOOR, name, "caro_holdem", "$2/$4")
    ann = board.state().lists[("caro_holdem", "$2/$4")][0].entry
    board.not_here(FLOOR, ann)
    assert [w.player for w in board.state().lists[("caro_holdem", "$2/$4")]] == ["Bob", "Ann"]
    board.not_here(FLOOR, ann)
    assert [w.player for w in board.state().lists[("caro_holdem", "$2/$4")]] == ["Bob"]


def test_not_here_off_at_once_when_the_room_says_so(room) -> None:
    board, _, _ = room
    board.set_rule(FLOOR, "not_here", "off")
    board.add_to_list(FLOOR, "Ann", "caro_holdem", "$2/$4")
    ann = board.state().lists[("caro_holdem", "$2/$4")][0].entry
    board.not_here(FLOOR, ann)
    assert ("caro_holdem", "$2/$4") not in board.state().lists


def test_call_timer_from_the_room_setting_and_notice_when_it_runs_out(room) -> None:
    board, _, clock = room
    board.open_table(FLOOR, 1)
    board.add_to_list(FLOOR, "Ann", "caro_holdem", "$2/$4")
    ann = board.state().lists[("caro_holdem", "$2/$4")][0].entry
    board.call(FLOOR, ann, 1, 2)
    call = next(iter(board.state().calls.values()))
    assert call.until - call.at == timedelta(minutes=5)
    assert not any("run out" in n for n in board.notices())
    clock.now = T0 + timedelta(minutes=5)
    assert board.notices() == ["Ann's call to Table 1 seat 2 has run out: seat, or not here"]


def test_interest_list_tells_the_floor_a_table_could_open(room) -> None:
    board, _, _ = room
    for name in ("Ann", "Bob"):
        board.add_to_list(FLOOR, name, "guts", "$1")
    assert board.notices() == []
    view = board_view(board.state(), _tables())
    assert view.lists[0].interest is True
    board.add_to_list(FLOOR, "Cy", "guts", "$1")
    # the game as the players know it (regression: the notice named it "guts")
    assert board.notices() == ["a table could open: 3 waiting for Guts $1"]


def test_one_player_on_several_lists_in_order_of_entry(room) -> None:
    board, _, _ = room
    board.add_to_list(FLOOR, "Ann", "caro_holdem", "$2/$4")
    board.add_to_list(FLOOR, "Ann", "guts", "$1")
    s = board.state()
    assert [w.player for w in s.lists[("guts", "$1")]] == ["Ann"]
    assert [w.player for w in s.lists[("caro_holdem", "$2/$4")]] == ["Ann"]


@pytest.mark.parametrize(("act", "message"), [
    (lambda b: b.add_to_list(FLOOR, "Ann", "caro_holdem", "$2/$4"), "already on the"),
    (lambda b: b.add_to_list(FLOOR, "A\x07nn", "caro_holdem", "$2/$4"), "control characters"),
    (lambda b: b.add_to_list(FLOOR, "x" * 41, "caro_holdem", "$2/$4"), "at most 40"),
    (lambda b: b.add_to_list(FLOOR, "Zed", "caro_holdem", "$5/$10"), "no table spreads"),
    (lambda b: b.seat(FLOOR, 1, 9, player="Zed", amount=10000), "has no seat 9"),
    (lambda b: b.seat(FLOOR, 1, 1, player="Zed", amount=10000), "seat 1 is taken by Bob"),
    (lambda b: b.seat(FLOOR, 3, 1, player="Zed"), "Table 3 is closed"),
    (lambda b: b.seat(FLOOR, 1, 2, player="Zed", amount=5000), r"buy-in is \$100 to \$500"),
    (lambda b: b.seat(FLOOR, 1, 2, player="Zed", amount=60000), r"buy-in is \$100 to \$500"),
    (lambda b: b.seat(FLOOR, 2, 2, player="Bob", amount=10000), "Bob is seated at Table 1"),
    (lambda b: b.add_to_list(DEALER, "Zed", "caro_holdem", "$2/$4"), "only the floor"),
    (lambda b: b.seat(AUDITOR, 1, 2, player="Zed", amount=10000), "only the floor"),
    (lambda b: b.open_table(DEALER, 2), "only the floor"),
])
def test_bad_input_is_refused_and_writes_nothing(room, act, message) -> None:
    board, mem, _ = room
    board.open_table(FLOOR, 1)
    board.open_table(FLOOR, 2)
    board.seat(FLOOR, 1, 1, player="Bob", amount=10000)
    board.add_to_list(FLOOR, "Ann", "caro_holdem", "$2/$4")
    before = list(mem.rows)
    with pytest.raises((BadInput, RuleViolation, NotAllowed), match=message):
        act(board)
    assert mem.rows == before


def test_breaking_table_takes_no_new_seats_and_closing_frees_them(room) -> None:
    board, _, _ = room
    board.open_table(FLOOR, 1)
    board.seat(FLOOR, 1, 1, player="Bob", amount=10000)
    board.mark_breaking(FLOOR, 1)
    with pytest.raises(RuleViolation, match="Table 1 is breaking"):
        board.seat(FLOOR, 1, 2, player="Zed", amount=10000)
    board.close_table(FLOOR, 1)
    assert board.state().seated(1) == {} and board.state().table_status(1) == "closed"


def test_call_to_a_full_table_and_one_player_to_two_seats_refused(room) -> None:
    board, mem, _ = room
    board.open_table(FLOOR, 2)
    for seat, name in ((1, "A"), (2, "B"), (3, "C")):
        board.seat(FLOOR, 2, seat, player=name, amount=10000)
    board.open_table(FLOOR, 1)
    board.add_to_list(FLOOR, "Ann", "caro_holdem", "$2/$4")
    ann = board.state().lists[("caro_holdem", "$2/$4")][0].entry
    with pytest.raises(RuleViolation, match="Table 2 is full"):
        board.call(FLOOR, ann, 2, 1)
    board.call(FLOOR, ann, 1, 3)
    n = len(mem.rows)
    with pytest.raises(RuleViolation, match="Ann is already called to Table 1 seat 3"):
        board.call(FLOOR, ann, 1, 4)
    assert len(mem.rows) == n


def test_two_tables_allowed_by_the_room_setting(room) -> None:
    board, _, _ = room
    board.open_table(FLOOR, 1)
    board.open_table(FLOOR, 3)
    board.seat(FLOOR, 1, 1, player="Bob", amount=10000)
    board.set_rule(FLOOR, "two_tables", "yes")
    board.seat(FLOOR, 3, 2, player="Bob")
    assert [p.table_id for p in board.state().where_seated("Bob")] == [1, 3]


def test_must_move_calls_the_feeders_longest_seated_player_who_keeps_the_chips(room) -> None:
    board, _, clock = room
    board.open_table(FLOOR, 1)
    board.open_table(FLOOR, 2)
    board.link_must_move(FLOOR, 1, 2)
    board.seat(FLOOR, 2, 2, player="Early", amount=10000)
    clock.now = T0 + timedelta(minutes=1)
    board.seat(FLOOR, 2, 1, player="Later", amount=10000)
    board.call_must_move(FLOOR, 1, 3)
    call = next(iter(board.state().calls.values()))
    assert (call.player, call.from_table) == ("Early", 2)
    board.seat(FLOOR, 1, 3, amount=13700)  # the chips they bring: not held to the buy-in
    s = board.state()
    assert s.seated(1)[3].player == "Early" and 2 not in s.seated(2)
    assert s.seated(1)[3].from_table == 2 and s.seated(1)[3].amount == 13700


def test_away_then_pick_up_only_after_the_timer_and_never_by_itself(room) -> None:
    board, mem, clock = room
    board.open_table(FLOOR, 1)
    board.seat(FLOOR, 1, 1, player="Bob", amount=10000)
    board.away(FLOOR, 1, 1)
    clock.now = T0 + timedelta(minutes=14)
    with pytest.raises(RuleViolation, match="away time runs until 18:15 UTC"):
        board.pick_up(FLOOR, 1, 1, 9500)
    assert 1 in board.state().seated(1)
    clock.now = T0 + timedelta(minutes=15)
    assert board.notices() == [
        "Bob's away time at Table 1 seat 1 has run out: pick up the chips?"]
    assert 1 in board.state().seated(1)  # still seated: the floor decides
    board.pick_up(FLOOR, 1, 1, 9500)
    assert board.state().seated(1) == {}
    assert (mem.rows[-1].what.action, mem.rows[-1].what.amount) == ("pick-up", 9500)


def test_next_hand_seats_and_buy_ins_come_from_the_floor(room) -> None:
    board, _, clock = room
    board.open_table(FLOOR, 1)
    board.seat(FLOOR, 1, 1, player="Bob", amount=10000)
    board.seat(FLOOR, 1, 2, player="Ann", amount=20000)
    first = next_seating(board.state(), 1, last_start=None, last_seats=())
    assert first is not None and first.seats == (1, 2)
    assert first.stacks == {1: 10000, 2: 20000}
    clock.now = T0 + timedelta(minutes=3)   # the first hand starts
    started = clock.now
    clock.now = T0 + timedelta(minutes=4)
    board.leave(FLOOR, 1, 1)                # during the hand: free from the next one
    board.seat(FLOOR, 1, 4, player="Cy", amount=15000)
    nxt = next_seating(board.state(), 1, last_start=started, last_seats=(1, 2))
    assert nxt is not None
    assert nxt.seats == (2, 4) and nxt.stacks == {4: 15000}
    assert nxt.changes == ("Seat 4: new player Cy, buy-in $150", "Seat 1: free")


def test_without_the_board_the_dealer_types_seats(room) -> None:
    board, _, _ = room
    board.open_table(FLOOR, 1)
    board.set_rule(FLOOR, "board", "off")
    assert next_seating(board.state(), 1, last_start=None, last_seats=()) is None
    assert next_seating(board.state(), 2, last_start=None, last_seats=()) is None


def test_board_view_shows_games_tables_lists_calls_and_never_money(room) -> None:
    board, _, _ = room
    board.open_table(FLOOR, 1)
    board.seat(FLOOR, 1, 1, player="Bob", amount=10000)
    board.seat(FLOOR, 1, 2, player="Cy", amount=10000)
    board.add_to_list(FLOOR, "Ann", "caro_holdem", "$2/$4")
    board.add_to_list(FLOOR, "Dee", "caro_holdem", "$2/$4")
    ann = board.state().lists[("caro_holdem", "$2/$4")][0].entry
    board.call(FLOOR, ann, 1, 3)
    view = board_view(board.state(), _tables())
    assert view.games == ("caro_holdem $2/$4",)
    t1 = view.tables[0]
    assert (t1.name, t1.status, t1.open_seats, t1.players) == ("Table 1", "going", (4,), 2)
    assert view.lists[0].names == ("Ann → Table 1 seat 3", "Dee")
    assert view.lists[0].interest is False
    assert view.calls == ("Ann → Table 1 seat 3",)
    assert "100" not in repr(view)


def test_players_by_initials_or_number_as_the_room_sets(room) -> None:
    board, _, _ = room
    board.set_rule(FLOOR, "names", "initials")
    board.add_to_list(FLOOR, "jd", "caro_holdem", "$2/$4")
    with pytest.raises(BadInput, match="up to 4 letters"):
        board.add_to_list(FLOOR, "Johnny", "caro_holdem", "$2/$4")
    board.set_rule(FLOOR, "names", "number")
    with pytest.raises(BadInput, match="up to 6 digits"):
        board.add_to_list(FLOOR, "Ann", "caro_holdem", "$2/$4")
    board.add_to_list(FLOOR, "117", "caro_holdem", "$2/$4")
    assert [w.player for w in board.state().lists[("caro_holdem", "$2/$4")]] == ["JD", "117"]


def test_floor_figures_table_and_player_hours_waits_and_unanswered_calls(room) -> None:
    from dealer_assist.services.floorboard.stats import floor_figures

    board, mem, clock = room

    def at(minutes: int) -> None:
        clock.now = T0 + timedelta(minutes=minutes)

    board.open_table(FLOOR, 1)                                  # 18:00 open
    for i, name in enumerate(("Ann", "Bob", "Cy", "Dee")):
        at(i)
        board.add_to_list(FLOOR, name, "caro_holdem", "$2/$4")   # listed 18:00..18:03
    entries = {w.player: w.entry for w in board.state().lists[("caro_holdem", "$2/$4")]}
    at(10)
    board.call(FLOOR, entries["Ann"], 1, 1)
    board.seat(FLOOR, 1, 1, amount=10000)                       # Ann waited 10 min
    at(31)
    board.call(FLOOR, entries["Bob"], 1, 2)
    board.seat(FLOOR, 1, 2, amount=10000)                       # Bob waited 30 min: going
    at(40)
    board.call(FLOOR, entries["Cy"], 1, 3)
    at(45)
    board.not_here(FLOOR, entries["Cy"])                        # not answered
    at(50)
    board.call(FLOOR, entries["Dee"], 1, 3)                     # runs out at 18:55
    figs = floor_figures(mem.rows, _tables(), T0, T0 + timedelta(minutes=60))
    (g,) = figs.games
    assert g.game == "caro_holdem $2/$4"
    assert g.open_s == 3600                                     # 1 table hour
    assert g.going_s == 29 * 60                                 # 18:31 to 19:00
    assert g.player_s == 50 * 60 + 29 * 60                      # Ann 50 min, Bob 29 min
    assert g.waits_s == (600, 1800)
    assert (g.wait_average_s, g.wait_p90_s) == (1200, 1800)
    assert (g.calls, g.unanswered) == (4, 2)
    assert dict(figs.kinds) == {"open": 1, "list-add": 4, "call": 4, "seat": 2, "not-here": 1}


def test_a_seat_change_at_the_table_keeps_the_chips(room) -> None:
    board, _, clock = room
    board.open_table(FLOOR, 1)
    board.seat(FLOOR, 1, 1, player="Ann", amount=10000)
    board.seat(FLOOR, 1, 2, player="Bob", amount=10000)
    clock.now = T0 + timedelta(minutes=1)
    started = clock.now                        # the first hand
    clock.now = T0 + timedelta(minutes=2)
    board.seat(FLOOR, 1, 4, player="Ann")      # Ann changes to seat 4, no buy-in typed
    s = board.state()
    assert sorted(s.seated(1)) == [2, 4] and s.seated(1)[4].from_seat == 1
    nxt = next_seating(s, 1, last_start=started, last_seats=(1, 2))
    assert nxt is not None
    assert nxt.seats == (2, 4) and nxt.stacks == {} and nxt.moved == {4: 1}
    assert nxt.changes == ("Seat 4: Ann moved from seat 1, with their chips",)
    with pytest.raises(RuleViolation, match="seat 2 is taken by Bob"):
        board.seat(FLOOR, 1, 2, player="Ann")

"""The dealer's next hand carries the floor's seats: between hands the screen lists "Seat N:
new player X, buy-in $Y", Enter confirms, and the hand starts with those seats and buy-ins
without the dealer typing them (issue 43, item 9 and item 3)."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services
from dealer_assist.ui.floor_seats import FloorSeatsDialog
from dealer_assist.ui.qt import Qt, QTimer
from tests.ui.test_dealer_champs import open_screen


def _caro(svc: Services) -> int:
    return next(t.id for t in svc.list_tables() if t.name == "Caro-1")


def test_floor_seats_become_the_next_hands_seats_confirmed_with_enter(
        qtbot: Any, sqlite_services: Services) -> None:
    svc = sqlite_services
    board = svc.floor_board
    assert board is not None
    fran = svc.sign_in("fran", "2222")
    table = _caro(svc)
    board.open_table(fran, table)
    board.seat(fran, table, 1, player="Ann", amount=100000)
    board.seat(fran, table, 3, player="Bob", amount=250000)
    screen = open_screen(qtbot, svc, table="Caro-1")
    seen: dict[str, str] = {}

    def confirm() -> None:
        dlg = next(w for w in screen.findChildren(FloorSeatsDialog) if w.isVisible())
        seen["lines"] = dlg.lines.text()
        seen["open"] = dlg.open_seats.text()
        qtbot.keyClick(dlg, Qt.Key.Key_Return)

    QTimer.singleShot(0, confirm)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert seen["lines"] == ("Seat 1: new player Ann, buy-in $1,000\n"
                             "Seat 3: new player Bob, buy-in $2,500")
    assert seen["open"] == "Open seats: 2 · playing: 1, 3"
    now = screen.c.now
    assert now is not None and now.hand.seats == (1, 3)
    stacks = {int(k): v for k, v in dict(now.replay.start.get("stacks")).items()}
    assert stacks == {1: 100000, 3: 250000}


def test_without_the_board_the_dealer_deals_every_seat_as_before(
        qtbot: Any, sqlite_services: Services) -> None:
    svc = sqlite_services
    screen = open_screen(qtbot, svc, table="Caro-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    now = screen.c.now
    assert now is not None and now.hand.seats == (1, 2, 3)


def test_a_seat_change_on_the_floor_takes_the_players_chips_to_the_new_seat(
        qtbot: Any, sqlite_services: Services) -> None:
    svc = sqlite_services
    board = svc.floor_board
    assert board is not None
    fran = svc.sign_in("fran", "2222")
    table = _caro(svc)
    board.open_table(fran, table)
    board.seat(fran, table, 1, player="Ann", amount=100000)
    board.seat(fran, table, 2, player="Bob", amount=100000)
    screen = open_screen(qtbot, svc, table="Caro-1")
    seen: list[str] = []

    def confirm() -> None:
        dlg = next(w for w in screen.findChildren(FloorSeatsDialog) if w.isVisible())
        seen.append(dlg.lines.text())
        qtbot.keyClick(dlg, Qt.Key.Key_Return)

    QTimer.singleShot(0, confirm)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None and screen.c.now.hand.seats == (1, 2)
    qtbot.keyClick(screen, "f")                 # one folds: the hand is over
    while not screen.push.done:
        qtbot.keyClick(screen, Qt.Key.Key_T)    # every push step ticked
    kept = svc.next_stacks(table, (1, 2))
    board.seat(fran, table, 3, player="Ann")    # Ann changes seats between hands
    QTimer.singleShot(0, confirm)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert seen[-1] == "Seat 3: Ann moved from seat 1, with their chips"
    now = screen.c.now
    assert now is not None and now.hand.seats == (2, 3)
    stacks = {int(k): v for k, v in dict(now.replay.start.get("stacks")).items()}
    assert stacks == {2: kept[2], 3: kept[1]} and kept[1] != kept[2]


def test_a_station_without_the_server_deals_on_with_the_seating_it_had(
        qtbot: Any, sqlite_services: Services, monkeypatch: Any) -> None:
    from dealer_assist.services.errors import StoreUnavailable

    svc = sqlite_services
    board = svc.floor_board
    assert board is not None
    fran = svc.sign_in("fran", "2222")
    table = _caro(svc)
    board.open_table(fran, table)
    board.seat(fran, table, 1, player="Ann", amount=100000)
    board.seat(fran, table, 3, player="Bob", amount=100000)
    screen = open_screen(qtbot, svc, table="Caro-1")

    def confirm() -> None:
        dlg = next(w for w in screen.findChildren(FloorSeatsDialog) if w.isVisible())
        qtbot.keyClick(dlg, Qt.Key.Key_Return)

    QTimer.singleShot(0, confirm)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    qtbot.keyClick(screen, "f")
    while not screen.push.done:
        qtbot.keyClick(screen, Qt.Key.Key_T)

    def lost(_table: int) -> None:
        raise StoreUnavailable("the server does not answer")

    monkeypatch.setattr(board, "next_seating", lost)
    qtbot.keyClick(screen, Qt.Key.Key_N)        # no dialog: nothing new is known
    now = screen.c.now
    assert now is not None and now.hand.number == 2 and now.hand.seats == (1, 3)

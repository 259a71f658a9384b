"""The floor's board console, keyboard only (issue 43): open a table, put players on a list,
call and seat them, a refusal that writes nothing, mark away and pick up, close the table."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services
from dealer_assist.services.floorboard import FloorBoard
from dealer_assist.ui.floor_board_window import FloorActionDialog, FloorBoardConsole
from dealer_assist.ui.qt import Qt
from tests.ui.conftest import answer_next_dialog


def _type_all(qtbot: Any, answers: list[str], seen: list[str]) -> Any:
    """Type each answer into the focused box of the dialog ("↓↓": Down twice in a list box)
    and press Enter (the last Enter presses OK); a refusal left in the dialog is kept in
    ``seen`` and the dialog cancelled."""
    def fill(dlg: FloorActionDialog) -> None:
        for text in answers:
            box = dlg.focusWidget() or dlg
            if text.startswith("↓"):  # a choice further down a list box
                for _ in text:
                    qtbot.keyClick(box, Qt.Key.Key_Down)
            elif text:
                qtbot.keyClicks(box, text)
            qtbot.keyClick(box, Qt.Key.Key_Return)
        if dlg.isVisible():
            seen.append(dlg.error.text())
            qtbot.keyClick(dlg.focusWidget() or dlg, Qt.Key.Key_Escape)
    return fill


def _press(qtbot: Any, console: FloorBoardConsole, pane: Any, key: str,
           answers: list[str] | None = None) -> list[str]:
    refused: list[str] = []
    if answers is not None:
        answer_next_dialog(qtbot, _type_all(qtbot, answers, refused))
    pane.setFocus()
    qtbot.keyClick(pane, key)
    return refused


def _board(svc: Services) -> FloorBoard:
    assert svc.floor_board is not None
    return svc.floor_board


def test_floor_runs_a_table_and_a_list_from_the_keyboard(
        qtbot: Any, sqlite_services: Services) -> None:
    svc = sqlite_services
    board = _board(svc)
    console = FloorBoardConsole(board, svc.sign_in("fran", "2222"))
    qtbot.addWidget(console)
    console.resize(1280, 800)
    console.show()
    caro = next(i for i in range(console.tables.count())
                if console.tables.item(i).text().startswith("Caro-1"))
    console.tables.setCurrentRow(caro)
    _press(qtbot, console, console.tables, "o")
    assert console.message.text() == "Recorded: Caro-1 opened"
    assert console.tables.item(caro).text() == \
        "Caro-1 Caro Hold 'em — open\n  1:open  2:open  3:open"
    for name in ("Ann", "Bob"):  # L: the name, Enter, the list (first choice), Enter
        _press(qtbot, console, console.tables, "l", [name, ""])
    assert [console.lists.item(i).text() for i in range(console.lists.count())] == [
        "Caro Hold 'em  1. Ann", "Caro Hold 'em  2. Bob"]
    console.lists.setCurrentRow(0)
    _press(qtbot, console, console.lists, "k", ["", "2"])  # call Ann to seat 2
    assert console.lists.item(0).text() == "Caro Hold 'em  1. Ann → called to Caro-1 seat 2"
    assert console.message.text() == "Recorded: Ann called to Caro-1 seat 2"
    _press(qtbot, console, console.lists, "e", ["1,000"])  # seat her, buy-in $1,000
    assert console.message.text() == "Recorded: Ann seated at Caro-1 seat 2"
    assert board.state().seated(console._current(console.tables) or 0)[2].amount == 100000
    # Bob to seat 2 is refused: taken; the dialog says why and nothing is written
    before = board.records.count()
    console.lists.setCurrentRow(0)
    refused = _press(qtbot, console, console.lists, "k", ["", "2"])
    assert refused == ["Caro-1 seat 2 is taken by Ann: choose an open seat"]
    assert board.records.count() == before
    # away, then the pick-up is refused until the time runs out
    console.tables.setCurrentRow(caro)
    _press(qtbot, console, console.tables, "a", ["2"])
    assert console.message.text() == "Recorded: Caro-1 seat 2 away"
    assert "2:Ann (away until " in console.tables.item(caro).text()
    refused = _press(qtbot, console, console.tables, "p", ["2", "900"])
    assert refused and "away time runs until" in refused[0]
    _press(qtbot, console, console.tables, "c")
    assert console.tables.item(caro).text().startswith("Caro-1 Caro Hold 'em — closed")
    actions = [e.what.action for e in board.records.entries()]
    assert actions == ["open", "list-add", "list-add", "call", "seat", "away", "close"]
    assert {e.actor for e in board.records.entries()} == {"fran"}


def test_a_dealer_at_the_console_is_refused_and_nothing_is_written(
        qtbot: Any, sqlite_services: Services) -> None:
    svc = sqlite_services
    board = _board(svc)
    console = FloorBoardConsole(board, svc.sign_in("dana", "1111"))
    qtbot.addWidget(console)
    console.show()
    _press(qtbot, console, console.tables, "o")
    assert console.message.text().startswith("Refused: dana is a dealer: only the floor or "
                                              "an admin can open a table")
    assert board.records.count() == 0


def test_a_call_where_no_table_spreads_the_game_is_refused_in_the_dialog(
        qtbot: Any, sqlite_services: Services) -> None:
    svc = sqlite_services
    board = _board(svc)
    fran = svc.sign_in("fran", "2222")
    board.add_to_list(fran, "Ann", "caro-holdem", "")
    ada = svc.sign_in("ada", "9999")
    caro = next(t for t in svc.list_tables() if t.name == "Caro-1")
    svc.change_settings(ada, caro.id, {"name": "Caro-1", "game": "guts", "seats": 3,
                                       "smallest_chip": 100, "buy_in": 10000,
                                       "params": {"ante": 100}})
    console = FloorBoardConsole(board, fran)
    qtbot.addWidget(console)
    console.show()
    console.lists.setCurrentRow(0)
    refused = _press(qtbot, console, console.lists, "k", ["", "1"])
    assert refused == ["no table for this game to choose: the tables' settings offer none"]
    assert board.records.count() == 1


def test_not_here_says_where_the_player_went_end_of_the_list_then_off(
        qtbot: Any, sqlite_services: Services) -> None:
    """H on a list entry: the first time to the end of the list, the second off it (the room's
    default), and the bar says which (it said only "not here")."""
    svc = sqlite_services
    board = _board(svc)
    console = FloorBoardConsole(board, svc.sign_in("fran", "2222"))
    qtbot.addWidget(console)
    console.resize(1280, 800)
    console.show()
    for name in ("Ann", "Bob"):
        _press(qtbot, console, console.tables, "l", [name, ""])
    console.lists.setCurrentRow(0)
    _press(qtbot, console, console.lists, "h")
    assert console.message.text() == "Recorded: Ann not here: to the end of the list"
    assert [console.lists.item(i).text() for i in range(console.lists.count())] == [
        "Caro Hold 'em  1. Bob", "Caro Hold 'em  2. Ann"]
    console.lists.setCurrentRow(1)
    _press(qtbot, console, console.lists, "h")
    assert console.message.text() == "Recorded: Ann not here: off the list"
    assert console.lists.count() == 1 and console.lists.item(0).text().endswith("1. Bob")

"""The players' board (issue 43, item 5): read-only, big type, never money; it shows a floor
record within a second of its commit, through the feed (polling on SQLite)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from dealer_assist.services import Services
from dealer_assist.ui.board_window import BoardWindow, board_feed_for


def _caro(svc: Services) -> int:
    return next(t.id for t in svc.list_tables() if t.name == "Caro-1")


def test_board_shows_each_floor_step_from_the_feed_and_never_money(
        qtbot: Any, sqlite_services: Services, tmp_path: Path) -> None:
    svc = sqlite_services
    board = svc.floor_board
    assert board is not None
    fran = svc.sign_in("fran", "2222")
    window = BoardWindow(board, room="Test Room", feed_factory=board_feed_for(svc))
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    assert "none open" in window.text() and "no one waiting" in window.text()
    table = _caro(svc)
    board.open_table(fran, table)
    board.seat(fran, table, 1, player="Ann", amount=100000)
    qtbot.waitUntil(lambda: "Caro-1  Caro Hold 'em\n    open, open seats 2, 3" in window.text(),
                    timeout=3000)
    board.add_to_list(fran, "Bob", "caro-holdem", "")
    board.add_to_list(fran, "Cy", "caro-holdem", "")
    bob = board.state().lists[("caro-holdem", "")][0].entry
    board.call(fran, bob, table, 3)
    qtbot.waitUntil(lambda: "CALLED: Bob → Caro-1 seat 3" in window.text(), timeout=3000)
    text = window.text()
    assert "1. Bob → Caro-1 seat 3\n  2. Cy" in text
    assert "open seats 2" in text and "$" not in text and "1,000" not in text
    records = board.records.count()
    window.grab().save(str(tmp_path / "board.png"))
    window.close()
    assert board.records.count() == records  # the board wrote nothing


def test_dealer_assist_board_opens_the_board_without_a_pin(
        qtbot: Any, sqlite_services: Services, qapp: Any, monkeypatch: Any) -> None:
    from dealer_assist.cli import main
    from dealer_assist.ui import qt

    svc = sqlite_services
    board = svc.floor_board
    assert board is not None
    fran = svc.sign_in("fran", "2222")
    board.open_table(fran, _caro(svc))
    url = str(svc.store.db.url)  # type: ignore[attr-defined]
    seen: list[str] = []

    class App:
        """The application, its event loop replaced by a look at the windows shown."""

        def exec(self) -> int:
            shown = [w for w in qt.QApplication.topLevelWidgets()
                     if isinstance(w, BoardWindow) and w.isVisible()]
            seen.extend(w.text() for w in shown)
            for w in shown:
                w.close()
            return 0

    monkeypatch.setattr(qt, "application", lambda: App())
    monkeypatch.setattr("dealer_assist.ui.theme.apply_theme", lambda *_: None)
    assert main(["--db", url, "board", "--windowed"]) == 0
    assert len(seen) == 1 and "Caro-1  Caro Hold 'em\n    open, open seats 1–3" in seen[0]
    assert board.records.count() == 1  # it wrote nothing


def test_board_menu_opens_the_players_board_and_the_floor_console(
        qtbot: Any, sqlite_services: Services) -> None:
    from dealer_assist.ui.floor_board_window import FloorBoardConsole
    from dealer_assist.ui.main_window import MainWindow
    from dealer_assist.ui.qt import QAction, QApplication

    svc = sqlite_services
    window = MainWindow(svc, svc.sign_in("fran", "2222"))
    qtbot.addWidget(window)
    actions = {a.objectName(): a for a in window.findChildren(QAction)}
    actions["players-board-action"].trigger()
    actions["floor-board-action"].trigger()
    shown = [w for w in QApplication.topLevelWidgets() if w.isVisible()]
    boards = [w for w in shown if isinstance(w, BoardWindow)]
    consoles = [w for w in shown if isinstance(w, FloorBoardConsole)]
    assert len(boards) == 1 and len(consoles) == 1
    for w in boards + consoles:
        w.close()
    dealer = MainWindow(svc, svc.sign_in("dana", "1111"))
    qtbot.addWidget(dealer)
    names = {a.objectName() for a in dealer.findChildren(QAction)}
    assert "players-board-action" in names and "floor-board-action" not in names


def test_signing_out_closes_the_floor_console_and_board_opened_from_the_menu(
        qtbot: Any, sqlite_services: Services) -> None:
    """Regression: the floor signed out with the console open; the console stayed up and went
    on recording in the signed-out floor person's name, and the sign-in did not come back
    until someone closed it."""
    from dealer_assist.ui.floor_board_window import FloorBoardConsole
    from dealer_assist.ui.main_window import MainWindow
    from dealer_assist.ui.qt import QAction, QApplication

    svc = sqlite_services
    window = MainWindow(svc, svc.sign_in("fran", "2222"))
    qtbot.addWidget(window)
    window.show()
    actions = {a.objectName(): a for a in window.findChildren(QAction)}
    actions["players-board-action"].trigger()
    actions["floor-board-action"].trigger()

    def shown() -> list[Any]:
        return [w for w in QApplication.topLevelWidgets() if w.isVisible()
                and isinstance(w, BoardWindow | FloorBoardConsole)]

    assert len(shown()) == 2
    window.showMinimized()  # out of the way is not closed
    assert len(shown()) == 2
    window.sign_out()
    assert window.signed_out and shown() == []


LONG = {"name": "OFC Main-1", "game": "ofc", "seats": 4, "smallest_chip": 100,
        "stakes": "$5 a point, progressive fantasyland", "params": {"unit": 500}}


def test_a_table_with_a_long_game_and_stakes_reads_on_one_line_at_1280x800(
        qtbot: Any, sqlite_services: Services) -> None:
    """Regression: a table's line wrapped word by word across three lines of the board (and
    ran off the console's pane); now its name and game keep one line, cut with … where the
    room ends, and its status and open seats the next."""
    from dealer_assist.ui.floor_board_window import FloorBoardConsole

    svc = sqlite_services
    board = svc.floor_board
    assert board is not None
    fran = svc.sign_in("fran", "2222")
    table = svc.add_table(svc.sign_in("ada", "9999"), LONG).id
    board.open_table(fran, table)
    window = BoardWindow(board, room="Test Room")
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    shown = window.tables.displayed().split("\n")
    assert shown[1].startswith("OFC Main-1  Open-Face Chinese Poker") and "…" in shown[1]
    assert shown[2] == "    open, open seats 1–4"
    fm, room = window.tables.fontMetrics(), window.tables.contentsRect().width()
    assert max(fm.horizontalAdvance(line) for line in shown) <= room
    assert "OFC Main-1  Open-Face Chinese Poker $5 a point, progressive fantasyland" in \
        window.text()  # the whole line, for a reader of the text
    console = FloorBoardConsole(board, fran)
    qtbot.addWidget(console)
    console.resize(1280, 800)
    console.show()
    qtbot.waitExposed(console)
    row = next(i for i in range(console.tables.count())
               if console.tables.item(i).text().startswith("OFC Main-1"))
    first = console.tables.item(row).text().split("\n")[0]
    assert first == "OFC Main-1 Open-Face Chinese Poker $5 a point, progressive fantasyland" \
        " — open"  # the tables' pane has the room for it at 1280x800
    console.resize(900, 800)  # narrower: the stakes are cut, the name and status stay
    qtbot.waitUntil(lambda: "…" in console.tables.item(row).text())
    first = console.tables.item(row).text().split("\n")[0]
    assert first.startswith("OFC Main-1 Open-Face Chinese") and first.endswith("… — open")
    assert console.tables.fontMetrics().horizontalAdvance(first) <= \
        console.tables.viewport().width()
    assert console.tables.item(row).toolTip().startswith(
        "OFC Main-1 Open-Face Chinese Poker $5 a point, progressive fantasyland — open")
    board.mark_breaking(fran, table)
    window.reload()  # (said once: it read "breaking, breaking: no new seats")
    assert window.tables.displayed().split("\n")[2] == "    breaking: no new seats"


def test_a_long_waiting_list_keeps_every_player_on_the_board_at_1280x800(
        qtbot: Any, sqlite_services: Services, tmp_path: Path) -> None:
    """Regression: twelve players on two lists ran off the bottom of the board (a player a
    line in big type); when the lists are taller than the board, each list's players share
    lines, so everyone waiting is on the screen, in order."""
    svc = sqlite_services
    board = svc.floor_board
    assert board is not None
    fran = svc.sign_in("fran", "2222")
    board.open_table(fran, _caro(svc))
    for i in range(1, 11):
        board.add_to_list(fran, f"Kim {i}", "caro-holdem", "")
        board.add_to_list(fran, f"Cy {i}", "champs-and-cowards", "")
    window = BoardWindow(board, room="Test Room")
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    shown = window.lists.displayed().replace("\u00a0", " ")
    lines = shown.split("\n")
    fm = window.lists.fontMetrics()
    assert len(lines) * fm.lineSpacing() <= window.lists.contentsRect().height()
    assert all(fm.horizontalAdvance(x) <= window.lists.contentsRect().width() for x in lines)
    assert not [x for x in lines if x.startswith("  ") and "…" in x]  # no name cut
    for name in ("Kim", "Cy"):  # every one, in order
        at = [shown.index(f"{i}. {name} {i}") for i in range(1, 11)]
        assert at == sorted(at)
    assert "  1. Kim 1\n  2. Kim 2" in window.text()  # the text: a player a line
    window.grab().save(str(tmp_path / "long-lists.png"))
    for i in range(11, 31):  # more than the board can hold: it says how many more
        board.add_to_list(fran, f"Kim {i}", "caro-holdem", "")
    window.reload()
    shown = window.lists.displayed()
    assert len(shown.split("\n")) * fm.lineSpacing() <= window.lists.contentsRect().height()
    everyone = [f"{i}.\u00a0Kim\u00a0{i}" for i in range(1, 31)] + [
        f"{i}.\u00a0Cy\u00a0{i}" for i in range(1, 11)]
    hidden = [n for n in everyone if not re.search(rf"(?<!\d){n}(?!\d)", shown)]
    assert hidden and shown.endswith(f"… and {len(hidden)} more waiting")


def test_the_board_shows_a_table_going_when_its_dealer_opens_the_shift(
        qtbot: Any, sqlite_services: Services) -> None:
    """Regression: a table stayed "open" on the board after its dealer opened the shift with
    players seated (a shift is not a floor record, so the feed did not tell the board); the
    board now reads again every few seconds as well."""
    svc = sqlite_services
    board = svc.floor_board
    assert board is not None
    fran = svc.sign_in("fran", "2222")
    table = _caro(svc)
    board.open_table(fran, table)
    board.seat(fran, table, 1, player="Ann", amount=100000)
    board.seat(fran, table, 2, player="Bob", amount=100000)
    window = BoardWindow(board, room="Test Room", feed_factory=board_feed_for(svc))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: "Caro-1  Caro Hold 'em\n    open, open seats 3" in window.text(),
                    timeout=3000)
    qtbot.waitUntil(lambda: window.updates >= 2, timeout=3000)  # the feed's first read
    svc.open_shift(svc.sign_in("dana", "1111"), table, floor="fran")
    qtbot.waitUntil(lambda: "Caro-1  Caro Hold 'em\n    going, open seats 3" in window.text(),
                    timeout=8000)
    window.close()


def test_a_room_of_many_tables_keeps_every_table_on_the_board_at_1280x800(
        qtbot: Any, sqlite_services: Services) -> None:
    """Ten tables open at two lines each ran off the bottom of the board: when they do not
    fit, each takes one line (its name, status and open seats whole, its game cut)."""
    svc = sqlite_services
    board = svc.floor_board
    assert board is not None
    fran, ada = svc.sign_in("fran", "2222"), svc.sign_in("ada", "9999")
    for i in range(2, 11):
        svc.add_table(ada, {"name": f"Caro-{i}", "game": "caro-holdem", "seats": 3,
                            "smallest_chip": 100, "buy_in": 100000,
                            "params": {"unit": 1000, "ante": 100, "cap": 4}})
    for t in svc.list_tables():
        if t.name.startswith("Caro-"):
            board.open_table(fran, t.id)
    window = BoardWindow(board, room="Test Room")
    qtbot.addWidget(window)
    window.resize(1280, 800)
    window.show()
    qtbot.waitExposed(window)
    shown = window.tables.displayed().split("\n")
    fm = window.tables.fontMetrics()
    assert len(shown) * fm.lineSpacing() <= window.tables.contentsRect().height()
    for i in range(1, 11):
        assert any(x.startswith(f"Caro-{i}  ") and x.endswith(" — open, open seats 1–3")
                   for x in shown), (i, shown)
    assert "Caro-10  Caro Hold 'em\n    open, open seats 1–3" in window.text()

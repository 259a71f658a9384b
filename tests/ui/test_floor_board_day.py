"""The floor board's day, keyboard only in a 1280x800 window (issue 43, "done means"): the floor
opens tables, takes twelve players onto two lists, calls and seats them, moves a must-move
player, marks one away and picks up the chips, and closes a table, while the players' board in
a second window shows each step; the dealer's next hand carries the seats without retyping;
verify is intact."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from dealer_assist.services import Services
from dealer_assist.services.floorboard import FloorBoard
from dealer_assist.ui.board_window import BoardWindow, board_feed_for
from dealer_assist.ui.floor_board_window import FloorBoardConsole
from dealer_assist.ui.floor_seats import FloorSeatsDialog
from dealer_assist.ui.qt import Qt, QTimer
from tests.ui.conftest import CARO_TABLE
from tests.ui.test_dealer_champs import open_screen
from tests.ui.test_floor_board_console import _press


class Clock:
    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(milliseconds=1)
        return self.now


def _row(console: FloorBoardConsole, name: str) -> int:
    return next(i for i in range(console.tables.count())
                if console.tables.item(i).text().startswith(name + " "))


def _entry(console: FloorBoardConsole, player: str) -> int:
    return next(i for i in range(console.lists.count())
                if f". {player}" in console.lists.item(i).text())


def test_a_floor_day_on_the_keyboard_with_the_board_beside_it(
        qtbot: Any, sqlite_services: Services, tmp_path: Path) -> None:
    svc = sqlite_services
    ada = svc.sign_in("ada", "9999")
    svc.add_table(ada, {**CARO_TABLE, "name": "Caro-2"})
    real = svc.floor_board
    assert real is not None
    clock = Clock()
    board = FloorBoard(real.records, real.tables, clock)
    console = FloorBoardConsole(board, svc.sign_in("fran", "2222"))
    qtbot.addWidget(console)
    console.resize(1280, 800)
    console.show()
    players = BoardWindow(board, room="Test Room", feed_factory=board_feed_for(svc))
    qtbot.addWidget(players)
    players.resize(1280, 800)
    players.show()

    def shows(text: str) -> None:
        qtbot.waitUntil(lambda: text in players.text(), timeout=3000)

    for name in ("CC-1", "Caro-1", "Caro-2"):
        console.tables.setCurrentRow(_row(console, name))
        _press(qtbot, console, console.tables, "o")
    shows("Caro-2  Caro Hold 'em\n    open, open seats 1–3")
    # twelve players onto two lists (the list box: CC first, Caro second in the choices)
    cc = [f"C{i}" for i in range(1, 7)]
    caro = [f"K{i}" for i in range(1, 7)]
    choices = [console.board.choices().index(("champs-and-cowards", "")),
               console.board.choices().index(("caro-holdem", ""))]
    for names, pick in ((cc, choices[0]), (caro, choices[1])):
        for n in names:
            _press(qtbot, console, console.tables, "l", [n, "↓" * pick])
    shows("6. K6")
    assert "Champs and Cowards\n  1. C1" in players.text()
    # call and seat: four CC players at CC-1, three Caro players at Caro-1, two at Caro-2
    for player, table, seat in (("C1", "CC-1", 1), ("C2", "CC-1", 2), ("C3", "CC-1", 3),
                                ("C4", "CC-1", 4), ("K1", "Caro-1", 1), ("K2", "Caro-1", 2),
                                ("K3", "Caro-1", 3), ("K4", "Caro-2", 1),
                                ("K5", "Caro-2", 2)):
        console.lists.setCurrentRow(_entry(console, player))
        which = "↓" if table == "Caro-2" else ""
        _press(qtbot, console, console.lists, "k", [which, str(seat)])
        shows(f"{player} → {table} seat {seat}")
        buy_in = "" if table == "CC-1" else "1,000"
        _press(qtbot, console, console.lists, "e", [buy_in])
        assert console.message.text() == f"Recorded: {player} seated at {table} seat {seat}"
    shows("Caro-1  Caro Hold 'em\n    open, full")
    # must-move: Caro-2 feeds Caro-1; K3 leaves Caro-1, the feeder's longest seated (K4) moves
    console.tables.setCurrentRow(_row(console, "Caro-1"))
    _press(qtbot, console, console.tables, "m", ["↓"])  # the first table after "none"
    assert "feeds Caro-1" in console.tables.item(_row(console, "Caro-2")).text()
    _press(qtbot, console, console.tables, "f", ["3"])
    _press(qtbot, console, console.tables, "v", ["3"])
    shows("K4 → Caro-1 seat 3")
    _press(qtbot, console, console.tables, "s", ["3", "", "1,240"])
    state = board.state()
    caro1 = next(t.id for t in svc.list_tables() if t.name == "Caro-1")
    caro2 = next(t.id for t in svc.list_tables() if t.name == "Caro-2")
    assert state.seated(caro1)[3].player == "K4" and 1 not in state.seated(caro2)
    # away, and the chips picked up once the time ran out (the floor is asked, never by itself)
    console.tables.setCurrentRow(_row(console, "CC-1"))
    _press(qtbot, console, console.tables, "a", ["4"])
    clock.now += timedelta(minutes=16)
    console.reload()
    assert "C4's away time at CC-1 seat 4 has run out: pick up the chips?" in \
        console.notices.text()
    _press(qtbot, console, console.tables, "p", ["4", "37"])
    shows("CC-1  Champs and Cowards\n    open, open seats 4–8")
    console.grab().save(str(tmp_path / "floor-console.png"))
    players.grab().save(str(tmp_path / "players-board.png"))
    # close Caro-2: its last player's seat is freed, the board no longer lists it
    console.tables.setCurrentRow(_row(console, "Caro-2"))
    _press(qtbot, console, console.tables, "c")
    qtbot.waitUntil(lambda: "Caro-2" not in players.text(), timeout=3000)
    # the dealer's next hand at Caro-1 carries the floor's seats: one key
    screen = open_screen(qtbot, svc, table="Caro-1")
    seen: dict[str, str] = {}

    def confirm() -> None:
        dlg = next(w for w in screen.findChildren(FloorSeatsDialog) if w.isVisible())
        seen["lines"] = dlg.lines.text()
        qtbot.keyClick(dlg, Qt.Key.Key_Return)

    QTimer.singleShot(0, confirm)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert seen["lines"].splitlines() == ["Seat 1: new player K1, buy-in $1,000",
                                          "Seat 2: new player K2, buy-in $1,000",
                                          "Seat 3: new player K4, brings $1,240"]
    now = screen.c.now
    assert now is not None
    assert {int(k): v for k, v in dict(now.replay.start.get("stacks")).items()} == {
        1: 100000, 2: 100000, 3: 124000}
    actions = [e.what.action for e in board.records.entries()]
    assert actions.count("list-add") == 12 and actions.count("seat") == 10
    assert "$" not in players.text()
    players.close()
    from dealer_assist.db.verify import verify_database

    report = verify_database(svc.store.db, workers=1)  # type: ignore[attr-defined]
    assert report.findings == []

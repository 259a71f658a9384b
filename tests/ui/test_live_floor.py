"""The room, live: the floor's view of every open table follows another station's inputs on
the same database (SQLite: polling), shows what waits on the floor, and opens a table's current
hand read-only in the floor console."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.db.bootstrap import open_services
from dealer_assist.engine.hand import read_log
from dealer_assist.services import Approval, Argon2PinHasher, Services
from dealer_assist.ui.live_floor import COLUMNS, LiveFloor
from dealer_assist.ui.main_window import MainWindow
from dealer_assist.ui.qt import Qt
from tests.ui.test_dealer_champs import EXAMPLE

#: A bounded wait for the view to catch up (never a timing assertion: it only caps a hang).
CATCH_UP_MS = 10_000


@pytest.fixture
def station(sqlite_services: Services) -> Iterator[Services]:
    """Another station: its own services on the floor's database file."""
    db = sqlite_services.store.db
    svc = open_services(db.url, hasher=Argon2PinHasher(fast=True))
    yield svc
    svc.store.close()  # type: ignore[attr-defined]


def cell(w: LiveFloor, row: int, name: str) -> str:
    item = w.table.item(row, COLUMNS.index(name))
    return item.text() if item is not None else ""


def test_live_floor_follows_another_stations_inputs_and_shows_the_misdeal(
    qtbot: Any, sqlite_services: Services, station: Services, examples_dir: Path
) -> None:
    w = LiveFloor(sqlite_services)
    qtbot.addWidget(w)
    w.show()
    assert w.table.rowCount() == 0 and w.title.text() == "0 open tables"

    dana = station.sign_in("dana", "1111")
    table = station.find_table("CC-1")
    station.open_shift(dana, table.id, floor="fran")
    qtbot.waitUntil(lambda: w.table.rowCount() == 1, timeout=CATCH_UP_MS)
    assert (cell(w, 0, "Table"), cell(w, 0, "Dealer"), cell(w, 0, "Hand")) == ("CC-1", "dana", "")

    now = station.start_hand(dana, table.id)
    events, _ = read_log(examples_dir / EXAMPLE)
    for ev in events[1:4]:
        now = station.record(dana, now.hand.id, ev)
        at, kind = now.last.time, ev.TYPE
        qtbot.waitUntil(lambda at=at, kind=kind: cell(w, 0, "Hand") == "1"
                        and cell(w, 0, "Last input").startswith(kind)
                        and w._rows[table.id].last_at == at, timeout=CATCH_UP_MS)
    assert cell(w, 0, "Game") == "champs-and-cowards" and cell(w, 0, "Status") == "dealing"
    shown = w.rows_shown()[0]
    assert "Bonus pool $" in cell(w, 0, "In play")
    assert shown.in_play == sum(a for _n, a in now.view().pots) > 0
    assert cell(w, 0, "Waiting on the floor") == ""

    # regression: a misdeal the floor approved is not "waiting on the floor"; once its chips
    # are returned (settled) nothing is "in play"
    station.misdeal(dana, now.hand.id, "two cards exposed",
                    approval=Approval(name="fran", pin="2222"))
    qtbot.waitUntil(lambda: cell(w, 0, "Status") == "misdeal: two cards exposed",
                    timeout=CATCH_UP_MS)
    assert cell(w, 0, "Waiting on the floor") == ""
    assert w.title.text() == "1 open table"
    station.settle(dana, now.hand.id)
    qtbot.waitUntil(lambda: cell(w, 0, "Status") == "misdeal, returned: two cards exposed",
                    timeout=CATCH_UP_MS)
    assert cell(w, 0, "In play") == "" and w.rows_shown()[0].in_play == 0
    w.hide()
    assert w._thread is None


def test_live_floor_opens_the_tables_current_hand_in_the_floor_console(
    qtbot: Any, sqlite_services: Services, station: Services, examples_dir: Path
) -> None:
    dana = station.sign_in("dana", "1111")
    table = station.find_table("CC-1")
    station.open_shift(dana, table.id, floor="fran")
    now = station.start_hand(dana, table.id)
    events, _ = read_log(examples_dir / EXAMPLE)
    for ev in events[1:6]:
        now = station.record(dana, now.hand.id, ev)

    win = MainWindow(sqlite_services, sqlite_services.sign_in("fran", "2222"))
    qtbot.addWidget(win)
    win.show()
    assert win.live is not None and win.floor is not None
    bar = win.tabs.tabBar()
    assert bar.tabText(2) == "Room, live  (Ctrl+3)"
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(2).center())
    assert win.tabs.currentWidget() is win.live
    live = win.live
    qtbot.waitUntil(lambda: live.table.rowCount() == 1, timeout=CATCH_UP_MS)
    live.table.setFocus()
    live.table.setCurrentCell(0, 0)
    qtbot.keyClick(live.table, Qt.Key.Key_Return)
    assert win.tabs.currentWidget() is win.floor
    rep = win.floor.c.replay
    assert rep is not None and len(rep.steps) == now.hand.events == 6
    assert win.floor.slider.maximum() == 6
    # read-only: the floor's replay is the store's, and nothing was recorded by opening it
    assert station.hand(now.hand.id).events == 6
    win.close()


class _Breaks:
    """A feed whose second wait fails (whatever the cause) when ``breaks``."""

    def __init__(self, breaks: bool) -> None:
        self.breaks = breaks
        self.waits = 0

    def wait(self, timeout: float) -> set[int] | None:
        import time

        self.waits += 1
        if self.breaks and self.waits == 2:
            raise RuntimeError("the listening connection failed")
        time.sleep(min(timeout, 0.05))
        return None if self.waits == 1 else set()

    def close(self) -> None:
        pass


def test_regression_a_listener_that_stops_says_so_on_screen_and_starts_again(
    qtbot: Any, sqlite_services: Services
) -> None:
    """The listening thread used to die quietly and leave the rows stale with no sign."""
    feeds: list[_Breaks] = []

    def factory() -> _Breaks:
        feeds.append(_Breaks(breaks=not feeds))
        return feeds[-1]

    floor = LiveFloor(sqlite_services, feed_factory=factory)
    qtbot.addWidget(floor)
    floor.show()
    qtbot.waitUntil(lambda: floor.feed_stops == 1, timeout=CATCH_UP_MS)
    assert not floor.notice.isHidden()
    assert "Live updates stopped at" in floor.notice.text()
    assert "the listening connection failed" in floor.notice.text()
    qtbot.waitUntil(lambda: len(feeds) == 2 and feeds[1].waits >= 2, timeout=CATCH_UP_MS)
    qtbot.waitUntil(lambda: floor.notice.isHidden(), timeout=CATCH_UP_MS)
    assert "live updates started again 1 time after a stop" in floor.hint.text()
    floor.hide()


def test_the_room_live_shows_a_player_marked_away_by_the_floor(
    qtbot: Any, sqlite_services: Services,
) -> None:
    """Issue 43, item 4: a seated player marked away shows in the room's live view, with the
    time the floor gave, among what waits on the floor."""
    svc = sqlite_services
    board = svc.floor_board
    assert board is not None
    fran = svc.sign_in("fran", "2222")
    table = svc.find_table("CC-1")
    svc.open_shift(svc.sign_in("dana", "1111"), table.id, floor="fran")
    board.open_table(fran, table.id)
    board.seat(fran, table.id, 2, player="Ann")
    board.away(fran, table.id, 2)
    w = LiveFloor(svc)
    qtbot.addWidget(w)
    w.reload()
    until = board.state().seated(table.id)[2].away_until
    assert until is not None
    assert cell(w, 0, "Waiting on the floor") == f"seat 2 away until {until:%H:%M} UTC"
    assert w.title.text() == "1 open table · 1 waiting on the floor"

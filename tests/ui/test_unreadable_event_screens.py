"""Regression (issue 40, item 2): one event appended behind the app's back whose body cannot be
read (200,000 opening brackets, its hash correct) made the floor's main window raise on
opening and the live view fail. The screens go on without it: the live view names the hand's
fault on its row, the floor console lists every hand and replays the others, and says what is
wrong with that one."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_assist.engine.hand import read_log
from dealer_assist.services import Services
from dealer_assist.ui.live_floor import LiveFloor
from dealer_assist.ui.main_window import MainWindow
from tests.db.poison import DEEP, append_raw
from tests.ui.test_dealer_champs import EXAMPLE
from tests.ui.test_live_floor import CATCH_UP_MS, cell


def _two_hands(svc: Services, examples_dir: Path) -> tuple[int, int]:
    """A settled hand at CC-1, then a second one begun (its third event the last)."""
    dana = svc.sign_in("dana", "1111")
    table = svc.find_table("CC-1")
    svc.open_shift(dana, table.id, floor="fran")
    events, _ = read_log(examples_dir / EXAMPLE)
    now = svc.start_hand(dana, table.id)
    for ev in events[1:]:
        now = svc.record(dana, now.hand.id, ev)
    svc.settle(dana, now.hand.id)
    first = now.hand.id
    now = svc.start_hand(dana, table.id)
    for ev in events[1:3]:
        now = svc.record(dana, now.hand.id, ev)
    return first, now.hand.id


def test_regression_the_floor_opens_and_the_live_view_names_an_unreadable_event(
    qtbot: Any, sqlite_services: Services, examples_dir: Path
) -> None:
    svc = sqlite_services
    first, second = _two_hands(svc, examples_dir)
    path = svc.store.db.sqlite_path  # type: ignore[attr-defined]
    seq = append_raw(path, second, DEEP)

    live = LiveFloor(svc)
    qtbot.addWidget(live)
    live.show()
    qtbot.waitUntil(lambda: live.table.rowCount() == 1, timeout=CATCH_UP_MS)
    waiting = cell(live, 0, "Waiting on the floor")
    assert waiting.startswith("cannot replay: ")
    assert f"stored event 4 (seq {seq}) cannot be read" in waiting
    assert "nests more than" in waiting or "200,000 characters" in waiting
    live.hide()

    win = MainWindow(svc, svc.sign_in("fran", "2222"))
    qtbot.addWidget(win)
    win.show()
    floor = win.floor
    assert floor is not None
    floor.search()
    assert floor.list.rowCount() == 2  # both hands listed
    floor.open_hand(first)  # the good hand replays in full
    assert floor.c.replay is not None and len(floor.c.replay.steps) > 3
    floor.open_hand(second)  # the faulty one says what is wrong instead of raising
    assert "cannot be read" in floor.last_message
    win.close()

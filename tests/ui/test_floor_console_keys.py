"""Issue 41, item 13: the floor console by keyboard, in the main window at 1280x800 (775 px
under the title bar), an eight-seat hand replayed.

Tab moved from cell to cell of the hands list, so the Find filters could not be reached; the
reveal's reason box kept the keyboard (Escape did not leave it) and the red "type why…" stayed
after the reveal; the seat boxes lay over the slider; the list's "Game" and "Status" headers
were clipped."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services
from dealer_assist.ui.layout_check import problems
from dealer_assist.ui.qt import QApplication, QRect, Qt, QWidget


def _console(qtbot: Any, svc: Services) -> tuple[Any, Any]:
    from dealer_assist.ui.controllers import DealerController
    from dealer_assist.ui.main_window import MainWindow
    from dealer_assist.ui.screenshots import cc_events

    c = DealerController(svc, svc.sign_in("dana", "1111"))
    c.open_table(svc.find_table("CC-1").id, "fran")
    c.start_hand()
    for ev in cc_events():
        assert c.record(ev), c.last_error
    win = MainWindow(svc, svc.sign_in("fran", "2222"))
    qtbot.addWidget(win)
    win.resize(1280, 775)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    qtbot.keyClick(win, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    floor = win.floor
    assert floor is not None and win.focusWidget() is floor.list
    floor.select_row(0)
    qtbot.wait(10)
    return win, floor


def _rect(w: QWidget, top: QWidget) -> QRect:
    return QRect(w.mapTo(top, w.rect().topLeft()), w.size())


def _key(qtbot: Any, win: Any, key: Any) -> None:
    qtbot.keyClick(win.focusWidget(), key)


def test_regression_floor_console_find_filters_and_reveal_by_keyboard(
    qtbot: Any, memory_services: Services
) -> None:
    win, f = _console(qtbot, memory_services)
    # Tab leaves the list and comes round to the Find filters; F goes there at once
    names = []
    for _ in range(25):
        _key(qtbot, win, Qt.Key.Key_Tab)
        names.append(win.focusWidget().objectName())
    assert names[0] == "step-prev" and "filter-table" in names, names
    f.list.setFocus()
    _key(qtbot, win, Qt.Key.Key_F)
    assert win.focusWidget() is f.f_table
    f.list.setFocus()
    # R with no reason: asked for one, in the box; letters are the reason's; Esc leaves it
    _key(qtbot, win, Qt.Key.Key_R)
    assert win.focusWidget() is f.reveal_reason
    assert f.notice.isVisible() and f.notice.text().startswith("type why")
    qtbot.keyClicks(f.reveal_reason, "dispute at seat 3")
    assert f.reveal_reason.text() == "dispute at seat 3"
    _key(qtbot, win, Qt.Key.Key_Escape)
    assert win.focusWidget() is f.list
    _key(qtbot, win, Qt.Key.Key_R)  # the reason typed: revealed
    assert f.c.revealed
    assert not f.notice.isVisible()  # the red "type why…" is gone
    assert win.focusWidget() is f.list  # the console's keys again


def test_regression_eight_seat_replay_clear_of_the_slider_and_headers_whole(
    qtbot: Any, memory_services: Services
) -> None:
    _win, f = _console(qtbot, memory_services)
    f.reveal_reason.setText("dispute at seat 3")
    f.reveal()  # the info line and the reveals log take their height too
    qtbot.wait(10)
    assert problems() == []  # "Game" and "Status" whole
    assert len(f.table.seats) == 8
    slider = _rect(f.slider, f)
    assert not _rect(f.table, f).intersects(slider)
    assert [n for n, w in f.table.seats.items() if _rect(w, f).intersects(slider)] == []

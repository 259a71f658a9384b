"""Room clock… in the main window's Room menu: the floor (or an admin) sets the room's time
zone, gaming-day start and named shifts from the app, recorded through the same service call
as ``dealer-assist room`` (one audit entry under their name); refusals stay in the dialog."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services
from dealer_assist.services.counts import room_clock_of
from dealer_assist.services.room import ROOM_ACTION, RoomClock
from dealer_assist.ui.main_window import MainWindow
from dealer_assist.ui.qt import QAction, QApplication, Qt
from dealer_assist.ui.room_dialog import RoomClockDialog
from tests.ui.conftest import answer_next_dialog, click_ok
from tests.ui.test_station_size import fits


def test_floor_sets_the_room_clock_from_the_menu_with_the_keyboard(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    win = MainWindow(svc, svc.sign_in("fran", "2222"))
    qtbot.addWidget(win)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    action = win.findChild(QAction, "room-clock-action")
    assert action is not None
    steps: list[str] = []

    def fill(dlg: Any) -> None:
        steps.append(dlg.focusWidget().objectName())  # the first field has the cursor
        assert dlg.zone.text() == "UTC" and dlg.day_starts.text() == "0"
        dlg.zone.selectAll()
        qtbot.keyClicks(dlg.zone, "America/Los_Angeles")
        qtbot.keyClick(dlg.zone, Qt.Key.Key_Return)
        steps.append(dlg.focusWidget().objectName())
        dlg.day_starts.selectAll()
        qtbot.keyClicks(dlg.day_starts, "6")
        qtbot.keyClick(dlg.day_starts, Qt.Key.Key_Return)
        steps.append(dlg.focusWidget().objectName())
        qtbot.keyClicks(dlg.shifts, "day=6, swing=14, grave=22")
        qtbot.keyClick(dlg.shifts, Qt.Key.Key_Return)  # Enter in the last field records
        steps.append("closed" if not dlg.isVisible() else dlg.error.text())

    kinds = answer_next_dialog(qtbot, fill)
    action.trigger()
    assert kinds == ["RoomClockDialog"]
    assert steps == ["room-zone", "room-day-starts", "room-shifts", "closed"]
    assert room_clock_of(svc.store) == RoomClock(
        "America/Los_Angeles", 6, (("day", 6), ("swing", 14), ("grave", 22)))
    entry = svc.store.audit_log(action=ROOM_ACTION)[-1]
    assert entry.actor == "fran"


def test_room_clock_refusals_stay_in_the_dialog_and_record_nothing(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    dlg = RoomClockDialog(svc, svc.sign_in("ada", "9999"))
    fits(qtbot, dlg)  # no wider or taller than a 1280x800 station
    for zone, hour, shifts, said in (
        ("Mars/Olympus", "6", "", "unknown time zone 'Mars/Olympus'"),
        ("Europe/Paris", "25", "", "must be 0 to 23"),
        ("Europe/Paris", "six", "", "a local hour, 0 to 23"),
        ("Europe/Paris", "6", "day=6, late=6", "its own hour"),
        ("Europe/Paris", "6", "day", "write name=hour"),
    ):
        dlg.zone.setText(zone)
        dlg.day_starts.setText(hour)
        dlg.shifts.setText(shifts)
        click_ok(qtbot, dlg)
        assert dlg.isVisible() and said in dlg.error.text(), (zone, hour, shifts)
    assert svc.store.audit_log(action=ROOM_ACTION) == []
    dlg.shifts.setText("")
    dlg.day_starts.setText("4")
    click_ok(qtbot, dlg)
    assert not dlg.isVisible() and room_clock_of(svc.store) == RoomClock("Europe/Paris", 4)


def test_room_clock_is_offered_to_floor_and_admin_only(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    for name, pin, offered in (("dana", "1111", False), ("fran", "2222", True),
                               ("ada", "9999", True)):
        win = MainWindow(svc, svc.sign_in(name, pin))
        qtbot.addWidget(win)
        assert (win.findChild(QAction, "room-clock-action") is not None) == offered, name

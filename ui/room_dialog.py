"""Room clock…: the room's time zone, the hour its gaming day starts and its named shifts, set
from the app as ``dealer-assist room`` sets them.

The dialog records through the same service call as the command (``set_room_clock``): one
entry in the chained audit log under the signed-in person's name, never an edit, so the clock
in force is the latest entry and every earlier one stays on the record. Floor and admin users
may set it (the services refuse anyone else); the menu offers it only to them.
"""

from __future__ import annotations

from typing import Any

from dealer_assist.errors import BadInput
from dealer_assist.services import PERMISSIONS, Services, Session
from dealer_assist.ui.dialogs import _Dialog
from dealer_assist.ui.qt import QAction, QLabel, QLineEdit, QMainWindow, QWidget


class RoomClockDialog(_Dialog):
    """Time zone, gaming-day start hour and named shifts, prefilled with the clock in force.

    The first field has the cursor; Enter moves from field to field and, in the last, records
    the clock. A refused input (an unknown zone, an hour out of 0-23, two shifts at one hour)
    is said in the dialog's red line and nothing is recorded."""

    def __init__(self, services: Services, session: Session,
                 parent: QWidget | None = None) -> None:
        from dealer_assist.services.counts import room_clock_of

        super().__init__("Room clock", parent, ok="Record the clock")
        self.services, self.session = services, session
        now = room_clock_of(services.reads)
        note = QLabel(
            "Reports show local times with this zone and go by gaming day and room shift; "
            "records stay in UTC. The change is recorded in the audit log under your name; "
            f"the earlier settings stay on the record. In force now: {now.describe()}."
        )
        note.setObjectName("room-clock-now")
        note.setWordWrap(True)
        self.lay.insertWidget(1, note)
        self.zone = self._field("room-zone", "Time zone", now.zone,
                                "IANA name, e.g. America/Los_Angeles")
        self.day_starts = self._field("room-day-starts", "Gaming day starts",
                                      str(now.day_starts), "local hour, 0 to 23")
        self.shifts = self._field(
            "room-shifts", "Shifts", ", ".join(f"{n}={h}" for n, h in now.shifts),
            "name=start hour, e.g. day=6, swing=14, grave=22 (empty: none)")
        #: After OK: the audit entry the clock was recorded as.
        self.entry: Any = None

    def _field(self, name: str, label: str, value: str, hint: str) -> QLineEdit:
        edit = QLineEdit(value)
        edit.setObjectName(name)
        edit.setPlaceholderText(hint)
        edit.setToolTip(hint)
        self.form.addRow(label, edit)
        return edit

    def attempt(self) -> None:
        from dealer_assist.services.counts import room_clock_of, set_room_clock
        from dealer_assist.services.room import parse_shifts, room_clock

        hour = self.day_starts.text().strip()
        if not hour.isdigit():
            self.day_starts.setFocus()
            raise BadInput("the gaming day's start is a local hour, 0 to 23 (e.g. 6)")
        now = room_clock_of(self.services.reads)  # the paper and record keeping stay
        clock = room_clock(zone=self.zone.text().strip(), day_starts=int(hour),
                           shifts=parse_shifts(self.shifts.text()), paper=now.paper,
                           retention_years=now.retention_years,
                           tolerance_minutes=now.tolerance_minutes)
        self.entry = set_room_clock(self.services, self.session, clock)


def install_room_menu(window: QMainWindow, services: Services, session: Session) -> None:
    """A Room menu with Room clock… for the people who may set it (floor and admin)."""
    if session.role not in PERMISSIONS["configure"]:
        return
    menu = window.menuBar().addMenu("&Room")
    action = QAction("Room &clock…", window)
    action.setObjectName("room-clock-action")
    action.setToolTip("the room's time zone, gaming day start and named shifts")
    action.triggered.connect(lambda: open_room_clock(window, services, session))
    menu.addAction(action)


def open_room_clock(window: QWidget, services: Services, session: Session) -> None:
    """Show Room clock… over ``window`` until it is recorded or cancelled."""
    dlg = RoomClockDialog(services, session, window)
    try:
        dlg.exec()
    finally:
        dlg.deleteLater()

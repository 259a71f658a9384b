"""The floor's dealer view: every dealer on shift, where, since when, the next push and where
it sends them, who is on break, late pushes flagged; the room's dealer rules and rotation set
from the same window.

Keyboard only: the list has the focus (↑ ↓ to choose a dealer); B sends the chosen dealer on
a break, O takes them off the tables, F5 reads the records again; Alt+P, Alt+A, Alt+B, Alt+G,
Alt+H and Alt+K go to each rule (Ctrl+R sets them), Alt+D and Alt+T to the rotation (Ctrl+T
sets it); Esc closes. Each is the same use
case the command line calls, refused with a message and nothing written on bad input.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.services.dealer_box import TOKE_RULES, Rules
from dealer_assist.services.dealer_handlers import DealerRow
from dealer_assist.services.dealer_hooks import (
    room_dealers,
    send_on_break,
    set_room_rotation,
    set_room_rules,
)
from dealer_assist.ui.qt import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QEvent,
    QFormLayout,
    QGridLayout,
    QLabel,
    QLineEdit,
    QObject,
    QPushButton,
    QSpinBox,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QTimer,
    QVBoxLayout,
    QWidget,
)

COLUMNS = ("Dealer", "Where", "Since", "Next push", "Next place", "Late")


def _hm(t: datetime | None) -> str:
    return f"{t:%H:%M} UTC" if t is not None else ""


def row_texts(row: DealerRow) -> list[str]:
    """One dealer's line as the view shows it."""
    late = f"LATE {row.late_minutes} min" if row.late_minutes else ""
    return [row.dealer, row.where, _hm(row.since), _hm(row.next_push), row.next_place, late]


class DealerView(QDialog):
    """The floor's dealer view (floor or admin)."""

    def __init__(self, services: Any, session: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dealer-view")
        self.setWindowTitle("Dealers")
        self.setMinimumWidth(720)
        self.svc, self.session = services, session
        lay = QVBoxLayout(self)
        self.message = QLabel("")
        self.message.setObjectName("Refusal")
        self.message.setWordWrap(True)
        self.message.hide()  # shown with a refusal only (an empty red bar said nothing)
        lay.addWidget(self.message)
        self.list = QTableWidget(0, len(COLUMNS))
        self.list.setObjectName("dealer-list")
        self.list.setHorizontalHeaderLabels(list(COLUMNS))
        self.list.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.list.installEventFilter(self)
        lay.addWidget(self.list, 1)
        lay.addWidget(QLabel("B: break · O: off the tables · F5: read again · Esc: close"))

        rules = QGridLayout()  # two rows of three: one row ran past a 1280-wide screen
        self.push = self._spin("push", 1, 240, 30)
        self.after = self._spin("break-after", 1, 1440, 90)
        self.brk = self._spin("break", 1, 240, 20)
        self.grace = self._spin("grace", 0, 120, 5)
        self.shift = self._spin("shift", 30, 1440, 480)
        self.tokes = QComboBox()
        self.tokes.setObjectName("toke-rule")
        self.tokes.addItems(list(TOKE_RULES))
        for i, (text, w) in enumerate((("&Push every", self.push), ("break &after", self.after),
                                       ("&break", self.brk), ("&grace", self.grace),
                                       ("s&hift", self.shift), ("to&kes by", self.tokes))):
            label = QLabel(text)
            label.setBuddy(w)
            rules.addWidget(label, i // 3, 2 * (i % 3))
            rules.addWidget(w, i // 3, 2 * (i % 3) + 1)
        set_rules = QPushButton("Set rules  [Ctrl+R]")
        set_rules.setObjectName("set-rules")
        set_rules.clicked.connect(self.set_rules)
        rules.addWidget(set_rules, 0, 6, 2, 1)
        lay.addLayout(rules)

        form = QFormLayout()
        self.dealers = QLineEdit()
        self.dealers.setObjectName("rotation-dealers")
        self.dealers.setPlaceholderText("dana, eve, gil (in order)")
        self.tables = QLineEdit()
        self.tables.setObjectName("rotation-tables")
        self.tables.setPlaceholderText("CC-1, CC-2 (in order)")
        form.addRow("Rotation &dealers", self.dealers)
        form.addRow("over &tables", self.tables)
        lay.addLayout(form)
        set_rot = QPushButton("Set rotation  [Ctrl+T]")
        set_rot.setObjectName("set-rotation")
        set_rot.clicked.connect(self.set_rotation)
        lay.addWidget(set_rot)

        self._timer = QTimer(self)
        self._timer.setInterval(30_000)
        self._timer.timeout.connect(self.refresh)
        self._timer.start()
        self._fill_rules()
        self.refresh()
        room = self.screen().availableGeometry()  # wide enough for every label, within the screen
        self.resize(min(1180, room.width() - 40), min(720, room.height() - 60))
        self.list.setFocus()

    def _spin(self, name: str, low: int, high: int, value: int) -> QSpinBox:
        box = QSpinBox()
        box.setObjectName(f"rule-{name}")
        box.setRange(low, high)
        box.setValue(value)
        box.setSuffix(" min")
        return box

    def _fill_rules(self) -> None:
        box = getattr(self.svc, "dealer_box", None)
        rules = box.rules() if box is not None else None
        if rules is not None:
            for w, v in ((self.push, rules.push_minutes), (self.after, rules.break_after_minutes),
                         (self.brk, rules.break_minutes), (self.grace, rules.grace_minutes),
                         (self.shift, rules.shift_minutes)):
                w.setValue(v)
            self.tokes.setCurrentText(rules.toke_rule)
        rotation = box.rotation() if box is not None else None
        if rotation is not None and rotation.dealers:
            names = {t.id: t.name for t in self.svc.list_tables()}
            self.dealers.setText(", ".join(rotation.dealers))
            self.tables.setText(", ".join(names.get(t, str(t)) for t in rotation.tables))

    def _say(self, text: str, *, done: bool = False) -> None:
        """A refusal in the red bar, or (``done``) what was just recorded in a plain frame:
        a rotation that was set is not an error."""
        self.message.setObjectName("Note" if done else "Refusal")
        self.message.style().unpolish(self.message)
        self.message.style().polish(self.message)
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def refresh(self) -> None:
        """Read the records again and redraw the list (the chosen dealer stays chosen)."""
        chosen = self.chosen()
        try:
            rows = room_dealers(self.svc)
        except DealerAssistError as exc:
            self._say(str(exc))
            return
        self.rows = rows
        self.list.setRowCount(len(rows))
        for i, row in enumerate(rows):
            for j, text in enumerate(row_texts(row)):
                self.list.setItem(i, j, QTableWidgetItem(text))
        self.list.resizeColumnsToContents()
        names = [r.dealer for r in rows]
        if names:
            self.list.selectRow(names.index(chosen) if chosen in names else 0)

    def texts(self) -> list[list[str]]:
        """What the list shows, row by row (for the floor's eyes and the tests)."""
        def cell(i: int, j: int) -> str:
            item = self.list.item(i, j)
            return item.text() if item is not None else ""

        return [[cell(i, j) for j in range(self.list.columnCount())]
                for i in range(self.list.rowCount())]

    def chosen(self) -> str | None:
        row = self.list.currentRow()
        item = self.list.item(row, 0) if row >= 0 else None
        return item.text() if item is not None else None

    def keyPressEvent(self, event: Any) -> None:
        """Ctrl+R sets the rules, Ctrl+T the rotation, F5 reads again (from any field)."""
        ctrl = bool(event.modifiers() & Qt.KeyboardModifier.ControlModifier)
        if ctrl and event.key() == Qt.Key.Key_R:
            self.set_rules()
        elif ctrl and event.key() == Qt.Key.Key_T:
            self.set_rotation()
        elif event.key() == Qt.Key.Key_F5:
            self.refresh()
        else:
            super().keyPressEvent(event)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.list and event.type() == QEvent.Type.KeyPress:
            key = event.key()  # type: ignore[attr-defined]
            if key in (Qt.Key.Key_B, Qt.Key.Key_O):
                self.send_off(off=key == Qt.Key.Key_O)
                return True
        return super().eventFilter(watched, event)

    def send_off(self, *, off: bool) -> None:
        """The chosen dealer on a break (or off the tables)."""
        who = self.chosen()
        if who is None:
            self._say("choose a dealer first (↑ ↓)")
            return
        try:
            send_on_break(self.svc, self.session, who, off=off)
        except DealerAssistError as exc:
            self._say(str(exc))
            return
        self._say(f"{who} {'is off the tables' if off else 'is on a break'} from now.", done=True)
        self.refresh()

    def set_rules(self) -> None:
        rules = Rules(push_minutes=self.push.value(), break_after_minutes=self.after.value(),
                      break_minutes=self.brk.value(), grace_minutes=self.grace.value(),
                      shift_minutes=self.shift.value(), toke_rule=self.tokes.currentText())
        try:
            set_room_rules(self.svc, self.session, rules)
        except DealerAssistError as exc:
            self._say(str(exc))
            return
        self._say(f"Rules set: push every {rules.push_minutes} min, a {rules.break_minutes} "
                  f"min break after {rules.break_after_minutes} min dealing.", done=True)
        self.refresh()

    def set_rotation(self) -> None:
        dealers = [d for d in self.dealers.text().split(",") if d.strip()]
        tables = [t for t in self.tables.text().split(",") if t.strip()]
        try:
            set_room_rotation(self.svc, self.session, dealers, tables)
        except DealerAssistError as exc:
            self._say(str(exc))
            return
        self._say(f"Rotation set: {len(dealers)} dealers over {len(tables)} tables.", done=True)
        self.refresh()
        self.list.setFocus()

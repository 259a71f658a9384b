"""The drop count of a table's shift, entered at the floor console.

Everything the command line does for a count, from one dialog: register the drop box to its
table, record the drop (the box taken off the table for a shift), and enter what the count team
counted: when the count began and ended (room time), how many boxes they counted, the total
and/or the count by denomination, every counter's full name, a correction's entry and reason,
and a second floor person's approval when a counter approved the shift's voids, misdeals or
disputes. Each is the same service call the CLI makes, written to the chained audit log under
the signed-in person's name; a refusal keeps everything typed.

Keyboard: the dialog opens in the box's field; Tab and Enter go from field to field, Enter in
the last field (or Ctrl+Enter in any) records the count; Alt and the underlined letter jumps to
a field; Alt+R registers the box, Alt+D records the drop.
"""

from __future__ import annotations

from typing import Any

from dealer_assist.errors import BadInput, DealerAssistError
from dealer_assist.money import format_cents, parse_cents
from dealer_assist.ui.dialogs import _Dialog
from dealer_assist.ui.qt import (
    QComboBox,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    Qt,
    QWidget,
)


class CountDialog(_Dialog):
    """Box and shift (register, drop), start and end, boxes, total, denominations, team,
    a correction's entry and reason, and a second approval."""

    def __init__(self, services: Any, session: Any, *, table_id: int, shift_id: int,
                 expected: int | None = None, parent: QWidget | None = None) -> None:
        super().__init__(f"Drop count, shift {shift_id}", parent, ok="Record the count")
        from dealer_assist.services.counts import room_clock_of

        self.services, self.session = services, session
        self.table_id, self.shift_id = table_id, shift_id
        store = services.reads
        table = store.get_table(table_id)
        self.table_name = table.name if table is not None else f"table record {table_id}"
        self.zone = room_clock_of(store).zone
        note = QLabel(
            "What the count team counted from this shift's drop box. Give the total, or the "
            "count by denomination (value x pieces, e.g. 100x3, 25x1, 5x1), or both: they must "
            "agree. A correction is a new entry: the first count stays on the record."
            + (f" The records give {format_cents(expected)} for this shift." if expected
               is not None else "")
        )
        note.setWordWrap(True)
        self.lay.insertWidget(1, note)
        self.setMinimumWidth(980)
        self.box = self._edit("count-box", "the number on the box, e.g. T2-0523")
        self.shift = QComboBox()
        self.shift.setObjectName("count-shift")
        self.shift.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.shift.setMinimumContentsLength(18)
        for s in sorted(store.list_shifts(table_id), key=lambda s: s.id, reverse=True):
            state = "open" if s.closed_at is None else "closed"
            self.shift.addItem(f"shift {s.id}: {s.dealer}, {s.opened_at:%m-%d %H:%M} UTC "
                               f"({state})", s.id)
            self.shift.setItemData(self.shift.count() - 1,
                                   f"opened {s.opened_at:%Y-%m-%d %H:%M} UTC",
                                   Qt.ItemDataRole.ToolTipRole)
        if self.shift.findData(shift_id) < 0:
            self.shift.addItem(f"shift {shift_id}", shift_id)
        self.shift.setCurrentIndex(self.shift.findData(shift_id))
        self._row("Drop &box", (self.box, 1), (f"S&hift at {self.table_name}", self.shift, 2))
        # the box's registration and drop: shown as the records have them, done by Alt+R and
        # Alt+D (buttons that Tab and Enter pass by: Enter always goes on to the next field)
        self.status = QLabel("")
        self.status.setObjectName("count-box-status")
        self.status.setWordWrap(True)
        self.register = QPushButton("&Register box  [Alt+R]")
        self.register.setToolTip(f"register the box to {self.table_name} (logged)")
        self.register.setObjectName("count-register")
        self.drop = QPushButton("Record &drop  [Alt+D]")
        self.drop.setObjectName("count-drop")
        box_row = QHBoxLayout()
        box_row.addStretch(1)
        for b, fn in ((self.register, self.register_box), (self.drop, self.record_drop)):
            b.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
            b.setAutoDefault(False)
            b.clicked.connect(fn)
            box_row.addWidget(b, 0, Qt.AlignmentFlag.AlignTop)
        self.form.addRow(box_row)
        self.form.addRow(self.status)  # the whole width: the registration, the drop, what to do
        hint = "YYYY-MM-DD HH:MM"
        self.started = self._edit("count-started", hint)
        self.ended = self._edit("count-ended", hint)
        self.boxes = QSpinBox()
        self.boxes.setObjectName("count-boxes")
        self.boxes.setRange(1, 999)
        self.boxes.setValue(1)
        self.boxes.setToolTip("how many boxes the team counted in that session")
        self._row(f"Count &started ({self.zone})", (self.started, 3), ("&ended", self.ended, 3),
                  ("bo&xes", self.boxes, 1))
        self.amount = self._edit("count-amount", "e.g. 334.50")
        self.denoms = self._edit("count-denominations", "optional: 100x3, 25x1, 5x1, 0.5x1")
        self._row("&Total counted", (self.amount, 1), ("by de&nomination", self.denoms, 2))
        self.team = self._edit("count-team", "full names, comma separated")
        self._row("Count te&am", (self.team, 1))
        self.corrects = self._edit("count-corrects", "entry number")
        self.reason = self._edit("count-reason", "only for a correction: what was wrong")
        self._row("&Corrects entry", (self.corrects, 1), ("reas&on", self.reason, 3))
        self.approver = self._edit("count-approver", "a second floor person's user name")
        self.approver_pin = self._edit("count-approver-pin", "their PIN")
        self.approver_pin.setEchoMode(QLineEdit.EchoMode.Password)
        self._row("Second a&pproval", (self.approver, 2), ("P&IN", self.approver_pin, 1))
        approval = QLabel("Only when a counter approved the shift's voids or misdeals or ruled "
                          "on its disputes: another floor person types their name and PIN.")
        approval.setObjectName("count-approval-note")
        approval.setProperty("small", "true")
        approval.setWordWrap(True)
        self.form.addRow("", approval)
        self.first_field = self.box
        #: The box registrations and drops on record (:meth:`show_box`), read once.
        self._entries: list[Any] | None = None
        self.box.textChanged.connect(self.show_box)
        self.shift.currentIndexChanged.connect(self.show_box)
        #: After OK: the audit entry the count was recorded as.
        self.entry: Any = None
        #: What was recorded here besides the count: "registered", "dropped" (audit entries).
        self.box_actions: list[tuple[str, Any]] = []
        self.show_box()

    def showEvent(self, event: Any) -> None:
        # room for three lines of the status in the font the theme gives (known once shown)
        self.status.ensurePolished()
        self.status.setMinimumHeight(self.status.fontMetrics().lineSpacing() * 3 + 4)
        self.status.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        layout = self.layout()
        if layout is not None:
            layout.activate()
        self.adjustSize()
        super().showEvent(event)

    def _edit(self, name: str, hint: str) -> QLineEdit:
        edit = QLineEdit()
        edit.setObjectName(name)
        edit.setPlaceholderText(hint)
        return edit

    def _row(self, label: str, first: tuple[QWidget, int],
             *more: tuple[str, QWidget, int]) -> None:
        """A form row: its label (Alt and the underlined letter goes to its first box), then
        more boxes each after a label of its own, in Tab order."""
        row = QHBoxLayout()
        row.addWidget(first[0], first[1])
        for text, w, stretch in more:
            lab = QLabel(text)
            lab.setBuddy(w)
            row.addSpacing(10)
            row.addWidget(lab)
            row.addWidget(w, stretch)
        self.form.addRow(label, row)
        lab0 = self.form.labelForField(row)
        if isinstance(lab0, QLabel):
            lab0.setBuddy(first[0])

    def keyPressEvent(self, event: Any) -> None:
        """Ctrl+Enter records the count from any field (Enter goes on to the next field, and
        records it from the last)."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and \
                event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
            return
        super().keyPressEvent(event)

    def chosen_shift(self) -> int:
        data = self.shift.currentData()
        return int(data) if data is not None else self.shift_id

    # --- the box: registered to the table, dropped for the shift -------------------------------

    def show_box(self) -> None:
        """What the records say of the box typed: registered to which table, dropped for which
        shift (the services decide what may be done; this only reads)."""
        from dealer_assist.services.counts import box_entries

        box = self.box.text().strip()
        shift = self.chosen_shift()
        self.drop.setToolTip(f"the box taken off {self.table_name} for shift {shift}, now "
                             "(logged)")
        if not box:
            self.status.setText("Type the box's number: its registration and drop show here.")
            return
        try:
            if self._entries is None:  # read once; again only after a box action here
                self._entries = list(box_entries(self.services.reads))
        except DealerAssistError as exc:
            self.status.setText(f"The box's records cannot be read now ({exc}); the count "
                                "can still be typed.")
            return
        entries = self._entries
        regs = [b for b in entries if b.box == box and b.shift_id is None]
        if not regs:
            said = (f"{box} is not registered to any table: Register box [Alt+R] registers it "
                    f"to {self.table_name}.")
        else:
            t = self.services.reads.get_table(regs[0].table_id)
            said = f"{box} is registered to {t.name if t else regs[0].table_id} " \
                   f"(entry {regs[0].number})."
        drops = [b for b in entries if b.box == box and b.shift_id == shift]
        if drops:
            d = drops[0]
            said += (f" Dropped for shift {shift} at {d.at:%Y-%m-%d %H:%M} UTC by {d.by} "
                     f"(entry {d.number}).")
        else:
            said += f" No drop recorded for shift {shift}: Record the drop [Alt+D]."
        self.status.setText(said)

    def register_box(self) -> None:
        from dealer_assist.services.counts import register_box

        self._act("registered", lambda: register_box(
            self.services, self.session, table_id=self.table_id, box=self.box.text()))

    def record_drop(self) -> None:
        from dealer_assist.services.counts import record_drop

        self._act("dropped", lambda: record_drop(
            self.services, self.session, shift_id=self.chosen_shift(), box=self.box.text()))

    def _act(self, what: str, fn: Any) -> None:
        """A box action: recorded at once (it stands even if the count is then cancelled);
        a refusal shows in the dialog and keeps what was typed."""
        try:
            entry = fn()
        except DealerAssistError as exc:
            self.show_error(str(exc))
            return
        self.box_actions.append((what, entry))
        self._entries = None
        self.show_error("")
        self.show_box()
        self.box.setFocus(Qt.FocusReason.ShortcutFocusReason)

    # --- the count ---------------------------------------------------------------------------

    def attempt(self) -> None:
        from dealer_assist.services import Approval
        from dealer_assist.services.counts import count_times, record_count
        from dealer_assist.services.room import new_count, parse_denominations

        store = self.services.reads
        corrects_text = self.corrects.text().strip()
        try:
            corrects = int(corrects_text) if corrects_text else None
        except ValueError as exc:
            raise BadInput("Corrects entry: the entry number of the count, e.g. 37") from exc
        started, ended = count_times(store, self.started.text(), self.ended.text())
        amount = self.amount.text().strip()
        shift = store.get_shift(self.chosen_shift())
        count = new_count(
            table_id=shift.table_id if shift is not None else self.table_id,
            shift_id=self.chosen_shift(), box=self.box.text(),
            counted=parse_cents(amount) if amount else None,
            team=self.team.text().split(","),
            denominations=parse_denominations(self.denoms.text()),
            corrects=corrects, reason=self.reason.text(),
            started=started, ended=ended, boxes=self.boxes.value(),
        )
        name = self.approver.text().strip()
        if not name and self.approver_pin.text():
            raise BadInput("Second approval: type the approving floor person's name above "
                           "their PIN")
        approval = Approval(name, self.approver_pin.text()) if name else None
        try:
            self.entry = record_count(self.services, self.session, count, approval=approval)
        except DealerAssistError:
            self.approver_pin.clear()  # a PIN is typed again, never kept after a refusal
            raise

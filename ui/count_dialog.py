"""The drop count of a table's shift, entered at the floor console.

The floor (or an admin) types what the count team counted from the shift's drop box: the box's
number, the total and/or the count by denomination, and every counter's full name. A correction
names the entry it corrects and why; the original stays on the record. The count is written to
the chained audit log under the signed-in floor person's name, like every other input.
"""

from __future__ import annotations

from typing import Any

from dealer_assist.errors import BadInput
from dealer_assist.money import format_cents, parse_cents
from dealer_assist.ui.dialogs import _Dialog
from dealer_assist.ui.qt import QLabel, QLineEdit, Qt, QWidget


class CountDialog(_Dialog):
    """Box, total, denominations, team, and (for a correction) the entry and the reason.

    Enter moves from field to field; Enter in the last field records the count."""

    def __init__(self, services: Any, session: Any, *, table_id: int, shift_id: int,
                 expected: int | None = None, parent: QWidget | None = None) -> None:
        super().__init__(f"Drop count, shift {shift_id}", parent, ok="Record the count")
        self.services, self.session = services, session
        self.table_id, self.shift_id = table_id, shift_id
        note = QLabel(
            "What the count team counted from this shift's drop box. Give the total, or the "
            "count by denomination (value x pieces, e.g. 100x3, 25x1, 5x1), or both: they must "
            "agree. A correction is a new entry: the first count stays on the record."
            + (f" The records give {format_cents(expected)} for this shift." if expected
               is not None else "")
        )
        note.setWordWrap(True)
        self.lay.insertWidget(1, note)
        self.box = self._field("count-box", "Drop box", "the number on the box, e.g. T2-0523")
        self.amount = self._field("count-amount", "Total counted", "e.g. 334.50")
        self.denoms = self._field("count-denominations", "By denomination",
                                  "optional: 100x3, 25x1, 5x1, 1x4, 0.5x1")
        self.team = self._field("count-team", "Count team",
                                "full names, comma separated")
        self.corrects = self._field("count-corrects", "Corrects entry",
                                    "only for a correction: the count's entry number")
        self.reason = self._field("count-reason", "Reason", "only for a correction: what was wrong")
        self.fields = [self.box, self.amount, self.denoms, self.team, self.corrects,
                       self.reason]
        for here, nxt in zip(self.fields, self.fields[1:], strict=False):
            here.returnPressed.connect(nxt.setFocus)
        self.reason.returnPressed.connect(self._try_accept)
        #: After OK: the audit entry the count was recorded as.
        self.entry: Any = None

    def _field(self, name: str, label: str, hint: str) -> QLineEdit:
        edit = QLineEdit()
        edit.setObjectName(name)
        edit.setPlaceholderText(hint)
        self.form.addRow(label, edit)
        return edit

    def keyPressEvent(self, event: Any) -> None:
        """Enter moves to the next field (each field's own signal) and never presses OK."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            event.accept()
            return
        super().keyPressEvent(event)

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        self.box.setFocus()

    def attempt(self) -> None:
        from dealer_assist.services.counts import record_count
        from dealer_assist.services.room import new_count, parse_denominations

        corrects_text = self.corrects.text().strip()
        try:
            corrects = int(corrects_text) if corrects_text else None
        except ValueError as exc:
            raise BadInput("Corrects entry: the entry number of the count, e.g. 37") from exc
        amount = self.amount.text().strip()
        count = new_count(
            table_id=self.table_id, shift_id=self.shift_id, box=self.box.text(),
            counted=parse_cents(amount) if amount else None,
            team=self.team.text().split(","),
            denominations=parse_denominations(self.denoms.text()),
            corrects=corrects, reason=self.reason.text(),
        )
        self.entry = record_count(self.services, self.session, count)

"""The seats of a time-collected table (who sits in, who leaves), the void of a seat or period
mark, and the time to collect."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.services import Approval
from dealer_assist.ui.dialogs.approvals import ApprovalDialog
from dealer_assist.ui.dialogs.base import _Dialog
from dealer_assist.ui.qt import (
    QColor,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    Qt,
    QWidget,
)


class SeatsDialog(_Dialog):
    """Time collection: who sits where. Each seat button marks a player in or out at once
    (a seat_in / seat_out event in the table's record); the digit keys press the buttons."""

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__("Seats: who is playing", parent, ok="Done")
        self.c = controller
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).hide()
        self.status = QLabel("")
        self.status.setObjectName("seats-status")
        self.status.setWordWrap(True)
        self.lay.insertWidget(1, self.status)
        row = QHBoxLayout()
        self.seat_buttons: dict[int, QPushButton] = {}
        for seat in (controller.time.seats if controller.time else ()):
            b = QPushButton("")
            b.setObjectName(f"seat-{seat}")
            b.setCheckable(True)
            b.clicked.connect(lambda _on=False, s=seat: self.toggle(s))
            row.addWidget(b)
            self.seat_buttons[seat] = b
        self.lay.insertLayout(2, row)
        self.void_button = QPushButton("Void a mark\u2026 [V]")
        self.void_button.setObjectName("void-mark")
        self.void_button.setToolTip("Correct a mistaken seat or period mark (it stays in the "
                                    "record, marked void, with your reason)")
        self.void_button.clicked.connect(self.void_mark)
        void_row = QHBoxLayout()
        void_row.addWidget(self.void_button)
        void_row.addStretch(1)
        self.lay.insertLayout(3, void_row)
        self._draw()

    def void_mark(self) -> None:
        """Pick a mark and a reason (the floor approves when money moves), then tick off
        what to give back or collect, seat by seat."""
        self.show_error("")
        if not self.c.time_marks():
            self.show_error("no seat or period mark to void at this table yet")
            return
        dlg = VoidMarkDialog(self.c, self)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            self._draw()
            return
        self._draw()
        t = self.c.time
        if t is not None and t.collect:
            CollectTimeDialog(t.collect, f"Void of mark {dlg.target}: give back or collect",
                              self).exec()

    def toggle(self, seat: int) -> None:
        """Mark ``seat`` in if empty, out if seated; a refusal shows in the dialog."""
        t = self.c.time
        seated = t is not None and seat in t.seated
        self.show_error("")
        if not self.c.set_seated(seat, not seated):
            self.show_error(self.c.last_error)
        self._draw()

    def _draw(self) -> None:
        t = self.c.time
        seated = set(t.seated) if t is not None else set()
        for seat, b in self.seat_buttons.items():
            b.setChecked(seat in seated)
            b.setText(f"Seat {seat}\n{'in' if seat in seated else 'empty'}  [{seat}]"
                      if seat < 10 else f"Seat {seat}\n{'in' if seat in seated else 'empty'}")
        if t is not None:
            who = ", ".join(str(s) for s in sorted(seated)) or "nobody"
            self.status.setText(f"{t.policy.describe()}. Seated: {who}. Press a seat (or its "
                                "number) when a player sits down or leaves.")

    def keyPressEvent(self, event: Any) -> None:
        text = event.text()
        if text.isdigit() and int(text) in self.seat_buttons:
            self.seat_buttons[int(text)].click()
            return
        if text.lower() == "v":
            self.void_button.click()
            return
        super().keyPressEvent(event)


class VoidMarkDialog(_Dialog):
    """Void a seat or period mark: pick it from the table's marks (latest first) and say why.
    When the void gives time back or collects more, the floor approves with their PIN."""

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__("Void a seat or period mark", parent, ok="Void it")
        self.c = controller
        self.target: int | None = None
        note = QLabel("Pick the mark that was wrong (the wrong seat pressed, a period marked "
                      "twice). It stays in the table's record, marked void, with your reason; "
                      "the time account is worked out again without it.")
        note.setWordWrap(True)
        self.lay.insertWidget(1, note)
        self.marks = QListWidget()
        self.marks.setObjectName("void-marks")
        self.marks.setMinimumHeight(220)
        for m in reversed(controller.time_marks()):
            text = f"{m.number}.  {m.at.astimezone(UTC):%H:%M:%S} UTC   {m.what}   by {m.actor}"
            if m.voided_by is not None:
                text += f"   (voided by mark {m.voided_by})"
            item = QListWidgetItem(text)
            item.setData(Qt.ItemDataRole.UserRole, m.number)
            if m.is_void or m.voided_by is not None:  # shown for the record, not to pick
                item.setFlags(Qt.ItemFlag.NoItemFlags)
                item.setForeground(QColor("#8a8f96"))
            self.marks.addItem(item)
        for i in range(self.marks.count()):
            if self.marks.item(i).flags() & Qt.ItemFlag.ItemIsSelectable:
                self.marks.setCurrentRow(i)
                break
        self.lay.insertWidget(2, self.marks)
        self.reason = QLineEdit()
        self.reason.setObjectName("void-mark-reason")
        self.reason.setPlaceholderText("e.g. wrong seat pressed; period marked twice")
        self.form.addRow("Reason", self.reason)
        self.reason.setFocus()

    def ask_approval(self, why: str, target: int, reason: str) -> bool | None:
        """The floor's name and PIN (the dialog the hand void uses), then the void with them:
        None when the floor cancelled, else whether the void was recorded."""

        def submit(approval: Approval) -> tuple[str, bool]:
            if self.c.void_mark(target, reason, approval):
                return "", False
            return self.c.last_error, bool(getattr(self.c, "auth_refused", False))

        dlg = ApprovalDialog(why, self.c.services, self, submit=submit,
                             signed_in=self.c.session.name)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return None
        return not dlg.refusal

    def attempt(self) -> None:
        from dealer_assist.errors import BadInput

        item = self.marks.currentItem()
        if item is None or not item.flags() & Qt.ItemFlag.ItemIsSelectable:
            raise BadInput("pick the mark to void from the list")
        reason = self.reason.text().strip()
        if not reason:
            raise BadInput("a void needs a reason: say what went wrong")
        target = int(item.data(Qt.ItemDataRole.UserRole))
        ok = self.c.void_mark(target, reason)
        if not ok and self.c.approval_asked:
            done = self.ask_approval(self.c.approval_asked, target, reason)
            if done is None:
                raise BadInput("nothing was voided: this void moves money, so the floor must "
                               "approve it with their name and PIN")
            ok = done
        if not ok:
            raise DealerAssistError(self.c.last_error)
        self.target = target


class CollectTimeDialog(_Dialog):
    """After a period mark: what to collect from each seat, ticked off (T or Space)."""

    def __init__(self, collect: Any, title: str, parent: QWidget | None = None) -> None:
        from dealer_assist.ui.panels import TimeChecklist

        super().__init__(title, parent, ok="Collected")
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).hide()
        self.checklist = TimeChecklist()
        self.checklist.show_collect(collect)
        if self.checklist.gives_back:
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Done")
        self.lay.insertWidget(1, self.checklist)

    def keyPressEvent(self, event: Any) -> None:
        if event.text().lower() == "t" or event.text() == " ":
            self.checklist.tick_next()
            return
        super().keyPressEvent(event)

    def attempt(self) -> None:
        from dealer_assist.errors import BadInput

        if not self.checklist.done:
            left = len(self.checklist.rows) - sum(r.check.isChecked() for r in self.checklist.rows)
            if self.checklist.gives_back:
                raise BadInput(f"tick each seat as you give back or collect its time ({left} "
                               "still to do): the void is recorded already")
            raise BadInput(f"tick each seat as you collect its time ({left} still to collect): "
                           "the period is recorded already")

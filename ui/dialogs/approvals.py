"""What the floor signs with a PIN, and why: an approval, the reason for a void, a dispute with
its adjustments."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.money import parse_cents
from dealer_assist.services import Adjustment, Approval, Services
from dealer_assist.ui.dialogs.base import (
    PIN_IN_NAME_BOX,
    NotesEdit,
    _Dialog,
    _pin_edit,
    looks_like_pin,
    mask_pin_like,
)
from dealer_assist.ui.qt import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QWidget,
)


class ApprovalDialog(_Dialog):
    """A floor person's name and PIN, typed at the station.

    With ``submit`` the dialog makes the approved operation itself: a wrong PIN, a locked
    name or someone who may not approve is refused inside the dialog, the PIN box is cleared
    and the dialog stays open, so what was typed before it (a misdeal's reason) is not lost.
    ``submit`` returns ``""`` when done, or the refusal and whether the PIN may be tried again.
    """

    def __init__(self, what: str, services: Services, parent: QWidget | None = None,
                 *, title: str = "Floor approval",
                 submit: Callable[[Approval], tuple[str, bool]] | None = None,
                 signed_in: str = "") -> None:
        super().__init__(title, parent, ok="Approve")
        self.services = services
        self.submit = submit
        self.what = QLabel(what)
        self.what.setObjectName("approval-what")
        self.what.setWordWrap(True)
        self.lay.insertWidget(1, self.what)
        self.name = QComboBox()
        self.name.setEditable(True)
        self.name.setObjectName("approval-name")
        # what is typed never becomes an item of the list (a PIN typed there would stay shown)
        self.name.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        for u in services.floor_people():
            if u.name != signed_in:  # nobody approves their own input: another floor person
                self.name.addItem(u.name)
        self.name.editTextChanged.connect(self._mask_name)
        self.pin = _pin_edit("approval-pin")
        self.form.addRow("Floor", self.name)
        self.form.addRow("PIN", self.pin)
        self.approval: Approval | None = None
        self.refusal = ""

    def _mask_name(self, _text: str) -> None:
        mask_pin_like(self.name.lineEdit())

    def attempt(self) -> None:
        from dealer_assist.errors import BadInput

        name = self.name.currentText().strip()
        if not name:
            self.name.setFocus()
            raise BadInput("the floor person types their name, then their PIN")
        if looks_like_pin(name) and self.name.findText(name) < 0:
            # a PIN in the name box: cleared, never sent, never a try at anyone's PIN
            self.name.setEditText("")
            self.name.setFocus()
            raise BadInput(PIN_IN_NAME_BOX)
        if not self.pin.text():
            self.pin.setFocus()
            raise BadInput("type the floor's PIN (an empty PIN is not a try)")
        self.approval = Approval(name=name, pin=self.pin.text())
        if self.submit is None:
            return
        refusal, again = self.submit(self.approval)
        self.refusal = refusal
        if refusal and again:
            self.approval = None
            self.pin.clear()
            self.pin.setFocus()
            raise DealerAssistError(refusal)


class VoidReasonDialog(_Dialog):
    """Undo: why the last event is voided (kept in the hand's history)."""

    def __init__(
        self, what: str, parent: QWidget | None = None, *, title: str = "Undo the last input",
        ok: str = "Void it", example: str = "e.g. wrong card typed", noun: str = "a void",
    ) -> None:
        super().__init__(title, parent, ok=ok)
        self.noun = noun
        self.what = QLabel(what)
        self.what.setObjectName("void-what")
        self.what.setWordWrap(True)
        self.lay.insertWidget(1, self.what)
        self.reason = QLineEdit()
        self.reason.setObjectName("void-reason")
        self.reason.setPlaceholderText(example)
        self.form.addRow("Reason", self.reason)

    def attempt(self) -> None:
        from dealer_assist.errors import BadInput

        if not self.reason.text().strip():
            raise BadInput(f"{self.noun} needs a reason: say what went wrong")


class DisputeDialog(_Dialog):
    """Notes, the ruling, and optional balancing adjustments, which a second floor person
    approves with their name and PIN (never the signed-in floor person: ``signed_in``).

    With ``submit`` the dispute is recorded from the dialog (``submit(notes, ruling,
    adjustments, approval)``); a refusal, such as an approval by the person entering the
    dispute, is shown in the dialog, which stays open with everything typed but the PIN."""

    def __init__(self, hand_label: str, services: Services, parent: QWidget | None = None, *,
                 signed_in: str = "", submit: Callable[..., Any] | None = None):
        super().__init__(f"Dispute: {hand_label}", parent, ok="Record dispute")
        self.services = services
        self.signed_in = signed_in
        self.submit = submit
        self.notes = NotesEdit()
        self.notes.setTabChangesFocus(True)
        self.notes.setObjectName("dispute-notes")
        self.notes.setFixedHeight(100)
        self.ruling = QLineEdit()
        self.ruling.setObjectName("dispute-ruling")
        self.adjust = QLineEdit()
        self.adjust.setObjectName("dispute-adjust")
        self.adjust.setPlaceholderText("e.g. 3:+4.00, 5:-4.00  (seat:amount; house:amount)")
        self.form.addRow("Notes", self.notes)
        self.form.addRow("Ruling", self.ruling)
        self.form.addRow("Adjustments", self.adjust)
        self.floor = QLineEdit()
        self.floor.setObjectName("dispute-floor")
        self.floor.setPlaceholderText("another floor person" + (
            f" (not {signed_in})" if signed_in else ""))
        self.floor.setAccessibleName("approving floor person's name")
        self.pin = _pin_edit("dispute-pin")
        row = QHBoxLayout()
        row.addWidget(self.floor)
        row.addWidget(self.pin)
        self.form.addRow("Adjustments approved by (a second floor person: name, PIN)", row)
        self.adjustments: list[Adjustment] = []
        self.approval: Approval | None = None
        self.dispute: Any = None

    def attempt(self) -> None:
        from dealer_assist.errors import BadInput

        if not self.notes.toPlainText().strip() or not self.ruling.text().strip():
            raise BadInput("a dispute needs notes and a ruling")
        self.adjustments = parse_adjustments(self.adjust.text())
        if sum(a.amount for a in self.adjustments) != 0:
            raise BadInput("the adjustments must add up to zero: each cent paid comes from "
                           "another seat or the house")
        self.approval = None
        if self.adjustments:
            if not self.floor.text().strip() or not self.pin.text():
                raise BadInput("adjustments need a second floor person's approval: another "
                               "floor person" + (f" (not {self.signed_in})" if self.signed_in
                                                 else "") + " types their name and PIN")
            self.approval = Approval(name=self.floor.text().strip(), pin=self.pin.text())
        if self.submit is not None:
            try:
                self.dispute = self.submit(self.notes.toPlainText(), self.ruling.text(),
                                           self.adjustments, self.approval)
            except DealerAssistError:
                self.pin.clear()  # a PIN is typed again, by whoever may approve
                raise


def parse_adjustments(text: str) -> list[Adjustment]:
    """``3:+4.00, 5:-4, house:0.50`` -> adjustments in cents (seat ``None`` is the house)."""
    from dealer_assist.errors import BadInput

    out: list[Adjustment] = []
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        who, sep, amount = part.partition(":")
        if not sep:
            raise BadInput(f'"{part}": write seat:amount, e.g. 3:+4.00')
        who = who.strip().lower()
        if who == "house":
            seat = None
        elif who.isdigit():
            seat = int(who)
        else:
            raise BadInput(f'"{who}" is not a seat number or "house"')
        out.append(Adjustment(amount=parse_cents(amount.strip().lstrip("+")), seat=seat))
    return out

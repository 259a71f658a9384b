"""Dialogs: sign in (and the first run's admin), add a user, reset a PIN, change my PIN, open a
table and shift, add a table from a settings file, close the shift, the reason for a void, the
floor's PIN, a dispute, the seats of a time-collected table and the void of a seat or period
mark.

Each dialog shows a refused input in a red line inside itself and stays open, so nothing typed
is lost; it returns plain values and the caller makes the service call.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.money import format_cents, parse_cents
from dealer_assist.services import Adjustment, Approval, Services, Session, User
from dealer_assist.ui.qt import (
    QColor,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QEvent,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    Qt,
    QTimer,
    QVBoxLayout,
    QWidget,
)


class _Dialog(QDialog):
    """A dialog with a form, an inline error line and OK/Cancel.

    Keyboard first: it opens with the cursor in its first field (``first_field``, else the
    form's first input), Tab goes through the fields and then OK and Cancel, and Enter in a
    field moves to the next field; Enter in the last field presses OK.
    """

    def __init__(self, title: str, parent: QWidget | None = None, *, ok: str = "OK") -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.setMinimumWidth(560)
        self.first_field: QWidget | None = None
        self._focused_once = False
        self.lay = QVBoxLayout(self)
        self.heading = QLabel(title)
        self.heading.setObjectName("Heading")
        self.heading.setWordWrap(True)
        self.lay.addWidget(self.heading)
        self.form = QFormLayout()
        self.form.setVerticalSpacing(12)
        self.lay.addLayout(self.form)
        self.error = QLabel("")
        self.error.setObjectName("Refusal")
        self.error.setWordWrap(True)
        self.error.hide()
        self.lay.addWidget(self.error)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        okb = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        okb.setText(ok)
        okb.setObjectName("dialog-ok")
        okb.setProperty("role", "primary")
        self.buttons.accepted.connect(self._try_accept)
        self.buttons.rejected.connect(self.cancel)
        self.lay.addWidget(self.buttons)

    #: Asked before Cancel, Escape or the window's close button quit (None: never asked).
    quit_question: str | None = None

    def cancel(self) -> None:
        """Cancel, Escape or the window's close: ask first when it would quit the app."""
        if self.quit_question is None or confirm_quit(self, self.quit_question):
            self.reject()

    def closeEvent(self, event: Any) -> None:
        if event.spontaneous() and self.quit_question is not None and self.isVisible():
            event.ignore()
            self.cancel()
            return
        super().closeEvent(event)

    def input_fields(self) -> list[QWidget]:
        """The inputs a person types into, in the order Tab and Enter go through them."""
        out: list[QWidget] = []

        def take(w: QWidget | None) -> None:
            if w is not None and w.isVisibleTo(self) and w.isEnabled() and (
                    w.focusPolicy() & Qt.FocusPolicy.TabFocus) and not isinstance(w, QLabel):
                out.append(w)

        for row in range(self.form.rowCount()):
            item = self.form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            if item is None:
                continue
            if item.widget() is not None:
                take(item.widget())
            elif (lay := item.layout()) is not None:
                for i in range(lay.count()):
                    if (sub := lay.itemAt(i)) is not None:
                        take(sub.widget())
        return out

    def showEvent(self, event: Any) -> None:
        super().showEvent(event)
        if self._focused_once:
            return
        self._focused_once = True
        fields = self.input_fields()
        chain = [*fields, *[b for b in self.buttons.buttons() if b.isVisibleTo(self)]]
        for a, b in pairwise(chain):
            QWidget.setTabOrder(a, b)
        for f in fields:
            if isinstance(f, QPlainTextEdit):
                f.setTabChangesFocus(True)  # Tab leaves the notes: nothing typed lands there
        first = self.first_field or (fields[0] if fields else None)
        if first is not None:
            first.setFocus(Qt.FocusReason.TabFocusReason)
        for f in fields:
            if isinstance(f, QComboBox) and f.isEditable() and (line := f.lineEdit()) is not None:
                f.installEventFilter(self)  # the key comes to the list box, then its text box
                line.installEventFilter(self)

    def eventFilter(self, watched: Any, event: Any) -> bool:
        """Enter in an editable list's box (the floor's name, a Kill's reason) goes on to the
        next box, or presses the main button in the last one, as in every other box: the box
        itself would only take the text (deselecting a prefilled name), and what is typed next
        (a PIN) would join it."""
        if event.type() == QEvent.Type.KeyPress and event.key() in (Qt.Key.Key_Return,
                                                                    Qt.Key.Key_Enter):
            combo = watched if isinstance(watched, QComboBox) else (
                watched.parentWidget() if isinstance(watched, QLineEdit) else None)
            if isinstance(combo, QComboBox) and combo.isEditable():
                self._enter_or_ok(combo)
                return True
        return super().eventFilter(watched, event)

    def _field_of(self, w: QWidget | None) -> int:
        for i, f in enumerate(self.input_fields()):
            if w is not None and (w is f or f.isAncestorOf(w)):
                return i
        return -1

    def _enter_in_field(self, w: QWidget | None) -> bool:
        """Enter in a field that is not the last: go to the next field (True if it did)."""
        fields = self.input_fields()
        i = self._field_of(w)
        if 0 <= i < len(fields) - 1:
            fields[i + 1].setFocus(Qt.FocusReason.TabFocusReason)
            return True
        return False

    def _enter_or_ok(self, w: QWidget) -> None:
        if not self._enter_in_field(w):
            self.buttons.button(QDialogButtonBox.StandardButton.Ok).click()

    def keyPressEvent(self, event: Any) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and \
                self._enter_in_field(self.focusWidget()):
            return
        if event.key() == Qt.Key.Key_Escape and not event.modifiers():
            self.cancel()
            return
        super().keyPressEvent(event)

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))
        hint = self.sizeHint()  # a wrapped refusal must not squash the boxes: grow to fit
        if text and self.height() < hint.height():
            self.resize(self.width(), hint.height())

    def _try_accept(self) -> None:
        try:
            self.attempt()
        except DealerAssistError as exc:
            self.show_error(str(exc))
            return
        self.accept()

    def attempt(self) -> None:
        """Check the input (and make the service call); raise to keep the dialog open."""


class NotesEdit(QPlainTextEdit):
    """Notes of several lines where Enter goes on to the next box, as in every other field
    (Shift+Enter starts a new line) and Tab leaves them: nothing meant for the next box, such
    as a PIN, is ever typed into the notes."""

    def keyPressEvent(self, event: Any) -> None:
        # the dialog is looked up at the key, not kept: a reference back to it would make a
        # cycle the garbage collector could free under Qt's feet
        dialog = self.window()
        if (event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
                and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier
                and isinstance(dialog, _Dialog)):
            dialog._enter_or_ok(self)
            return
        super().keyPressEvent(event)


#: Said when the floor's name box holds only digits: a PIN typed there by mistake.
PIN_IN_NAME_BOX = "that looks like a PIN: type the floor person's name"


def looks_like_pin(text: str) -> bool:
    """Only digits: what a PIN is, and a name box should not show."""
    return text.isdigit()


def mask_pin_like(edit: QLineEdit | None) -> None:
    """Hide what is in a name box while it is only digits (a PIN typed there by mistake must
    never show on the screen); a name shows as typed. Called by the dialog on each change
    (the box is looked up then: no closure over it is kept on the box)."""
    if edit is None:
        return
    mode = (QLineEdit.EchoMode.Password if looks_like_pin(edit.text().strip())
            else QLineEdit.EchoMode.Normal)
    if edit.echoMode() != mode:
        edit.setEchoMode(mode)


def _pin_edit(name: str) -> QLineEdit:
    e = QLineEdit()
    e.setObjectName(name)
    e.setEchoMode(QLineEdit.EchoMode.Password)
    e.setPlaceholderText("4 to 12 digits")
    return e


class SignInDialog(_Dialog):
    """Name and PIN; a wrong PIN or an unknown name gets one answer, a lockout until when. The
    lockout's message is taken down when the lockout runs out (it never says "locked" after
    its time)."""

    def __init__(self, services: Services, parent: QWidget | None = None) -> None:
        super().__init__("Sign in", parent, ok="Sign in")
        self.services = services
        self.session: Session | None = None
        self.name = QLineEdit()
        self.name.setObjectName("signin-name")
        self.name.textChanged.connect(self._mask_name)
        self.pin = _pin_edit("signin-pin")
        self.form.addRow("Name", self.name)
        self.form.addRow("PIN", self.pin)
        self.lock_timer = QTimer(self)
        self.lock_timer.setSingleShot(True)
        self.lock_timer.timeout.connect(self._lockout_over)
        self._until = datetime.now(UTC)

    quit_question = "Quit Dealer Assist? Nobody is signed in at this station."

    def attempt(self) -> None:
        from dealer_assist.errors import BadInput
        from dealer_assist.services import LockedOut

        self.lock_timer.stop()
        if not self.name.text().strip():  # nothing typed is never a try at anyone's PIN
            self.name.setFocus()
            raise BadInput("type your name, then your PIN")
        if not self.pin.text():
            self.pin.setFocus()
            raise BadInput("type your PIN (an empty PIN is not a try)")
        try:
            self.session = self.services.sign_in(self.name.text().strip(), self.pin.text())
        except LockedOut as exc:
            self._until = exc.until
            left = (exc.until - self.services.clock()).total_seconds()
            self.lock_timer.start(max(0, int(left * 1000)) + 500)
            self.pin.clear()
            self.pin.setFocus()
            raise
        except DealerAssistError:
            self.pin.clear()
            self.pin.setFocus()
            raise

    def _mask_name(self, _text: str) -> None:
        mask_pin_like(self.name)

    def _lockout_over(self) -> None:
        self.show_error(f"The lockout ended at {self._until.astimezone(UTC):%H:%M} UTC: "
                        "sign in again.")


def confirm_quit(parent: QWidget, question: str) -> bool:
    """Ask before quitting; "Go back" is the default, so a stray Enter or Escape returns to
    the dialog. Q (or Alt+Q) quits."""
    from dealer_assist.ui.qt import QMessageBox

    box = QMessageBox(parent)
    box.setWindowTitle("Quit Dealer Assist?")
    box.setText(question)
    quit_b = box.addButton("&Quit", QMessageBox.ButtonRole.DestructiveRole)
    quit_b.setObjectName("confirm-quit")
    back = box.addButton("&Go back", QMessageBox.ButtonRole.RejectRole)
    back.setObjectName("confirm-back")
    box.setDefaultButton(back)
    box.setEscapeButton(back)
    box.exec()
    return box.clickedButton() is quit_b


class FirstAdminDialog(_Dialog):
    """A new database: create the admin (name, full name for signed reports, PIN twice)."""

    def __init__(self, services: Services, parent: QWidget | None = None) -> None:
        super().__init__("First run: create the admin", parent, ok="Create admin")
        self.services = services
        self.user: User | None = None
        self.name = QLineEdit()
        self.name.setObjectName("admin-name")
        self.full = QLineEdit()
        self.full.setObjectName("admin-full")
        self.pin = _pin_edit("admin-pin")
        self.pin2 = _pin_edit("admin-pin2")
        self.form.addRow("User name", self.name)
        self.form.addRow("Full name", self.full)
        self.form.addRow("PIN", self.pin)
        self.form.addRow("PIN again", self.pin2)

    quit_question = ("Quit without creating the admin? Nobody can sign in to this database "
                     "until an admin is created.")

    def attempt(self) -> None:
        _same_pins(self.pin, self.pin2)
        self.user = self.services.create_first_admin(
            name=self.name.text(), full_name=self.full.text(), pin=self.pin.text()
        )


class AddUserDialog(_Dialog):
    """Admin: add a dealer, floor person, auditor or admin (the PIN typed twice)."""

    def __init__(self, services: Services, session: Session, parent: QWidget | None = None):
        super().__init__("Add a user", parent, ok="Add user")
        self.services, self.session = services, session
        self.user: User | None = None
        self.name = QLineEdit()
        self.name.setObjectName("user-name")
        self.full = QLineEdit()
        self.full.setObjectName("user-full")
        self.role = QComboBox()
        self.role.setObjectName("user-role")
        self.role.addItems(["dealer", "floor", "auditor", "admin"])
        self.pin = _pin_edit("user-pin")
        self.pin2 = _pin_edit("user-pin2")
        self.form.addRow("User name", self.name)
        self.form.addRow("Full name", self.full)
        self.form.addRow("Role", self.role)
        self.form.addRow("PIN", self.pin)
        self.form.addRow("PIN again", self.pin2)

    def attempt(self) -> None:
        _same_pins(self.pin, self.pin2)
        self.user = self.services.add_user(
            self.session, name=self.name.text(), full_name=self.full.text(),
            role=self.role.currentText(), pin=self.pin.text(),
        )


def _same_pins(pin: QLineEdit, again: QLineEdit) -> None:
    """Refuse two different PINs; the second box is selected so it can be typed again."""
    from dealer_assist.errors import BadInput

    if pin.text() != again.text():
        again.selectAll()
        again.setFocus()
        raise BadInput("the two PINs differ: type the same PIN twice")


class ResetPinDialog(_Dialog):
    """Admin: a new PIN for someone who forgot theirs (typed twice); it also lifts a lockout."""

    def __init__(self, services: Services, session: Session, user: User,
                 parent: QWidget | None = None) -> None:
        super().__init__(f"Reset the PIN of {user.name}", parent, ok="Set new PIN")
        self.services, self.session, self.user = services, session, user
        self.what = QLabel(f"{user.full_name} ({user.role}). The new PIN replaces the old one "
                           "and lifts a lockout; tell it to them in person.")
        self.what.setObjectName("reset-what")
        self.what.setWordWrap(True)
        self.lay.insertWidget(1, self.what)
        self.pin = _pin_edit("reset-pin")
        self.pin2 = _pin_edit("reset-pin2")
        self.form.addRow("New PIN", self.pin)
        self.form.addRow("New PIN again", self.pin2)

    def attempt(self) -> None:
        _same_pins(self.pin, self.pin2)
        self.services.reset_pin(self.session, self.user.name, self.pin.text())


class ChangePinDialog(_Dialog):
    """Anyone signed in: their own new PIN, giving the old one. A wrong old PIN counts toward
    the lockout like a wrong PIN at sign-in."""

    def __init__(self, services: Services, session: Session,
                 parent: QWidget | None = None) -> None:
        super().__init__("Change my PIN", parent, ok="Change PIN")
        self.services, self.session = services, session
        self.what = QLabel(f"{session.user.full_name} ({session.name}). Three wrong old PINs "
                           "lock the name for 5 minutes.")
        self.what.setObjectName("change-what")
        self.what.setWordWrap(True)
        self.lay.insertWidget(1, self.what)
        self.old = _pin_edit("change-old")
        self.old.setPlaceholderText("your PIN now")
        self.pin = _pin_edit("change-pin")
        self.pin2 = _pin_edit("change-pin2")
        self.form.addRow("Old PIN", self.old)
        self.form.addRow("New PIN", self.pin)
        self.form.addRow("New PIN again", self.pin2)

    def attempt(self) -> None:
        from dealer_assist.errors import BadInput
        from dealer_assist.services import LockedOut, SignInFailed

        if not self.old.text():
            self.old.setFocus()
            raise BadInput("type your PIN now first, then the new one twice")
        _same_pins(self.pin, self.pin2)
        try:
            self.services.change_pin(self.session, self.old.text(), self.pin.text())
        except (SignInFailed, LockedOut):
            self.old.clear()
            self.old.setFocus()
            raise


def settings_lines(game: str, params: dict[str, Any]) -> list[str]:
    """A table's settings as the dialog shows them: the table's amounts formatted, the game's
    own settings as the game describes them (``Game.settings``), the rest as given."""
    lines = [f"game: {game}"]
    for k, v in params.items():
        if k in ("smallest_chip", "buy_in", "limit") and isinstance(v, int):
            lines.append(f"{k}: {format_cents(v)}")
        elif k == "params" and isinstance(v, dict):
            lines.append("game settings: " + ", ".join(
                f"{pk} {_game_setting(game, pk, pv)}" for pk, pv in v.items()))
        elif k == "game":
            continue
        elif k == "seats" and isinstance(v, list):
            lines.append("seats: " + ", ".join(map(str, v)))
        elif k == "stacks" and isinstance(v, dict):
            lines.append("stacks: " + ", ".join(f"{s} {format_cents(int(c))}"
                                                for s, c in v.items()))
        elif k == "fee" and isinstance(v, dict):
            lines.append(f"fee: {_fee_words(v)}")
        elif isinstance(v, dict):
            lines.append(f"{k}: " + ", ".join(f"{pk} {pv}" for pk, pv in v.items()))
        elif isinstance(v, list):
            lines.append(f"{k}: " + ", ".join(map(str, v)))
        else:
            lines.append(f"{k}: {v}")
    return lines


def _fee_words(fee: dict[str, Any]) -> str:
    """The fee as a person reads it ("5% rake, capped at $5, ..."), not as stored."""
    from dealer_assist.fees.schedule import parse_fee_schedule

    try:
        schedule = parse_fee_schedule(fee)
    except DealerAssistError:
        schedule = None
    if schedule is None:
        return ", ".join(f"{k} {_money_or(k, v)}" for k, v in fee.items())
    return schedule.describe()


def _money_or(key: str, value: Any) -> str:
    """A fee's own key as shown (its amounts are cents: the fee's vocabulary, not a game's)."""
    if key in ("amount", "cap", "min_pot") and \
            isinstance(value, int) and not isinstance(value, bool):
        return format_cents(value)
    return str(value)


def _game_setting(game: str, key: str, value: Any) -> str:
    """One of the game's own settings as the game describes it (as given if it does not)."""
    from dealer_assist.engine.registry import get_game

    try:
        described = get_game(game).setting(key)
    except DealerAssistError:
        described = None
    return described.shown(value) if described is not None else str(value)


class OpenTableDialog(_Dialog):
    """Choose a table (its validated settings are shown) and the floor person for the shift."""

    def __init__(self, services: Services, session: Session, parent: QWidget | None = None):
        super().__init__("Open a table and shift", parent, ok="Open shift")
        self.services, self.session = services, session
        self.table = QComboBox()
        self.table.setObjectName("open-table")
        self.floor = QComboBox()
        self.floor.setObjectName("open-floor")
        self.details = QLabel("")
        self.details.setObjectName("open-details")
        self.details.setWordWrap(True)
        self.form.addRow("Table", self.table)
        self.form.addRow("Floor", self.floor)
        self.form.addRow("Settings", self.details)
        self.add = QPushButton("&Add a table from a settings file…  [Alt+A]")
        self.add.setObjectName("open-add")
        self.add.clicked.connect(self._add_table)
        self.add.setVisible(session.role in ("floor", "admin"))
        self.lay.insertWidget(3, self.add)
        self.table.currentIndexChanged.connect(self._show_settings)
        self.table_id: int | None = None
        self.floor_name = ""
        self._fill()
        self._start_at_own_shift()

    def _start_at_own_shift(self) -> None:
        """The list starts at the table where this dealer has a shift open (not the first)."""
        try:
            mine = [s for s in self.services.list_shifts()
                    if s.open and s.dealer == self.session.name]
        except DealerAssistError:
            return
        if mine:
            i = self.table.findData(max(mine, key=lambda s: s.id).table_id)
            if i >= 0:
                self.table.setCurrentIndex(i)

    def _fill(self) -> None:
        self.table.clear()
        for t in self.services.list_tables():
            self.table.addItem(t.name, t.id)
        self.floor.clear()
        for u in self.services.floor_people():
            self.floor.addItem(f"{u.full_name} ({u.name})", u.name)
        self._show_settings()

    def _show_settings(self) -> None:
        tid = self.table.currentData()
        if tid is None:
            self.details.setText("no tables yet: the floor adds one from a settings file")
            return
        try:
            st = self.services.settings(int(tid))
        except DealerAssistError as exc:
            self.details.setText(str(exc))
            return
        shift = self.services.current_shift(int(tid))
        lines = [f"version {st.version}", *settings_lines(st.game, dict(st.document))]
        self.floor.setEnabled(True)
        if shift is not None:
            lines.append(f"open shift: dealer {shift.dealer}, floor {shift.floor}")
            if shift.dealer == self.session.name:  # resumed as it is: its floor stays
                i = self.floor.findData(shift.floor)
                if i >= 0:
                    self.floor.setCurrentIndex(i)
                self.floor.setEnabled(False)
                lines.append(f"Open shift resumes your shift {shift.id} with floor "
                             f"{shift.floor}")
        self.details.setText("\n".join(lines))

    def _add_table(self) -> None:
        from dealer_assist.ui.files import documents_folder

        path, _ = QFileDialog.getOpenFileName(
            self, "Table settings", str(documents_folder()), "Table settings (*.toml *.json)"
        )
        if path:
            try:
                add_table_from_file(self.services, self.session, Path(path))
            except DealerAssistError as exc:
                self.show_error(str(exc))
                return
            self.show_error("")
            self._fill()
            self.table.setCurrentIndex(self.table.count() - 1)

    def attempt(self) -> None:
        from dealer_assist.errors import BadInput

        tid = self.table.currentData()
        if tid is None:
            raise BadInput("choose a table")
        floor = self.floor.currentData()
        if floor is None:
            raise BadInput("no floor person: an admin must add one")
        self.table_id = int(tid)
        self.floor_name = str(floor)


def add_table_from_file(services: Services, session: Session, path: Path) -> int:
    """Read a table settings file (checked as ``table check`` checks it) and add the table."""
    import json
    import tomllib

    from dealer_assist.settings.table import read_table_settings

    read_table_settings(path)  # names the file, the key and the problem if it is wrong
    text = path.read_text(encoding="utf-8")
    doc = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    if "presets_dir" in doc:
        doc["presets_dir"] = str((path.parent / str(doc["presets_dir"])).resolve())
    table = services.add_table(session, doc, name=None if doc.get("name") else path.stem)
    return table.id


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

"""The form every dialog is built on (an inline error line, Enter to the next box, a quit
question), its notes box and the PIN boxes the sign-in and approval dialogs share."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.ui.qt import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QEvent,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    Qt,
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

"""Sign in, the first run's admin, add a user, reset a PIN and change my PIN."""

from __future__ import annotations

from datetime import UTC, datetime

from dealer_assist.errors import DealerAssistError
from dealer_assist.services import Services, Session, User
from dealer_assist.ui.dialogs.base import _Dialog, _pin_edit, mask_pin_like
from dealer_assist.ui.qt import (
    QComboBox,
    QLabel,
    QLineEdit,
    QTimer,
    QWidget,
)


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

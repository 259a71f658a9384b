"""The admin's Users window: everyone who can sign in, with role, active or disabled, a running
lockout and the wrong PINs in a row; add a user, reset a PIN (lifts a lockout), disable or enable.

Keys act on the selected person (↑ ↓ choose): A add, R reset the PIN, D disable, E enable,
F5 read the list again, Esc close. Every change is one call to the services, which check the
role and write the audit log; the list is then read again, so it shows only what is recorded.
A refusal ("ada cannot disable their own name") shows in red in the window.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC

from dealer_assist.errors import DealerAssistError
from dealer_assist.services import MAX_FAILED_PINS, Services, Session, User
from dealer_assist.services.model import UserState
from dealer_assist.ui.dialogs import AddUserDialog, ResetPinDialog
from dealer_assist.ui.qt import (
    QAbstractItemView,
    QDialog,
    QFont,
    QHBoxLayout,
    QHeaderView,
    QKeySequence,
    QLabel,
    QPushButton,
    QShortcut,
    Qt,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)
from dealer_assist.ui.theme import current_theme

COLUMNS = ("User", "Full name", "Role", "Status", "Locked out", "Wrong PINs")


def locked_text(state: UserState) -> str:
    """``until 20:05 UTC`` while a lockout runs, else empty."""
    until = state.locked_until
    return "" if until is None else f"until {until.astimezone(UTC):%H:%M} UTC"


def failed_text(state: UserState) -> str:
    """Wrong PINs in a row toward the next lockout (``2 of 3``), empty when none."""
    return f"{state.failed} of {MAX_FAILED_PINS}" if state.failed else ""


class UsersWindow(QDialog):
    """Every user and their sign-in state; the admin's actions on the selected one."""

    def __init__(self, services: Services, session: Session,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.services, self.session = services, session
        self.states: list[UserState] = []
        self.setWindowTitle("Users")
        self.setObjectName("users-window")
        self.setMinimumSize(900, 520)
        self.resize(1180, 680)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(16, 12, 16, 12)
        lay.setSpacing(10)
        head = QHBoxLayout()
        heading = QLabel("Users")
        heading.setObjectName("Heading")
        head.addWidget(heading)
        self.summary = QLabel("")
        self.summary.setObjectName("Muted")
        head.addWidget(self.summary, 1, Qt.AlignmentFlag.AlignRight)
        lay.addLayout(head)
        self.refusal = QLabel("")
        self.refusal.setObjectName("Refusal")
        self.refusal.setWordWrap(True)
        self.refusal.hide()
        lay.addWidget(self.refusal)
        self.info = QLabel("")
        self.info.setObjectName("Instruction")
        self.info.setWordWrap(True)
        self.info.hide()
        lay.addWidget(self.info)

        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("users")
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        self.table.setStyleSheet("QTableWidget::item { padding: 0 14px 0 8px; }")
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(40)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.table.itemSelectionChanged.connect(self._enable)
        lay.addWidget(self.table, 1)

        bar = QHBoxLayout()
        self.add_button = self._button("Add user…  [A]", "users-add", self.add_user)
        self.reset_button = self._button("Reset PIN…  [R]", "users-reset", self.reset_pin)
        self.disable_button = self._button("Disable  [D]", "users-disable",
                                           lambda: self.set_active(False))
        self.enable_button = self._button("Enable  [E]", "users-enable",
                                          lambda: self.set_active(True))
        self.refresh_button = self._button("Refresh  [F5]", "users-refresh",
                                           lambda: self.reload())
        self.close_button = self._button("Close  [Esc]", "users-close", self.accept)
        for b in (self.add_button, self.reset_button, self.disable_button, self.enable_button):
            bar.addWidget(b)
        bar.addStretch(1)
        bar.addWidget(self.refresh_button)
        bar.addWidget(self.close_button)
        lay.addLayout(bar)
        self.why = QLabel("")
        self.why.setObjectName("users-why")
        self.why.setWordWrap(True)
        lay.addWidget(self.why)
        hint = QLabel("↑ ↓ choose a person; the keys act on the one chosen. A disabled name "
                      "cannot sign in or approve. Times are UTC.")
        hint.setObjectName("Muted")
        hint.setWordWrap(True)
        lay.addWidget(hint)

        for seq, fn in (
            ("A", self.add_user), ("R", self.reset_pin), ("D", lambda: self.set_active(False)),
            ("E", lambda: self.set_active(True)), ("F5", lambda: self.reload()),
        ):
            sc = QShortcut(QKeySequence(seq), self)
            sc.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            sc.activated.connect(fn)
        self.reload()
        self.table.setFocus()

    def _button(self, text: str, name: str, fn: Callable[[], object]) -> QPushButton:
        b = QPushButton(text)
        b.setObjectName(name)
        b.setAutoDefault(False)  # Enter never acts on a person by surprise
        b.clicked.connect(lambda _checked=False: fn())
        return b

    # --- the list ------------------------------------------------------------------------------

    def reload(self, select: str | None = None) -> bool:
        """Read the users again (keeping the chosen one); a refusal leaves the list as it was."""
        keep = select or self.selected_name()
        try:
            states = self.services.user_states(self.session)
        except DealerAssistError as exc:
            self.show_refusal(str(exc))
            return False
        self.states = states
        self.table.setRowCount(len(states))
        theme = current_theme()
        bold = QFont()
        bold.setBold(True)
        for r, s in enumerate(states):
            u = s.user
            me = u.name == self.session.name
            values = (
                f"{u.name}  (you)" if me else u.name, u.full_name, u.role,
                "active" if u.active else "disabled", locked_text(s), failed_text(s),
            )
            for col, v in enumerate(values):
                item = QTableWidgetItem(v)
                item.setData(Qt.ItemDataRole.UserRole, u.name)
                if not u.active:
                    item.setForeground(theme.qcolor("muted"))
                if (col == 4 and s.locked) or (col == 5 and s.failed):
                    item.setForeground(theme.qcolor("danger"))
                    item.setFont(bold)
                self.table.setItem(r, col, item)
        locked = sum(s.locked for s in states)
        disabled = sum(not s.user.active for s in states)
        self.summary.setText(
            f"{len(states)} user{'s' if len(states) != 1 else ''} · {disabled} disabled · "
            f"{locked} locked out   ·   signed in as {self.session.name}"
        )
        names = [s.user.name for s in states]
        row = names.index(keep) if keep in names else (0 if names else -1)
        if row >= 0:
            self.table.selectRow(row)
        self._enable()
        return True

    def selected(self) -> UserState | None:
        rows = self.table.selectionModel().selectedRows()
        if not rows:
            return None
        item = self.table.item(rows[0].row(), 0)
        name = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return next((s for s in self.states if s.user.name == name), None)

    def selected_name(self) -> str | None:
        s = self.selected()
        return s.user.name if s is not None else None

    def select_name(self, name: str) -> None:
        for r, s in enumerate(self.states):
            if s.user.name == name:
                self.table.selectRow(r)

    def _enable(self) -> None:
        """Buttons follow the chosen person; a greyed one says why under the bar."""
        s = self.selected()
        self.reset_button.setEnabled(s is not None)
        mine = s is not None and s.user.name == self.session.name
        can_disable = s is not None and s.user.active and not mine
        self.disable_button.setEnabled(can_disable)
        self.disable_button.setProperty("role", "danger" if can_disable else "")
        self.disable_button.style().unpolish(self.disable_button)
        self.disable_button.style().polish(self.disable_button)
        self.enable_button.setEnabled(s is not None and not s.user.active)
        if s is None:
            self.why.setText("")
        elif mine:
            self.why.setText("This is you: another admin must disable your name.")
        elif s.locked:
            self.why.setText(f"{s.user.name} is locked out {locked_text(s)}: Reset PIN [R] "
                             "lifts the lockout, or wait for it to run out.")
        else:
            self.why.setText("")

    # --- actions -------------------------------------------------------------------------------

    def show_refusal(self, text: str) -> None:
        self.info.hide()
        self.refusal.setText(text)
        self.refusal.setVisible(bool(text))

    def show_info(self, text: str) -> None:
        self.refusal.hide()
        self.info.setText(text)
        self.info.setVisible(bool(text))

    def _chosen(self) -> User | None:
        s = self.selected()
        if s is None:
            self.show_refusal("choose a person in the list first (↑ ↓)")
            return None
        return s.user

    def add_user(self) -> None:
        dlg = AddUserDialog(self.services, self.session, self)
        if dlg.exec() == QDialog.DialogCode.Accepted and dlg.user is not None:
            u = dlg.user
            self.reload(select=u.name)
            self.show_info(f"Added {u.name} ({u.full_name}) as {u.role}.")
        self.table.setFocus()

    def reset_pin(self) -> None:
        user = self._chosen()
        if user is None:
            return
        was_locked = any(s.locked for s in self.states if s.user.name == user.name)
        dlg = ResetPinDialog(self.services, self.session, user, self)
        if dlg.exec() == QDialog.DialogCode.Accepted:
            self.reload(select=user.name)
            self.show_info(f"New PIN set for {user.name}"
                           + (": the lockout is lifted." if was_locked else "."))
        self.table.setFocus()

    def set_active(self, active: bool) -> None:
        """Disable (D) or enable (E) the chosen person; the services refuse what is not
        allowed (your own name, a name already so) and the refusal shows here."""
        user = self._chosen()
        if user is None:
            return
        try:
            self.services.set_user_active(self.session, user.name, active)
        except DealerAssistError as exc:
            self.show_refusal(str(exc))
            return
        if self.reload(select=user.name):
            self.show_info(
                f"{user.name} is enabled: they can sign in again." if active else
                f"{user.name} is disabled: they cannot sign in or approve until enabled "
                "again [E]."
            )

"""The application window: sign in, then the dealer's table and/or the floor console by role.

``open_app(services)`` is what ``dealer-assist`` (no command) calls. The window owns no global
state: each screen gets its controller, and the controllers get the services.
"""

from __future__ import annotations

import gc
import logging
import os
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.services import PERMISSIONS, Services, Session
from dealer_assist.ui.board_menu import install_board_menu
from dealer_assist.ui.controllers import DealerController, FloorController
from dealer_assist.ui.dealer_window import DealerScreen
from dealer_assist.ui.dialogs import ChangePinDialog, FirstAdminDialog, SignInDialog
from dealer_assist.ui.elide import ElidedLabel
from dealer_assist.ui.floor_console import FloorConsole
from dealer_assist.ui.layout_check import watch
from dealer_assist.ui.live_floor import LiveFloor
from dealer_assist.ui.qt import (
    QDialog,
    QHBoxLayout,
    QKeySequence,
    QMainWindow,
    QPushButton,
    QShortcut,
    Qt,
    QTabWidget,
    QVBoxLayout,
    QWidget,
    application,
)
from dealer_assist.ui.room_dialog import install_room_menu
from dealer_assist.ui.startup import note_when_shown
from dealer_assist.ui.station import install_menus, remember_theme
from dealer_assist.ui.theme import THEMES, apply_theme, current_theme, get_theme
from dealer_assist.ui.users_dialog import UsersWindow

log = logging.getLogger("dealer_assist.app")


class MainWindow(QMainWindow):
    """One signed-in person's window: a Table tab (deal) and a Floor tab (review)."""

    def __init__(self, services: Services, session: Session, *, where: str = "") -> None:
        super().__init__()
        self.services = services
        self.session = session
        self.signed_out = False
        self.setWindowTitle(f"Dealer Assist — {services.cardroom_name()}")
        self.resize(1280, 800)
        central = QWidget()
        lay = QVBoxLayout(central)
        lay.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.setContentsMargins(10, 6, 10, 0)
        who = ElidedLabel(f"{session.user.full_name} · {session.role}"
                          + (f"   ·   {where}" if where else ""))
        who.setObjectName("Muted")
        self.who = who
        bar.addWidget(who, 1)
        self.users_button: QPushButton | None = None
        if session.role in PERMISSIONS["users"]:
            self.users_button = QPushButton("Users…  [F8]")
            self.users_button.setObjectName("users")
            self.users_button.setToolTip("everyone who signs in: add, reset a PIN, disable")
            self.users_button.clicked.connect(self.users)
            bar.addWidget(self.users_button)
        self.pin_button = QPushButton("Change my PIN…  [F10]")
        self.pin_button.setObjectName("change-pin")
        self.pin_button.clicked.connect(self.change_pin)
        bar.addWidget(self.pin_button)
        self.theme_button = QPushButton("")
        self.theme_button.setObjectName("theme")
        self.theme_button.clicked.connect(self.toggle_theme)
        bar.addWidget(self.theme_button)
        out = QPushButton("Sign out  [Ctrl+Q]")
        out.setObjectName("sign-out")
        out.clicked.connect(self.sign_out)
        bar.addWidget(out)
        lay.addLayout(bar)
        self.tabs = QTabWidget()
        self.tabs.tabBar().setFocusPolicy(Qt.FocusPolicy.NoFocus)
        lay.addWidget(self.tabs, 1)
        self.setCentralWidget(central)
        self.dealer: DealerScreen | None = None
        self.floor: FloorConsole | None = None
        self.live: LiveFloor | None = None
        if session.role in PERMISSIONS["deal"]:
            self.dealer = DealerScreen(DealerController(services, session))
            self.tabs.addTab(self.dealer, "Table  (Ctrl+1)")
            self.dealer.c.resume()  # after a crash or a restart: the table and hand dealt
        if session.role in PERMISSIONS["review"]:
            self.floor = FloorConsole(FloorController(services, session))
            self.tabs.addTab(self.floor, "Floor  (Ctrl+2)")
            self.live = LiveFloor(services)
            self.live.open_hand.connect(self._open_live_hand)
            self.tabs.addTab(self.live, "Room, live  (Ctrl+3)")
        self.tabs.currentChanged.connect(self._tab_changed)
        if self.dealer is not None:
            self.dealer.take_focus()
        for seq, fn in (
            ("F9", self.toggle_theme),
            ("F8", self.users),
            ("F10", self.change_pin),
            ("Ctrl+Q", self.sign_out),
            ("Ctrl+1", lambda: self.tabs.setCurrentIndex(0)),
            ("Ctrl+2", lambda: self.tabs.setCurrentIndex(min(1, self.tabs.count() - 1))),
            ("Ctrl+3", self._show_live),
        ):
            QShortcut(QKeySequence(seq), self).activated.connect(fn)
        self._label_theme()
        install_room_menu(self, services, session)
        install_board_menu(self, services, session)
        install_menus(self, services, session, where=where)

    def _show_live(self) -> None:
        if self.live is not None:
            self.tabs.setCurrentWidget(self.live)

    def _open_live_hand(self, hand_id: int) -> None:
        """A table's current hand from the live view, in the floor console (read-only)."""
        if self.floor is not None:
            self.tabs.setCurrentWidget(self.floor)
            self.floor.open_hand(hand_id)

    def _tab_changed(self, _i: int) -> None:
        w = self.tabs.currentWidget()
        if w is self.dealer and self.dealer is not None:
            self.dealer.take_focus()
        if w is self.floor and self.floor is not None:
            self.floor.fill_filters()
            self.floor.search()
            self.floor.list.setFocus()  # ↓ ↑ choose a hand at once

    def toggle_theme(self) -> None:
        names = list(THEMES)
        now = current_theme().name
        theme = get_theme(names[(names.index(now) + 1) % len(names)])
        apply_theme(application(), theme)
        self._label_theme()
        try:  # the next start uses it too (unless --theme says otherwise)
            remember_theme(theme.name)
        except DealerAssistError as exc:  # a read-only settings store: the switch still holds
            self.theme_button.setToolTip(str(exc))
            logging.getLogger(__name__).warning("%s", exc)
        if self.dealer is not None:
            self.dealer.refresh()
        if self.floor is not None and self.floor.c.replay is not None:
            self.floor.table.show_view(self.floor.table.view, theme,
                                       revealed=self.floor.c.revealed)

    def _label_theme(self) -> None:
        other = "light" if current_theme().name == "dark" else "dark"
        self.theme_button.setText(f"{other.capitalize()} theme  [F9]")

    def users(self) -> None:
        """The Users window (admins only: F8 does nothing for the others)."""
        if self.users_button is not None:
            UsersWindow(self.services, self.session, self).exec()

    def change_pin(self) -> None:
        ChangePinDialog(self.services, self.session, self).exec()

    def sign_out(self) -> None:
        """Sign out, once no input is kept unrecorded (:meth:`nothing_kept`). A database that
        does not answer cannot take the sign-out's entry: the station's log says so, and the
        sign-in comes back (nothing unrecorded is lost: nothing was kept)."""
        if not self.nothing_kept("sign out"):
            return
        try:
            self.services.sign_out(self.session)
        except DealerAssistError as exc:
            log.warning("%s signed out; not written to the audit log: %s", self.session.name,
                        exc)
        self.signed_out = True
        self.close()

    def closeEvent(self, event: Any) -> None:
        """Quitting (the window closed by the person at the station) asks first about a kept
        input, as signing out does; the app closing its own window does not ask."""
        if event.spontaneous() and not self.signed_out and not self.nothing_kept("quit"):
            event.ignore()
            return
        super().closeEvent(event)

    def nothing_kept(self, leaving: str) -> bool:
        """Whether the dealer may ``leaving`` ("sign out", "quit") now: an input kept for Retry
        is sent, or dropped on purpose with its audit entry written, first (the dealer is
        asked: Retry, Drop or Cancel). False: stay, the kept input still named."""
        if self.dealer is None:
            return True
        screen, c = self.dealer, self.dealer.c
        if c.pending is not None:
            choice = ask_kept(self, c.pending_what, leaving,
                              droppable=c.pending_what != c.UNDROPPABLE)
            if choice == "retry":
                if not c.retry():
                    return False
            elif choice == "drop":
                if not c.drop():
                    return False
            else:
                return False
        if c.drops and not c.write_drops():  # the drop's audit entry, before anyone leaves
            screen.show_refusal(f"{c.last_error}: the dropped input is written to the audit "
                                f"log once the database answers; press Retry [F5], then "
                                f"{leaving}")
            return False
        return True


def ask_kept(parent: QWidget, words: str, leaving: str, *, droppable: bool) -> str:
    """Ask what to do with a kept input before ``leaving``: "retry", "drop" or "cancel"
    (the default: Escape or Enter stays)."""
    from dealer_assist.ui.qt import QMessageBox

    box = QMessageBox(parent)
    box.setObjectName("kept-input")
    box.setWindowTitle("An input is not recorded")
    box.setText(f"Your input is kept, not recorded: {words}.\nSend it (Retry) or drop it "
                f"(Drop, written to the audit log) before you {leaving}.")
    retry = box.addButton("&Retry  [F5]", QMessageBox.ButtonRole.AcceptRole)
    retry.setObjectName("kept-retry")
    drop = box.addButton("&Drop it", QMessageBox.ButtonRole.DestructiveRole)
    drop.setObjectName("kept-drop")
    drop.setEnabled(droppable)
    if not droppable:
        drop.setToolTip("the hand is over: its settlement cannot be dropped")
    stay = box.addButton("&Cancel", QMessageBox.ButtonRole.RejectRole)
    stay.setObjectName("kept-cancel")
    box.setDefaultButton(stay)
    box.setEscapeButton(stay)
    box.exec()
    clicked = box.clickedButton()
    return "retry" if clicked is retry else "drop" if clicked is drop else "cancel"


def sign_in(services: Services) -> Session | None:
    """First run creates the admin; then the sign-in dialog. ``None`` if the person chose to
    quit (both dialogs ask first), and the log says which."""
    if services.needs_first_admin():
        first = FirstAdminDialog(services)
        if first.exec() != QDialog.DialogCode.Accepted:
            log.warning("first run: quit without creating the admin; nobody can sign in to "
                        "%s until one is created", services.cardroom_name())
            return None
        log.info("first run: admin %s created", first.user.name if first.user else "?")
    dlg = SignInDialog(services)
    note_when_shown("sign-in shown")
    if dlg.exec() != QDialog.DialogCode.Accepted or dlg.session is None:
        log.info("sign-in: quit at the sign-in, nobody signed in")
        return None
    return dlg.session


def open_app(services: Services, *, theme: str = "dark", where: str = "") -> int:
    """Run the app until the last window closes; signing out returns to the sign-in."""
    if not logging.getLogger().handlers:  # the station's log: standard error, one line each
        logging.basicConfig(level=logging.INFO, format="dealer-assist: %(message)s")
    app = application()
    app.setApplicationName("Dealer Assist")
    apply_theme(app, get_theme(theme))
    # The floor console builds reports on a worker thread: forking replay processes from a
    # process whose Qt threads are running is unsafe, so in the app reports replay in-process.
    from dealer_assist.reports.build import replays as report_replays

    report_replays.PARALLEL = False
    # the real-window tests read what the font says about every step (ui/layout_check.py)
    check_log = os.environ.get("DEALER_ASSIST_LAYOUT_LOG")
    _watcher = watch(check_log) if check_log else None  # checks while the app runs
    while True:
        session = sign_in(services)
        if session is None:
            return 0
        window = MainWindow(services, session, where=where)
        _show_on_station(window)
        # what start-up built stays: a full collection of the cyclic collector then walks only
        # what the station makes while it runs (tens of ms less, landing on some input)
        gc.collect()
        gc.freeze()
        app.exec()
        gc.unfreeze()  # this window's objects can be collected once it is gone
        signed_out = window.signed_out
        window.deleteLater()
        del window
        if not signed_out:
            return 0


def _show_on_station(window: QMainWindow) -> None:
    """At 1280x800 or smaller the window fills the screen (the frame must not push it off);
    on a bigger screen it opens at 1280x800."""
    screen = window.screen()
    room = screen.availableGeometry() if screen is not None else None
    if room is not None and (room.width() <= 1280 or room.height() <= 820):
        window.showMaximized()
    else:
        window.show()

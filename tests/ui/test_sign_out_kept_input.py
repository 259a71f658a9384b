"""Signing out (or quitting) with an input kept for Retry (issue 41 item 5): the dealer is asked
Retry, Drop or Cancel; the kept input is sent, or dropped with its audit entry written, before
anyone signs out; with the database file replaced, nothing raises."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Argon2PinHasher, Services, StoreUnavailable
from dealer_assist.services.errors import DatabaseFileChanged
from dealer_assist.ui.main_window import MainWindow
from dealer_assist.ui.qt import QPushButton, Qt
from tests.ui.conftest import answer_next_dialog
from tests.ui.test_dealer_champs import open_screen, type_card

LOCKED = "database is locked (another station is writing): retry in a moment"


class DownStore:
    """The real store, except that every write fails while ``down`` is set (with ``error``)."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.down = False
        self.error: Exception = StoreUnavailable(LOCKED)

    def _fail(self) -> None:
        if self.down:
            raise self.error

    def append_event(self, *args: Any, **kwargs: Any) -> Any:
        self._fail()
        return self._store.append_event(*args, **kwargs)

    def add_audit(self, *args: Any, **kwargs: Any) -> Any:
        self._fail()
        return self._store.add_audit(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def _station(qtbot: Any, sqlite_services: Services) -> tuple[DownStore, Services, MainWindow]:
    """A hand dealt at CC-1, then the dealer's window on a store that can go down."""
    screen = open_screen(qtbot, sqlite_services)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    for code in ("7h", "kc", "2s", "9d", "3s", "jc", "jh", "9c"):
        type_card(qtbot, screen, code)
    down = DownStore(sqlite_services.store)
    svc = Services(down, hasher=Argon2PinHasher(fast=True))  # type: ignore[arg-type]
    win = MainWindow(svc, svc.sign_in("dana", "1111"))
    qtbot.addWidget(win, before_close_func=_let_go)
    win.show()
    assert win.dealer is not None and win.dealer.c.now is not None
    return down, svc, win


class _Quit:
    """The close event the window manager sends when the person closes the window (offscreen
    there is no window manager to send one)."""

    ignored = False

    def spontaneous(self) -> bool:
        return True

    def ignore(self) -> None:
        self.ignored = True


def _let_go(win: MainWindow) -> None:
    """At the test's end (passed or not) the window closes without asking."""
    win.signed_out = True


def _keep_a_card(qtbot: Any, down: DownStore, win: MainWindow) -> None:
    """Seat 4 to act: "4c" is its champ (kept, not recorded)."""
    assert win.dealer is not None
    down.down = True
    type_card(qtbot, win.dealer, "4c")
    assert win.dealer.c.pending is not None and win.dealer.banner.isVisible()


def _sign_out(qtbot: Any, win: MainWindow, answer: str | None) -> list[str]:
    """Press Sign out; ``answer`` the kept-input question with its button (None: no question
    is expected). Returns the question's text."""
    said: list[str] = []

    def press(box: Any) -> None:
        said.append(box.text())
        box.findChild(QPushButton, f"kept-{answer}").click()

    if answer is not None:
        answer_next_dialog(qtbot, press)
    qtbot.mouseClick(win.findChild(QPushButton, "sign-out"), Qt.MouseButton.LeftButton)
    return said


def _audit(svc: Services, action: str) -> list[str]:
    return [e.detail for e in svc.store.audit_log(action=action)]


def test_issue_41_5_sign_out_with_a_kept_input_asks_and_drops_only_with_its_entry(
    qtbot: Any, sqlite_services: Services
) -> None:
    """Regression: Ctrl+Q signed out and threw the kept input away, with no warning and no
    input-dropped or sign-out entry."""
    down, svc, win = _station(qtbot, sqlite_services)
    _keep_a_card(qtbot, down, win)
    assert win.dealer is not None
    kept = win.dealer.c.pending_what

    said = _sign_out(qtbot, win, "cancel")
    assert said == [f"Your input is kept, not recorded: {kept}.\nSend it (Retry) or drop it "
                    "(Drop, written to the audit log) before you sign out."]
    assert not win.signed_out and win.dealer.c.pending is not None

    _sign_out(qtbot, win, "retry")  # still down: still kept, still signed in
    assert not win.signed_out and win.dealer.c.pending is not None

    _sign_out(qtbot, win, "drop")  # dropped, but its entry cannot be written yet: stay
    assert not win.signed_out and win.dealer.c.pending is None and win.dealer.c.drops
    assert "written to the audit log once the database answers" in (
        win.dealer.refusal.text())
    assert _audit(svc, "input-dropped") == [] and _audit(svc, "logout") == []

    down.down = False
    _sign_out(qtbot, win, None)  # nothing kept now: the drop's entry, then the sign-out
    assert win.signed_out
    assert _audit(svc, "input-dropped") == [f"not recorded, dropped: {kept}"]
    assert _audit(svc, "logout") == ["dana signed out"]
    hand_id = win.dealer.c.now.hand.id if win.dealer.c.now else 0
    assert len(svc.hand_events(hand_id)) == 9  # the dropped card was never recorded


def test_issue_41_5_retry_sends_the_kept_input_then_signs_out(
    qtbot: Any, sqlite_services: Services
) -> None:
    down, svc, win = _station(qtbot, sqlite_services)
    _keep_a_card(qtbot, down, win)
    assert win.dealer is not None and win.dealer.c.now is not None
    hand_id = win.dealer.c.now.hand.id
    down.down = False
    _sign_out(qtbot, win, "retry")
    assert win.signed_out
    assert len(svc.hand_events(hand_id)) == 10  # the kept input, recorded once
    assert svc.hand_events(hand_id)[-1].body == {"type": "champ", "seat": 4}
    assert _audit(svc, "logout") == ["dana signed out"]


def test_issue_41_5_database_file_replaced_sign_out_and_quit_never_raise(
    qtbot: Any, sqlite_services: Services
) -> None:
    """Regression: with the database file replaced, Ctrl+Q raised DatabaseFileChanged from
    sign_out (a traceback) and the app exited. The kept input holds the window (quit too)
    until it is sent or dropped with its entry; with nothing kept, sign-out goes on without
    its entry (the station's log says so)."""
    down, svc, win = _station(qtbot, sqlite_services)
    down.error = DatabaseFileChanged("the database file room.sqlite3 was replaced by another "
                                     "file")
    _keep_a_card(qtbot, down, win)
    assert win.dealer is not None
    _sign_out(qtbot, win, "drop")
    assert not win.signed_out and win.isVisible()
    quit_ = _Quit()
    win.closeEvent(quit_)  # quitting (the window's close button): not while the entry waits
    assert quit_.ignored and win.isVisible() and not win.signed_out
    win.dealer.c.drops.clear()  # (as if its entry were written)
    _sign_out(qtbot, win, None)  # nothing kept: the file still replaced, no traceback
    assert win.signed_out and not win.isVisible()
    assert _audit(svc, "logout") == []

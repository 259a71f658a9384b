"""The admin's Users window and everyone's Change my PIN, clicked and typed like a person would:
the list with lockouts and wrong PINs, reset a PIN, disable and enable, add a user, and the
refusals shown in red with what was typed kept."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.services import LockedOut, Services, Session, SignInFailed
from dealer_assist.ui.main_window import MainWindow
from dealer_assist.ui.qt import QApplication, Qt
from dealer_assist.ui.users_dialog import COLUMNS, UsersWindow
from tests.ui.conftest import answer_next_dialog, click_ok


def admin(svc: Services) -> Session:
    return svc.sign_in("ada", "9999")


def wrong_pins(svc: Services, name: str, times: int) -> None:
    for _ in range(times):
        with pytest.raises((SignInFailed, LockedOut)):
            svc.sign_in(name, "0000")


def users_window(qtbot: Any, svc: Services, session: Session | None = None) -> UsersWindow:
    w = UsersWindow(svc, session or admin(svc))
    qtbot.addWidget(w)
    w.show()
    w.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)
    return w


def row(w: UsersWindow, name: str) -> tuple[str, ...]:
    """The cells of ``name``'s row, as shown."""
    for r in range(w.table.rowCount()):
        item = w.table.item(r, 0)
        if item is not None and item.data(Qt.ItemDataRole.UserRole) == name:
            return tuple(w.table.item(r, c).text() for c in range(len(COLUMNS)))
    raise AssertionError(f"{name} is not in the list")


def choose(qtbot: Any, w: UsersWindow, name: str) -> None:
    """Go to the top of the list (Ctrl+Home), then down with the arrow key to ``name``."""
    w.table.setFocus()
    qtbot.keyClick(w.table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    for _ in range(w.table.rowCount()):
        if w.selected_name() == name:
            return
        qtbot.keyClick(w.table, Qt.Key.Key_Down)
    assert w.selected_name() == name


def test_users_window_shows_lockout_until_when_and_wrong_pins_on_the_real_store(
    qtbot: Any, sqlite_services: Services
) -> None:
    svc = sqlite_services
    wrong_pins(svc, "dana", 3)
    wrong_pins(svc, "fran", 2)
    until = next(s for s in svc.user_states(admin(svc)) if s.user.name == "dana").locked_until
    assert until is not None
    w = users_window(qtbot, svc)
    assert w.table.rowCount() == 3
    assert row(w, "ada") == ("ada  (you)", "Ada Admin", "admin", "active", "", "")
    assert row(w, "dana") == (
        "dana", "Dana Dealer", "dealer", "active", f"until {until:%H:%M} UTC", "",
    )
    assert row(w, "fran") == ("fran", "Fran Floor", "floor", "active", "", "2 of 3")
    assert w.summary.text().startswith("3 users · 0 disabled · 1 locked out")
    choose(qtbot, w, "dana")
    assert w.why.text().startswith(f"dana is locked out until {until:%H:%M} UTC: Reset PIN [R]")


def test_reset_pin_refuses_two_different_pins_inline_then_lifts_the_lockout(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    wrong_pins(svc, "dana", 3)
    w = users_window(qtbot, svc)
    choose(qtbot, w, "dana")
    assert row(w, "dana")[4].startswith("until ")
    seen: list[str] = []

    def fill(dlg: Any) -> None:
        qtbot.keyClicks(dlg.pin, "5555")
        qtbot.keyClicks(dlg.pin2, "5556")
        click_ok(qtbot, dlg)
        seen.append(dlg.error.text())
        assert dlg.isVisible() and dlg.pin.text() == "5555"  # kept, to fix the second box
        dlg.pin2.clear()
        qtbot.keyClicks(dlg.pin2, "12")
        dlg.pin.clear()
        qtbot.keyClicks(dlg.pin, "12")
        click_ok(qtbot, dlg)
        seen.append(dlg.error.text())
        dlg.pin.clear()
        dlg.pin2.clear()
        qtbot.keyClicks(dlg.pin, "5555")
        qtbot.keyClicks(dlg.pin2, "5555")
        click_ok(qtbot, dlg)

    kinds = answer_next_dialog(qtbot, fill)
    qtbot.keyClick(w.table, Qt.Key.Key_R)
    assert kinds == ["ResetPinDialog"]
    assert seen == ["the two PINs differ: type the same PIN twice", "a PIN is 4 to 12 digits"]
    assert w.info.text() == "New PIN set for dana: the lockout is lifted."
    assert row(w, "dana")[4:] == ("", "")
    assert svc.sign_in("dana", "5555").name == "dana"
    entry = svc.store.audit_log()[-2]  # before dana's sign-in
    assert (entry.actor, entry.action, entry.detail) == (
        "ada", "pin-reset", "new PIN for dana; lockout lifted",
    )


def test_disable_and_enable_with_d_and_e_and_never_your_own_name(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    w = users_window(qtbot, svc)
    choose(qtbot, w, "fran")
    assert w.disable_button.isEnabled() and not w.enable_button.isEnabled()
    qtbot.keyClick(w.table, Qt.Key.Key_D)
    assert row(w, "fran")[3] == "disabled"
    assert w.info.text().startswith("fran is disabled: they cannot sign in or approve")
    assert w.selected_name() == "fran" and w.enable_button.isEnabled()
    assert [u.name for u in svc.floor_people()] == []
    with pytest.raises(SignInFailed):
        svc.sign_in("fran", "2222")
    qtbot.keyClick(w.table, Qt.Key.Key_D)  # again: the services refuse, shown in red
    assert w.refusal.isVisible() and w.refusal.text() == "fran is already disabled"
    qtbot.mouseClick(w.enable_button, Qt.MouseButton.LeftButton)
    assert row(w, "fran")[3] == "active" and not w.refusal.isVisible()
    assert svc.sign_in("fran", "2222").name == "fran"
    actions = [(e.actor, e.action, e.detail) for e in svc.store.audit_log()
               if e.action.startswith("user-")][-2:]
    assert actions == [("ada", "user-disabled", "fran"), ("ada", "user-enabled", "fran")]

    choose(qtbot, w, "ada")
    assert not w.disable_button.isEnabled()
    assert w.why.text() == "This is you: another admin must disable your name."
    qtbot.keyClick(w.table, Qt.Key.Key_D)
    assert w.refusal.text().startswith("ada cannot disable their own name")
    assert row(w, "ada")[3] == "active"


def test_add_user_keeps_what_was_typed_after_a_refusal_and_selects_the_new_name(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    w = users_window(qtbot, svc)
    errors: list[str] = []

    def fill(dlg: Any) -> None:
        qtbot.keyClicks(dlg.name, "devon")
        qtbot.keyClicks(dlg.full, "Devon Marsh")
        dlg.role.setCurrentText("floor")
        qtbot.keyClicks(dlg.pin, "12")
        qtbot.keyClicks(dlg.pin2, "12")
        click_ok(qtbot, dlg)
        errors.append(dlg.error.text())
        assert dlg.name.text() == "devon" and dlg.full.text() == "Devon Marsh"
        dlg.pin.clear()
        dlg.pin2.clear()
        qtbot.keyClicks(dlg.pin, "4321")
        qtbot.keyClicks(dlg.pin2, "4321")
        click_ok(qtbot, dlg)

    answer_next_dialog(qtbot, fill)
    qtbot.keyClick(w.table, Qt.Key.Key_A)
    assert errors == ["a PIN is 4 to 12 digits"]
    assert w.selected_name() == "devon"
    assert row(w, "devon") == ("devon", "Devon Marsh", "floor", "active", "", "")
    assert w.info.text() == "Added devon (Devon Marsh) as floor."
    assert svc.sign_in("devon", "4321").role == "floor"


def test_a_window_left_open_after_the_admin_was_disabled_refuses_in_red(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    ada = admin(svc)
    svc.add_user(ada, name="bea", full_name="Bea Boss", role="admin", pin="7777")
    w = users_window(qtbot, svc, svc.sign_in("bea", "7777"))
    svc.set_user_active(ada, "bea", False)  # at another station
    qtbot.keyClick(w.table, Qt.Key.Key_F5)
    assert w.refusal.text().startswith("bea is disabled: sign out")
    choose(qtbot, w, "bea")
    qtbot.keyClick(w.table, Qt.Key.Key_E)
    assert w.refusal.text().startswith("bea is disabled: sign out")
    assert not next(s for s in svc.user_states(ada) if s.user.name == "bea").user.active


def test_f8_opens_users_for_an_admin_only_and_everyone_has_change_my_pin(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    win = MainWindow(svc, admin(svc))
    qtbot.addWidget(win)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    rows: list[int] = []

    def look(dlg: Any) -> None:
        rows.append(dlg.table.rowCount())
        qtbot.mouseClick(dlg.close_button, Qt.MouseButton.LeftButton)

    kinds = answer_next_dialog(qtbot, look)
    qtbot.keyClick(win, Qt.Key.Key_F8)
    assert kinds == ["UsersWindow"] and rows == [3]
    dealer = MainWindow(svc, svc.sign_in("dana", "1111"))
    qtbot.addWidget(dealer)
    assert dealer.users_button is None and dealer.pin_button.text() == "Change my PIN…  [F10]"


def test_change_my_pin_refusals_inline_then_the_new_pin_signs_in(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    win = MainWindow(svc, svc.sign_in("dana", "1111"))
    qtbot.addWidget(win)
    win.show()
    win.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is win)
    errors: list[str] = []

    def fill(dlg: Any) -> None:
        def attempt(old: str, new: str, again: str) -> None:
            for box, text in ((dlg.old, old), (dlg.pin, new), (dlg.pin2, again)):
                box.clear()
                qtbot.keyClicks(box, text)
            click_ok(qtbot, dlg)
            errors.append(dlg.error.text() if dlg.isVisible() else "accepted")

        attempt("1111", "2468", "2469")  # PINs differ
        attempt("1111", "24", "24")  # too short
        attempt("0000", "2468", "2468")  # wrong old PIN: cleared, the new ones kept
        assert dlg.old.text() == "" and dlg.pin.text() == "2468"
        attempt("1111", "2468", "2468")

    kinds = answer_next_dialog(qtbot, fill)
    qtbot.keyClick(win, Qt.Key.Key_F10)
    assert kinds == ["ChangePinDialog"]
    assert errors == [
        "the two PINs differ: type the same PIN twice",
        "a PIN is 4 to 12 digits",
        "the old PIN is wrong (2 more tries before dana is locked for 5 minutes)",
        "accepted",
    ]
    assert svc.sign_in("dana", "2468").name == "dana"
    assert [e.action for e in svc.store.audit_log() if e.actor == "dana"][-3:] == [
        "pin-change-failed", "pin-changed", "login",
    ]

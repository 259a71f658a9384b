"""Stacks… [F3] on the dealer screen: between hands of a game played with stacks, a rebuy is
typed in and the next hand starts with it (and the audit log has it); during a hand it is
refused; at a table whose game has no stacks the button is hidden."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services, Session
from dealer_assist.ui.qt import QDialog, Qt, QTimer
from dealer_assist.ui.stacks_dialog import StacksDialog
from tests.ui.test_dealer_champs import open_screen


def test_rebuy_typed_in_stacks_dialog_starts_the_next_hand(
    qtbot: Any, sqlite_services: Services
) -> None:
    svc = sqlite_services
    screen = open_screen(qtbot, svc, table="Caro-1")
    assert screen.stacks_button.isVisible()
    seen: dict[str, Any] = {}

    def fill() -> None:
        dlg = next(w for w in screen.findChildren(StacksDialog) if w.isVisible())
        seen["label"] = dlg.form.labelForField(dlg.edits[2]).text()
        dlg.edits[2].setText("abc")
        dlg._try_accept()
        seen["error"] = dlg.error.text()
        dlg.edits[2].setText("1,500")
        dlg._try_accept()

    QTimer.singleShot(0, fill)
    qtbot.keyClick(screen, Qt.Key.Key_F3)
    assert seen["label"].startswith("Seat 2 (has ") and "1,000" in seen["label"]
    assert "seat 2:" in seen["error"] and "not an amount" in seen["error"]
    assert screen.c.rebuys == {2: 150000}
    qtbot.keyClick(screen, Qt.Key.Key_N)
    now = screen.c.now
    assert now is not None and screen.c.rebuys == {}
    stacks = {int(k): v for k, v in dict(now.replay.start.get("stacks")).items()}
    assert stacks == {1: 100000, 2: 150000, 3: 100000}
    admin = svc.sign_in("ada", "9999")
    detail = [e.detail for e in svc.audit_log(admin) if e.action == "stacks"]
    assert len(detail) == 1 and "seat 2 " in detail[0] and "buy-in" in detail[0]
    # during the hand the stacks cannot change
    qtbot.keyClick(screen, Qt.Key.Key_F3)
    assert "between hands" in screen.refusal.text()
    assert not any(isinstance(w, QDialog) and w.isVisible() for w in screen.findChildren(QDialog))


def test_stacks_button_hidden_where_the_game_has_none(
    qtbot: Any, memory_services: Services
) -> None:
    screen = open_screen(qtbot, memory_services, table="CC-1")
    assert not screen.stacks_button.isVisible()
    assert isinstance(screen.c.session, Session)


def test_regression_stacks_cancelled_keeps_the_push_ticks(
    qtbot: Any, sqlite_services: Services
) -> None:
    """F3 (Stacks…) at the push steps, cancelled: the steps ticked stay ticked."""
    svc = sqlite_services
    screen = open_screen(qtbot, svc, table="Caro-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    qtbot.keyClick(screen, "f")
    qtbot.keyClick(screen, "f")
    assert screen.push.isVisible() and len(screen.push.checks) >= 1
    qtbot.keyClick(screen, Qt.Key.Key_T)
    ticked = [c.isChecked() for c in screen.push.checks]
    assert ticked[0]

    def cancel() -> None:
        dlg = next(w for w in screen.findChildren(StacksDialog) if w.isVisible())
        dlg.reject()

    QTimer.singleShot(0, cancel)
    qtbot.keyClick(screen, Qt.Key.Key_F3)
    assert [c.isChecked() for c in screen.push.checks] == ticked
    assert screen.push.progress.text() == f"1 of {len(ticked)} done"
    screen.refresh()  # redrawn (F9, another tab): the same steps keep their ticks
    assert [c.isChecked() for c in screen.push.checks] == ticked
    assert screen.push.done == all(ticked)


def test_regression_seats_this_hand_stay_with_their_table(
    qtbot: Any, sqlite_services: Services
) -> None:
    from tests.ui.conftest import answer_next_dialog, click_ok

    screen = open_screen(qtbot, sqlite_services)
    qtbot.keyClicks(screen.seats_edit, "1 2 3 5 7")

    def other(dlg: Any) -> None:
        dlg.table.setCurrentIndex(dlg.table.findText("Caro-1"))
        answer_next_dialog(qtbot, allow)
        click_ok(qtbot, dlg)

    def allow(dlg: Any) -> None:  # a second table for dana: the floor allows it
        asked.append(dlg.what.text())
        dlg.name.setCurrentText("fran")
        qtbot.keyClicks(dlg.pin, "2222")
        click_ok(qtbot, dlg)

    asked: list[str] = []
    answer_next_dialog(qtbot, other)
    qtbot.mouseClick(screen.open_button, Qt.MouseButton.LeftButton)
    assert asked and "dana already deals CC-1" in asked[0]
    assert screen.c.table is not None and screen.c.table.name == "Caro-1"
    assert screen.seats_edit.text() == ""
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None and screen.c.now.hand.seats == (1, 2, 3)


def test_regression_issue_45_item_11_stacks_cut_while_the_pot_carries_asks_the_floor(
    qtbot: Any, memory_services: Services
) -> None:
    """Issue 45 item 11: at a Guts table with the pot running, Stacks… [F3] cut a seat's
    chips with no approval. Now N (deal) asks a floor person's name and PIN in the approval
    dialog, as the other approvals do, and the hand starts with the cut, approved by fran."""
    from dealer_assist.cards import parse_cards
    from tests.db.test_guts_verify import SETTINGS, act
    from tests.ui.test_any_game_screen import _answer, _enter

    svc = memory_services
    svc.add_table(svc.sign_in("ada", "9999"), {**SETTINGS, "name": "Guts-1"})
    screen = open_screen(qtbot, svc, table="Guts-1")
    dealer = screen.c.session
    now = svc.start_hand(dealer, screen.c.table.id)  # type: ignore[union-attr]
    for kind, seat in (("in", 1), ("in", 2), ("out", 3)):
        now = act(svc, dealer, now, kind, seat)
    now = act(svc, dealer, now, "show", 1, {"cards": parse_cards("Ah Ad")})
    now = act(svc, dealer, now, "show", 2, {"cards": parse_cards("Kh Qd")})
    svc.settle(dealer, now.hand.id)  # seat 1 left with $102; the $3 pot carries
    screen.c.now = None
    screen.c.rebuys = {1: 1000}  # what Stacks… [F3] leaves for the next hand
    seen: list[str] = []

    def approve(dlg: Any) -> None:
        seen.append(dlg.what.text())
        field = dlg.focusWidget()
        qtbot.keyClicks(field, "fran")
        qtbot.keyClick(field, Qt.Key.Key_Tab)
        qtbot.keyClicks(dlg.pin, "2222")
        _enter(qtbot, dlg)

    _answer("ApprovalDialog", approve)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert seen and "seat 1 $10 ($102 kept from the last hand)" in seen[0]
    now = screen.c.now
    assert now is not None and now.replay.start.get("stacks")["1"] == 1000
    assert svc.store.audit_log(action="approval")[-1].actor == "fran"
    assert svc.store.audit_log(action="stacks")[-1].detail.endswith("approved by fran")

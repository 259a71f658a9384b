"""Keyboard first (offscreen): every dialog opens with the cursor in its first field, Enter
goes from field to field, an empty PIN is never a try, Tab never types into a dispute's notes,
and table settings read as words. The real-window tests (tests/ui/realwindow) drive the same
with real keystrokes."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Action
from dealer_assist.engine.inputs import Choice, Rows
from dealer_assist.services import Services
from dealer_assist.ui import dialogs as d
from dealer_assist.ui.inputs import InputDialog
from dealer_assist.ui.qt import Qt, QWidget
from tests.ui.test_dealer_champs import open_screen


def opened(qtbot: Any, dlg: Any) -> QWidget:
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.wait(1)
    return dlg.focusWidget()


def test_every_dialog_opens_on_its_first_field(qtbot: Any, memory_services: Services) -> None:
    svc = memory_services
    ada = svc.sign_in("ada", "9999")
    dana = svc.sign_in("dana", "1111")
    for dlg, first in (
        (d.SignInDialog(svc), "signin-name"), (d.FirstAdminDialog(svc), "admin-name"),
        (d.AddUserDialog(svc, ada), "user-name"),
        (d.ResetPinDialog(svc, ada, dana.user), "reset-pin"),
        (d.ChangePinDialog(svc, dana), "change-old"),
        (d.OpenTableDialog(svc, dana), "open-table"),
        (d.ApprovalDialog("approve", svc), "approval-name"),
        (d.VoidReasonDialog("void event 3"), "void-reason"),
        (d.DisputeDialog("hand 1", svc), "dispute-notes"),
        (InputDialog(Action("set", "rows", seat=1, input=Rows())), "rows-front"),
        (InputDialog(Action("natural", "which", seat=1,
                            input=Choice("kind", ("dragon", "six-pairs")))), "kind"),
    ):
        w = opened(qtbot, dlg)
        names = {w.objectName(), w.parent().objectName() if w.parent() else ""}
        assert first in names, (type(dlg).__name__, w.objectName())
        dlg.close()


def test_regression_enter_after_the_name_goes_to_the_pin_and_empty_pin_is_no_try(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    dlg = d.SignInDialog(svc)
    opened(qtbot, dlg)
    qtbot.keyClicks(dlg.name, "dana")
    qtbot.keyClick(dlg.name, Qt.Key.Key_Return)
    assert dlg.pin.hasFocus() and dlg.isVisible() and not dlg.error.isVisible()
    qtbot.keyClick(dlg.pin, Qt.Key.Key_Return)  # an empty PIN
    assert dlg.isVisible() and dlg.error.text() == "type your PIN (an empty PIN is not a try)"
    assert not [e for e in svc.store.audit_log() if e.action == "login-failed"]
    qtbot.keyClicks(dlg.pin, "1111")
    qtbot.keyClick(dlg.pin, Qt.Key.Key_Return)
    assert dlg.session is not None and dlg.session.name == "dana"


def test_regression_tab_and_enter_leave_the_dispute_notes(qtbot: Any,
                                                         memory_services: Services) -> None:
    """Tabbing through put the floor's PIN into the notes in plain text."""
    dlg = d.DisputeDialog("hand 1", memory_services)
    opened(qtbot, dlg)
    qtbot.keyClicks(dlg.notes, "short call")
    qtbot.keyClick(dlg.notes, Qt.Key.Key_Tab)
    assert dlg.ruling.hasFocus() and dlg.notes.toPlainText() == "short call"
    qtbot.keyClick(dlg.ruling, Qt.Key.Key_Tab, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(dlg.notes, Qt.Key.Key_Return)
    assert dlg.ruling.hasFocus() and "\n" not in dlg.notes.toPlainText()
    for _ in range(3):
        qtbot.keyClick(dlg.focusWidget(), Qt.Key.Key_Return)
    assert dlg.pin.hasFocus()
    qtbot.keyClicks(dlg.pin, "2222")
    assert "2222" not in dlg.notes.toPlainText() + dlg.ruling.text() + dlg.floor.text()


def test_table_settings_read_as_words_not_python_dicts() -> None:
    lines = d.settings_lines("caro-holdem", {
        "seats": [1, 2, 3], "smallest_chip": 100, "params": {"unit": 1000, "ante": 100},
        "fee": {"kind": "rake", "percent": "5", "cap": 500, "min_pot": 1000,
                "jackpot": {"amount": 100, "min_pot": 2000}},
    })
    assert "fee: 5% rake, capped at $5, from pots of $10 or more, no flop no drop; jackpot " \
        "drop $1 from pots of $20 or more" in lines
    assert not [line for line in lines if "{" in line or "'" in line]


def test_seats_this_hand_by_keyboard(qtbot: Any, memory_services: Services) -> None:
    screen = open_screen(qtbot, memory_services)
    qtbot.keyClick(screen, "s")
    assert screen.focusWidget() is screen.seats_edit
    qtbot.keyClicks(screen.seats_edit, "1 2 3")
    qtbot.keyClick(screen.seats_edit, Qt.Key.Key_Return)
    assert screen.c.now is not None and screen.c.now.replay.start.seats == (1, 2, 3)


def test_regression_a_pin_typed_in_the_floor_name_box_never_shows(
    qtbot: Any, memory_services: Services
) -> None:
    """The floor's name box in an approval was plain text: a PIN typed there by mistake
    showed on the dealer's screen. All digits are masked as typed, and OK clears them with a
    message instead of trying them (no try is counted, nothing is sent)."""
    svc = memory_services
    sent: list[Any] = []
    dlg = d.ApprovalDialog("approve", svc, submit=lambda a: (sent.append(a), ("", False))[1])
    opened(qtbot, dlg)
    line = dlg.name.lineEdit()
    line.selectAll()
    qtbot.keyClicks(line, "22")
    assert line.echoMode() == line.EchoMode.Password and "2" not in line.displayText()
    qtbot.keyClicks(line, "22")
    assert "2222" not in line.displayText() and line.echoMode() == line.EchoMode.Password
    qtbot.keyClick(line, Qt.Key.Key_Return)  # on to the PIN box
    qtbot.keyClicks(dlg.pin, "2222")
    qtbot.mouseClick(dlg.buttons.button(dlg.buttons.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)
    assert dlg.isVisible() and sent == []
    assert dlg.error.text() == d.PIN_IN_NAME_BOX
    assert dlg.name.currentText() == "" and dlg.name.findText("2222") < 0
    assert not [e for e in svc.store.audit_log() if "failed" in e.action]
    qtbot.keyClicks(line, "fran")  # a name shows as typed
    assert line.echoMode() == line.EchoMode.Normal and line.displayText() == "fran"
    qtbot.mouseClick(dlg.buttons.button(dlg.buttons.StandardButton.Ok),
                     Qt.MouseButton.LeftButton)
    assert not dlg.isVisible() and [a.name for a in sent] == ["fran"]


def test_a_pin_typed_in_the_sign_in_name_box_is_masked(
    qtbot: Any, memory_services: Services
) -> None:
    dlg = d.SignInDialog(memory_services)
    opened(qtbot, dlg)
    qtbot.keyClicks(dlg.name, "1111")
    assert dlg.name.echoMode() == dlg.name.EchoMode.Password
    assert "1111" not in dlg.name.displayText()
    dlg.name.clear()
    qtbot.keyClicks(dlg.name, "dana")
    assert dlg.name.echoMode() == dlg.name.EchoMode.Normal and dlg.name.displayText() == "dana"

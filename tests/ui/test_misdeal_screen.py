"""The dealer calls a misdeal from the screen (F4): a reason, the floor's PIN, then the push
checklist gives every chip back; the next hand keeps the button."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services
from dealer_assist.ui.qt import Qt
from tests.ui.test_dealer_champs import open_screen, type_card


def test_misdeal_from_the_screen_returns_every_chip_with_the_floors_pin(
    qtbot: Any, memory_services: Services
) -> None:
    from tests.ui.conftest import answer_next_dialog, click_ok

    svc = memory_services
    screen = open_screen(qtbot, svc)
    qtbot.keyClicks(screen.seats_edit, "1 2 3")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    type_card(qtbot, screen, "9d")
    type_card(qtbot, screen, "5c")
    assert screen.misdeal_button.isEnabled()

    def reason(dlg: Any) -> None:
        assert dlg.windowTitle() == "Misdeal"
        assert "Every chip put in goes back" in dlg.what.text()
        click_ok(qtbot, dlg)  # no reason: refused inline, the dialog stays
        assert dlg.error.text() == "a misdeal needs a reason: say what went wrong"
        qtbot.keyClicks(dlg.reason, "card exposed on the deal")
        answer_next_dialog(qtbot, approve)
        click_ok(qtbot, dlg)

    def approve(dlg: Any) -> None:
        assert "approves the misdeal of hand 1 (card exposed on the deal)" in dlg.what.text()
        dlg.name.setCurrentText("fran")
        qtbot.keyClicks(dlg.pin, "2222")
        click_ok(qtbot, dlg)

    answer_next_dialog(qtbot, reason)
    qtbot.keyClick(screen, Qt.Key.Key_F4)
    assert screen.c.now is not None and screen.c.now.hand.status == "settled"
    assert screen.message.text().startswith("Misdeal (card exposed on the deal)")
    assert screen.push.isVisible()
    steps = [s.text for s in screen.c.settlement.steps]  # type: ignore[union-attr]
    assert steps == ["Misdeal: return $12 to seat 1", "Misdeal: return $12 to seat 2",
                     "Misdeal: return $12 to seat 3"]
    assert screen.history.texts()[-1] == "4. misdeal: card exposed on the deal"
    assert not screen.misdeal_button.isEnabled()
    assert screen.table.view is not None and screen.table.view.to_act is None
    audit = svc.store.audit_log(action="misdeal")
    assert len(audit) == 1 and "approved by fran" in audit[0].detail

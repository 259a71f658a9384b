"""A floor approval is someone else's: a floor person signed in at the station (dealing) never
approves their own void, misdeal or shift close, in the services and at the screen. And the
approval dialog is typed straight through: the name (prefilled and selected), Enter, the PIN,
Enter; the PIN never lands in the name box."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.services import Approval, NotAllowed, Services, Session
from dealer_assist.ui.controllers import DealerController
from dealer_assist.ui.dealer_window import DealerScreen
from dealer_assist.ui.qt import Qt
from tests.ui.conftest import CC_TABLE, answer_next_dialog, click_ok
from tests.ui.test_dealer_champs import sign_in, type_card


def _second_floor(svc: Services) -> None:
    admin = svc.sign_in("ada", "9999")
    svc.add_user(admin, name="gus", full_name="Gus Floor", role="floor", pin="3333")


def _table_and_hand(svc: Services, session: Session) -> tuple[int, int]:
    table = next(t for t in svc.list_tables() if t.name == "CC-1")
    shift = svc.open_shift(session, table.id, floor="gus")
    now = svc.start_hand(session, table.id, seats=(1, 2, 3))
    return shift.id, now.hand.id


def test_rule_no_one_approves_their_own_misdeal_void_or_shift_close(
    memory_services: Services,
) -> None:
    svc = memory_services
    _second_floor(svc)
    fran = svc.sign_in("fran", "2222")  # a floor person dealing
    shift_id, hand_id = _table_and_hand(svc, fran)
    own = Approval(name="fran", pin="2222")
    with pytest.raises(NotAllowed, match="cannot approve their own misdeal of hand 1"):
        svc.misdeal(fran, hand_id, "card exposed", approval=own)
    assert svc.hand_now(hand_id).replay.misdeal is None
    refused = svc.store.audit_log(action="approval-refused")
    assert [(a.actor, a.detail) for a in refused] == [
        ("fran", "fran tried to approve their own misdeal of hand 1")]
    assert svc.store.audit_log(action="approval") == []
    svc.misdeal(fran, hand_id, "card exposed", approval=Approval(name="gus", pin="3333"))
    svc.settle(fran, hand_id)
    last = svc.hand_now(hand_id).replay.steps[-1].number
    with pytest.raises(NotAllowed, match="cannot approve their own void of event"):
        svc.void(fran, hand_id, last, "typed wrong", approval=Approval(name="FRAN", pin="2222"))
    with pytest.raises(NotAllowed, match="cannot approve their own closing shift"):
        svc.close_shift(fran, shift_id, approval=own)
    assert svc.shift(shift_id).open
    closed = svc.close_shift(fran, shift_id, approval=Approval(name="gus", pin="3333"))
    assert closed.closed_floor == "gus"
    # the refusals never counted as wrong PINs: fran can still sign in with no lockout
    assert svc.sign_in("fran", "2222").name == "fran"


def test_regression_approval_typed_through_and_never_by_the_one_signed_in(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    _second_floor(svc)
    session = sign_in(qtbot, svc, "fran", "2222")
    screen = DealerScreen(DealerController(svc, session))
    qtbot.addWidget(screen)
    screen.resize(1280, 800)
    screen.show()

    def open_table(dlg: Any) -> None:
        dlg.table.setCurrentIndex(dlg.table.findText("CC-1"))
        dlg.floor.setCurrentIndex(dlg.floor.findData("gus"))
        click_ok(qtbot, dlg)

    answer_next_dialog(qtbot, open_table)
    qtbot.mouseClick(screen.open_button, Qt.MouseButton.LeftButton)
    qtbot.keyClicks(screen.seats_edit, "1 2 3")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    type_card(qtbot, screen, "9d")
    seen: dict[str, Any] = {}

    def reason(dlg: Any) -> None:
        qtbot.keyClicks(dlg.reason, "card exposed")
        answer_next_dialog(qtbot, approve)
        qtbot.keyClick(dlg.reason, Qt.Key.Key_Return)

    def approve(dlg: Any) -> None:
        names = [dlg.name.itemText(i) for i in range(dlg.name.count())]
        seen["names"] = names
        # the own name typed anyway: refused in the dialog, which stays open
        dlg.name.setEditText("fran")
        qtbot.keyClick(dlg.name.lineEdit(), Qt.Key.Key_Return)
        assert dlg.focusWidget() is dlg.pin
        qtbot.keyClicks(dlg.pin, "2222")
        qtbot.keyClick(dlg.pin, Qt.Key.Key_Return)
        seen["own"] = dlg.error.text()
        assert dlg.isVisible()
        # prefilled and selected, Enter goes on to the PIN, the PIN stays out of the name
        dlg.name.setCurrentIndex(0)
        dlg.name.lineEdit().selectAll()
        dlg.name.setFocus()
        qtbot.keyClick(dlg.name, Qt.Key.Key_Return)  # where the key goes: the list box
        assert dlg.focusWidget() is dlg.pin
        qtbot.keyClicks(dlg.focusWidget(), "3333")
        seen["name"] = dlg.name.currentText()
        qtbot.keyClick(dlg.pin, Qt.Key.Key_Return)

    answer_next_dialog(qtbot, reason)
    qtbot.keyClick(screen, Qt.Key.Key_F4)
    assert seen["names"] == ["gus"]  # the one signed in is not offered
    assert "fran is signed in at this station and cannot approve their own misdeal" in seen["own"]
    assert seen["name"] == "gus"
    assert screen.c.now is not None and screen.c.now.replay.misdeal is not None
    audit = svc.store.audit_log(action="misdeal")
    assert len(audit) == 1 and "approved by gus" in audit[0].detail


def test_rule_one_dealer_one_table_unless_the_floor_allows_more(
    memory_services: Services,
) -> None:
    from dealer_assist.services import ApprovalRequired

    svc = memory_services
    _second_floor(svc)
    tables = {t.name: t.id for t in svc.list_tables()}
    dana = svc.sign_in("dana", "1111")
    svc.open_shift(dana, tables["CC-1"], floor="fran")
    with pytest.raises(ApprovalRequired, match="dana already deals CC-1"):
        svc.open_shift(dana, tables["Caro-1"], floor="fran")
    assert svc.current_shift(tables["Caro-1"]) is None
    shift = svc.open_shift(dana, tables["Caro-1"], floor="fran",
                           approval=Approval(name="gus", pin="3333"))
    assert shift.dealer == "dana"
    allowed = svc.store.audit_log(action="approval")
    assert allowed[-1].actor == "gus"
    assert allowed[-1].detail == "dana dealing Caro-1 as well as CC-1"
    # a floor person dealing two tables cannot allow it themselves
    fran = svc.sign_in("fran", "2222")
    svc.add_table(svc.sign_in("ada", "9999"), {**CC_TABLE, "name": "CC-2"})
    svc.add_table(svc.sign_in("ada", "9999"), {**CC_TABLE, "name": "CC-3"})
    tables = {t.name: t.id for t in svc.list_tables()}
    svc.open_shift(fran, tables["CC-2"], floor="gus")
    with pytest.raises(NotAllowed, match="fran is signed in at this station and cannot approve"):
        svc.open_shift(fran, tables["CC-3"], floor="gus",
                       approval=Approval(name="fran", pin="2222"))
    assert svc.current_shift(tables["CC-3"]) is None

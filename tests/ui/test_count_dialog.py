"""The floor console's drop count: the dialog opens on its first field, Enter moves field to
field, a total that disagrees with the denominations is refused in the dialog, and a count and
its correction are recorded in the audit log under the floor's name (the first one kept)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_assist.services import Services
from dealer_assist.services.counts import counts, register_box
from dealer_assist.ui.qt import Qt
from tests.ui.conftest import answer_next_dialog, click_ok
from tests.ui.test_floor_console import console, deal_example


def test_floor_console_records_a_drop_count_and_a_correction(
    qtbot: Any, sqlite_services: Services, examples_dir: Path
) -> None:
    svc = sqlite_services
    hand_id = deal_example(svc, examples_dir)
    shift_id = svc.hand(hand_id).shift_id
    # the box is registered to its table first (dealer-assist drop-box): a count of an
    # unregistered box is refused
    register_box(svc, svc.sign_in("fran", "2222"), table_id=svc.hand(hand_id).table_id,
                 box="CC1-0001")
    w = console(qtbot, svc)
    w.search()
    w.select_row(0)
    assert w.count_button.isEnabled()
    focus: list[Any] = []
    errors: list[str] = []

    def fill(dlg: Any) -> None:
        got = dlg.focusWidget()
        focus.append(got.objectName() if got is not None else "")
        qtbot.keyClicks(dlg.box, "CC1-0001")
        qtbot.keyClick(dlg.box, Qt.Key.Key_Return)  # Enter: to the next field, not OK
        after = dlg.focusWidget()
        focus.append(after.objectName() if after is not None else "")
        errors.append(dlg.error.text())
        qtbot.keyClicks(dlg.amount, "40")
        qtbot.keyClicks(dlg.denoms, "5x7")
        qtbot.keyClicks(dlg.team, "Cora Cashier, Carl Counter")
        click_ok(qtbot, dlg)
        errors.append(dlg.error.text())  # $35 by denomination is not the $40 typed
        dlg.amount.clear()
        qtbot.keyClicks(dlg.amount, "35")
        click_ok(qtbot, dlg)

    answer_next_dialog(qtbot, fill)
    qtbot.mouseClick(w.count_button, Qt.MouseButton.LeftButton)
    assert focus == ["count-box", "count-amount"]
    assert errors == ["", "the denominations add up to $35, not the $40 entered: check the count"]
    (first,) = counts(svc.store)
    assert (first.by, first.count.box, first.count.counted, first.count.team) == (
        "fran", "CC1-0001", 3500, ("Cora Cashier", "Carl Counter"))
    assert first.count.shift_id == shift_id and dict(first.count.denominations) == {500: 7}

    def correct(dlg: Any) -> None:
        qtbot.keyClicks(dlg.box, "CC1-0001")
        qtbot.keyClicks(dlg.amount, "36")
        qtbot.keyClicks(dlg.team, "Cora Cashier, Carl Counter")
        qtbot.keyClicks(dlg.corrects, str(first.number))
        qtbot.keyClicks(dlg.reason, "a $1 chip stuck in the slot")
        qtbot.keyClick(dlg.reason, Qt.Key.Key_Return)  # Enter in the last field records it

    answer_next_dialog(qtbot, correct)
    qtbot.mouseClick(w.count_button, Qt.MouseButton.LeftButton)
    entries = counts(svc.store)
    assert [(e.count.counted, e.count.corrects) for e in entries] == [
        (3500, None), (3600, first.number)]
    assert "Count recorded" in w.last_message

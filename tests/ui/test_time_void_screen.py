"""Voiding a seat or period mark from the Seats dialog: "Void a mark… [V]", pick the mark and a
reason, the floor approves when money moves, then the give-back checklist. The dialog is driven
as the dealer screen opens it (F6), over the dealer's controller."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_assist.services import Services
from dealer_assist.ui.controllers import DealerController
from dealer_assist.ui.dialogs import SeatsDialog
from dealer_assist.ui.qt import Qt
from tests.ui.conftest import answer_next_dialog, click_ok
from tests.ui.test_time_collection import TIME_TABLE


def _open(svc: Services) -> DealerController:
    admin = svc.sign_in("ada", "9999")
    table = svc.add_table(admin, TIME_TABLE)
    c = DealerController(svc, svc.sign_in("dana", "1111"))
    assert c.open_table(table.id, "fran") and c.time is not None
    return c


def _marked_twice(svc: Services) -> DealerController:
    """A time table with seats 1 and 4 seated and the period marked twice by mistake."""
    c = _open(svc)
    for seat in (1, 4):
        assert c.set_seated(seat, True)
    assert c.collect_time() and c.collect_time()
    return c


def _seats(qtbot: Any, c: DealerController) -> SeatsDialog:
    dlg = SeatsDialog(c)
    qtbot.addWidget(dlg)
    dlg.show()
    return dlg


def test_void_mark_button_gives_back_a_period_marked_twice_with_floor_approval(
    qtbot: Any, memory_services: Services, tmp_path: Path
) -> None:
    svc = memory_services
    c = _marked_twice(svc)
    table_id = c.table.id if c.table else 0
    seen: list[str] = []
    listed: list[list[str]] = []
    shown: list[list[str]] = []
    errors: list[str] = []

    def safely(step: Any) -> Any:
        def run(dlg: Any) -> None:
            seen.append(type(dlg).__name__)
            try:
                step(dlg)
            except AssertionError as exc:  # close it, or the test would wait forever
                errors.append(f"{type(dlg).__name__}: {exc}")
                dlg.reject()
        return run

    def pick(dlg: Any) -> None:
        listed.append([dlg.marks.item(i).text().split("   ")[1]
                       for i in range(dlg.marks.count())])
        click_ok(qtbot, dlg)  # no reason yet: refused inside the dialog
        assert dlg.error.text() == "a void needs a reason: say what went wrong"
        dlg.reason.setText("period marked twice")
        dlg.grab().save(str(tmp_path / "void-mark.png"))
        answer_next_dialog(qtbot, safely(approve))
        click_ok(qtbot, dlg)

    def approve(dlg: Any) -> None:
        assert "seat 1 give back $5; seat 4 give back $5" in dlg.what.text()
        dlg.name.setCurrentText("fran")
        dlg.pin.setText("2222")
        answer_next_dialog(qtbot, safely(give_back))
        click_ok(qtbot, dlg)

    def give_back(dlg: Any) -> None:
        shown.append(dlg.checklist.texts())
        assert dlg.checklist.total.text() == "In all: $10 back out of the drop box to the seats"
        click_ok(qtbot, dlg)
        assert "give back or collect its time (2 still to do)" in dlg.error.text()
        qtbot.keyClick(dlg, "t")
        qtbot.keyClick(dlg, "t")
        assert dlg.checklist.progress.text() == "2 of 2 done"
        dlg.grab().save(str(tmp_path / "give-back.png"))
        click_ok(qtbot, dlg)

    seats = _seats(qtbot, c)
    assert seats.void_button.text() == "Void a mark\u2026 [V]"
    answer_next_dialog(qtbot, safely(pick))
    qtbot.keyClick(seats, "v")
    assert errors == []
    assert seen == ["VoidMarkDialog", "ApprovalDialog", "CollectTimeDialog"]
    assert listed == [["period 2", "period 1", "seat 4 in", "seat 1 in"]]
    assert shown == [["Seat 1: give back $5 (period 1)", "Seat 4: give back $5 (period 1)"]]
    assert [(x.seat, x.amount) for x in svc.time_collections(table_id)][-2:] == [
        (1, -500), (4, -500)]
    (entry,) = svc.store.audit_log(action="void")
    assert entry.detail.endswith("approved by fran")
    assert c.time is not None and c.time.period == 1
    assert "Seated: 1, 4" in seats.status.text()
    assert (tmp_path / "give-back.png").stat().st_size > 0


def test_void_mark_refusal_shows_in_the_dialog_and_nothing_is_stored(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    c = _open(svc)
    assert c.set_seated(2, True) and c.set_seated(2, False)
    table_id = c.table.id if c.table else 0
    errors: list[str] = []

    def pick(dlg: Any) -> None:
        dlg.marks.setCurrentRow(1)  # mark 1, seat 2 in: its seat_out depends on it
        dlg.reason.setText("wrong seat")
        click_ok(qtbot, dlg)
        errors.append(dlg.error.text())
        dlg.reject()

    seats = _seats(qtbot, c)
    answer_next_dialog(qtbot, pick)
    qtbot.mouseClick(seats.void_button, Qt.MouseButton.LeftButton)
    assert len(errors) == 1 and errors[0].startswith(
        "without mark 1 (seat 2 in), mark 2 (seat 2 out at ")
    assert errors[0].endswith("would make no sense (seat 2 is not seated): void mark 2 first")
    assert len(svc.store.table_level_events(table_id)) == 2

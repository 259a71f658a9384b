"""Time collection on the dealer screen: seats marked in and out in the Seats dialog, then
Collect time lists what each seat pays as a checklist; all recorded through the services."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services
from dealer_assist.ui.qt import Qt
from tests.ui.conftest import CARO_TABLE, answer_next_dialog, click_ok
from tests.ui.test_dealer_champs import open_screen

TIME_TABLE = {**CARO_TABLE, "name": "Time-1", "seats": 4,
              "fee": {"kind": "time", "amount": 500, "period_minutes": 30}}


def test_rule_time_collection_seats_and_period_checklist_through_the_screen(
    qtbot: Any, memory_services: Services
) -> None:
    svc = memory_services
    admin = svc.sign_in("ada", "9999")
    svc.add_table(admin, TIME_TABLE)
    screen = open_screen(qtbot, svc, table="Time-1")
    assert screen.seats_button.isVisible() and screen.collect_button.isVisible()
    table_id = screen.c.table.id if screen.c.table else 0

    def seat_players(dlg: Any) -> None:
        qtbot.mouseClick(dlg.seat_buttons[1], Qt.MouseButton.LeftButton)
        qtbot.mouseClick(dlg.seat_buttons[3], Qt.MouseButton.LeftButton)
        qtbot.mouseClick(dlg.seat_buttons[3], Qt.MouseButton.LeftButton)  # left again
        qtbot.keyClick(dlg, "4")
        assert "Seated: 1, 4" in dlg.status.text()
        click_ok(qtbot, dlg)

    seen = answer_next_dialog(qtbot, seat_players)
    qtbot.mouseClick(screen.seats_button, Qt.MouseButton.LeftButton)
    assert seen == ["SeatsDialog"]
    assert svc.time_now(table_id).seated == (1, 4)
    assert [r.body["type"] for r in svc.store.table_level_events(table_id)] == [
        "seat_in", "seat_in", "seat_out", "seat_in"]
    assert screen.time_label.text() == "Time: period 0 · seated 1, 4"

    shown: list[list[str]] = []

    def tick(dlg: Any) -> None:
        try:
            check(dlg)
        except AssertionError as exc:  # close it, or the test would wait for it forever
            shown.append([f"failed: {exc}"])
            dlg.reject()

    def check(dlg: Any) -> None:
        shown.append(dlg.checklist.texts())
        click_ok(qtbot, dlg)  # refused: nothing ticked yet
        assert "2 still to collect" in dlg.error.text()
        qtbot.mouseClick(dlg.checklist.rows[0].label, Qt.MouseButton.LeftButton)
        qtbot.keyClick(dlg, "t")
        assert dlg.checklist.progress.text() == "2 of 2 collected"
        assert dlg.checklist.total.text() == "In all: $10 into the drop box"
        click_ok(qtbot, dlg)

    seen = answer_next_dialog(qtbot, tick)
    qtbot.mouseClick(screen.collect_button, Qt.MouseButton.LeftButton)
    assert seen == ["CollectTimeDialog"]
    assert shown == [["Seat 1: collect $5 (period 1)", "Seat 4: collect $5 (period 1)"]]
    lines = svc.time_collections(table_id)
    assert [(x.seat, x.amount, x.detail) for x in lines] == [(1, 500, "time"), (4, 500, "time")]
    assert screen.time_label.text() == "Time: period 1 · seated 1, 4"


def test_seat_controls_are_hidden_at_a_table_without_time_collection(
    qtbot: Any, memory_services: Services
) -> None:
    screen = open_screen(qtbot, memory_services)
    assert not screen.seats_button.isVisible() and not screen.collect_button.isVisible()
    qtbot.keyClick(screen, Qt.Key.Key_F6)
    table_id = screen.c.table.id if screen.c.table else 0
    assert memory_services.store.table_level_events(table_id) == []

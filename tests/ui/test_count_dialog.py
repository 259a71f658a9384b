"""The floor console's drop count, driven by keyboard only from the focus it opens with: the box
registered (Alt+R) and dropped (Alt+D) from the dialog, the count's start and end in room time,
the boxes counted, a refusal that keeps what was typed, Ctrl+Enter and Enter in the last field
to record; a correction keeps the first count; a second floor person's approval for a counter
who ruled on the shift's dispute. Every step is the services' own (the CLI's), in the audit
log under the floor's name."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from services.support import Clock

from dealer_assist.services import Services
from dealer_assist.services.counts import box_entries, counts, room_time
from dealer_assist.ui.qt import Qt
from tests.ui.conftest import answer_next_dialog
from tests.ui.test_floor_console import console, deal_example

ALT = Qt.KeyboardModifier.AltModifier
CTRL = Qt.KeyboardModifier.ControlModifier


def _enter(qtbot: Any, dlg: Any, times: int = 1) -> None:
    for _ in range(times):
        qtbot.keyClick(dlg.focusWidget() or dlg, Qt.Key.Key_Return)


def _type(qtbot: Any, dlg: Any, text: str) -> None:
    """Typed where the dialog's focus is (no widget named: the keyboard alone)."""
    qtbot.keyClicks(dlg.focusWidget(), text)


def _active(qtbot: Any, dlg: Any) -> None:
    """As a window manager does for a dialog that opens: it is the active window (the Alt
    keys are the window's shortcuts)."""
    dlg.activateWindow()
    qtbot.waitUntil(dlg.isActiveWindow)


#: The room's day: the hand dealt and the box dropped at 05:00 UTC, the count typed for
#: 06:10 to 06:40 and entered at 08:00 (a count runs after its drop and before its entry).
DEALT = datetime(2026, 11, 24, 5, 0, tzinfo=UTC)
ENTERED = datetime(2026, 11, 24, 8, 0, tzinfo=UTC)


def _focus(dlg: Any) -> str:
    w = dlg.focusWidget()
    return w.objectName() if w is not None else ""


def test_floor_registers_drops_and_counts_a_box_by_keyboard_alone(
    qtbot: Any, sqlite_services: Services, examples_dir: Path, tmp_path: Path
) -> None:
    svc = sqlite_services
    svc.clock = clock = Clock(DEALT)
    hand_id = deal_example(svc, examples_dir)
    hand = svc.hand(hand_id)
    w = console(qtbot, svc)
    w.search()
    w.select_row(0)
    assert w.count_button.isEnabled()
    seen: dict[str, Any] = {}

    def fill(dlg: Any) -> None:
        _active(qtbot, dlg)
        seen["first focus"] = _focus(dlg)
        _type(qtbot, dlg, "CC1-0001")
        seen["status before"] = dlg.status.text()
        qtbot.keyClick(dlg, Qt.Key.Key_R, ALT)  # register the box to CC-1
        qtbot.waitUntil(lambda: "is registered to" in dlg.status.text())
        qtbot.keyClick(dlg, Qt.Key.Key_D, ALT)  # and record its drop for the hand's shift
        qtbot.waitUntil(lambda: "Dropped for" in dlg.status.text())
        clock.now = ENTERED
        seen["status after"] = dlg.status.text()
        seen["focus after the box"] = _focus(dlg)
        order = []
        for text in ("", "2026-11-24 06:10", "2026-11-24 05:40", "", "40", "5x7",
                     "Cora Cashier, Carl Counter", "", "", "", ""):
            _enter(qtbot, dlg)
            order.append(_focus(dlg))
            if text:
                _type(qtbot, dlg, text)
        seen["order"] = order
        _enter(qtbot, dlg)  # Enter in the last field (the PIN) records: refused
        seen["refusal 1"] = dlg.error.text()
        seen["kept"] = (dlg.box.text(), dlg.started.text(), dlg.amount.text(), dlg.team.text())
        qtbot.keyClick(dlg, Qt.Key.Key_E, ALT)  # to the end time, by its mnemonic
        seen["alt e"] = _focus(dlg)
        qtbot.keyClick(dlg.focusWidget(), Qt.Key.Key_A, CTRL)
        _type(qtbot, dlg, "2026-11-24 06:40")
        qtbot.keyClick(dlg.focusWidget(), Qt.Key.Key_Return, CTRL)
        seen["refusal 2"] = dlg.error.text()
        qtbot.keyClick(dlg, Qt.Key.Key_T, ALT)
        qtbot.keyClick(dlg.focusWidget(), Qt.Key.Key_A, CTRL)
        _type(qtbot, dlg, "35")
        seen["shot"] = dlg.grab().toImage()
        qtbot.keyClick(dlg.focusWidget(), Qt.Key.Key_Return, CTRL)

    answer_next_dialog(qtbot, fill)
    qtbot.mouseClick(w.count_button, Qt.MouseButton.LeftButton)
    seen["shot"].save(str(tmp_path / "count-dialog.png"))
    assert seen["first focus"] == "count-box"
    assert "CC1-0001 is not registered to any table" in seen["status before"]
    assert seen["status after"].startswith("CC1-0001 is registered to CC-1 (entry ")
    assert f"Dropped for shift {hand.shift_id} at " in seen["status after"]
    assert seen["focus after the box"] == "count-box"
    assert seen["order"] == [
        "count-shift", "count-started", "count-ended", "count-boxes", "count-amount",
        "count-denominations", "count-team", "count-corrects", "count-reason",
        "count-approver", "count-approver-pin"]
    assert seen["refusal 1"] == "the count's end time is before its start time: check both"
    assert seen["kept"] == ("CC1-0001", "2026-11-24 06:10", "40", "Cora Cashier, Carl Counter")
    assert seen["alt e"] == "count-ended"
    assert seen["refusal 2"] == ("the denominations add up to $35, not the $40 entered: "
                                 "check the count")
    boxes = [b for b in box_entries(svc.store) if b.box == "CC1-0001"]
    assert [(b.by, b.table_id, b.shift_id) for b in boxes] == [
        ("fran", hand.table_id, None), ("fran", hand.table_id, hand.shift_id)]
    (first,) = counts(svc.store)
    c = first.count
    assert (first.by, c.box, c.counted, c.team, c.shift_id, c.boxes) == (
        "fran", "CC1-0001", 3500, ("Cora Cashier", "Carl Counter"), hand.shift_id, 1)
    assert dict(c.denominations) == {500: 7}
    assert (c.started, c.ended) == (room_time(svc.store, "2026-11-24 06:10"),
                                    room_time(svc.store, "2026-11-24 06:40"))
    assert c.started is not None and c.started.tzinfo is not None
    assert w.last_message == (
        f"Drop box registered as audit entry {boxes[0].number}. Drop box dropped as audit entry "
        f"{boxes[1].number}. Count recorded for shift {hand.shift_id} as audit entry "
        f"{first.number}.")

    def correct(dlg: Any) -> None:  # a correction: names the first count and why
        _type(qtbot, dlg, "CC1-0001")
        for text in ("", "2026-11-24 07:00", "2026-11-24 07:20", "2", "36", "",
                     "Cora Cashier, Carl Counter", str(first.number),
                     "a $1 chip stuck in the slot"):
            _enter(qtbot, dlg)
            if text:
                if _focus(dlg) == "count-boxes":
                    qtbot.keyClick(dlg.focusWidget(), Qt.Key.Key_A, CTRL)
                _type(qtbot, dlg, text)
        _enter(qtbot, dlg, 3)  # past the approval's two fields: Enter in the last records

    answer_next_dialog(qtbot, correct)
    qtbot.mouseClick(w.count_button, Qt.MouseButton.LeftButton)
    entries = counts(svc.store)
    assert [(e.count.counted, e.count.corrects, e.count.boxes) for e in entries] == [
        (3500, None, 1), (3600, first.number, 2)]
    assert entries[1].count.ended == room_time(svc.store, "2026-11-24 07:20")
    assert w.last_message.startswith("Count recorded")


def test_counter_who_ruled_on_the_shifts_dispute_needs_a_second_floor_approval(
    qtbot: Any, sqlite_services: Services, examples_dir: Path
) -> None:
    """The count team must be independent of the shift's rulings: Fran Floor ruled on its
    dispute, so her count needs a second floor person's name and PIN (not hers)."""
    svc = sqlite_services
    svc.clock = clock = Clock(DEALT)
    hand_id = deal_example(svc, examples_dir)
    fran = svc.sign_in("fran", "2222")
    ada = svc.sign_in("ada", "9999")
    svc.add_user(ada, name="flo", full_name="Florence Park", role="floor", pin="3333")
    svc.record_dispute(fran, hand_id, notes="seat 2 says the card was exposed",
                       ruling="hand stands", adjustments=[])
    w = console(qtbot, svc)
    w.search()
    w.select_row(0)
    seen: dict[str, Any] = {}

    def fill(dlg: Any) -> None:
        _active(qtbot, dlg)
        _type(qtbot, dlg, "CC1-0002")
        qtbot.keyClick(dlg, Qt.Key.Key_R, ALT)
        qtbot.waitUntil(lambda: "is registered to" in dlg.status.text())
        clock.now = ENTERED
        qtbot.keyClick(dlg, Qt.Key.Key_S, ALT)
        _type(qtbot, dlg, "2026-11-24 06:10")
        qtbot.keyClick(dlg, Qt.Key.Key_E, ALT)
        _type(qtbot, dlg, "2026-11-24 06:30")
        qtbot.keyClick(dlg, Qt.Key.Key_T, ALT)
        _type(qtbot, dlg, "12")
        qtbot.keyClick(dlg, Qt.Key.Key_A, ALT)
        _type(qtbot, dlg, "Fran Floor, Carl Counter")
        qtbot.keyClick(dlg.focusWidget(), Qt.Key.Key_Return, CTRL)
        seen["refusal"] = dlg.error.text()
        qtbot.keyClick(dlg, Qt.Key.Key_P, ALT)
        _type(qtbot, dlg, "flo")
        _enter(qtbot, dlg)
        _type(qtbot, dlg, "0000")  # a wrong PIN: refused, the PIN box emptied, the rest kept
        _enter(qtbot, dlg)
        seen["wrong pin"] = (dlg.error.text(), dlg.approver_pin.text(), dlg.approver.text(),
                             dlg.team.text())
        qtbot.keyClick(dlg, Qt.Key.Key_I, ALT)
        _type(qtbot, dlg, "3333")
        _enter(qtbot, dlg)

    answer_next_dialog(qtbot, fill)
    qtbot.mouseClick(w.count_button, Qt.MouseButton.LeftButton)
    assert seen["refusal"].startswith("Fran Floor approved voids, misdeals or disputes of shift")
    assert "Second approval in the drop count" in seen["refusal"]
    assert seen["wrong pin"][1:] == ("", "flo", "Fran Floor, Carl Counter")
    assert seen["wrong pin"][0]
    (c,) = counts(svc.store)
    assert c.count.independence == "Florence Park (flo)" and c.count.counted == 1200


def test_regression_box_records_read_once_and_an_unreadable_store_said_not_raised(
    qtbot: Any, sqlite_services: Services, examples_dir: Path, monkeypatch: Any
) -> None:
    """The box's status line reads the registrations and drops once per dialog (not on every
    key typed), and a store that cannot be read says so in the line, the count still typable."""
    from dealer_assist.services import counts as counts_module
    from dealer_assist.services.errors import StoreUnavailable

    svc = sqlite_services
    deal_example(svc, examples_dir)
    w = console(qtbot, svc)
    w.search()
    w.select_row(0)
    reads: list[int] = []
    real = counts_module.box_entries

    def counted(store: Any) -> Any:
        reads.append(1)
        return real(store)

    monkeypatch.setattr(counts_module, "box_entries", counted)

    def once(dlg: Any) -> None:
        _active(qtbot, dlg)
        _type(qtbot, dlg, "CC1-0001")
        assert "not registered to any table" in dlg.status.text()
        dlg.reject()

    answer_next_dialog(qtbot, once)
    qtbot.mouseClick(w.count_button, Qt.MouseButton.LeftButton)
    assert len(reads) == 1  # eight keys typed, the records read once
    reads.clear()

    def unreadable(store: Any) -> Any:
        reads.append(1)
        raise StoreUnavailable("the database file is locked by another program")

    monkeypatch.setattr(counts_module, "box_entries", unreadable)
    seen: dict[str, Any] = {}

    def fill(dlg: Any) -> None:
        _active(qtbot, dlg)
        _type(qtbot, dlg, "CC1")
        seen["status"] = dlg.status.text()
        seen["box"] = dlg.box.text()
        seen["reads"] = len(reads)
        dlg.reject()

    answer_next_dialog(qtbot, fill)
    qtbot.mouseClick(w.count_button, Qt.MouseButton.LeftButton)
    assert seen["box"] == "CC1"
    assert "cannot be read now" in seen["status"] and "locked by another program" in \
        seen["status"]
    assert seen["reads"] == 3  # each key still tries (nothing read yet), none raised

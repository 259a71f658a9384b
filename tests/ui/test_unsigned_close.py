"""A shift closed at a station without the room's key: the dealer reads that the shift IS
closed, and that the floor should run ``keys init``; nothing in red says the close failed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_assist.db.bootstrap import open_services
from dealer_assist.services import Argon2PinHasher
from dealer_assist.ui.qt import Qt
from tests.ui.conftest import answer_next_dialog, click_ok, furnish
from tests.ui.test_dealer_champs import open_screen


def test_closing_a_shift_without_a_room_key_says_it_is_closed_and_to_run_keys_init(
        qtbot: Any, tmp_path: Path) -> None:
    svc = open_services(f"sqlite:///{tmp_path / 'room.sqlite3'}",
                        hasher=Argon2PinHasher(fast=True), key=tmp_path / "no-key.pem")
    furnish(svc)
    screen = open_screen(qtbot, svc)
    shift_id = screen.c.shift.id if screen.c.shift else 0

    def right(dlg: Any) -> None:
        dlg.name.setCurrentText("fran")
        qtbot.keyClicks(dlg.pin, "2222")
        click_ok(qtbot, dlg)

    answer_next_dialog(qtbot, right)
    qtbot.mouseClick(screen.close_button, Qt.MouseButton.LeftButton)
    assert not svc.shift(shift_id).open
    assert not screen.refusal.isVisible() and screen.refusal.text() == ""
    note = screen.note.text()
    assert screen.note.isVisible()
    assert note.startswith(f"Shift {shift_id} is closed. No checkpoint was signed at this "
                           "station: this station has no room key (none at ")
    assert note.endswith("The floor should run `dealer-assist keys init` (once for the room) "
                         "and copy the room's key to this station, so the next close is signed.")
    assert [e.action for e in svc.store.audit_log()][-2:] == ["shift-closed", "no-checkpoint"]
    svc.store.close()

"""After a crash or a restart the dealer signs in and the station is where it was: the table
and shift open, the hand being dealt on the screen, the open-table list at that table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dealer_assist.services import Argon2PinHasher, Services
from dealer_assist.ui.qt import Qt
from tests.ui.conftest import furnish
from tests.ui.test_dealer_champs import open_screen


def test_regression_station_reopens_the_table_and_hand_after_a_restart(
    qtbot: Any, tmp_path: Path
) -> None:
    from dealer_assist.db.bootstrap import open_services
    from dealer_assist.ui.dialogs import OpenTableDialog
    from dealer_assist.ui.main_window import MainWindow

    url = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    svc = open_services(url, hasher=Argon2PinHasher(fast=True))
    furnish(svc)
    screen = open_screen(qtbot, svc, table="Caro-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    qtbot.keyClick(screen, "k")
    assert screen.c.now is not None
    hand_id, shift_id = screen.c.now.hand.id, screen.c.shift.id  # type: ignore[union-attr]
    steps = len(screen.c.now.replay.steps)
    svc.store.close()  # the station stops without closing anything

    again: Services = open_services(url, hasher=Argon2PinHasher(fast=True))
    win = MainWindow(again, again.sign_in("dana", "1111"))
    qtbot.addWidget(win)
    dealer = win.dealer
    assert dealer is not None
    assert dealer.c.table is not None and dealer.c.table.name == "Caro-1"
    assert dealer.c.shift is not None and dealer.c.shift.id == shift_id
    assert dealer.c.now is not None and dealer.c.now.hand.id == hand_id
    assert len(dealer.c.now.replay.steps) == steps
    assert dealer.message.text() and "Open a table" not in dealer.message.text()
    assert "Caro-1" in dealer.where.text() and "hand 1" in dealer.where.text()
    dlg = OpenTableDialog(again, dealer.c.session)
    qtbot.addWidget(dlg)
    assert dlg.table.currentText() == "Caro-1"  # not the first table
    qtbot.keyClick(dealer, "k")
    assert len(dealer.c.now.replay.steps) == steps + 1

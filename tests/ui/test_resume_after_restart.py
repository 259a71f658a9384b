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


#: A station in a child process: dana deals a hand at CC-1, then (the floor allowing a second
#: table) opens a shift at Caro-1 and another at CC-2, where no hand is dealt; then the process
#: is killed with SIGKILL mid-hand, closing nothing.
_CRASHING_STATION = """
import os, signal, sys
from dealer_assist.cards import parse_cards
from dealer_assist.db.bootstrap import open_services
from dealer_assist.events import CardDealt
from dealer_assist.services import Approval, Argon2PinHasher
svc = open_services(sys.argv[1], hasher=Argon2PinHasher(fast=True))
dana = svc.sign_in("dana", "1111")
tables = {t.name: t.id for t in svc.list_tables()}
svc.open_shift(dana, tables["CC-1"], floor="fran")
now = svc.start_hand(dana, tables["CC-1"])
for seat, code in ((1, "7h"), (2, "Kc"), (3, "2s")):
    now = svc.record(dana, now.hand.id, CardDealt(seat=seat, card=parse_cards(code)[0]))
for name in ("Caro-1", "CC-2"):
    svc.open_shift(dana, tables[name], floor="fran", approval=Approval("fran", "2222"))
print(now.hand.id, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_regression_issue_41_14_after_kill_9_the_dealer_resumes_the_table_with_the_hand(
    qtbot: Any, tmp_path: Path
) -> None:
    """Regression: with several shifts open, the station came back at the latest shift's table
    (no hand) instead of the table whose hand was unfinished when the station was killed."""
    import subprocess
    import sys

    from dealer_assist.db.bootstrap import open_services
    from dealer_assist.ui.main_window import MainWindow
    from tests.ui.conftest import CC_TABLE

    url = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    svc = open_services(url, hasher=Argon2PinHasher(fast=True))
    furnish(svc)
    svc.add_table(svc.sign_in("ada", "9999"), {**CC_TABLE, "name": "CC-2"})
    svc.store.close()
    child = subprocess.run([sys.executable, "-c", _CRASHING_STATION, url],
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == -9, child.stderr
    hand_id = int(child.stdout.split()[0])

    again: Services = open_services(url, hasher=Argon2PinHasher(fast=True))
    assert len([s for s in again.list_shifts() if s.open and s.dealer == "dana"]) == 3
    win = MainWindow(again, again.sign_in("dana", "1111"))
    qtbot.addWidget(win)
    dealer = win.dealer
    assert dealer is not None and dealer.c.table is not None
    assert dealer.c.table.name == "CC-1"
    assert dealer.c.now is not None and dealer.c.now.hand.id == hand_id
    assert len(dealer.c.now.replay.steps) == 4  # the start and the three cards dealt
    assert dealer.message.text() == "Deal the up card to seat 4"

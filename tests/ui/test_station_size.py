"""Regression (a 1280x800 station): no window or dialog asks for more room than the station's
screen, even on the default database (a long path in the top bar) in a cardroom with a long
name. Long text is cut with an ellipsis and the whole of it is in the tooltip."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.engine.base import Action
from dealer_assist.engine.inputs import Choice, Rows
from dealer_assist.services import Argon2PinHasher, InMemoryStore, Services
from dealer_assist.ui.controllers import DealerController
from dealer_assist.ui.dealer_window import DealerScreen
from dealer_assist.ui.inputs import InputDialog
from dealer_assist.ui.qt import QSize, QWidget
from tests.ui.conftest import CARO_TABLE, furnish

STATION = QSize(1280, 800)
#: About 200 characters, as the default database's path can be in a deep home folder.
LONG_DB = "sqlite:///" + "/home/dealer-station-seven/" + "a-long-folder-name/" * 8 + \
    "dealer-assist/dealer-assist.sqlite3"
LONG_ROOM = "The Grand Riverside Casino and Card Club of Greater Metropolitan Springfield"
TIME_TABLE = {**CARO_TABLE, "name": "Time collection table with a long name for the top bar",
              "seats": 8, "fee": {"kind": "time", "amount": 500, "period_minutes": 30}}


@pytest.fixture
def room() -> Services:
    svc = Services(InMemoryStore(LONG_ROOM), hasher=Argon2PinHasher(fast=True))
    furnish(svc)
    svc.add_table(svc.sign_in("ada", "9999"), TIME_TABLE)
    return svc


def fits(qtbot: Any, w: QWidget) -> QSize:
    qtbot.addWidget(w)
    w.show()
    qtbot.wait(1)
    hint = w.minimumSizeHint().expandedTo(w.minimumSize())
    assert hint.width() <= STATION.width() and hint.height() <= STATION.height(), (
        f"{type(w).__name__} needs {hint.width()}x{hint.height()}")
    return hint


def test_long_db_path_is_elided_not_widening_the_window(qtbot: Any, room: Services) -> None:
    assert len(LONG_DB) >= 200
    from dealer_assist.ui.main_window import MainWindow

    for name, pin in (("ada", "9999"), ("dana", "1111"), ("fran", "2222")):
        win = MainWindow(room, room.sign_in(name, pin), where=LONG_DB)
        fits(qtbot, win)
        assert LONG_DB in win.who.toolTip() and LONG_DB in win.who.text()
        win.resize(STATION)
        qtbot.wait(1)
        assert "…" in win.who.displayed()


@pytest.mark.parametrize("table", ["CC-1", "Caro-1", TIME_TABLE["name"]])
def test_dealer_screen_fits_the_station_in_every_state(qtbot: Any, room: Services,
                                                       table: str) -> None:
    from dealer_assist.services import Approval

    c = DealerController(room, room.sign_in("dana", "1111"))
    screen = DealerScreen(c)
    fits(qtbot, screen)
    c.open_table(room.find_table(table).id, "fran")
    fits(qtbot, screen)
    assert c.start_hand(), c.last_error
    fits(qtbot, screen)
    assert c.misdeal("a card exposed", Approval("fran", "2222")), c.last_error
    fits(qtbot, screen)  # the push checklist takes the wide side panel


def test_every_dialog_fits_the_station(qtbot: Any, room: Services) -> None:
    from dealer_assist.ui import dialogs as d
    from dealer_assist.ui.count_dialog import CountDialog
    from dealer_assist.ui.stacks_dialog import StacksDialog
    from dealer_assist.ui.station import StationDialog
    from dealer_assist.ui.users_dialog import UsersWindow

    ada = room.sign_in("ada", "9999")
    dana = room.sign_in("dana", "1111")
    c = DealerController(room, dana)
    c.open_table(room.find_table(str(TIME_TABLE["name"])).id, "fran")
    for seat in (1, 2, 3):
        c.set_seated(seat, True)
    c.collect_time()
    assert c.time is not None
    long_reason = "a card exposed on the deal " * 6
    made = [
        d.SignInDialog(room), d.FirstAdminDialog(room), d.AddUserDialog(room, ada),
        d.ResetPinDialog(room, ada, dana.user), d.ChangePinDialog(room, dana),
        d.OpenTableDialog(room, ada),
        d.ApprovalDialog(f"A floor person approves the misdeal of hand 12 ({long_reason}).",
                         room),
        d.VoidReasonDialog("Void event 9: " + long_reason),
        d.DisputeDialog("hand 12 at Table 7, " + LONG_ROOM, room),
        InputDialog(Action("set", "Set seat 3's hand", seat=3, input=Rows())),
        InputDialog(Action("natural", "Seat 3 declares a natural", seat=3,
                           input=Choice("kind", ("dragon", "three-flushes")))),
        d.SeatsDialog(c), d.VoidMarkDialog(c),
        d.CollectTimeDialog(c.time.collect, "Collect time: period 1"),
        StacksDialog({s: 100000 for s in range(1, 9)}, tuple(range(1, 9))),
        UsersWindow(room, ada),
        StationDialog(default_db=LONG_DB.removeprefix("sqlite:///")),
        CountDialog(room, ada, table_id=c.table.id if c.table else 0,
                    shift_id=c.shift.id if c.shift else 0, expected=12345),
    ]
    for w in made:
        fits(qtbot, w)


def test_regression_felt_text_never_squeezed_over_itself(qtbot: Any) -> None:
    """A small felt (the floor's replay of eight seats): the pots, the bonus pool among them,
    keep their full height; the notes go on one line or into the tooltip instead."""
    from dealer_assist.engine.hand import replay
    from dealer_assist.events import Start
    from dealer_assist.ui.screenshots import cc_events
    from dealer_assist.ui.table_view import TableWidget

    start = Start(game="champs-and-cowards", seats=tuple(range(1, 9)),
                  params={"chip": 200, "decks": 1, "carry_in": 0})
    view = replay([start, *cc_events()[:16]]).state
    from dealer_assist.engine.registry import get_game

    table = TableWidget()
    qtbot.addWidget(table)
    for w, h in ((820, 400), (700, 330), (1280, 560)):
        table.resize(w, h)
        table.show()
        table.show_view(get_game("champs-and-cowards").view(view))
        qtbot.wait(1)
        need = table._center_lay.totalHeightForWidth(table.center.width())
        assert table.center.height() >= need, (w, h)
        assert "Bonus pool" in table.pots.text() and table.pots.isVisible()

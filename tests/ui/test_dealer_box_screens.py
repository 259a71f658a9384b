"""The dealer box on the screens, keyboard only, on a real SQLite file: the station's push
notice (due in N min, after this hand, who goes where) and the floor's dealer view (where,
since when, next push, breaks, late pushes, the rules and the rotation)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.services import Argon2PinHasher, Services
from dealer_assist.services.dealer_box import BREAK, Rules, fold_downs, running
from dealer_assist.services.dealer_hooks import set_room_rotation, set_room_rules
from dealer_assist.ui.qt import Qt
from tests.services.support import Clock
from tests.ui.conftest import furnish
from tests.ui.test_dealer_champs import open_screen


@pytest.fixture
def room(tmp_path: Path) -> Iterator[tuple[Services, Clock]]:
    from dealer_assist.db.bootstrap import open_services

    clock = Clock()
    svc = open_services(f"sqlite:///{tmp_path / 'room.sqlite3'}",
                        hasher=Argon2PinHasher(fast=True), clock=clock)
    furnish(svc)
    admin = svc.sign_in("ada", "9999")
    svc.add_user(admin, name="eve", full_name="Eve Dealer", role="dealer", pin="1112")
    yield svc, clock
    svc.store.close()  # type: ignore[attr-defined]


def _rotation(svc: Services) -> None:
    """Caro-1 opened by the floor; push every minute; dana and eve over CC-1 and Caro-1 (CC-1
    opened by dana at her station first)."""
    fran = svc.sign_in("fran", "2222")
    caro = next(t.id for t in svc.list_tables() if t.name == "Caro-1")
    svc.open_shift(fran, caro, floor="fran")
    set_room_rules(svc, fran, Rules(push_minutes=1, break_after_minutes=80, break_minutes=20,
                                    grace_minutes=1))
    set_room_rotation(svc, fran, ["dana", "eve"], ["CC-1", "Caro-1"])


def test_station_push_notice_counts_down_then_names_the_push_and_waits_for_the_hand(
    qtbot: Any, room: tuple[Services, Clock],
) -> None:
    svc, clock = room
    screen = open_screen(qtbot, svc, table="CC-1")  # dana's PIN sign-in starts her down
    _rotation(svc)
    qtbot.keyClick(screen, Qt.Key.Key_Escape)  # (any redraw reads the notice again)
    screen.push_notice.refresh(force=True)
    notice = screen.push_notice
    assert notice.isVisible() and notice.text() == "Push due in 1 min"
    clock.advance(minutes=2)
    notice._timer.timeout.emit()  # the station's own 15-second re-read
    assert notice.text() == "Push: dana to Caro-1 (eve deals here)"
    qtbot.keyClick(screen, Qt.Key.Key_N)  # a hand starts: the push waits for its end
    assert screen.c.now is not None
    assert notice.text() == "Push after this hand"


def test_floor_dealer_view_by_keyboard_where_since_next_late_and_break(
    qtbot: Any, room: tuple[Services, Clock],
) -> None:
    from dealer_assist.ui.dealer_view import DealerView

    svc, clock = room
    open_screen(qtbot, svc, table="CC-1")
    start = clock.now
    _rotation(svc)
    clock.advance(minutes=5)
    view = DealerView(svc, svc.sign_in("fran", "2222"))
    qtbot.addWidget(view)
    view.show()
    rows = {r[0]: r for r in view.texts()}
    assert rows["dana"][:2] == ["dana", "CC-1"]
    assert rows["dana"][2] == f"{start:%H:%M} UTC"
    assert rows["dana"][4] == "Caro-1"
    assert rows["dana"][5] == "LATE 4 min"  # 5 minutes down: 1 minute interval, 1 of grace
    assert rows["eve"][1:] == ["between tables", "", "", "CC-1", ""]

    assert view.chosen() == "dana"
    qtbot.keyClick(view.list, Qt.Key.Key_B)  # dana on a break (no hand in play)
    assert running(fold_downs(svc.dealer_box.downs()))["dana"].kind == BREAK  # type: ignore[union-attr]
    assert {r[0]: r for r in view.texts()}["dana"][1] == "break"

    # every rule is reached by its Alt key (the floor works keyboard only)
    view.activateWindow()
    qtbot.waitUntil(view.isActiveWindow)
    for key, box in ((Qt.Key.Key_A, view.after), (Qt.Key.Key_B, view.brk),
                     (Qt.Key.Key_G, view.grace), (Qt.Key.Key_H, view.shift),
                     (Qt.Key.Key_K, view.tokes), (Qt.Key.Key_P, view.push)):
        qtbot.keyClick(view, key, Qt.KeyboardModifier.AltModifier)
        assert view.focusWidget() is box or box.isAncestorOf(view.focusWidget()), key

    # a rotation naming a dealer who is not one: refused, the rotation in force unchanged
    view.dealers.setFocus()
    view.dealers.clear()
    qtbot.keyClicks(view.dealers, "dana, fran")
    qtbot.keyClick(view.dealers, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier)
    assert view.message.text() == ("fran is not an active dealer: enable them or leave them "
                                   "out of the rotation")
    assert svc.dealer_box.rotation().dealers == ("dana", "eve")  # type: ignore[union-attr]


def _open_by_keys(qtbot: Any, screen: Any, table: str) -> None:
    """O at the station, the table chosen by typing its name, Enter in the last field."""
    from tests.ui.conftest import answer_next_dialog

    def fill(dlg: Any) -> None:
        dlg.table.setFocus()
        qtbot.keyClicks(dlg.table, table)
        assert dlg.table.currentText() == table
        qtbot.keyClick(dlg.table, Qt.Key.Key_Return)  # on to the floor person
        qtbot.keyClick(dlg.floor, Qt.Key.Key_Return)  # the last field: Open shift

    answer_next_dialog(qtbot, fill)
    qtbot.keyClick(screen, Qt.Key.Key_O)


def test_done_a_push_moves_dana_to_table_two_while_eve_relieves_her_and_the_floor_sees_both(
    qtbot: Any, room: tuple[Services, Clock],
) -> None:
    """The issue's walk-through, keyboard only at two stations and the floor's view."""
    from dealer_assist.ui.controllers import DealerController
    from dealer_assist.ui.dealer_view import DealerView
    from dealer_assist.ui.dealer_window import DealerScreen

    svc, clock = room

    def station(name: str, pin: str) -> DealerScreen:
        screen = DealerScreen(DealerController(svc, svc.sign_in(name, pin)))
        qtbot.addWidget(screen)
        screen.resize(1280, 800)
        screen.show()
        return screen

    dana = station("dana", "1111")
    _open_by_keys(qtbot, dana, "CC-1")  # dana's sign-in at table 1
    assert dana.c.table is not None and dana.c.table.name == "CC-1"
    _rotation(svc)  # push every minute; dana and eve over CC-1 and Caro-1
    clock.advance(minutes=1, seconds=5)
    dana.push_notice._timer.timeout.emit()
    assert dana.push_notice.text() == "Push: dana to Caro-1 (eve deals here)"

    eve = station("eve", "1112")
    _open_by_keys(qtbot, eve, "CC-1")  # the relief's PIN sign-in ends dana's down
    assert eve.c.shift is not None and eve.c.table is not None and eve.c.table.name == "CC-1"
    _open_by_keys(qtbot, dana, "Caro-1")  # dana pushed on to table 2 (the floor's shift)
    assert dana.c.table is not None and dana.c.table.name == "Caro-1"
    qtbot.keyClick(eve, Qt.Key.Key_N)
    assert eve.c.now is not None and eve.c.now.hand.started_by == "eve"

    view = DealerView(svc, svc.sign_in("fran", "2222"))
    qtbot.addWidget(view)
    rows = {r[0]: r[1] for r in view.texts()}
    assert rows == {"dana": "Caro-1", "eve": "CC-1"}

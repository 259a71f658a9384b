"""Regression (issue 40, item 2's remainder): at a table whose last hand holds an event that
cannot be read (written into the file behind the app's back), N (deal) only showed "line 7:
stored event 7 (seq 7) cannot be read" and the table was stuck. Now the dealer's screen says
which hand cannot be read and what the next hand would start from, the approval dialog asks a
floor person's name and PIN, and the next hand starts."""

from __future__ import annotations

from typing import Any

from dealer_assist.cards import parse_cards
from dealer_assist.services import Services
from dealer_assist.ui.qt import Qt
from tests.db.poison import append_raw
from tests.db.test_guts_verify import SETTINGS, act
from tests.db.test_unreadable_next_hand import JOKER_SHOW
from tests.ui.test_any_game_screen import _answer, _enter
from tests.ui.test_dealer_champs import open_screen


def test_regression_the_dealer_is_told_which_hand_cannot_be_read_and_the_floor_lets_it_go_on(
    qtbot: Any, sqlite_services: Services
) -> None:
    svc = sqlite_services
    svc.add_table(svc.sign_in("ada", "9999"), {**SETTINGS, "name": "Guts-1"})
    screen = open_screen(qtbot, svc, table="Guts-1")
    dealer = screen.c.session
    table = screen.c.table
    assert table is not None
    now = svc.start_hand(dealer, table.id)
    for kind, seat in (("in", 1), ("in", 2), ("out", 3)):
        now = act(svc, dealer, now, kind, seat)
    now = act(svc, dealer, now, "show", 1, {"cards": parse_cards("Ah Ad")})
    now = act(svc, dealer, now, "show", 2, {"cards": parse_cards("Kh Qd")})
    svc.settle(dealer, now.hand.id)
    path = svc.store.db.sqlite_path  # type: ignore[attr-defined]
    assert path is not None
    append_raw(path, now.hand.id, JOKER_SHOW)
    svc._live.clear()
    screen.c.now = None
    seen: list[str] = []

    def approve(dlg: Any) -> None:
        seen.append(dlg.what.text())
        field = dlg.focusWidget()
        qtbot.keyClicks(field, "fran")
        qtbot.keyClick(field, Qt.Key.Key_Tab)
        qtbot.keyClicks(dlg.pin, "2222")
        _enter(qtbot, dlg)

    _answer("ApprovalDialog", approve)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert seen and seen[0].startswith("hand 1 at Guts-1 cannot be read (line 7: stored event 7")
    assert ("a floor person approves starting from button seat 1; a pot of $3 carried in; "
            "seat 1 $102, seat 2 $96, seat 3 $99") in seen[0]
    started = screen.c.now
    assert started is not None and started.hand.number == 2
    assert started.replay.start.get("pot_in") == 300
    assert svc.store.audit_log(action="approval")[-1].actor == "fran"

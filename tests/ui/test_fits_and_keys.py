"""The main window at 1280x800 (offscreen), checked with the font by ``ui/layout_check.py``:
Chinese Poker at four seats (twelve actions), no-limit Pineapple, Caro Hold 'em's discard with
the card picker open. Regressions: the window grew to 2,004 px, buttons had no key and clipped
labels ("se to $4-$30"), the side panel squeezed the card box under the discard chooser."""

from __future__ import annotations

from typing import Any

from PySide6.QtTest import QTest

from dealer_assist.services import Services
from dealer_assist.ui.layout_check import problems
from dealer_assist.ui.panels import action_keys
from dealer_assist.ui.qt import Qt

CP = {"name": "CP-1", "game": "chinese-poker", "seats": 4, "smallest_chip": 100,
      "params": {"unit": 100}}
NL = {"name": "NL-1", "game": "pineapple", "seats": 6, "smallest_chip": 100,
      "buy_in": 300000, "params": {"structure": "no-limit", "blinds": [200, 400]}}


def window(qtbot: Any, svc: Services) -> Any:
    from dealer_assist.ui.main_window import MainWindow

    admin = svc.sign_in("ada", "9999")
    for t in (CP, NL):
        svc.add_table(admin, t)
    win = MainWindow(svc, svc.sign_in("fran", "2222"))
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    qtbot.wait(10)
    return win


def deal(qtbot: Any, win: Any, svc: Services, table: str) -> Any:
    screen = win.dealer
    screen.c.open_table(svc.find_table(table).id, "fran")
    assert screen.c.start_hand(), screen.c.last_error
    qtbot.wait(10)
    return screen


def test_regression_chinese_poker_fits_with_a_key_on_every_button(
    qtbot: Any, memory_services: Services
) -> None:
    win = window(qtbot, memory_services)
    screen = deal(qtbot, win, memory_services, "CP-1")
    assert problems() == []
    texts = [b.text() for b in screen.actions.buttons]
    assert len(texts) == 12
    assert texts[:3] == ["Seat 1's rows  [1 R]", "Seat 1: natural  [1 N]",
                         "Seat 1 surrenders  $6  [1 S]"]
    assert texts[-1] == "Seat 4 surrenders  $6  [4 S]"
    # seat 2 surrenders by its number, then S
    QTest.keyClicks(screen, "2")
    assert screen.refusal.text().startswith("Seat 2: ")
    QTest.keyClicks(screen, "s")
    last = screen.c.now.replay.steps[-1].event
    assert last.to_json() == {"type": "surrender", "seat": 2}
    assert problems() == []


def test_regression_pineapple_labels_whole_and_kill_keyed(
    qtbot: Any, memory_services: Services
) -> None:
    win = window(qtbot, memory_services)
    screen = deal(qtbot, win, memory_services, "NL-1")
    prompt = screen.prompt
    keys = dict(zip((a.kind for a in prompt.actions), action_keys(prompt), strict=True))
    assert keys == {"call": "C", "raise": "R", "all-in": "A", "fold": "F", "kill": "X"}
    assert problems() == []


def test_regression_caro_discard_and_picker_leave_the_card_box_its_room(
    qtbot: Any, memory_services: Services
) -> None:
    win = window(qtbot, memory_services)
    screen = deal(qtbot, win, memory_services, "Caro-1")
    c = screen.c
    from dealer_assist.cards import parse_card
    from dealer_assist.events import BoardDealt, Check

    for seat in screen.c.now.hand.seats:
        c.record(Check(seat=seat))
    c.record(BoardDealt(cards=(parse_card("Ah"), parse_card("Kd"))))
    qtbot.wait(10)
    QTest.keyClicks(screen, "d")
    QTest.keyClicks(screen, "4")
    QTest.keyClicks(screen.cards.input, "zz")
    QTest.keyClick(screen.cards.input, Qt.Key.Key_Return)
    qtbot.wait(10)
    assert screen.cards.error.isVisible()
    assert problems() == []
    QTest.keyClick(screen.cards.input, Qt.Key.Key_F2)
    qtbot.wait(10)
    assert screen.cards.picker.isVisible() and not screen.table.isVisible()
    assert problems() == []

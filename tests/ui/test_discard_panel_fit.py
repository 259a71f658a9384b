"""Crazy Pineapple at nine seats in the main window at 1280x800, while one seat's discard is
being entered (1 D: the discard panel in place of the buttons): the seat boxes stay clear of
each other and of the board."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services
from dealer_assist.ui.qt import QRect, QWidget


def test_regression_pineapple_nine_seats_discard_panel_leaves_the_board_in_view(
    qtbot: Any, memory_services: Services
) -> None:
    from dealer_assist.cards import parse_cards
    from dealer_assist.ui.main_window import MainWindow

    svc = memory_services
    svc.add_table(svc.sign_in("ada", "9999"), {
        "name": "CP-9", "game": "pineapple", "seats": 9, "smallest_chip": 100,
        "buy_in": 40000, "params": {"structure": "no-limit", "blinds": [100, 200],
                                    "variant": "crazy"}})
    win = MainWindow(svc, svc.sign_in("fran", "2222"))
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    screen = win.dealer
    c = screen.c
    c.open_table(svc.find_table("CP-9").id, "fran")
    assert c.start_hand(), c.last_error
    flop = parse_cards("2c 7d 9h")
    while (p := c.now.prompt()).phase == "betting" or not any(
            a.kind == "discard" for a in p.actions):
        a = next(a for a in p.actions if a.enabled and a.kind in ("check", "call", "board"))
        assert c.record(c.event_for(a, flop) if a.kind == "board" else c.event_for(a))
    qtbot.wait(20)
    screen.setFocus()
    qtbot.keyClicks(screen, "1d")  # seat 1's discard: the panel asks for the card or U
    qtbot.wait(20)
    assert screen.discards.isVisible()
    table = screen.table
    boxes = {n: w.geometry() for n, w in table.seats.items()}
    assert [(a, b) for a in boxes for b in boxes if a < b and boxes[a].intersects(boxes[b])] \
        == []
    board = table.findChild(QWidget, "table-board")
    assert board is not None and board.isVisible()
    on_felt = QRect(board.mapTo(table, board.rect().topLeft()), board.size())
    assert [n for n, g in boxes.items() if g.intersects(on_felt)] == []
    # the bar is as tall as the discard panel needs, not as nine seats' buttons: the rest is
    # the felt's (at 1280x800 in a real window the board was half covered by the top seats)
    need = screen.discards.heightForWidth(screen.pages.width())
    assert screen.pages.height() == need
    assert screen.table.geometry().bottom() + 6 + need + 1 >= screen.pages.geometry().bottom()

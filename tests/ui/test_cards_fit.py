"""Issue 41, item 11: every card the table shows is whole at 1280x800.

Dicey Poker's ten hole cards ran off the seat's edge (the last cut off), its fifth chipped card
was cut, the joker read "oker"; Mille's row of eight tens pushed its name to "tens (natura";
the card box scrolled Anaconda's five typed cards to four. Checked with the font
(ui/layout_check.py) and by where each card lies."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import SeatView, TableView
from dealer_assist.services import Services
from dealer_assist.ui.layout_check import problems
from dealer_assist.ui.qt import QRect, Qt, QWidget
from dealer_assist.ui.table_view import CardLabel, TableWidget

HOLE = ("As", "Qd", "Td", "Qs", "5d", "4d", "5s", "6d", "7s", "Ts")
DICEY = TableView("dicey-poker", (
    SeatView(1, rows=(("up", ("8h", "4c")), ("hole", HOLE),
                      ("chipped", ("Kh", "Kd", "Ks", "Kc", "Jk"))), to_act=True),
    SeatView(2, rows=(("up", ("6h", "Qd", "Jk")), ("hole", HOLE))),
), to_act=1, button=2)
MILLE = TableView("mille", (
    SeatView(1, rows=(("tens (natural)", ("Ts", "Td", "Th", "Tc", "Ts", "Td", "Th", "Tc")),
                      ("queens", ("Qs", "Qh", "Qd")))),
    SeatView(2, rows=(("fives", ("5s", "5h", "5d")),)),
), button=2)


def _whole(table: TableWidget) -> list[str]:
    """Each card drawn inside its seat's box and over no other card, or what is not."""
    out = []
    for seat, box in table.seats.items():
        drawn: list[tuple[str, QRect]] = []
        for card in box.findChildren(CardLabel):
            at = QRect(card.mapTo(box, card.rect().topLeft()), card.size())
            if not box.rect().contains(at):
                out.append(f"seat {seat}: {card.text()} at {at} outside {box.rect()}")
            out += [f"seat {seat}: {card.text()} over {name}" for name, other in drawn
                    if other.intersects(at)]
            drawn.append((card.text(), at))
    return out


def test_regression_dicey_poker_and_mille_rows_show_every_card_whole(qtbot: Any) -> None:
    for view, size in ((DICEY, (920, 440)), (MILLE, (680, 440))):
        table = TableWidget()
        qtbot.addWidget(table)
        table.resize(*size)
        table.show()
        table.show_view(view)
        qtbot.wait(10)
        assert _whole(table) == []
        assert problems() == []  # "Joker" whole, "tens (natural)" whole
        jokers = [c for b in table.seats.values() for c in b.findChildren(CardLabel)
                  if c.code == "Jk"]
        assert all(c.text() == "Joker" for c in jokers)
        table.close()


def test_regression_card_box_shows_all_five_cards_typed(
    qtbot: Any, memory_services: Services
) -> None:
    from tests.ui.test_focus_and_seat_keys import _screen

    screen = _screen(qtbot, memory_services, {
        "name": "A-1", "game": "anaconda", "seats": 2, "smallest_chip": 100, "buy_in": 20000,
        "params": {"structure": "limit", "ante": 100, "small_bet": 200, "big_bet": 400,
                   "cap": 4}})
    screen.cards.expect(5, "Seat 2 shows: 5 cards")
    qtbot.keyClicks(screen.cards.input, "2h 8c 10h as 10d")
    qtbot.wait(10)
    box = screen.cards.input
    assert box.text() == "2h 8c 10h as 10d"
    assert box.fontMetrics().horizontalAdvance(box.text()) <= box.contentsRect().width() - 8
    assert not [p for p in problems() if "card box" in p]
    qtbot.keyClick(box, Qt.Key.Key_Escape)


def _nine_seats_at_the_discards(qtbot: Any, svc: Services) -> Any:
    """Crazy Pineapple at nine seats in the main window at 1280x800, at the discards after the
    flop: the dealer's screen."""
    from dealer_assist.cards import parse_cards
    from dealer_assist.ui.main_window import MainWindow

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
    assert len([a for a in p.actions if a.kind == "discard"]) == 9
    return screen


def _seats_clear_of_each_other_and_the_board(screen: Any) -> None:
    table = screen.table
    boxes = {n: w.geometry() for n, w in table.seats.items()}
    assert [(a, b) for a in boxes for b in boxes if a < b and boxes[a].intersects(boxes[b])] \
        == []
    board = table.findChild(QWidget, "table-board")
    assert board is not None and board.isVisible()
    on_felt = QRect(board.mapTo(table, board.rect().topLeft()), board.size())
    assert [n for n, g in boxes.items() if g.intersects(on_felt)] == []  # (the pots: problems)


def test_regression_pineapple_nine_seats_discards_leave_the_board_in_view(
    qtbot: Any, memory_services: Services
) -> None:
    """At the discards a discard and a Kill per seat took five rows of buttons and the
    checklist three lines; the seat boxes overlapped each other and hid the board."""
    screen = _nine_seats_at_the_discards(qtbot, memory_services)
    assert problems() == []
    _seats_clear_of_each_other_and_the_board(screen)
    # the checklist in one line, the per-seat buttons under one heading per kind
    assert screen.instructions.text() == "owes a discard: seats 1, 2, 3, 4, 5, 6, 7, 8, 9"
    assert [lab.text() for lab in screen.actions.group_labels] == ["Discards:",
                                                                  "Kill (no discard):"]
    assert screen.actions.buttons[0].text() == "1  [1 D]"


def test_regression_pineapple_nine_seats_discard_panel_leaves_the_board_in_view(
    qtbot: Any, memory_services: Services
) -> None:
    """While one seat's discard is entered (1 D: the discard panel in place of the buttons) the
    seat boxes stay clear of each other and of the board: the bottom bar had been as tall as
    nine seats' buttons, and at 1280x800 the board was half covered by the top seats."""
    screen = _nine_seats_at_the_discards(qtbot, memory_services)
    screen.setFocus()
    qtbot.keyClicks(screen, "1d")  # seat 1's discard: the panel asks for the card or U
    qtbot.wait(20)
    assert screen.discards.isVisible()
    _seats_clear_of_each_other_and_the_board(screen)
    need = screen.discards.heightForWidth(screen.pages.width())
    assert screen.pages.height() == need
    assert screen.table.geometry().bottom() + 6 + need + 1 >= screen.pages.geometry().bottom()

"""A Caro Hold 'em hand through the screen: discards chosen first with the price of each kept
count, per-card wagers on the buttons, the board and the show by keyboard, to settlement."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services
from dealer_assist.ui.dealer_window import PAGE_DISCARD, PAGE_PUSH, DealerScreen
from dealer_assist.ui.qt import QLabel, Qt, QWidget
from tests.ui.test_dealer_champs import open_screen


def cards(qtbot: Any, screen: DealerScreen, text: str) -> None:
    qtbot.keyClicks(screen.cards.input, text)
    qtbot.keyClick(screen.cards.input, Qt.Key.Key_Return)


def key(qtbot: Any, screen: DealerScreen, k: str) -> None:
    n = len(screen.c.now.replay.steps) if screen.c.now else 0
    qtbot.keyClick(screen, k)
    assert screen.c.now is not None and len(screen.c.now.replay.steps) == n + 1, (
        f"key {k!r} recorded nothing: {screen.refusal.text()} {screen.c.last_error}"
    )


def discard(qtbot: Any, screen: DealerScreen, keep: int, text: str) -> str:
    """D, the kept count's digit, then the discarded cards; returns the kept button's text."""
    qtbot.keyClick(screen, "d")
    assert screen.pages.currentIndex() == PAGE_DISCARD
    shown = screen.discards.buttons[keep].text()
    qtbot.keyClick(screen, str(keep))
    assert screen.cards.input.hasFocus() or screen.cards.count > 0
    cards(qtbot, screen, text)
    return shown


def test_ruling_caro_8_per_card_wagers_through_the_screen(
    qtbot: Any, sqlite_services: Services
) -> None:
    svc = sqlite_services
    screen = open_screen(qtbot, svc, table="Caro-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None
    hand_id = screen.c.now.hand.id
    assert screen.table.view is not None and screen.table.view.button == 3
    assert "D" in screen.table.seat_text(3).split()
    for _ in range(3):
        key(qtbot, screen, "k")
    assert screen.cards.count == 2  # the flip: two cards
    cards(qtbot, screen, "Ah")
    assert "A♥" in screen.cards.collected.text()
    cards(qtbot, screen, "kd")
    assert screen.table.view is not None and screen.table.view.board == ("Ah", "Kd")
    board = screen.table.findChild(QWidget, "table-board")
    assert board is not None and board.isVisible()
    assert [c.text() for c in board.findChildren(QLabel)] == ["A♥", "K♦"]
    for _ in range(3):
        key(qtbot, screen, "k")
    cards(qtbot, screen, "7c")
    # blip, limit $20: seat 1 keeps 4 and bets $80
    shown = discard(qtbot, screen, 4, "3d")
    assert "bet $80" in shown
    bet = screen.actions.button_for("bet")
    assert bet is not None and bet.text().startswith("Bet $80")
    assert not screen.actions.button_for("check").isEnabled()
    qtbot.mouseClick(bet, Qt.MouseButton.LeftButton)
    # seat 2 keeps 2 and raises to $80 in total
    shown = discard(qtbot, screen, 2, "6h 8h JC")
    assert "raise to $80" in shown
    raise_button = screen.actions.button_for("raise")
    assert raise_button is not None and "$80" in raise_button.text()
    key(qtbot, screen, "r")
    key(qtbot, screen, "f")
    call = screen.actions.button_for("call")
    assert call is not None and call.text().startswith("Call $80")
    key(qtbot, screen, "c")  # seat 1 has put in $160
    assert "$160" in screen.table.seat_text(1)
    cards(qtbot, screen, "2s 9h")
    key(qtbot, screen, "k")
    key(qtbot, screen, "b")
    discard(qtbot, screen, 2, "4d 5c")
    key(qtbot, screen, "c")
    assert screen.cards.count == 2 and "Seat 1 shows" in screen.cards.target.text()
    cards(qtbot, screen, "Kh Kc")
    cards(qtbot, screen, "as ad")

    assert screen.pages.currentIndex() == PAGE_PUSH
    assert screen.push.totals.text().startswith("In all: seat 2 $403")
    assert "Hand over" in screen.message.text()
    rows = svc.hand_events(hand_id)
    assert len(rows) == 22
    assert [r.body["type"] for r in rows].count("discard") == 3
    pushes = {x.seat: x.amount for x in svc.ledger(hand_id) if x.kind == "push" and x.amount}
    assert pushes == {2: 40300}


def test_regression_caro_face_down_discard_by_one_key(
    qtbot: Any, sqlite_services: Services
) -> None:
    """D, the kept count, then U where the focus is (the card box): a face-down discard of the
    count, never "not a card or a key"; typing the cards instead records them face up."""
    from tests.ui.test_dealer_pineapple import focused

    svc = sqlite_services
    screen = open_screen(qtbot, svc, table="Caro-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None
    for _ in range(3):
        key(qtbot, screen, "k")
    cards(qtbot, screen, "Ah kd")
    for _ in range(3):
        key(qtbot, screen, "k")
    cards(qtbot, screen, "7c")
    seat = screen.prompt.to_act if screen.prompt else None
    focused(qtbot, screen, "d")
    assert sorted(screen.discards.buttons) == [1, 2, 3, 4]
    focused(qtbot, screen, "3")
    assert screen.window().focusWidget() is screen.cards.input
    assert "press U if face down" in screen.cards.target.text()
    focused(qtbot, screen, "u")
    assert screen.cards.error.text() == ""
    rows = svc.hand_events(screen.c.now.hand.id)
    assert rows[-1].body == {"type": "discard", "seat": seat, "count": 2}
    assert "discard" in screen.history.texts()[-1].lower()


def test_regression_board_cards_checked_as_typed_and_two_cards_with_one_in(
    qtbot: Any, sqlite_services: Services
) -> None:
    """The flip's second card typed with a third ("kd 7c") is refused for its count, not as
    "not a card"; a board card already on the table is refused as it is typed, under the box
    still holding it, before any other card is typed."""
    svc = sqlite_services
    screen = open_screen(qtbot, svc, table="Caro-1")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    for _ in range(3):
        key(qtbot, screen, "k")
    cards(qtbot, screen, "Ah")
    assert screen.cards.cards and screen.cards.cards[0].code == "Ah"
    cards(qtbot, screen, "kd 7c")
    assert screen.cards.error.text() == "2 cards typed, but only 1 more is needed here"
    screen.cards.input.clear()
    cards(qtbot, screen, "kd")
    assert screen.table.view is not None and screen.table.view.board == ("Ah", "Kd")
    for _ in range(3):
        key(qtbot, screen, "k")
    cards(qtbot, screen, "7c")  # the blip
    for _ in range(3):
        key(qtbot, screen, "k")
    assert screen.cards.count == 2  # the reflip
    cards(qtbot, screen, "kd")  # already on the board: refused now, kept in the box
    error = screen.cards.error.text()
    assert error and ("Kd" in error or "K♦" in error), error
    assert screen.cards.cards == [] and screen.cards.input.text() == "kd"

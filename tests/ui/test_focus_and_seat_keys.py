"""Issue 41, item 10: the keyboard after a dialog, and another seat's keys from the card box.

After a form closes (Commerce's exchange) the keyboard is back in the card box when the game
waits for cards, so typed cards are cards, not keys ("S: no action has this key now"). Where
two seats have the same card input (Guts' shows: seat 1's S, seat 3's "3 S"), the card box
says how to reach the other seat, and its keys work from there."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services
from dealer_assist.ui.qt import Qt
from tests.ui.test_any_game_screen import _answer, _enter
from tests.ui.test_dealer_champs import open_screen

COMMERCE: dict[str, Any] = {"name": "CM-1", "game": "commerce", "seats": 3,
                            "smallest_chip": 100, "params": {"stake": 100}}
GUTS: dict[str, Any] = {"name": "Guts-1", "game": "guts", "seats": 4, "smallest_chip": 100,
                        "buy_in": 10000, "params": {"ante": 100, "max": 2000}}


def _screen(qtbot: Any, svc: Services, table: dict[str, Any]) -> Any:
    svc.add_table(svc.sign_in("ada", "9999"), table)
    screen = open_screen(qtbot, svc, table=table["name"])
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None
    return screen


def _focus(screen: Any) -> Any:
    """The widget of the screen's window that has (or gets, when active) the keyboard."""
    return screen.window().focusWidget()


def _type(qtbot: Any, screen: Any, text: str) -> None:
    """Keys as the keyboard sends them: to whatever has the focus."""
    for ch in text:
        focus = _focus(screen)
        assert focus is not None
        qtbot.keyClicks(focus, ch)


def test_regression_after_commerce_exchange_form_typed_cards_go_to_the_card_box(
    qtbot: Any, memory_services: Services
) -> None:
    screen = _screen(qtbot, memory_services, COMMERCE)
    qtbot.keyClicks(screen.cards.input, "kh 9c 2d")
    qtbot.keyClick(screen.cards.input, Qt.Key.Key_Return)
    _type(qtbot, screen, "k")  # seat 1 knocks
    _type(qtbot, screen, "s")  # seat 2 stands
    assert screen.prompt is not None and screen.prompt.to_act == 3

    def exchange(dlg: Any) -> None:
        qtbot.keyClicks(dlg.focusWidget(), "kh")
        _enter(qtbot, dlg)
        qtbot.keyClicks(dlg.focusWidget(), "5s")
        _enter(qtbot, dlg)

    _answer("InputDialog", exchange)
    _type(qtbot, screen, "e")  # seat 3's last turn, in the form; then the showdown's cards
    assert screen.c.now.replay.steps[-1].event.TYPE == "exchange"
    assert screen.cards.count == 3
    assert _focus(screen) is screen.cards.input
    _type(qtbot, screen, "5s")  # was read as S, "no action has this key now"
    assert screen.cards.input.text() == "5s"
    assert not screen.refusal.isVisible()


def test_regression_guts_other_seats_show_reachable_from_the_card_box(
    qtbot: Any, memory_services: Services
) -> None:
    screen = _screen(qtbot, memory_services, GUTS)
    _type(qtbot, screen, "ioio")  # seats 1 and 3 in
    assert [b.text() for b in screen.actions.buttons] == ["Seat 1 shows  [S]",
                                                          "Seat 3 shows  [3 S]"]
    # the label said "Type the card, then S Seat 1 shows · S Seat 3 shows"
    assert screen.cards.target.text() == ("Seat 1 shows: 2 cards · another seat: Esc, then "
                                          "3 S Seat 3 shows")
    assert _focus(screen) is screen.cards.input
    qtbot.keyClick(screen.cards.input, Qt.Key.Key_Escape)
    _type(qtbot, screen, "3s")  # as the label says: seat 3's show
    assert screen.card_action is not None and screen.card_action.seat == 3
    assert _focus(screen) is screen.cards.input
    _type(qtbot, screen, "kh qd")
    qtbot.keyClick(screen.cards.input, Qt.Key.Key_Return)
    last = screen.c.now.replay.steps[-1].event
    assert (last.TYPE, last.seat) == ("show", 3)
    # seat 1 by "1" then S from the card box: "1s" is no card (a ten is "10s")
    _type(qtbot, screen, "1s")
    assert screen.cards.input.text() == ""
    _type(qtbot, screen, "ah ad")
    qtbot.keyClick(screen.cards.input, Qt.Key.Key_Return)
    last = screen.c.now.replay.steps[-1].event
    assert (last.TYPE, last.seat) == ("show", 1)

"""The screen's own keys in a hand: Open table [O] and Close shift [X] are on their buttons the
whole time, so in a hand whose game gives O and X no action they do what the buttons say, from
the card box too, instead of "not a card or a key here"."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services
from dealer_assist.ui.qt import Qt
from tests.ui.test_dealer_champs import open_screen


def test_o_in_the_card_box_mid_hand_opens_the_table_dialog_and_x_says_why_not(
    qtbot: Any, memory_services: Services
) -> None:
    from tests.ui.conftest import answer_next_dialog

    screen = open_screen(qtbot, memory_services)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None and screen.cards.count  # the card box waits for the deal
    screen.cards.input.setFocus()

    titles: list[str] = []

    def look(dlg: Any) -> None:
        titles.append(dlg.windowTitle())
        dlg.reject()

    answer_next_dialog(qtbot, look)
    qtbot.keyClicks(screen.cards.input, "o")
    assert titles == ["Open a table and shift"]
    assert screen.cards.input.text() == ""
    assert "is not a card or a key" not in screen.cards.error.text()

    qtbot.keyClicks(screen.cards.input, "x")
    assert screen.refusal.text() == ("Close shift: hand 1 is not finished: finish and settle "
                                     "it, or call it off (Misdeal, F4), first")
    assert screen.c.shift is not None and screen.c.shift.open

"""Mille's play turn by turn on the dealer's screen, keyboard only: the upcard and a discard
from the card entry, a draw by its letter (the log's ``from``), a meld of three from its dialog
with the same card twice (two decks); a refusal is said and nothing is recorded."""

from __future__ import annotations

from typing import Any

from dealer_assist.services import Services
from dealer_assist.ui.qt import Qt
from tests.ui.conftest import answer_next_dialog
from tests.ui.test_dealer_champs import open_screen, type_card

TURNS = {"name": "Mille-T", "game": "mille", "seats": 2, "smallest_chip": 100,
         "stakes": "$1-$5", "params": {"stakes": [100, 500], "turns": True}}


def _bodies(screen: Any) -> list[dict[str, Any]]:
    return [st.event.to_json() for st in screen.c.now.replay.steps[1:]]


def test_mille_turn_by_turn_by_keyboard(qtbot: Any, memory_services: Services) -> None:
    svc = memory_services
    svc.add_table(svc.sign_in("ada", "9999"), TURNS)
    screen = open_screen(qtbot, svc, table="Mille-T")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.prompt is not None and screen.prompt.phase == "upcard"
    qtbot.keyClick(screen, Qt.Key.Key_U)
    type_card(qtbot, screen, "9h")
    qtbot.keyClick(screen, Qt.Key.Key_S)  # seat 1, the non-dealer, draws from the stock
    assert _bodies(screen) == [{"type": "upcard", "card": "9h"},
                               {"type": "draw", "seat": 1, "from": "stock"}]

    def meld(dlg: Any) -> None:
        qtbot.keyClicks(dlg.edits["cards"], "ks ks kh")
        qtbot.keyClick(dlg.edits["cards"], Qt.Key.Key_Return)

    answer_next_dialog(qtbot, meld)
    qtbot.keyClick(screen, Qt.Key.Key_M)
    assert _bodies(screen)[-1] == {"type": "meld", "seat": 1, "cards": ["Ks", "Ks", "Kh"]}
    qtbot.keyClick(screen, Qt.Key.Key_D)
    type_card(qtbot, screen, "ks")  # a third K♠: refused, nothing recorded
    said = screen.refusal.text() + screen.cards.error.text()
    assert "K♠ is already recorded twice: two decks hold only two" in said, said
    assert len(_bodies(screen)) == 3
    screen.cards.input.clear()
    type_card(qtbot, screen, "4c")
    assert _bodies(screen)[-1] == {"type": "discard", "seat": 1, "card": "4c"}
    assert screen.prompt is not None and screen.prompt.to_act == 2
    assert "Stock 72, pile 2" in screen.table.view.info  # type: ignore[union-attr]

"""Rams and Preference on the dealer's screen, keyboard only: a Preference Hearts contract dealt
to the end (the screen refused every key after a Hearts bid), and a misdeal in each game
(after F4 and the floor's PIN the dealer was left with no push steps and no next hand)."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.events import CardDealt
from dealer_assist.games.preference.events import Ante, Bid, Defend
from dealer_assist.services import Services
from dealer_assist.ui.qt import Qt
from tests.games.test_preference import HEARTS, playout, start
from tests.ui.conftest import answer_next_dialog, click_ok
from tests.ui.test_dealer_champs import open_screen, type_card

PREF: dict[str, Any] = {"name": "Pref-1", "game": "preference", "seats": 3,
                        "smallest_chip": 100, "params": {"stake": 100}}
RAMS: dict[str, Any] = {"name": "Rams-1", "game": "rams", "seats": 3, "smallest_chip": 100,
                        "params": {"stake": 100}}
#: Seat 1 bids Hearts holding every heart; both defenders play.
HEARTS_CARDS = [e for e in playout([start(), Ante(stakes=10), Bid(seat=1, bid="hearts"),
                                    Defend(seat=2, choice="play"),
                                    Defend(seat=3, choice="play")], HEARTS)
                if isinstance(e, CardDealt)]


def _table(qtbot: Any, svc: Services, doc: dict[str, Any]) -> Any:
    svc.add_table(svc.sign_in("ada", "9999"), doc)
    screen = open_screen(qtbot, svc, table=doc["name"])
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None
    return screen


def _bodies(screen: Any) -> list[dict[str, Any]]:
    return [st.event.to_json() for st in screen.c.now.replay.steps[1:]]


def _form(qtbot: Any, screen: Any, key: Qt.Key, fill: Any) -> None:
    answer_next_dialog(qtbot, fill)
    qtbot.keyClick(screen, key)


def _ante(qtbot: Any, screen: Any) -> None:
    def ten(dlg: Any) -> None:
        qtbot.keyClicks(dlg.edits["stakes"], "10")
        qtbot.keyClick(dlg.edits["stakes"], Qt.Key.Key_Return)

    _form(qtbot, screen, Qt.Key.Key_A, ten)
    assert _bodies(screen)[-1] == {"type": "ante", "stakes": 10}


def _tick_all_then_next(qtbot: Any, screen: Any) -> None:
    """Every push step ticked with T, then N deals the next hand."""
    assert screen.push.isVisible()
    for _ in screen.push.checks:
        qtbot.keyClick(screen, Qt.Key.Key_T)
    assert screen.push.done
    before = screen.c.now.hand.number
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None and screen.c.now.hand.number == before + 1


def test_regression_a_preference_hearts_contract_dealt_by_keyboard(
    qtbot: Any, memory_services: Services
) -> None:
    screen = _table(qtbot, memory_services, PREF)
    _ante(qtbot, screen)

    def hearts(dlg: Any) -> None:
        box = dlg.choices["bid"]
        assert [box.itemText(i) for i in range(box.count())] == ["one", "game", "hearts"]
        qtbot.keyClick(box, Qt.Key.Key_Down)
        qtbot.keyClick(box, Qt.Key.Key_Down)
        qtbot.keyClick(box, Qt.Key.Key_Return)

    _form(qtbot, screen, Qt.Key.Key_B, hearts)
    assert _bodies(screen)[-1] == {"type": "bid", "seat": 1, "bid": "hearts"}
    assert screen.prompt is not None and screen.prompt.phase == "defend"
    assert screen.message.text() == "Seat 2 plays or drops"
    info = screen.table.view.info
    assert "Bids: seat 1 hearts" in info and "Seat 1 declares Hearts, trumps hearts" in info
    qtbot.keyClick(screen, Qt.Key.Key_P)
    qtbot.keyClick(screen, Qt.Key.Key_P)
    assert _bodies(screen)[-1] == {"type": "defend", "seat": 3, "choice": "play"}
    for ev in HEARTS_CARDS:
        type_card(qtbot, screen, ev.card.code)
    assert sum(b["type"] == "card" for b in _bodies(screen)) == 30
    assert screen.c.now.hand.status == "settled"
    steps = [s.text for s in screen.c.settlement.steps]
    assert "Hearts made: seat 2 pays seat 1 $10" in steps
    assert "Hearts made: seat 3 pays seat 1 $10" in steps
    _tick_all_then_next(qtbot, screen)


def _misdeal(qtbot: Any, screen: Any) -> None:
    def reason(dlg: Any) -> None:
        qtbot.keyClicks(dlg.reason, "card exposed")
        answer_next_dialog(qtbot, approve)
        click_ok(qtbot, dlg)

    def approve(dlg: Any) -> None:
        dlg.name.setCurrentText("fran")
        qtbot.keyClicks(dlg.pin, "2222")
        click_ok(qtbot, dlg)

    answer_next_dialog(qtbot, reason)
    qtbot.keyClick(screen, Qt.Key.Key_F4)
    assert screen.c.now is not None and screen.c.now.hand.status == "settled"
    assert screen.message.text().startswith("Misdeal (card exposed)")


@pytest.mark.parametrize("game", ["preference", "rams"])
def test_regression_a_misdeal_in_rams_or_preference_ends_with_its_returns_and_the_next_hand(
    qtbot: Any, memory_services: Services, game: str
) -> None:
    screen = _table(qtbot, memory_services, PREF if game == "preference" else RAMS)
    if game == "preference":
        _ante(qtbot, screen)
        qtbot.keyClick(screen, Qt.Key.Key_P)  # seat 1 passes
        returns = ["Misdeal: return $10 to seat 1", "Misdeal: return $10 to seat 2",
                   "Misdeal: return $10 to seat 3"]
    else:
        type_card(qtbot, screen, "7c")  # the turned card
        returns = ["Misdeal: return $5 to seat 3"]  # the dealer's ante
    dealer = screen.c.now.replay.start.get("dealer")
    _misdeal(qtbot, screen)
    assert [s.text for s in screen.c.settlement.steps] == returns
    assert screen.table.view is not None and screen.table.view.to_act is None
    assert any("(misdeal)" in line for line in screen.table.view.info)  # the score sheet
    _tick_all_then_next(qtbot, screen)
    assert screen.c.now.replay.start.get("dealer") == dealer  # dealt again by the same dealer

"""The dealer's screen, driven by keys and clicks: the RULINGS Champs and Cowards example from
sign-in to the ticked push steps, checked on screen and in the SQLite store."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.engine.hand import read_log
from dealer_assist.engine.log import hand_events
from dealer_assist.events import CardDealt
from dealer_assist.games.champs_and_cowards.events import Champ, Coward
from dealer_assist.services import Services, Session
from dealer_assist.ui.controllers import DealerController
from dealer_assist.ui.dealer_window import PAGE_PUSH, DealerScreen
from dealer_assist.ui.dialogs import SignInDialog
from dealer_assist.ui.qt import Qt
from tests.ui.conftest import answer_next_dialog, click_ok

EXAMPLE = "champs-and-cowards-rulings-10.jsonl"
#: How the dealer types each card of the example: every accepted spelling gets used.
SPELLING = {"Td": "10d", "Kc": "kc", "Jh": "JH", "9d": "9d", "As": "a s", "Qh": "qh"}


def sign_in(qtbot: Any, svc: Services, name: str, pin: str) -> Session:
    dlg = SignInDialog(svc)
    qtbot.addWidget(dlg)
    dlg.show()
    qtbot.keyClicks(dlg.name, name)
    qtbot.keyClicks(dlg.pin, pin)
    click_ok(qtbot, dlg)
    assert dlg.session is not None, dlg.error.text()
    return dlg.session


def open_screen(qtbot: Any, svc: Services, table: str = "CC-1") -> DealerScreen:
    session = sign_in(qtbot, svc, "dana", "1111")
    screen = DealerScreen(DealerController(svc, session))
    qtbot.addWidget(screen)
    screen.resize(1280, 800)
    screen.show()

    def fill(dlg: Any) -> None:
        dlg.table.setCurrentIndex(dlg.table.findText(table))
        assert "champs-and-cowards" in dlg.details.text() or table != "CC-1"
        click_ok(qtbot, dlg)

    answer_next_dialog(qtbot, fill)
    qtbot.mouseClick(screen.open_button, Qt.MouseButton.LeftButton)
    assert screen.c.shift is not None and screen.c.shift.floor == "fran"
    return screen


def type_card(qtbot: Any, screen: DealerScreen, code: str) -> None:
    qtbot.keyClicks(screen.cards.input, SPELLING.get(code, code.lower()))
    qtbot.keyClick(screen.cards.input, Qt.Key.Key_Return)


def test_ruling_cc_10_example_through_the_screen(qtbot: Any, sqlite_services: Services,
                                                  examples_dir: Any) -> None:
    svc = sqlite_services
    screen = open_screen(qtbot, svc)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None
    hand_id = screen.c.now.hand.id
    assert screen.message.text() == "Deal the up card to seat 1"
    events, _ = read_log(examples_dir / EXAMPLE)
    clicks = 0
    for i, ev in enumerate(events[1:], start=2):
        if isinstance(ev, CardDealt):
            assert screen.cards.input.hasFocus() or screen.cards.count == 1
            type_card(qtbot, screen, ev.card.code)
        elif isinstance(ev, Champ | Coward):
            key = "c" if isinstance(ev, Champ) else "w"
            if i % 2:  # alternate keyboard and mouse
                kind = "champ" if isinstance(ev, Champ) else "coward"
                button = screen.actions.button_for(kind)
                assert button is not None and button.isEnabled()
                qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
                clicks += 1
            else:
                qtbot.keyClick(screen, key)
        assert screen.c.now is not None and len(screen.c.now.replay.steps) == i, (
            f"event {i} ({ev.to_line()}) not recorded: {screen.c.last_error}"
        )
        if i == 9:  # seat 4 acts first: 9d beats 9c
            assert screen.table.view is not None and screen.table.view.to_act == 4
            assert "TO ACT" in screen.table.seat_text(4)
            assert screen.actions.button_for("champ").text().startswith("Champ $4")
        if i == 16:  # Qh after 2h: suit follows, destroyed
            assert "Turn seat 5 face down" in " ".join(screen.instruction_texts())
            assert "2h" in screen.table.seat_text(5) or "2♥" in " ".join(
                screen.instruction_texts())
            seat5 = screen.table.seat_text(5)
            assert "FACE DOWN" in seat5 and "Q♥" not in seat5 and "3♠" not in seat5
    assert clicks > 3

    # over: the push steps as a checklist, the amounts the ruling gives
    assert screen.pages.currentIndex() == PAGE_PUSH
    texts = screen.push.texts()
    assert screen.push.totals.text() == "In all: seat 1 $90, seat 4 $30, seat 8 $12"
    assert texts[0].startswith("1. Sweep every 3-chip stack (8 × $6 = $48) to seat 1")
    assert not screen.push.next.isEnabled()
    for _ in texts:
        qtbot.keyClick(screen, Qt.Key.Key_T)
    assert all(c.isChecked() for c in screen.push.checks)
    assert screen.push.next.isEnabled()
    assert screen.push.progress.text() == f"{len(texts)} of {len(texts)} done"

    # the store holds every event and the settlement's pushes
    rows = svc.hand_events(hand_id)
    stored = hand_events(r.body for r in rows)
    assert stored[1:] == events[1:]
    assert stored[0].get("chip") == 200 and stored[0].seats == events[0].seats
    assert all(r.actor == "dana" for r in rows)
    pushes = {x.seat: x.amount for x in svc.ledger(hand_id) if x.kind == "push"}
    assert {s: a for s, a in pushes.items() if a} == {1: 9000, 4: 3000, 8: 1200}
    assert svc.hand(hand_id).status == "settled"

    # N starts the next hand; the carry-in, button and seats come from the services
    qtbot.keyClick(screen, Qt.Key.Key_N)
    assert screen.c.now is not None and screen.c.now.hand.id != hand_id
    assert screen.message.text() == "Deal the up card to seat 1"


def test_regression_refused_card_shows_reason_inline_and_keeps_text(
    qtbot: Any, memory_services: Services
) -> None:
    screen = open_screen(qtbot, memory_services)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    type_card(qtbot, screen, "7h")
    qtbot.keyClicks(screen.cards.input, "9x")
    qtbot.keyClick(screen.cards.input, Qt.Key.Key_Return)
    assert "'9x' is not a card" in screen.cards.error.text()
    assert screen.cards.error.isVisible()
    assert screen.cards.input.text() == "9x"
    screen.cards.input.clear()
    qtbot.keyClicks(screen.cards.input, "7H")
    qtbot.keyClick(screen.cards.input, Qt.Key.Key_Return)
    assert screen.cards.error.text() == (
        "7h cannot come from the stub: it is already face up at seat 1"
    )
    assert screen.cards.input.text() == "7H"
    assert screen.c.now is not None and len(screen.c.now.replay.steps) == 2
    assert "7♥" in screen.table.seat_text(1) and "7♥" not in screen.table.seat_text(2)
    # the picker greys the same card out, with the reason
    qtbot.keyClick(screen, Qt.Key.Key_F2)
    pick = screen.cards.picker.buttons["7h"]
    assert not pick.isEnabled() and "already face up at seat 1" in pick.toolTip()
    qtbot.mouseClick(screen.cards.picker.buttons["Kc"], Qt.MouseButton.LeftButton)
    assert "K♣" in screen.table.seat_text(2)
    assert screen.cards.error.text() == ""


def test_ruling_cc_8_refused_coward_says_why(qtbot: Any, memory_services: Services) -> None:
    screen = open_screen(qtbot, memory_services)
    qtbot.keyClicks(screen.seats_edit, "1 2 3")
    qtbot.keyClick(screen, Qt.Key.Key_N)
    for code in ("9d", "8c", "7h"):
        type_card(qtbot, screen, code)
    qtbot.keyClick(screen, "w")  # seat 1 stops on 9
    qtbot.keyClick(screen, "w")  # seat 2 stops on 8
    coward = screen.actions.button_for("coward")
    assert coward is not None and not coward.isEnabled()
    assert "within 3" in screen.actions.reasons.text() or "3" in screen.actions.reasons.text()
    qtbot.keyClick(screen, "w")
    assert screen.refusal.isVisible()
    assert screen.refusal.text().startswith("Coward: ")
    assert screen.c.now is not None and len(screen.c.now.replay.steps) == 6


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_seats_do_not_overlap_at_supported_sizes(
    qtbot: Any, memory_services: Services, size: tuple[int, int]
) -> None:
    screen = open_screen(qtbot, memory_services)
    screen.resize(*size)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    for code in ("7h", "kc", "2s", "9d", "3s", "jc", "jh", "9c"):
        type_card(qtbot, screen, code)
    qtbot.wait(10)
    rects = [w.geometry() for w in screen.table.seats.values()]
    assert len(rects) == 8
    for i, a in enumerate(rects):
        assert screen.table.rect().contains(a), f"seat {i + 1} leaves the table area"
        for b in rects[i + 1:]:
            assert not a.intersects(b), f"seats overlap at {size}"

"""Mille keyboard only, from the focus each window opens with, at 1280x800 under a window
manager: a hand on the score sheet (seat 1 melds, seat 2 melds with a 2 and gives its cards
left, seat 1 goes out), then, at a table that records the play, a first turn (the upcard, a
draw, a meld, a discard). After every step the app's own layout check must find every window
within 1280x800, every button's label whole and every button of the main window showing its
key; the database must hold what was typed, and the hand's score must be the sheet's."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.engine.hand import replay
from dealer_assist.engine.log import hand_events
from tests.ui.realwindow.harness import MAIN, App, Table, approve, dealer_shift, open_and_deal

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

MILLE: dict[str, Any] = {"name": "Mille-1", "game": "mille", "seats": 2, "smallest_chip": 100,
                         "stakes": "$1-$5", "params": {"stakes": [100, 500]}}
TURNS: dict[str, Any] = {**MILLE, "name": "Mille-2", "params": {"stakes": [100, 500],
                                                                 "turns": True}}


def typed(app: App, title: str, cards: str) -> None:
    """The action's dialog: the cards typed, Enter."""
    app.wait_for(title)
    app.enter(cards)


def test_a_mille_hand_keyboard_only_fits_1280x800(display: dict[str, str],
                                                   tmp_path: Path) -> None:
    with dealer_shift(display, tmp_path, MILLE, TURNS) as shift:
        app, step = shift.app, shift.step
        step("signed in")
        play_hand(app, shift.table("Mille-1"), step, tmp_path)
        app.key("x")  # close the shift between hands, the floor approving
        approve(app, "2222")
        app.wait_for(MAIN)
        play_turns(app, shift.table("Mille-2"), step)


def play_hand(app: App, t: Table, step: Callable[[str], None], shots: Path) -> None:
    open_and_deal(app, 0)
    t.wait(1)
    step("Mille dealt: melds, cards left, out for two seats")
    app.key("m")  # no seat to act: the letter alone is seat 1's
    typed(app, r"^Seat 1 melds$", "Ks Ks Kh Kd")
    assert t.wait(2)[-1] == {"type": "meld", "seat": 1, "cards": ["Ks", "Ks", "Kh", "Kd"]}
    step("seat 1's meld")
    app.key("1", "m")
    typed(app, r"^Seat 1 melds$", "Qs Qs Qh")
    t.wait(3)
    step("seat 1's second meld")
    app.key("2", "m")
    typed(app, r"^Seat 2 melds$", "9c 9d 2s")
    assert t.wait(4)[-1] == {"type": "meld", "seat": 2, "cards": ["9c", "9d", "2s"]}
    step("seat 2's meld with a wild 2")
    app.key("2", "l")
    typed(app, r"^Seat 2's cards left$", "As Jd 7c")
    assert t.wait(5)[-1] == {"type": "left", "seat": 2, "cards": ["As", "Jd", "7c"]}
    step("seat 2's cards left")
    app.key("o")  # seat 1, the only seat still open, is now the seat to act
    bodies = t.wait(6)
    assert bodies[-1] == {"type": "out", "seat": 1}
    app.screenshot(shots / "mille-over.png")
    step("seat 1 went out: the hand is over")
    rep = replay(hand_events(bodies))
    # seat 1: kings 40 + queens 210, no 2s: x2 = 500; seat 2: 30 - 70 = -40, a chapeau
    assert rep.game.report(rep.state)["hand_scores"] == {"1": 500, "2": -40}
    app.screenshot(shots / "mille-sheet.png")


def play_turns(app: App, t: Table, step: Callable[[str], None]) -> None:
    """The play turn by turn: the upcard and a discard from the card entry, a draw by its
    letter, a meld from its dialog."""
    open_and_deal(app, 1)
    t.wait(1)
    step("Mille turn by turn dealt: the upcard")
    app.key("u")
    app.enter("9h")
    assert t.wait(2)[-1] == {"type": "upcard", "card": "9h"}
    step("the upcard turned: seat 1, the non-dealer, draws")
    app.key("s")
    assert t.wait(3)[-1] == {"type": "draw", "seat": 1, "from": "stock"}
    step("a draw from the stock")
    app.key("m")
    typed(app, r"^Meld$", "Ks Ks Kh")
    assert t.wait(4)[-1] == {"type": "meld", "seat": 1, "cards": ["Ks", "Ks", "Kh"]}
    step("a meld")
    app.key("d")
    app.enter("4c")
    assert t.wait(5)[-1] == {"type": "discard", "seat": 1, "card": "4c"}
    step("a discard: seat 2 to draw")

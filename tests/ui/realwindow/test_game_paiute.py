"""A hand of Paiute, keyboard only from the focus each window opens with, at 1280x800 under a
window manager: the wild card and the upcard typed into the card entry, draws by their letters
(S the stock, P the pile) and discards typed, a six-card call in its form (the cards, then the
combination chosen by its first letter), the last turns (a pass, the dealer's call that beats
the first), the push ticked and the shift closed. After every step the app's own layout check
must find every window within 1280x800, every label whole and every button showing its key; the
database must hold what was typed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.ui.realwindow.harness import (
    App,
    Table,
    dealer_shift,
    form,
    open_and_deal,
    push_and_close,
    quit_from_main,
)

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

PAIUTE: dict[str, Any] = {"name": "PA-1", "game": "paiute", "seats": 3,
                          "smallest_chip": 100, "params": {"ante": 100}}


def test_a_paiute_hand_keyboard_only_fits_1280x800(display: dict[str, str],
                                                   tmp_path: Path) -> None:
    with dealer_shift(display, tmp_path, PAIUTE) as shift:
        play_paiute(shift.app, shift.table("PA-1"), shift.step)
        quit_from_main(shift.app)


def turn(app: App, t: Table, step: Callable[[str], None], draw: str, card: str,
         n: int) -> None:
    """The seat to play draws (S, or P for the pile's top) and discards ``card``."""
    app.key(draw)
    t.wait(n)
    app.enter(card)
    assert t.wait(n + 1)[-1]["card"] == card[0].upper() + card[1]
    step(f"a turn: {draw}, {card}")


def play_paiute(app: App, t: Table, step: Callable[[str], None]) -> None:
    open_and_deal(app, 0)
    t.wait(1)
    step("Paiute dealt: the wild card to type")
    app.enter("7h")
    app.enter("qs")
    assert t.wait(3)[1:] == [{"type": "wild", "card": "7h"}, {"type": "upcard", "card": "Qs"}]
    step("the wild card and the upcard")
    turn(app, t, step, "p", "2c", 4)  # seat 1 takes the Qs
    assert t.bodies()[3] == {"type": "draw", "seat": 1, "from": "discard"}
    turn(app, t, step, "s", "jd", 6)
    turn(app, t, step, "s", "8s", 8)
    app.key("s")  # seat 1 draws and calls six cards: four queens (the 7s wild), two fours
    t.wait(10)
    app.key("c")
    form(app, r"^Seat 1 calls \(6 cards\)$", "qs qh qd 4c 4h 7s", "f")
    assert t.wait(11)[-1] == {"type": "call", "seat": 1,
                              "cards": ["Qs", "Qh", "Qd", "4c", "4h", "7s"],
                              "combination": "four/two"}
    step("seat 1 calls")
    turn(app, t, step, "s", "3d", 12)
    app.key("n")
    assert t.wait(14)[-1] == {"type": "pass", "seat": 2}
    step("seat 2 passes")
    app.key("s")
    t.wait(15)
    app.key("c")  # the dealer's last turn: four kings (the 7c wild) and two fives
    form(app, r"^Seat 3 calls \(6 cards\)$", "kc kd ks 7c 5s 5d", "f")
    assert t.wait(16)[-1]["combination"] == "four/two"
    step("the dealer's call beats seat 1's")
    assert t.prompt().done
    push_and_close(app, step)

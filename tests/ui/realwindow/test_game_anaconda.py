"""A hand of Anaconda keyboard only from the focus each window opens with, at 1280x800 under a
window manager: betting (K), the two passes (P), the declarations (H, L), the rolls and the
shows typed as cards, the push with the odd chip left in the pot. After every step the app's
own layout check must find every window within 1280x800, every button's label whole and every
button of the main window showing its key; the database must hold what was typed."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.ui.realwindow.harness import (
    MAIN,
    App,
    Table,
    dealer_shift,
    open_and_deal,
    push_and_close,
)

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

ANACONDA: dict[str, Any] = {
    "name": "Anaconda-1", "game": "anaconda", "seats": 2, "smallest_chip": 100,
    "buy_in": 20000,
    "params": {"structure": "limit", "ante": 100, "small_bet": 200, "big_bet": 400, "cap": 4},
}


def test_anaconda_hand_keyboard_only_fits_1280x800(display: dict[str, str],
                                                   tmp_path: Path) -> None:
    with dealer_shift(display, tmp_path, ANACONDA) as shift:
        shift.step("signed in")
        anaconda(shift.app, shift.table("Anaconda-1"), shift.step, tmp_path)


def anaconda(app: App, t: Table, step: Callable[[str], None], shots: Path) -> None:
    open_and_deal(app, 0)
    first = t.wait(1)[0]
    assert (first["pot_in"], first["button"], first["ante"]) == (0, 2, 100)
    step("Anaconda dealt")
    n = 1

    def press(key: str, want: dict[str, Any], name: str) -> None:
        nonlocal n
        app.key(key)
        n += 1
        assert t.wait(n)[-1] == want
        step(name)

    def typed(cards: str, want: dict[str, Any], name: str) -> None:
        nonlocal n
        app.enter(cards)
        n += 1
        got = t.wait(n)[-1]
        assert {k: (v if k not in ("card", "cards") else None) for k, v in got.items()} == want
        step(name)

    for which in ("first", "second"):
        press("k", {"type": "check", "seat": 1}, f"before the {which} pass: seat 1 checks")
        press("k", {"type": "check", "seat": 2}, f"before the {which} pass: seat 2 checks")
        press("p", {"type": "pass"}, f"the {which} pass")
    press("k", {"type": "check", "seat": 1}, "after the passes: seat 1 checks")
    press("k", {"type": "check", "seat": 2}, "after the passes: seat 2 checks")
    press("h", {"type": "declare", "seat": 1, "way": "high"}, "seat 1 declares high")
    press("l", {"type": "declare", "seat": 2, "way": "low"}, "seat 2 declares low")
    for one, two in (("ah", "2c"), ("ad", "3c"), ("ks", "5d"), ("kd", "7h")):
        typed(one, {"type": "roll", "seat": 1, "card": None}, f"seat 1 rolls {one}")
        typed(two, {"type": "roll", "seat": 2, "card": None}, f"seat 2 rolls {two}")
    app.screenshot(shots / "anaconda-rolled.png")
    press("k", {"type": "check", "seat": 1}, "four up: seat 1 checks")
    press("k", {"type": "check", "seat": 2}, "four up: seat 2 checks")
    typed("ah ad ks kd 9c", {"type": "show", "seat": 1, "cards": None}, "seat 1 shows")
    typed("2c 3c 5d 7h 4s", {"type": "show", "seat": 2, "cards": None}, "seat 2 shows")
    assert t.prompt().done
    # $2 antes: $1 to the high, $1 to the low, nothing left
    app.screenshot(shots / "anaconda-over.png")
    push_and_close(app, step)
    app.wait_for(MAIN)

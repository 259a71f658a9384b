"""A hand of Rams keyboard only from the focus each window opens with, at 1280x800 under a window
manager: the turned card typed, the declarations by their keys (a widow switch, a pass refused
while the pot is too small, plays), five tricks typed card by card, the push ticked and the
shift closed. After every step the app's own layout check must find every window within
1280x800, every label whole and every button showing its key; the database must hold what was
typed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.realwindow.harness import dealer_shift, open_and_deal, push_and_close, quit_from_main

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

RAMS: dict[str, Any] = {"name": "Rams-1", "game": "rams", "seats": 3, "smallest_chip": 100,
                        "params": {"stake": 100}}
#: Three players, dealer seat 3, an empty pot: clubs trumps; seat 1 widow, 2 and 3 play.
TRICKS = (("Ah", "Kh", "Qh"), ("Ad", "Kd", "Qd"), ("As", "Ks", "Qs"), ("Jh", "Th", "9h"),
          ("Ac", "Kc", "Qc"))


def test_a_hand_of_rams_keyboard_only_fits_1280x800(
    display: dict[str, str], tmp_path: Path
) -> None:
    with dealer_shift(display, tmp_path, RAMS) as shift:
        app, step = shift.app, shift.step
        t = shift.table("Rams-1")
        open_and_deal(app, 0)
        t.wait(1)
        step("Rams dealt: the turned card asked")
        app.enter("7c")
        assert t.wait(2)[-1] == {"type": "trump", "card": "7c"}
        step("trumps turned")
        app.key("s")  # pass: refused, the pot holds only the ante (nothing recorded)
        step("a pass refused")
        app.key("w")
        assert t.wait(3)[-1] == {"type": "widow", "seat": 1}
        step("seat 1 takes the widow")
        app.key("p")
        t.wait(4)
        app.key("p")
        assert t.wait(5)[-1] == {"type": "play", "seat": 3}
        step("everyone declared")
        n = 5
        for cards in TRICKS:
            for code in cards:
                app.enter(code.lower())
                n += 1
                assert t.wait(n)[-1]["card"] == code
            step(f"trick of {cards[0]}")
        bodies = t.bodies()
        assert [b["type"] for b in bodies].count("card") == 15
        assert t.prompt().done
        push_and_close(app, step, ticks=6)
        quit_from_main(app)

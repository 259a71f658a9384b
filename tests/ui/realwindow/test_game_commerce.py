"""A hand of Commerce, keyboard only from the focus each window opens with, at 1280x800 under a
window manager: the board typed into the card entry, the dealer's blind three-card exchange and
a seat's exchange in the two-box form (the cards taken, the cards given), a knock, the last
turns (a stand, an exchange), the showdown typed hand by hand, the push ticked and the shift
closed. After every step the app's own layout check must find every window within 1280x800,
every label whole and every button showing its key; the database must hold what was typed."""

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

COMMERCE: dict[str, Any] = {"name": "CM-1", "game": "commerce", "seats": 3,
                            "smallest_chip": 100, "params": {"stake": 100}}


def test_a_commerce_hand_keyboard_only_fits_1280x800(display: dict[str, str],
                                                     tmp_path: Path) -> None:
    with dealer_shift(display, tmp_path, COMMERCE) as shift:
        play_commerce(shift.app, shift.table("CM-1"), shift.step)
        quit_from_main(shift.app)


def play_commerce(app: App, t: Table, step: Callable[[str], None]) -> None:
    open_and_deal(app, 0)
    t.wait(1)
    step("Commerce dealt: the board to type")
    app.enter("kh 9c 2d")
    assert t.wait(2)[-1] == {"type": "board", "cards": ["Kh", "9c", "2d"]}
    step("the board")
    app.key("b")  # the dealer (seat 3) exchanges all three blind
    form(app, r"^Dealer 3: blind exchange$", "kh 9c 2d", "5s 6s 7d")
    assert t.wait(3)[-1] == {"type": "exchange", "seat": 3, "take": ["Kh", "9c", "2d"],
                             "give": ["5s", "6s", "7d"], "blind": True}
    step("the dealer's blind exchange")
    app.key("e")
    form(app, r"^Seat 1 exchanges$", "5s", "qc")
    assert t.wait(4)[-1] == {"type": "exchange", "seat": 1, "take": ["5s"], "give": ["Qc"],
                             "blind": False}
    step("seat 1's exchange")
    app.key("k")
    assert t.wait(5)[-1] == {"type": "knock", "seat": 2}
    step("seat 2 knocks")
    app.key("e")  # the dealer's last turn: it holds Kh 9c 2d, gives the 2d for the Qc
    form(app, r"^Seat 3 exchanges$", "qc", "2d")
    t.wait(6)
    step("seat 3's last turn")
    app.key("s")
    assert t.wait(7)[-1] == {"type": "stand", "seat": 1}
    step("seat 1 stands")
    for n, shown in enumerate(("5s 4s 3s", "ah ad 4c", "kh 9c qc"), start=8):
        app.enter(shown)
        assert t.wait(n)[-1]["type"] == "show"
        step(f"show {n - 7}")
    assert t.prompt().done
    push_and_close(app, step)

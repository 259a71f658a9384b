"""A hand of Markets poker on the dealer's screen, keyboard only from the focus each window opens
with, at 1280x800 under a window manager: the first hand of a game (advantage cards), the
disclosures, the middle, a bet typed in chips, the supplier auction as its own step (a bid in
chips, two withdrawals), the buyer's card given up, the shows, then the push steps. After every
step the app's own layout check must find every window within 1280x800, every button's label
whole and every main-window button showing its key; the database must hold what was typed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.realwindow.harness import (
    MAIN,
    dealer_shift,
    open_and_deal,
    push_and_close,
    quit_from_main,
)

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

MK: dict[str, Any] = {"name": "MK-1", "game": "markets", "seats": 3, "smallest_chip": 100,
                      "buy_in": 2000, "params": {"chip": 100}}


def test_a_markets_hand_keyboard_only_fits_1280x800(
    display: dict[str, str], tmp_path: Path
) -> None:
    with dealer_shift(display, tmp_path, MK) as shift:
        app, step = shift.app, shift.step
        t = shift.table("MK-1")
        open_and_deal(app, 0)
        t.wait(1)
        step("first hand of a game dealt")

        def card(text: str, name: str) -> None:
            n = len(t.bodies())
            app.enter(text)
            t.wait(n + 1)
            step(name)

        for c in ("kh", "2c", "9s"):
            card(c, f"advantage {c}")
        for c in ("ah", "7d", "qc"):
            card(c, f"disclosure {c}")
        card("as", "the supplier")
        card("kd", "the first externality")
        app.key("b")  # seat 1 bets: the range in chips in the form's box
        app.wait_for(r"^Bet 1-5 chips")
        step("the bet's form")
        app.enter("2")
        app.wait_for(MAIN)
        assert t.wait(10)[-1] == {"type": "bet", "seat": 1, "to": 2}
        step("a bet of 2 chips")
        for n in (11, 12):
            app.key("c")
            t.wait(n)
            step("a call")
        card("5h", "the second externality")
        for n in (14, 15, 16):
            app.key("k")
            t.wait(n)
            step("a check")
        assert t.prompt().phase == "auction"
        step("the auction")
        app.key("b")
        app.wait_for(r"^Seat 1 bids")
        step("the bid's form")
        app.enter("4")
        app.wait_for(MAIN)
        assert t.wait(17)[-1] == {"type": "bid", "seat": 1, "chips": 4}
        step("a bid")
        for n, seat in ((18, 2), (19, 3)):
            app.key("w")
            assert t.wait(n)[-1] == {"type": "withdraw", "seat": seat}
            step("a withdrawal")
        card("3d", "the card given up for the supplier")
        for shown in ("ah as kc ks 4h", "7d 2h 2s td 9d", "qc qh 8c 6s 3h"):
            card(shown, "a show")
        bodies = t.bodies()
        assert [b["type"] for b in bodies].count("show") == 3
        assert t.prompt().done
        push_and_close(app, step)
        quit_from_main(app)

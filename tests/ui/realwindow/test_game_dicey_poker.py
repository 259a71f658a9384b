"""A whole hand of Dicey Poker (a solitaire round, the dice entered from the table) keyboard
only from the focus each window opens with, at 1280x800 under a window manager: the deal, the
base and face dice, cards put up and drawn, an ace that starts a wild challenge (its own step:
the percentile die, then Stop), swaps that chip the face-up cards, the last two rounds, and the
push. After every step the app's own layout check must find every window within 1280x800, every
label whole and every button showing its key; the database must hold what was typed."""

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

DP: dict[str, Any] = {"name": "DP-1", "game": "dicey-poker", "seats": 1, "smallest_chip": 100,
                      "params": {"target": 150, "dice": "table"}}
HOLE = "as qd td qs 5d 4d 5s 6d 7s ts"
#: The round, as typed: a die (its key, its value), a card action's key and its card (U up,
#: D draw, X discard), a swap (the face-up card, the hole card), or T for Stop.
ROUND: tuple[tuple[str, str], ...] = (
    ("b", "1"), ("u", "as"), ("d", "2c"),                 # an ace up: a wild challenge
    ("p", "60"), ("t", ""),                               # 60: solitaire needs 70
    ("f", "3"), ("u", "qd"), ("d", "2s"),
    ("b", "10"), ("u", "td"), ("d", "kc"),
    ("f", "4"), ("u", "qs"), ("d", "jh"),
    ("b", "5"), ("u", "5d"), ("d", "js"),                 # five up: no face roll
    ("b", "4"), ("swap", "as 4d"), ("b", "5"), ("swap", "qd 5s"), ("b", "6"),
    ("swap", "td 6d"), ("b", "7"), ("swap", "qs 7s"), ("b", "10"), ("swap", "5d ts"),
    ("b", "2"), ("x", "2c"), ("d", "9d"),                 # the last two rounds
    ("b", "2"), ("x", "2s"), ("d", "ad"),
)
DIE_TITLES = {"b": r"^Roll the base die \(d10\)$", "f": r"^Roll the face die \(d6\)$",
              "p": r"^Roll the percentile die \(d100\)$"}


def test_a_dicey_poker_round_keyboard_only_fits_1280x800(
    display: dict[str, str], tmp_path: Path
) -> None:
    with dealer_shift(display, tmp_path, DP) as shift:
        app, step = shift.app, shift.step
        t = shift.table("DP-1")
        open_and_deal(app, 0)
        t.wait(1)
        step("Dicey Poker: the deal")
        app.enter(HOLE)
        t.wait(2)
        step("seat 1 dealt")
        for n, (kind, typed) in enumerate(ROUND, start=3):
            if kind in DIE_TITLES:
                app.key(kind)
                app.wait_for(DIE_TITLES[kind])
                app.enter(typed)
                app.wait_for(MAIN)
            elif kind == "swap":
                up, hole = typed.split()
                app.key("s")
                app.wait_for(r"^Swap for an unchipped card$")
                app.type(up)
                app.key("Tab")
                app.enter(hole)
                app.wait_for(MAIN)
            elif kind == "t":
                app.key("t")
            else:
                app.key(kind)
                app.enter(typed)
            got = t.wait(n)[-1]
            step(f"event {n}: {got['type']}")
            if got["type"] == "roll":
                assert got["value"] == int(typed), got
            elif kind == "swap":
                assert (got["up"].lower(), got["hole"].lower()) == tuple(typed.split())
            elif kind in "udx":
                assert got["card"].lower() == typed, got
        bodies = t.wait(len(ROUND) + 2)
        assert [b["type"] for b in bodies].count("swap") == 5
        assert t.prompt().done
        app.screenshot(tmp_path / "dicey-end.png")
        push_and_close(app, step)
        quit_from_main(app)

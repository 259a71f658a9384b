"""A hand of Guts keyboard only from the focus each window opens with, at 1280x800 under a
window manager: declarations in turn (I, O), the shows typed as cards, the push. After every
step the app's own layout check must find every window within 1280x800, every button's label
whole and every button of the main window showing its key; the database must hold what was
typed, and the next hand starts with the pot this one left."""

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

GUTS: dict[str, Any] = {"name": "Guts-1", "game": "guts", "seats": 4, "smallest_chip": 100,
                        "buy_in": 10000, "params": {"ante": 100, "max": 2000}}


def test_guts_hand_keyboard_only_fits_1280x800(display: dict[str, str], tmp_path: Path) -> None:
    with dealer_shift(display, tmp_path, GUTS) as shift:
        shift.step("signed in")
        guts(shift.app, shift.table("Guts-1"), shift.step, tmp_path)


def guts(app: App, t: Table, step: Callable[[str], None], shots: Path) -> None:
    open_and_deal(app, 0)
    first = t.wait(1)[0]
    assert (first["pot_in"], first["button"], first["ante"]) == (0, 4, 100)
    assert t.prompt().message.startswith("Seat 1 declares in or out (pot $4; a loss costs $4")
    step("Guts dealt: seat 1 to declare")
    for n, (key, kind, seat) in enumerate((("i", "in", 1), ("o", "out", 2), ("i", "in", 3),
                                           ("o", "out", 4)), start=2):
        app.key(key)
        assert t.wait(n)[-1] == {"type": kind, "seat": seat}
        step(f"seat {seat} {kind}")
    for n, (cards, seat) in enumerate((("ah ad", 1), ("kh qd", 3)), start=6):
        app.enter(cards)
        got = t.wait(n)[-1]
        assert (got["type"], got["seat"], [c.lower() for c in got["cards"]]) == (
            "show", seat, cards.split())
        step(f"seat {seat} shows")
        if seat == 1:
            app.screenshot(shots / "guts-showdown.png")
    assert t.prompt().done
    app.screenshot(shots / "guts-over.png")
    push_and_close(app, step)
    # seat 1's aces take the $4; seat 3 pays $4 into the next pot
    app.wait_for(MAIN)

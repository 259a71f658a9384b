"""A hand of Rams keyboard only from the focus each window opens with, at 1280x800 under a window
manager: the turned card typed, the declarations by their keys (a widow switch, a pass refused
while the pot is too small, plays), five tricks typed card by card, the push ticked and the
shift closed. After every step the app's own layout check must find every window within
1280x800, every label whole and every button showing its key; the database must hold what was
typed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.ui.realwindow.harness import App, missing_tools, x_display
from tests.ui.realwindow.test_every_game import Table, first_run
from tests.ui.realwindow.test_keyboard_only import (
    MAIN,
    SIGN_IN,
    approve,
    sign_in,
)

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

if missing_tools():
    pytest.skip(f"real-window tests need {', '.join(missing_tools())} (scripts/setup --test)",
                allow_module_level=True)

RAMS: dict[str, Any] = {"name": "Rams-1", "game": "rams", "seats": 3, "smallest_chip": 100,
                        "params": {"stake": 100}}
#: Three players, dealer seat 3, an empty pot: clubs trumps; seat 1 widow, 2 and 3 play.
TRICKS = (("Ah", "Kh", "Qh"), ("Ad", "Kd", "Qd"), ("As", "Ks", "Qs"), ("Jh", "Th", "9h"),
          ("Ac", "Kc", "Qc"))


@pytest.fixture(scope="module")
def display() -> Iterator[dict[str, str]]:
    with x_display() as env:
        yield env


def test_a_hand_of_rams_keyboard_only_fits_1280x800(
    display: dict[str, str], tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    app = App(display, home, tmp_path / "app.log")
    problems: list[str] = []
    try:
        svc, admin = first_run(app, home)
        svc.add_table(admin, RAMS)
        sign_in(app, "dana", "1111")

        def step(name: str) -> None:
            problems.extend(app.layout(name))

        t = Table(svc, "Rams-1")
        app.key("o")
        app.wait_for(r"^Open a table and shift$")
        app.key("Return", "Return")
        app.wait_for(MAIN)
        app.key("n")
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
        step("push steps")
        app.key(*["t"] * 6)
        step("push steps ticked")
        app.key("x")
        approve(app, "2222")
        app.wait_for(MAIN)
        app.key("ctrl+q")
        app.wait_for(SIGN_IN)
        app.key("Escape")
        app.wait_for(r"^Quit Dealer Assist\?$")
        app.key("alt+q")
        assert app.quit_wait() == 0
    finally:
        app.screenshot(tmp_path / "last.png")
        app.stop()
    assert "Traceback" not in app.log.read_text()
    assert problems == []

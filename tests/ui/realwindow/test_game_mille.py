"""A Mille hand keyboard only, from the focus each window opens with, at 1280x800 under a
window manager: seat 1 melds, seat 2 melds with a 2 and gives its cards left, seat 1 goes out;
after every step the app's own layout check must find every window within 1280x800, every
button's label whole and every button of the main window showing its key; the database must
hold what was typed, and the hand's score and running totals must be the sheet's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.engine.hand import replay
from dealer_assist.engine.log import hand_events
from tests.ui.realwindow.harness import App, missing_tools, x_display
from tests.ui.realwindow.test_every_game import Table, open_and_deal
from tests.ui.realwindow.test_keyboard_only import (
    SIGN_IN,
    default_db,
    services,
    sign_in,
)

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

if missing_tools():
    pytest.skip(f"real-window tests need {', '.join(missing_tools())} (scripts/setup --test)",
                allow_module_level=True)

MILLE: dict[str, Any] = {"name": "Mille-1", "game": "mille", "seats": 2, "smallest_chip": 100,
                         "stakes": "$1-$5", "params": {"stakes": [100, 500]}}


@pytest.fixture(scope="module")
def display() -> Iterator[dict[str, str]]:
    with x_display() as env:
        yield env


def typed(app: App, title: str, cards: str) -> None:
    """The action's dialog: the cards typed, Enter."""
    app.wait_for(title)
    app.enter(cards)


def test_a_mille_hand_keyboard_only_fits_1280x800(display: dict[str, str],
                                                   tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    app = App(display, home, tmp_path / "app.log")
    problems: list[str] = []
    try:
        app.wait_for(r"^Set up this station$")
        app.enter("Riverside Cardroom")
        app.key("Return", "Return", "Return")
        app.wait_for(r"^First run")
        for text in ("ada", "Ada Admin", "9999", "9999"):
            app.enter(text)
        app.wait_for(SIGN_IN)
        assert default_db(home).exists()
        svc = services(home)
        admin = svc.sign_in("ada", "9999")
        svc.add_user(admin, name="dana", full_name="Dana Dealer", role="dealer", pin="1111")
        svc.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2222")
        svc.add_table(admin, MILLE)
        sign_in(app, "dana", "1111")

        def step(name: str) -> None:
            problems.extend(app.layout(name))

        step("signed in")
        play_hand(app, Table(svc, "Mille-1"), step, tmp_path)
    finally:
        app.screenshot(tmp_path / "last.png")
        app.stop()
    assert "Traceback" not in app.log.read_text()
    assert problems == []


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
    app.key("n")  # the next hand carries the sheet
    nxt = until_start(t)
    assert nxt["totals_in"] == {"1": 500, "2": -40} and nxt["chapeaux_in"] == {"1": 0, "2": 1}
    assert nxt["dealer"] == 1  # the deal alternates
    step("the next hand, the sheet carried")
    app.screenshot(shots / "mille-next.png")


def until_start(t: Table) -> dict[str, Any]:
    from tests.ui.realwindow.harness import until

    return until(lambda: (b := t.bodies()) and len(b) == 1 and "totals_in" in b[0] and b[0],
                 "the next hand started")

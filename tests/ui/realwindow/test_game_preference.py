"""A hand of Preference keyboard only from the focus each window opens with, at 1280x800 under
a window manager: the ante typed in its form, a Game bid chosen from the list, two passes, trumps
named, both defenders playing, and the thirty cards typed one by one; the push ticked and the
shift closed. After every step the app's own layout check must find every window within
1280x800, every label whole and every button showing its key; the database must hold what was
typed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer_assist.events import CardDealt
from dealer_assist.games.preference.events import Ante, Bid, Defend, NameTrump
from tests.games.test_preference import HANDS, HEARTS, playout, start
from tests.ui.realwindow.harness import (
    MAIN,
    approve,
    dealer_shift,
    open_and_deal,
    push_and_close,
    quit_from_main,
    until,
)

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

PREF: dict[str, Any] = {"name": "Pref-1", "game": "preference", "seats": 3,
                        "smallest_chip": 100, "params": {"stake": 100}}
#: The cards of the hand, played by the rules from known hands: seat 1 declares Game in spades.
CARDS = [e for e in playout([start(), Ante(stakes=10), Bid(seat=1, bid="game"),
                             Bid(seat=2, bid="pass"), Bid(seat=3, bid="pass"),
                             NameTrump(seat=1, suit="s"), Defend(seat=2, choice="play"),
                             Defend(seat=3, choice="play")], HANDS)
         if isinstance(e, CardDealt)]
#: A Hearts contract: seat 1 holds every heart, both defenders play.
HEARTS_HAND = playout([start(), Ante(stakes=10), Bid(seat=1, bid="hearts"),
                       Defend(seat=2, choice="play"), Defend(seat=3, choice="play")], HEARTS)


def test_a_hand_of_preference_keyboard_only_fits_1280x800(
    display: dict[str, str], tmp_path: Path
) -> None:
    with dealer_shift(display, tmp_path, PREF) as shift:
        app, step = shift.app, shift.step
        t = shift.table("Pref-1")
        open_and_deal(app, 0)
        t.wait(1)
        step("Preference dealt: the ante asked")
        app.key("a")
        app.wait_for(r"^Ante \(stakes each\)$")
        step("the ante's form")
        app.enter("10")
        app.wait_for(MAIN)
        assert t.wait(2)[-1] == {"type": "ante", "stakes": 10}
        step("the ante")
        app.key("b")
        app.wait_for(r"^Bid$")
        step("the bid's form")
        app.key("Down", "Return")  # One, Game, Hearts: Game
        app.wait_for(MAIN)
        assert t.wait(3)[-1] == {"type": "bid", "seat": 1, "bid": "game"}
        app.key("p")
        t.wait(4)
        app.key("p")
        assert t.wait(5)[-1] == {"type": "bid", "seat": 3, "bid": "pass"}
        step("the auction won")
        app.key("t")
        app.wait_for(r"^Trumps$")
        app.key("Return")  # spades, the first of the list
        app.wait_for(MAIN)
        assert t.wait(6)[-1] == {"type": "trump", "seat": 1, "suit": "s"}
        step("trumps named")
        app.key("p")
        t.wait(7)
        app.key("p")
        assert t.wait(8)[-1] == {"type": "defend", "seat": 3, "choice": "play"}
        step("both defenders play")
        n = 8
        for i, ev in enumerate(CARDS, start=1):
            app.enter(ev.card.code.lower())
            n += 1
            got = t.wait(n)[-1]
            assert (got["seat"], got["card"]) == (ev.seat, ev.card.code)
            if i % 6 == 0:
                step(f"card {i}")
        bodies = t.bodies()
        assert [b["type"] for b in bodies].count("card") == 30
        assert t.prompt().done
        push_and_close(app, step, ticks=6)
        quit_from_main(app)


def test_regression_a_hearts_contract_and_a_misdeal_keyboard_only_fit_1280x800(
    display: dict[str, str], tmp_path: Path
) -> None:
    """A Hearts bid left the screen refusing every key; a misdeal left no return steps and no
    next hand. Now: Hearts chosen from the bid list, both defenders play, thirty cards, the
    push; in the next hand F4, the floor's PIN, the return step ticked and N deals again."""
    from dealer_assist.engine.hand import replay

    with dealer_shift(display, tmp_path, PREF) as shift:
        app, step = shift.app, shift.step
        t = shift.table("Pref-1")
        open_and_deal(app, 0)
        t.wait(1)
        app.key("a")
        app.wait_for(r"^Ante \(stakes each\)$")
        app.enter("10")
        app.wait_for(MAIN)
        t.wait(2)
        app.key("b")
        app.wait_for(r"^Bid$")
        app.key("Down", "Down", "Return")  # One, Game, Hearts: Hearts
        app.wait_for(MAIN)
        assert t.wait(3)[-1] == {"type": "bid", "seat": 1, "bid": "hearts"}
        step("Hearts bid: the defenders asked")
        app.key("p")
        t.wait(4)
        app.key("p")
        assert t.wait(5)[-1] == {"type": "defend", "seat": 3, "choice": "play"}
        n = 5
        for ev in HEARTS_HAND[n:]:
            assert isinstance(ev, CardDealt)
            app.enter(ev.card.code.lower())
            n += 1
            t.wait(n)
        step("the Hearts contract played")
        assert t.prompt().done
        ticks = len(replay(HEARTS_HAND).settle().steps)
        app.key(*["t"] * ticks)
        app.key("n")
        second = until(lambda: (b := t.bodies()) and b[0].get("pot_in") == 4000 and b,
                       "the next hand, $40 carried in")
        dealer = second[0]["dealer"]
        app.key("F4")
        app.wait_for(r"^Misdeal$")
        app.enter("card exposed")
        approve(app, "2222")
        app.wait_for(MAIN)
        step("the misdeal's return steps")
        assert t.bodies()[-1] == {"type": "misdeal", "reason": "card exposed"}
        app.key("t")  # the one step: leave the $40 for the next hand
        app.key("n")
        third = until(lambda: (b := t.bodies()) and b[-1]["type"] == "start" and b,
                      "the hand dealt again")
        assert third[0]["dealer"] == dealer and third[0]["pot_in"] == 4000
        step("the hand dealt again")
        quit_from_main(app)

"""A hand of the games the first real-window test does not deal, keyboard only from the focus
each window opens with, at 1280x800 under a window manager: Chinese Poker at four seats with a
natural and a surrender, no-limit Pineapple with a Kill of a seat that does not discard, and
pot-limit Pineapple with a Kill of the seat to act. After every step the app's own check
(ui/layout_check.py, measured with the font) must find every window within 1280x800, every
button's label whole and every button of the main window showing its key; the database must
hold what was typed.

Regressions: Chinese Poker's window grew to 2,004 px with twelve keyless, clipped buttons;
Pineapple's labels were clipped ("se to $4-$30") and Kill had no key.

The discards are made face up here (D, the number kept, the card): a face-down discard by key
is pinned by its own tests.
"""

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
    first_run,
    form,
    open_and_deal,
    push_and_close,
    quit_from_main,
)

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

# still importable from here: the shared steps live in harness.py now
__all__ = ["Table", "first_run", "open_and_deal", "push_and_close"]

CP: dict[str, Any] = {"name": "CP-1", "game": "chinese-poker", "seats": 4,
                      "smallest_chip": 100, "params": {"unit": 100}}
NL: dict[str, Any] = {"name": "NL-1", "game": "pineapple", "seats": 3, "smallest_chip": 100,
                      "buy_in": 20000, "params": {"structure": "no-limit",
                                                  "blinds": [100, 200]}}
PL: dict[str, Any] = {"name": "PL-1", "game": "pineapple", "seats": 3, "smallest_chip": 100,
                      "buy_in": 20000, "params": {"structure": "pot-limit",
                                                  "blinds": [100, 200]}}
#: Chinese Poker: seat 1's six pairs, seats 3 and 4's rows (none fouls).
SIX_PAIRS = ("2s 2h 3s", "3h 4s 4h 5s 5h", "6s 6h 7s 7h 9c")
SEAT_3 = ("Ac Kc Qc", "Jd Jc 8d 8c 2d", "Td Tc Th 3d 3c")
SEAT_4 = ("As Ks 4d", "Qs Qh 7d 6d 5d", "9d 9s 9h 8s 8h")


def test_every_game_and_structure_keyboard_only_fits_1280x800(
    display: dict[str, str], tmp_path: Path
) -> None:
    with dealer_shift(display, tmp_path, CP, NL, PL) as shift:
        shift.step("signed in")
        chinese_poker(shift.app, shift.table("CP-1"), shift.step)
        pineapple(shift.app, shift.table("NL-1"), shift.step, pick=1, kill="discard")
        pineapple(shift.app, shift.table("PL-1"), shift.step, pick=2, kill="betting")
        quit_from_main(shift.app)


def chinese_poker(app: App, t: Table, step: Callable[[str], None]) -> None:
    open_and_deal(app, 0)
    t.wait(1)
    step("Chinese Poker dealt: twelve actions, four seats")
    app.key("1", "n")  # seat 1 declares a natural: six pairs (the fourth of the list)
    app.wait_for(r"^Seat 1: natural$")
    step("the natural's form")
    app.key("Down", "Down", "Down", "Return")
    app.wait_for(MAIN)
    assert t.wait(2)[-1] == {"type": "natural", "seat": 1, "kind": "six-pairs"}
    step("a natural declared")
    app.key("r")
    form(app, r"^Seat 1 shows$", *SIX_PAIRS)
    t.wait(3)
    step("the natural shown")
    app.key("2", "s")  # seat 2 surrenders
    assert t.wait(4)[-1] == {"type": "surrender", "seat": 2}
    step("a surrender")
    app.key("3", "r")
    form(app, r"^Seat 3's rows$", *SEAT_3)
    t.wait(5)
    step("seat 3's rows")
    app.key("r")  # the last seat's: it is the seat to act now, its letter alone
    form(app, r"^Seat 4's rows$", *SEAT_4)
    bodies = t.wait(6)
    sets = {b["seat"]: (b["front"], b["middle"], b["back"]) for b in bodies
            if b["type"] == "set"}
    assert sets == {s: tuple(r.split() for r in typed)
                    for s, typed in ((1, SIX_PAIRS), (3, SEAT_3), (4, SEAT_4))}
    push_and_close(app, step)


def bet_round(app: App, t: Table, step: Callable[[str], None], name: str) -> None:
    """Check, or call, until the round is over."""
    while (p := t.prompt()).phase == "betting":
        n = len(t.bodies())
        kinds = {a.kind for a in p.actions if a.enabled}
        app.key("k" if "check" in kinds else "c")
        t.wait(n + 1)
        step(f"{name}: {'check' if 'check' in kinds else 'call'}")


def pineapple(app: App, t: Table, step: Callable[[str], None], *, pick: int,
              kill: str) -> None:
    structure = t.svc.store.latest_settings(t.id).document["params"]["structure"]
    open_and_deal(app, pick)
    t.wait(1)
    step(f"{structure} dealt")
    killed = None
    if kill == "betting":  # the seat to act's hand is fouled: X, the reason, Enter
        killed = t.prompt().to_act
        app.key("x")
        app.wait_for(rf"^Kill seat {killed} ")
        step("the Kill's form")
        app.key("Down", "Tab", "Return")  # the second reason given: an exposed hand; Record
        app.wait_for(MAIN)
        assert t.wait(2)[-1] == {"type": "kill", "seat": killed, "reason": "exposed hand"}
        step("a hand killed in the betting")
    n = len(t.bodies())
    app.key("r")  # a raise: the range is in the form's box
    app.wait_for(r"^Raise to \$4-")
    step("the raise's form")
    app.enter("$4")
    app.wait_for(MAIN)
    assert t.wait(n + 1)[-1]["to"] == 400
    step("a raise")
    bet_round(app, t, step, "pre-flop")
    owing = [a.seat for a in t.prompt().actions if a.kind == "discard"]
    assert len(owing) == (2 if killed else 3)
    if kill == "discard":  # the second seat owing will not discard: its number, X
        killed = owing.pop(1)
        n = len(t.bodies())
        app.key(str(killed), "x")
        app.wait_for(rf"^Kill seat {killed} \(no discard\)$")
        step("the Kill's form")
        app.key("Tab", "Return")  # the reason offered (a missed discard); Record
        app.wait_for(MAIN)
        assert t.wait(n + 1)[-1] == {"type": "kill", "seat": killed,
                                      "reason": "missed discard"}
        step("a hand killed for a missed discard")
    for seat, card in zip(owing, ("2c", "3c"), strict=False):
        n = len(t.bodies())
        app.key(str(seat), "d", "2")  # seat's discard, keeps 2, the card face up
        step(f"seat {seat}'s discard chooser")
        app.enter(card)
        got = t.wait(n + 1)[-1]
        assert (got["type"], got["seat"], got.get("cards")) == ("discard", seat, [card])
        step(f"seat {seat} discarded")
    for board, name in (("ah kd 7c", "flop"), ("2s", "turn"), ("9h", "river")):
        n = len(t.bodies())
        app.enter(board)
        got = t.wait(n + 1)[-1]
        assert got["type"] == "board" and [c.lower() for c in got["cards"]] == board.split()
        step(f"the {name}")
        bet_round(app, t, step, name)
    for shown in ("as ad", "kh ks"):
        if t.prompt().phase != "showdown":
            break
        n = len(t.bodies())
        app.enter(shown)
        assert t.wait(n + 1)[-1]["type"] == "show"
        step("a show")
    assert t.prompt().done
    push_and_close(app, step)

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

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.engine.base import Prompt
from dealer_assist.engine.hand import replay
from dealer_assist.engine.log import hand_events
from dealer_assist.services import Services
from tests.ui.realwindow.harness import App, missing_tools, until, x_display
from tests.ui.realwindow.test_keyboard_only import (
    MAIN,
    SIGN_IN,
    approve,
    default_db,
    services,
    sign_in,
)

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

if missing_tools():
    pytest.skip(f"real-window tests need {', '.join(missing_tools())} (scripts/setup --test)",
                allow_module_level=True)

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


@pytest.fixture(scope="module")
def display() -> Iterator[dict[str, str]]:
    with x_display() as env:
        yield env


class Table:
    """The table's last hand as the database holds it, read afresh at each look."""

    def __init__(self, svc: Services, name: str) -> None:
        self.svc = svc
        self.id = next(t.id for t in svc.list_tables() if t.name == name)

    def bodies(self) -> list[dict[str, Any]]:
        hands = [h for h in self.svc.list_hands() if h.table_id == self.id]
        if not hands:
            return []
        last = max(hands, key=lambda h: h.number)
        return [r.body for r in self.svc.hand_events(last.id)]

    def prompt(self) -> Prompt:
        rep = replay(hand_events(self.bodies()))
        return rep.game.prompt(rep.state)

    def wait(self, count: int) -> list[dict[str, Any]]:
        """Until the hand holds ``count`` events."""
        return until(lambda: (b := self.bodies()) and len(b) >= count and b,
                     f"{count} events recorded at table {self.id}")


def test_every_game_and_structure_keyboard_only_fits_1280x800(
    display: dict[str, str], tmp_path: Path
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    app = App(display, home, tmp_path / "app.log")
    problems: list[str] = []
    try:
        svc, admin = first_run(app, home)
        for table in (CP, NL, PL):
            svc.add_table(admin, table)
        sign_in(app, "dana", "1111")

        def step(name: str) -> None:
            problems.extend(app.layout(name))

        step("signed in")
        chinese_poker(app, Table(svc, "CP-1"), step)
        pineapple(app, Table(svc, "NL-1"), step, pick=1, kill="discard")
        pineapple(app, Table(svc, "PL-1"), step, pick=2, kill="betting")
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


def first_run(app: App, home: Path) -> tuple[Services, Any]:
    """A new station set up and its first admin created by keyboard, as a cardroom does on
    the first day (the database at its default path); then a dealer and a floor person added
    through the services: (the services, the admin's session)."""
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
    return svc, admin


def open_and_deal(app: App, pick: int) -> None:
    app.key("o")
    app.wait_for(r"^Open a table and shift$")
    app.key(*["Down"] * pick, "Return", "Return")
    app.wait_for(MAIN)
    app.key("n")


def rows(app: App, title: str, typed: tuple[str, str, str]) -> None:
    app.wait_for(title)
    for row in typed:
        app.enter(row)
    app.wait_for(MAIN)


def push_and_close(app: App, step: Callable[[str], None]) -> None:
    step("push steps")
    app.key(*["t"] * 14)
    step("push steps ticked")
    app.key("x")
    approve(app, "2222")
    app.wait_for(MAIN)


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
    rows(app, r"^Seat 1 shows$", SIX_PAIRS)
    t.wait(3)
    step("the natural shown")
    app.key("2", "s")  # seat 2 surrenders
    assert t.wait(4)[-1] == {"type": "surrender", "seat": 2}
    step("a surrender")
    app.key("3", "r")
    rows(app, r"^Seat 3's rows$", SEAT_3)
    t.wait(5)
    step("seat 3's rows")
    app.key("r")  # the last seat's: it is the seat to act now, its letter alone
    rows(app, r"^Seat 4's rows$", SEAT_4)
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

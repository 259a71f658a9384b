"""Issue 41, items 10 to 13, keyboard only in a real 1280x800 window under a window manager,
from the focus each window opens with, the app's own layout check after every step (a clipped
label or list header, a window larger than the screen, seat boxes over each other, over the
board or pots, or over the replay's slider).

One station for the module (its first run is the costly part): the tests run in this order on
one app, each beginning and ending at the main window.

10. After Commerce's exchange form the showdown's cards are typed at once (they were read as
    keys: "S: no action has this key now").
11. Crazy Pineapple at nine seats, at the discards after the flop: the seats clear of each other
    and of the board; the Keys window (F1) within the screen.
12. A revoke at Rams: the instruction to call the floor.
13. The floor console: the Find filters by keyboard (F, ↓ to a table, Enter opens the hand), the
    reveal's reason typed (letters stay in the box), Escape out of it, R reveals.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.ui.realwindow.harness import (
    MAIN,
    App,
    Shift,
    approve,
    first_run,
    form,
    open_and_deal,
    push_and_close,
    quit_from_main,
    sign_in,
    until,
)

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

TABLES: tuple[dict[str, Any], ...] = (
    {"name": "CM-1", "game": "commerce", "seats": 3, "smallest_chip": 100,
     "params": {"stake": 100}},
    {"name": "P9-1", "game": "pineapple", "seats": 9, "smallest_chip": 100, "buy_in": 40000,
     "params": {"structure": "no-limit", "blinds": [100, 200], "variant": "crazy"}},
    {"name": "Rams-1", "game": "rams", "seats": 3, "smallest_chip": 100,
     "params": {"stake": 100}},
)


@pytest.fixture(scope="module")
def station(display: dict[str, str], tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[Shift]:
    """The app at a new station, the three tables added, Dana signed in; afterwards its log
    holds no traceback."""
    tmp = tmp_path_factory.mktemp("keys-and-screen")
    home = tmp / "home"
    home.mkdir()
    app = App(display, home, tmp / "app.log")
    try:
        svc, admin = first_run(app, home)
        for table in TABLES:
            svc.add_table(admin, table)
        sign_in(app, "dana", "1111")
        yield Shift(app, svc, admin)
    finally:
        app.screenshot(tmp / "last.png")
        app.stop()
    assert "Traceback" not in app.log.read_text()


@pytest.fixture
def shift(station: Shift, tmp_path: Path) -> Iterator[Shift]:
    """The station for one test: its own layout problems, checked at the end, and a
    screenshot of its last screen."""
    station.problems.clear()
    station.app.wait_for(MAIN)
    yield station
    station.app.screenshot(tmp_path / "last.png")
    assert station.problems == [], "\n".join(station.problems)


def test_item_10_after_commerce_exchange_form_cards_are_typed_at_once(shift: Shift) -> None:
    app, step, t = shift.app, shift.step, shift.table("CM-1")
    open_and_deal(app, 0)
    t.wait(1)
    app.enter("kh 9c 2d")
    t.wait(2)
    step("Commerce: the board")
    app.key("k")  # seat 1 knocks
    t.wait(3)
    app.key("s")  # seat 2's last turn: it stands
    t.wait(4)
    step("a knock and a stand")
    app.key("e")  # seat 3's last turn, in the form: then the showdown, in the card box
    form(app, r"^Seat 3 exchanges$", "kh", "5s")
    assert t.wait(5)[-1] == {"type": "exchange", "seat": 3, "take": ["Kh"], "give": ["5s"],
                             "blind": False}
    step("seat 3's exchange form closed")
    hands = {1: "ah ad 4c", 2: "qs qh 4d", 3: "kh kd 4h"}
    for n in (6, 7, 8):
        seat = t.prompt().to_act
        assert seat is not None
        app.enter(hands[seat])  # typed straight after the form: cards, not keys
        assert t.wait(n)[-1] == {"type": "show", "seat": seat,
                                 "cards": [c[0].upper() + c[1] for c in hands[seat].split()]}
        step(f"seat {seat} shows")
    assert t.prompt().done
    push_and_close(app, step)


def test_item_11_nine_seats_at_the_discards_and_the_keys_window_fit(shift: Shift) -> None:
    app, step, t = shift.app, shift.step, shift.table("P9-1")
    open_and_deal(app, 1)
    t.wait(1)
    step("nine seats dealt")
    app.key(*["c"] * 8, "k")  # seats 3-9 and 1 call, the big blind checks
    t.wait(10)
    app.enter("2c 7d 9h")
    t.wait(11)
    step("the flop")
    app.key(*["k"] * 9)
    t.wait(20)
    assert [a.kind for a in t.prompt().actions].count("discard") == 9
    step("the discards after the flop: nine seats, the board")
    app.key("F1")
    app.wait_for(r"^Keys$")
    step("the Keys window (F1)")
    app.key("Escape")
    app.wait_for(MAIN)
    app.key("F4")  # called off: the shift closes with every chip back
    app.wait_for(r"^Misdeal$")
    app.enter("card exposed")
    approve(app, "2222")
    app.wait_for(MAIN)
    assert t.wait(21)[-1]["type"] == "misdeal"
    push_and_close(app, step, ticks=12)


def test_item_12_a_revoke_at_rams_asks_for_the_floor(shift: Shift) -> None:
    app, step, t = shift.app, shift.step, shift.table("Rams-1")
    open_and_deal(app, 2)
    t.wait(1)
    app.enter("7s")
    app.key("p", "p", "p")
    t.wait(5)
    step("Rams: everyone plays")
    for n, card in enumerate(("ah", "8d", "8h", "kd"), start=6):
        app.enter(card)
        t.wait(n)
    app.enter("9h")  # seat 2 follows hearts: it showed out of hearts at trick 1
    t.wait(10)
    step("the revoke")
    assert t.prompt().instructions[0] == (
        "Call the floor: revoke: seat 2 at trick 1 (follow suit (hearts)); 9♥ at trick 2 "
        "shows it; the hand is settled as played, the floor decides")


def test_item_13_floor_console_by_keyboard(shift: Shift) -> None:
    app, step, svc = shift.app, shift.step, shift.svc
    app.key("ctrl+q")
    sign_in(app, "fran", "2222")
    app.key("ctrl+2")
    step("the floor console")
    app.key("f")  # the Find filters: the table's list first
    app.key("Down", "Down")  # any table, CM-1, P9-1
    app.key("Return")  # Find: the first hand found opens, the keyboard in the list
    step("the nine-seat hand replayed")
    app.key("r")  # no reason yet: the reason box is asked for
    app.type("dispute at seat 2")  # every letter in the box (d, s, r are keys elsewhere)
    step("the reveal's reason typed")
    app.key("Escape")  # out of the box: R is the console's again
    app.key("r")
    table = next(x.id for x in svc.list_tables() if x.name == "P9-1")
    hand = next(h for h in svc.list_hands() if h.table_id == table)
    (entry,) = until(lambda: svc.reveals(hand.id), "the reveal in the audit log")
    assert entry.detail.endswith(": dispute at seat 2"), entry.detail
    step("revealed")
    quit_from_main(app)

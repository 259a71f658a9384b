"""The floor board keyboard only in a real 1280x800 window under a window manager (issue 43):
the floor person signs in, opens the floor board from the Board menu, opens a table, puts a
player on its game's list, calls him to a seat and seats him with his buy-in, each from the
focus the window or its form opens with; the database holds each step as the floor's record,
and the seat is in the table's next hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.ui.realwindow.harness import App, first_run, sign_in, until

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

GUTS: dict[str, Any] = {"name": "Guts-1", "game": "guts", "seats": 4, "smallest_chip": 100,
                        "buy_in": 10000, "params": {"ante": 100, "max": 2000}}
CONSOLE = r"^Floor board$"


def test_the_floor_seats_a_player_from_a_list_keyboard_only_in_a_real_window(
    display: dict[str, str], tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    app = App(display, home, tmp_path / "app.log")
    try:
        svc, admin = first_run(app, home)
        table = svc.add_table(admin, GUTS).id
        board = svc.floor_board
        assert board is not None
        sign_in(app, "fran", "2222")
        app.key("alt+b")
        app.key("f")  # Board → Floor board…
        app.wait_for(CONSOLE)
        app.key("o")  # the tables pane has the focus, on the first table
        until(lambda: board.state().table_status(table) == "open", "the table opened")
        app.check("table opened")
        app.key("l")
        app.wait_for(r"^Put a player on a list$")
        app.enter("Ann")  # Enter goes to the list box
        app.key("Return")  # the one list the tables spread; the last Enter records
        app.wait_for(CONSOLE)
        until(lambda: [w.player for w in board.state().lists.get(("guts", ""), [])] == ["Ann"],
              "Ann on the Guts list")
        app.key("Tab")  # to the lists pane
        app.key("k")
        app.wait_for(r"^Call Ann$")
        app.key("Return")  # the one Guts table
        app.enter("2")
        app.wait_for(CONSOLE)
        until(lambda: [(c.table_id, c.seat) for c in board.state().calls_for("Ann")]
              == [(table, 2)], "Ann called to Guts-1 seat 2")
        app.check("Ann called")
        app.key("e")
        app.wait_for(r"^Seat Ann at Guts-1 seat 2$")
        app.enter("100")
        app.wait_for(CONSOLE)
        until(lambda: 2 in board.state().seated(table), "Ann seated at seat 2")
        seated = board.state().seated(table)[2]
        assert seated.player == "Ann"
        app.check("Ann seated")
        nxt = board.next_seating(table)
        assert nxt is not None and 2 in nxt.seats
    finally:
        app.screenshot(tmp_path / "last.png")
        app.stop()
    assert "Traceback" not in app.log.read_text()
    assert app.problems == [], "\n".join(app.problems)


def test_the_floors_dealer_view_keyboard_only_in_a_real_window(
    display: dict[str, str], tmp_path: Path,
) -> None:
    """Issue 44: the floor's dealer view from the floor console (W), keyboard only: every
    dealer on shift, where and since when, inside the screen."""
    home = tmp_path / "home"
    home.mkdir()
    app = App(display, home, tmp_path / "app.log")
    try:
        svc, admin = first_run(app, home)
        table = svc.add_table(admin, GUTS).id
        svc.open_shift(svc.sign_in("dana", "1111"), table, floor="fran")  # another station
        sign_in(app, "fran", "2222")
        app.key("ctrl+2")  # the Floor tab
        app.key("w")
        app.wait_for(r"^Dealers$")
        app.check("the dealer view")
        app.key("Escape")
        app.wait_for(r"^Dealer Assist")
    finally:
        app.screenshot(tmp_path / "last.png")
        app.stop()
    assert "Traceback" not in app.log.read_text()
    assert app.problems == [], "\n".join(app.problems)

"""The floor board's day keyboard only in a real 1280x800 window under a window manager (issue
43, "done means"), with the players' board (`dealer-assist board`, full screen) on a second
screen: the floor person opens tables, takes twelve players onto two lists, calls and seats
them, moves a must-move player, marks one away, picks up the chips of a player whose away time
ran out (marked away by the morning's floor twenty minutes before: the shortest away time is a
minute, too long to wait for here; tests/ui/test_floor_board_day.py marks and picks up one
player on a clock of its own), and closes a table, each from the focus the window or its form
opens with; the board's
text as drawn is read after every step and must show it; the floor signs out with the console
still open (it closes with the main window), and the dealer's next hand carries the seats and
buy-ins without retyping them. The database holds each step as the floor's record, and verify
finds the day intact."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.ui.realwindow.harness import MAIN, SIGN_IN, App, Table, first_run, sign_in, until

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

GUTS: dict[str, Any] = {"name": "Guts-1", "game": "guts", "seats": 4, "smallest_chip": 100,
                        "buy_in": 10000, "params": {"ante": 100, "max": 2000}}
CC: dict[str, Any] = {"name": "CC-1", "game": "champs-and-cowards", "seats": 8,
                      "smallest_chip": 100, "stakes": "$2 chip",
                      "params": {"chip": 200, "decks": 1}}
CARO: dict[str, Any] = {"name": "Caro-1", "game": "caro-holdem", "seats": 4,
                        "smallest_chip": 100, "buy_in": 100000,
                        "params": {"unit": 1000, "ante": 100, "cap": 4}}
#: A long game name and stakes: its line on the board is cut with …, never wrapped.
OFC: dict[str, Any] = {"name": "OFC Main-1", "game": "ofc", "seats": 4, "smallest_chip": 100,
                       "stakes": "$5 a point, progressive fantasyland",
                       "params": {"unit": 500, "royalties": "rules-text"}}
CONSOLE = r"^Floor board$"


class Board:
    """The players' board in its own process on the second screen, read through the text it
    draws (written by its layout check, ui/layout_check.py)."""

    def __init__(self, env: dict[str, str], home: Path, log: Path) -> None:
        self.app = App(env, home, log, ("board",))

    def text(self) -> str:
        log = self.app.layout_log
        if not log.exists():
            return ""
        for raw in reversed(log.read_bytes().split(b"\n")[-40:]):
            try:
                shown = json.loads(raw).get("shown")
            except ValueError:
                continue  # a line still being written
            if shown:
                return str(next(iter(shown.values())))
        return ""

    def shows(self, *texts: str) -> None:
        """Until the board draws every one of ``texts``."""
        try:
            until(lambda: all(t in self.text() for t in texts), f"the board to show {texts}")
        except AssertionError as exc:
            raise AssertionError(f"{exc}; it shows:\n{self.text()}") from None

    def matches(self, pattern: str) -> None:
        """Until a line of the board (a regex, ``^`` and ``$`` at each line) is drawn."""
        try:
            until(lambda: re.search(pattern, self.text(), re.MULTILINE),
                  f"the board to show {pattern!r}")
        except AssertionError as exc:
            raise AssertionError(f"{exc}; it shows:\n{self.text()}") from None

    def waiting(self, *names: str) -> None:
        """Until the board draws ``names`` as a list in this order ("1. K1", "2. K2", ...: a
        player a line, or several a line when the lists are taller than the screen)."""
        def in_order() -> bool:
            text = self.text()
            at = [m.start() if (m := re.search(rf"(?<!\d){i}\. {n}\b", text)) else -1
                  for i, n in enumerate(names, 1)]
            return -1 not in at and at == sorted(at)
        try:
            until(in_order, f"the board to show the list {names}")
        except AssertionError as exc:
            raise AssertionError(f"{exc}; it shows:\n{self.text()}") from None

    def problems(self) -> list[str]:
        lines = self.app.layout_log.read_text().splitlines()[-5:]
        return [p for line in lines if line.strip() for p in json.loads(line)["problems"]]


def test_a_floor_day_keyboard_only_with_the_players_board_on_a_second_screen(
    display: dict[str, str], second_display: dict[str, str], tmp_path: Path,
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    app = App(display, home, tmp_path / "app.log")
    board_screen: Board | None = None
    try:
        svc, admin = first_run(app, home)
        ids = {t["name"]: svc.add_table(admin, t).id
               for t in (CC, CARO, {**CARO, "name": "Caro-2"}, OFC)}
        floor = svc.floor_board
        assert floor is not None
        # the morning's floor, twenty minutes ago: OFC Main-1 open, Moe at seat 2, away
        from dealer_assist.services.floorboard import FloorBoard

        morning = FloorBoard(floor.records, floor.tables,
                             lambda: datetime.now(UTC) - timedelta(minutes=20))
        fran = svc.sign_in("fran", "2222")
        morning.open_table(fran, ids["OFC Main-1"])
        morning.seat(fran, ids["OFC Main-1"], 2, player="Moe")
        morning.away(fran, ids["OFC Main-1"], 2)
        board_screen = Board(second_display, home, tmp_path / "board.log")
        board = board_screen
        board.shows("WAITING LISTS\nno one waiting")
        assert "CC-1" not in board.text()
        sign_in(app, "fran", "2222")
        app.key("alt+b")
        app.key("f")  # Board → Floor board…
        app.wait_for(CONSOLE)
        # --- tables opened, one by one down the tables pane (it has the focus) ------------
        app.key("o")
        board.shows("CC-1  Champs and Cowards $2 chip\n    open, open seats 1–8")
        app.key("Down", "o", "Down", "o")
        board.shows("Caro-1  Caro Hold 'em\n    open, open seats 1–4",
                    "Caro-2  Caro Hold 'em\n    open, open seats 1–4")
        # the long game and stakes: one line cut with …, the status on the next
        board.matches(r"^OFC Main-1  Open-Face Chinese Poker[^\n]*…\n    open, open seats "
                      r"1, 3, 4$")
        app.check("three tables opened")
        assert board.problems() == []
        # --- the room's away time: ten minutes (G: the setting's list, its value) ---------
        app.key("g")
        app.wait_for(r"^A board setting of the room$")
        app.key("Down", "Down", "Down", "Down", "Return")  # away_minutes
        app.enter("10")
        app.wait_for(CONSOLE)
        until(lambda: floor.state().rules.away_minutes == 10, "the away time set")
        def call_and_seat(player: str, table: str, seat: int, buy_in: str,
                          other_table: bool = False) -> None:
            """K on the list entry: the table (Down for the second), the seat; E: the buy-in."""
            app.key("k")
            app.wait_for(rf"^Call {player}$")
            app.key(*(["Down"] if other_table else []), "Return")
            app.enter(str(seat))
            app.wait_for(CONSOLE)
            board.shows(f"CALLED: {player} → {table} seat {seat}")
            app.key("e")
            app.wait_for(rf"^Seat {player} at {table} seat {seat}$")
            app.enter(buy_in)
            app.wait_for(CONSOLE)
            until(lambda: floor.state().seated(ids[table]).get(seat) is not None,
                  f"{player} seated at {table} seat {seat}")

        def listed(player: str, second: bool) -> None:
            """L: the name, Enter, the list (Down: the second), Enter."""
            app.key("l")
            app.wait_for(r"^Put a player on a list$")
            app.enter(player)
            app.key(*(["Down"] if second else []), "Return")
            app.wait_for(CONSOLE)

        # --- C1 listed, called, seated and marked away ------------------------------------
        listed("C1", second=True)  # Champs and Cowards $2 chip (Caro Hold 'em is first)
        board.waiting("C1")
        app.key("Tab")  # the lists pane
        call_and_seat("C1", "CC-1", 1, "")  # no buy-in at CC-1: the chips as they come
        board.shows("CC-1  Champs and Cowards $2 chip\n    open, open seats 2–8")
        app.key("shift+Tab", "Home")  # the tables pane, on CC-1
        app.key("a")
        app.wait_for(r"^Mark a player away at CC-1$")
        app.enter("1")
        app.wait_for(CONSOLE)
        c1 = until(lambda: floor.state().seated(ids["CC-1"])[1].away_until, "C1 away")
        assert timedelta(minutes=9) < c1 - datetime.now(UTC) <= timedelta(minutes=10)
        app.check("C1 away")
        # --- eleven more onto the two lists: twelve in all --------------------------------
        for i in range(1, 7):
            listed(f"K{i}", second=False)
            if i > 1:
                listed(f"C{i}", second=True)
        board.waiting("K1", "K2", "K3", "K4", "K5", "K6")
        board.waiting("C2", "C3", "C4", "C5", "C6")
        until(lambda: sum(map(len, floor.state().lists.values())) == 11, "eleven waiting")
        app.check("eleven more on two lists")
        # --- call and seat: three at Caro-1, two at Caro-2, three at CC-1 ----------------
        app.key("Tab", "Home")  # the lists pane: K1..K6 (Caro), then C2..C6
        for n in (1, 2, 3):
            call_and_seat(f"K{n}", "Caro-1", n, "1000")
        call_and_seat("K4", "Caro-2", 1, "1000", other_table=True)
        call_and_seat("K5", "Caro-2", 2, "1000", other_table=True)
        app.key("Down")  # past K6, on C2
        for n in (2, 3, 4):
            call_and_seat(f"C{n}", "CC-1", n, "")
        board.shows("Caro-1  Caro Hold 'em\n    open, open seats 4",
                    "Caro-2  Caro Hold 'em\n    open, open seats 3, 4",
                    "CC-1  Champs and Cowards $2 chip\n    open, open seats 5–8")
        board.waiting("K6")
        board.waiting("C5", "C6")
        app.check("nine seated")
        # --- must-move: Caro-2 feeds Caro-1; K3 leaves, the feeder's longest seated moves -
        app.key("shift+Tab", "Down")  # Caro-1
        app.key("m")
        app.wait_for(r"^The must-move table feeding Caro-1$")
        app.key("Down", "Return")  # Caro-2 (after "none")
        app.wait_for(CONSOLE)
        until(lambda: floor.state().feeders.get(ids["Caro-2"]) == ids["Caro-1"], "linked")
        app.key("f")
        app.wait_for(r"^Free a seat \(the player leaves\) at Caro-1$")
        app.enter("3")
        app.wait_for(CONSOLE)
        board.shows("Caro-1  Caro Hold 'em\n    open, open seats 3, 4")
        app.key("v")
        app.wait_for(r"^Call the must-move player at Caro-1$")
        app.enter("3")
        app.wait_for(CONSOLE)
        board.shows("CALLED: K4 → Caro-1 seat 3")
        app.key("s")
        app.wait_for(r"^Seat a player at Caro-1$")
        app.enter("3")
        app.enter("")  # the one called
        app.enter("1240")  # the chips K4 brings from Caro-2
        app.wait_for(CONSOLE)
        board.shows("Caro-1  Caro Hold 'em\n    open, open seats 4",
                    "Caro-2  Caro Hold 'em\n    open, open seats 1, 3, 4")
        assert "CALLED" not in board.text()
        app.check("K4 moved")
        # --- Moe's away time ran out: the floor is told, and picks up the chips ----------
        assert "Moe's away time at OFC Main-1 seat 2 has run out: pick up the chips?" in \
            floor.notices()
        app.key("End")  # OFC Main-1
        app.key("p")
        app.wait_for(r"^Pick up an away player's chips at OFC Main-1$")
        app.enter("2")
        app.enter("37")
        app.wait_for(CONSOLE)
        board.matches(r"^OFC Main-1  [^\n]*\n    open, open seats 1–4$")
        assert [e.what.amount for e in floor.records.entries()
                if e.what.action == "pick-up"] == [
            3700]
        # --- Caro-2 closes: its seat is freed, the board no longer lists it ---------------
        app.key("Up", "c")  # Caro-2
        until(lambda: floor.state().table_status(ids["Caro-2"]) == "closed", "Caro-2 closed")
        until(lambda: "Caro-2" not in board.text(), "the board to drop Caro-2")
        app.check("Caro-2 closed")
        assert "$" not in board.text().replace("$2 chip", "").replace("$5 a point", "")
        assert board.problems() == []
        # --- the floor signs out with the console open: it closes, the sign-in comes back -
        app.key("alt+Tab")  # to the main window
        app.wait_for(MAIN)
        app.key("ctrl+q")
        app.wait_for(SIGN_IN)
        # --- the dealer's next hand at Caro-1 carries the floor's seats: one key ----------
        sign_in(app, "dana", "1111")
        app.key("o")
        app.wait_for(r"^Open a table and shift$")
        app.key("Down", "Return", "Return")  # Caro-1, the floor fran
        app.wait_for(MAIN)
        app.key("n")
        app.wait_for(r"^Seats from the floor$")
        app.check("the floor's seats for the next hand")
        app.key("Return")
        app.wait_for(MAIN)
        start = Table(svc, "Caro-1").wait(1)[0]
        assert start["seats"] == [1, 2, 3]
        assert {int(k): v for k, v in start["stacks"].items()} == {
            1: 100000, 2: 100000, 3: 124000}
        board.shows("Caro-1  Caro Hold 'em\n    going, open seats 4")
    finally:
        app.screenshot(tmp_path / "last.png")
        if board_screen is not None:
            board_screen.app.screenshot(tmp_path / "board.png")
            board_screen.app.stop()
        app.stop()
    actions = [e.what.action for e in floor.records.entries()]
    assert actions.count("list-add") == 12 and actions.count("seat") == 11  # with Moe
    assert actions.count("pick-up") == 1 and actions.count("close") == 1
    from dealer_assist.db.verify import verify_database

    assert verify_database(svc.store.db, workers=1).findings == []  # type: ignore[attr-defined]
    assert "Traceback" not in app.log.read_text()
    assert "Traceback" not in (tmp_path / "board.log").read_text()
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
        app.press_for(r"^Dealers$", "ctrl+2", "w")  # the Floor tab, then W
        app.check("the dealer view")
        app.key("Escape")
        app.wait_for(r"^Dealer Assist")
    finally:
        app.screenshot(tmp_path / "last.png")
        app.stop()
    assert "Traceback" not in app.log.read_text()
    assert app.problems == [], "\n".join(app.problems)

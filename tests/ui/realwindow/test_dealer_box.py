"""The dealer box's walk-through (issue 44's "done means") in real 1280x800 windows under a
window manager, keyboard only, from the focus each window and dialog opens with: Dana signs in
at table 1; the floor, at its own station, sets a push every minute and the rotation Dana, Eve
over tables 1 and 2 in the dealer view; a minute later Eve signs in at table 1 at a second
station (the relief ends Dana's down there) and Dana, told to move on, signs in at table 2; the
floor's dealer view shows both.

Three stations are three processes on one database file under one station folder. Each, and the
test's own look at the database, runs on one clock the test moves by hand
(tests/ui/realwindow/clocked_app.py): the walk-through is the same on any day and any machine.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.services import Argon2PinHasher, Services
from dealer_assist.services.dealer_box import DEAL, fold_downs, running
from dealer_assist.services.dealer_handlers import station_notice
from dealer_assist.services.dealer_hooks import room_dealers
from tests.ui.realwindow import clocked_app
from tests.ui.realwindow.harness import MAIN, SIGN_IN, App, default_db, settle, until

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

START = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
GUTS: dict[str, Any] = {"game": "guts", "seats": 4, "smallest_chip": 100, "buy_in": 10000,
                        "params": {"ante": 100, "max": 2000}}


class Station(App):
    """One station's app on the display, on the test's clock (clocked_app.py)."""

    def __init__(self, env: dict[str, str], home: Path, log: Path, clock: Path) -> None:
        self.argv = (str(Path(clocked_app.__file__)),)
        super().__init__({**env, clocked_app.ENV: str(clock)}, home, log)

    def come_to(self) -> None:
        """The person steps up to this station: its main window has the focus (the window
        manager gives it, as a click on the window would)."""
        def mine() -> bool:
            pid = self.x("getactivewindow", "getwindowpid")
            if pid == str(self.proc.pid) and self.active().startswith("Dealer Assist"):
                return True
            self.x("search", "--all", "--onlyvisible", "--pid", str(self.proc.pid),
                   "--name", MAIN, "windowactivate")
            return False

        until(mine, f"station {self.proc.pid}'s main window to have the focus")
        settle()


def _open_at(app: App, downs: int) -> None:
    """O, the table ``downs`` rows below where the list starts, Enter for the table and Enter
    for the floor person: the dealer's PIN sign-in at that table."""
    app.key("o")
    app.wait_for(r"^Open a table and shift$")
    app.key(*["Down"] * downs, "Return", "Return")


def _where(svc: Services) -> dict[str, str]:
    names = {t.id: t.name for t in svc.list_tables()}
    return {d: names.get(x.table_id or 0, x.kind) if x.kind == DEAL else x.kind
            for d, x in running(fold_downs(svc.dealer_box.downs())).items()}  # type: ignore[union-attr]


def test_done_a_one_minute_push_moves_dana_to_table_2_as_eve_relieves_her_keyboard_only(
    display: dict[str, str], tmp_path: Path,
) -> None:
    from dealer_assist.db.bootstrap import open_services

    home = tmp_path / "home"
    home.mkdir()
    clock_file = tmp_path / "clock"
    clock = clocked_app.FileClock(clock_file)
    clock.set(START)
    shots = tmp_path / "shots"
    shots.mkdir()
    apps: list[Station] = []

    def station(name: str) -> Station:
        app = Station(display, home, tmp_path / f"{name}.log", clock_file)
        apps.append(app)
        return app

    a = station("station-a")
    try:
        # the room's first day at station A: set up, its admin made by keyboard
        a.wait_for(r"^Set up this station$")
        a.enter("Riverside Cardroom")
        a.key("Return", "Return", "Return")
        a.wait_for(r"^First run")
        for text in ("ada", "Ada Admin", "9999", "9999"):
            a.enter(text)
        a.wait_for(SIGN_IN)
        svc = open_services(f"sqlite:///{default_db(home)}", hasher=Argon2PinHasher(),
                            clock=clock)
        admin = svc.sign_in("ada", "9999")
        for name, full, role, pin in (("dana", "Dana Dealer", "dealer", "1111"),
                                      ("eve", "Eve Dealer", "dealer", "1112"),
                                      ("fran", "Fran Floor", "floor", "2222")):
            svc.add_user(admin, name=name, full_name=full, role=role, pin=pin)
        one = svc.add_table(admin, {**GUTS, "name": "Guts-1"}).id
        two = svc.add_table(admin, {**GUTS, "name": "Guts-2"}).id

        # 1. Dana signs in at table 1 (station A)
        a.enter("dana")
        a.enter("1111")
        a.wait_for(MAIN)
        _open_at(a, 0)
        until(lambda: _where(svc) == {"dana": "Guts-1"}, "dana down at Guts-1")
        a.wait_for(MAIN)
        a.check("dana signed in at Guts-1")
        a.screenshot(shots / "1-dana-at-table-1.png")

        # 2. the floor, at station C, opens table 2 and sets the push and the rotation
        clock.set(START + timedelta(seconds=10))
        svc.open_shift(svc.sign_in("fran", "2222"), two, floor="fran")  # the floor's shift
        c = station("station-c")
        c.wait_for(SIGN_IN)
        c.enter("fran")
        c.enter("2222")
        c.come_to()
        c.press_for(r"^Dealers$", "ctrl+2", "w")  # the Floor tab, then W
        c.key("alt+p")  # the push interval, then the grace: each by its Alt key
        c.type("1")
        c.key("alt+g")
        c.type("2")
        c.key("ctrl+r")
        box = svc.dealer_box
        assert box is not None
        until(lambda: (r := box.rules()) is not None and r.push_minutes == 1,
              "the rules: push every minute")
        assert box.rules().grace_minutes == 2  # type: ignore[union-attr]
        c.key("alt+d")  # the rotation's dealers, then its tables
        c.type("dana, eve")
        c.key("alt+t")
        c.type("Guts-1, Guts-2")
        c.key("ctrl+t")
        until(lambda: box.rotation().dealers == ("dana", "eve"), "the rotation dana, eve")
        assert box.rotation().tables == (one, two)
        c.check("the floor set the rules and the rotation")
        c.screenshot(shots / "2-floor-sets-the-rotation.png")
        c.key("Escape")
        c.wait_for(MAIN)

        # 3. a minute later the push is due: station A names it between hands
        clock.set(START + timedelta(minutes=1, seconds=20))
        names = {one: "Guts-1", two: "Guts-2"}
        assert station_notice(box, one, names, now=clock(), between_hands=True) == (
            "Push: dana to Guts-2 (eve deals here)")
        a.come_to()
        a.check("the push is due at Guts-1")
        a.screenshot(shots / "3-push-due-at-table-1.png")

        # 4. Eve relieves Dana at table 1 (station B): her sign-in ends Dana's down there
        clock.set(START + timedelta(minutes=1, seconds=30))
        b = station("station-b")
        b.wait_for(SIGN_IN)
        b.enter("eve")
        b.enter("1112")
        b.come_to()
        _open_at(b, 0)
        until(lambda: _where(svc).get("eve") == "Guts-1", "eve down at Guts-1")
        assert "dana" not in _where(svc)  # between tables until she signs in again
        told = station_notice(box, one, names, now=clock(), between_hands=True, viewer="dana")
        assert told == "eve deals Guts-1 now: press O and sign in at Guts-2"
        b.come_to()
        b.check("eve relieved dana at Guts-1")
        b.screenshot(shots / "4-eve-relieves-at-table-1.png")

        # 5. Dana moves on to table 2 (station A)
        clock.set(START + timedelta(minutes=1, seconds=40))
        a.come_to()
        a.check("dana pushed out of Guts-1")
        a.screenshot(shots / "5-dana-pushed-out.png")
        _open_at(a, 0)  # the list starts at Guts-2, where the rotation sends her
        until(lambda: _where(svc) == {"dana": "Guts-2", "eve": "Guts-1"}, "dana at Guts-2")
        a.come_to()
        a.check("dana signed in at Guts-2")
        a.screenshot(shots / "6-dana-at-table-2.png")

        # 6. the floor's dealer view shows both (station C)
        clock.set(START + timedelta(minutes=2))
        c.come_to()
        c.key("w")
        c.wait_for(r"^Dealers$")
        c.check("the dealer view shows both")
        c.screenshot(shots / "7-floor-sees-both.png")
        rows = {r.dealer: r for r in room_dealers(svc)}
        assert (rows["dana"].where, rows["eve"].where) == ("Guts-2", "Guts-1")
        assert START + timedelta(minutes=1, seconds=40) < rows["dana"].since < START + timedelta(
            minutes=1, seconds=41)
        c.key("Escape")
        c.wait_for(MAIN)
    finally:
        for app in apps:
            app.stop()
    for app in apps:
        assert "Traceback" not in app.log.read_text(), app.log.read_text()[-3000:]
    problems = [p for app in apps for p in app.problems]
    assert problems == [], "\n".join(problems)


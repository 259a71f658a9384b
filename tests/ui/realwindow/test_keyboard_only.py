"""The app in a real window at 1280x800 under a window manager, on its default database, driven
only by keystrokes from the focus each window opens with (as a dealer and a floor person would
on their first day). Regressions: dialogs opened with the focus on OK, Enter after the name sent
an empty PIN that counted as a wrong one, Escape on the first run quit silently, a wrong floor
PIN lost the misdeal's reason, Tab in a dispute's notes put the floor's PIN into them.

After every step of the shift the app's own layout check (measured with the font) must find
every window within 1280x800 and every button's label whole, with its key in the main window.

Two launches cover it all: the first run (the station's set-up, the admin, sign-in, quit),
then a dealer's shift (a whole hand of Champs and Cowards with an Undo, a Caro Hold 'em hand
and a misdeal approved by the floor, an open-face hand) and the floor's dispute. The database
and the audit log are checked afterwards through the project's own services.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer_assist.engine.hand import read_log
from dealer_assist.services import Services
from tests.ui.realwindow.harness import (
    MAIN,
    QUIT,
    SIGN_IN,
    App,
    approve,
    default_db,
    quit_from_main,
    services,
    sign_in,
)

pytestmark = [pytest.mark.xvfb, pytest.mark.slow]

CC_TABLE: dict[str, Any] = {"name": "CC-1", "game": "champs-and-cowards", "seats": 8,
                            "smallest_chip": 100, "params": {"chip": 200, "decks": 1}}
CARO_TABLE: dict[str, Any] = {"name": "Caro-1", "game": "caro-holdem", "seats": 3,
                              "smallest_chip": 100, "buy_in": 100000,
                              "params": {"unit": 1000, "ante": 100, "cap": 4}}
OFC_TABLE: dict[str, Any] = {"name": "OFC-1", "game": "ofc", "seats": 2, "smallest_chip": 100,
                             "params": {"unit": 100, "royalties": "rules-text"}}


def audit(svc: Services) -> list[tuple[str, str]]:
    admin = svc.sign_in("ada", "9999")
    return [(e.action, e.detail) for e in svc.audit_log(admin)]


def test_first_run_and_a_shift_keyboard_only(display: dict[str, str], tmp_path: Path,
                                            examples_dir: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    log = tmp_path / "app.log"

    # --- first run: Escape asks (Enter goes back), the admin, sign-in, then quit ------------
    app = App(display, home, log)
    try:
        app.wait_for(r"^Set up this station$")  # a new station: name, database, theme, printer
        app.enter("Riverside Cardroom")
        app.key("Return", "Return", "Return")  # this PC's own database, dark, system printer
        app.wait_for(r"^First run")
        app.key("Escape")
        app.wait_for(QUIT)
        app.key("Return")  # "Go back" is the default: nothing quits by accident
        app.wait_for(r"^First run")
        for text in ("ada", "Ada Admin", "9999", "9999"):
            app.enter(text)
        app.wait_for(SIGN_IN)
        app.enter("ada")
        app.key("Return")  # an empty PIN: refused in the dialog, not a try
        app.enter("1234")  # a wrong PIN: one try
        app.enter("9999")
        app.wait_for(MAIN)
        quit_from_main(app)  # sign out, Escape asks, Alt+Q quits: exit 0
    finally:
        app.stop()
    assert default_db(home).exists()  # the default database, in the user's data folder
    out = log.read_text()
    assert "first run: admin ada created" in out and "quit at the sign-in" in out
    assert "Traceback" not in out
    svc = services(home)
    entries = audit(svc)
    failed = [d for a, d in entries if a == "login-failed"]
    assert failed == ["wrong PIN (1 of 3)"]
    people = [a for a, _ in entries if a in ("user-added", "login-failed", "login", "logout")]
    assert people[:4] == ["user-added", "login-failed", "login", "logout"]

    # --- the room: a dealer, a floor person, three tables ------------------------------------
    admin = svc.sign_in("ada", "9999")
    svc.add_user(admin, name="dana", full_name="Dana Dealer", role="dealer", pin="1111")
    svc.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    svc.add_user(admin, name="gil", full_name="Gil Floor", role="floor", pin="5555")
    for table in (CC_TABLE, CARO_TABLE, OFC_TABLE):
        svc.add_table(admin, table)
    svc.store.close()

    app = App(display, home, log)
    try:
        sign_in(app, "dana", "1111")
        app.check("signed in")
        shift_hand(app, "", examples_dir / "champs-and-cowards-rulings-10.jsonl", undo=True)
        shift_caro(app)
        shift_hand(app, "Down Down", examples_dir / "ofc-two-players.jsonl")
        app.key("ctrl+q")
        sign_in(app, "fran", "2222")
        floor_dispute(app)
        app.check("the floor's dispute recorded")
        quit_from_main(app)
    finally:
        app.screenshot(tmp_path / "last.png")
        app.stop()
    assert "Traceback" not in log.read_text()
    assert app.problems == []

    svc = services(home)
    hands = {(h.table_id, h.number): h for h in svc.list_hands()}
    tables = {t.name: t.id for t in svc.list_tables()}
    cc = hands[(tables["CC-1"], 1)]
    assert cc.status == "settled"
    cc_rows = [r.body for r in svc.hand_events(cc.id)]
    voids = [r for r in cc_rows if r["type"] == "void"]
    assert len(voids) == 1 and voids[0]["reason"] == "wrong card typed"
    caro = [r.body for r in svc.hand_events(hands[(tables["Caro-1"], 1)].id)]
    assert len(caro) == 22 and caro[-1]["type"] == "show"
    misdealt = [r.body for r in svc.hand_events(hands[(tables["Caro-1"], 2)].id)]
    assert misdealt[-1]["type"] == "misdeal" and misdealt[-1]["reason"] == "card exposed"
    ofc = hands[(tables["OFC-1"], 1)]
    events, _ = read_log(examples_dir / "ofc-two-players.jsonl")
    assert [r.body for r in svc.hand_events(ofc.id)][1:] == [e.to_json() for e in events[1:]]
    disputes = svc.disputes()
    assert len(disputes) == 1
    d = disputes[0]
    assert d.notes == "seat 1 says seat 2 was short" and d.ruling == "seat 2 pays $2"
    assert "2222" not in d.notes and "2222" not in d.ruling
    assert sorted((a.seat, a.amount) for a in d.adjustments) == [(1, 200), (2, -200)]
    entries = audit(svc)
    assert [d for a, d in entries if a == "approval-failed"] == ["wrong PIN (1 of 3)"]
    assert not [d for a, d in entries if a == "login-failed" and "dana" in d]


def shift_hand(app: App, pick: str, path: Path, *, undo: bool = False) -> None:
    """Open the table (O; ↓ to pick it), deal the example hand by keys, tick the push steps,
    close the shift with the floor's PIN."""
    from dealer_assist.events import CardDealt
    from dealer_assist.games.champs_and_cowards.events import Champ, Coward
    from dealer_assist.games.ofc.events import Place

    app.key("o")
    app.wait_for(r"^Open a table and shift$")
    if pick:
        app.key(*pick.split())
    app.key("Return", "Return")  # Table, then Floor, then open
    app.wait_for(MAIN)
    app.key("n")
    events, _ = read_log(path)
    for i, ev in enumerate(events[1:]):
        if isinstance(ev, CardDealt):
            if undo and i == 2:  # a wrong card typed, voided with a reason
                app.enter("qd")
                app.key("ctrl+z")
                app.wait_for(r"^Undo the last input$")
                app.enter("wrong card typed")
                app.wait_for(MAIN)
            app.enter(ev.card.code.lower())
        elif isinstance(ev, Champ):
            app.key("c")
        elif isinstance(ev, Coward):
            app.key("w")
        elif isinstance(ev, Place):
            app.type(ev.card.code.lower() + ev.row[0])
        else:
            raise AssertionError(f"no key for {ev.to_line()}")
        app.check(f"{path.stem} event {i + 2}")
    app.key(*["t"] * 12)
    app.check(f"{path.stem} push steps ticked")
    app.key("x")
    approve(app, "2222")
    app.wait_for(MAIN)


def shift_caro(app: App) -> None:
    """House ruling 8's hand by keys, then a misdeal: a wrong floor PIN first (the dialog
    stays open, the reason kept), then the right one."""
    app.key("o")
    app.wait_for(r"^Open a table and shift$")
    app.key("Down", "Return", "Return")
    app.wait_for(MAIN)
    app.key("n", "k", "k", "k")
    app.enter("ah")
    app.enter("kd")
    app.key("k", "k", "k")
    app.enter("7c")
    app.key("d")
    app.check("Caro: the discard chooser")
    app.key("4")
    app.check("Caro: keeps 4")
    app.enter("3d")
    app.key("b", "d", "2")
    app.enter("6h 8h jc")
    app.key("r", "f", "c")
    app.enter("2s 9h")
    app.key("k", "b", "d", "2")
    app.enter("4d 5c")
    app.check("Caro: the reflip's bet called")
    app.key("c")
    app.enter("kh kc")
    app.check("Caro: the first show")
    app.enter("as ad")
    app.check("Caro: the push steps")
    app.key(*["t"] * 8)
    app.key("n", "F4")
    app.wait_for(r"^Misdeal$")
    app.check("the misdeal's form")
    app.enter("card exposed")
    approve(app, "0000")
    app.wait_for(r"^Floor approval$")  # still open after the wrong PIN
    app.enter("2222")
    app.wait_for(MAIN)
    app.key(*["t"] * 4)
    app.key("x")
    app.wait_for(r"^Floor approval$")
    app.key("Return")  # the name box opens on fran, selected: Enter goes on to the PIN
    app.enter("2222")  # (was appended to the name: "fran2222", refused)
    app.wait_for(MAIN)


def floor_dispute(app: App) -> None:
    """The floor's tab, the first hand in the list, a dispute with an adjustment: Enter and
    Tab go from box to box, the PIN lands only in the PIN box."""
    app.key("ctrl+2", "Down")
    app.key("d")
    app.wait_for(r"^Dispute")
    app.key("Tab", "shift+Tab")  # Tab leaves the notes (nothing typed into them)
    app.enter("seat 1 says seat 2 was short")
    app.enter("seat 2 pays $2")
    app.enter("1:+2, 2:-2")
    app.enter("gil")  # a second floor person approves the adjustment (never fran herself)
    app.enter("5555")
    app.wait_for(MAIN)

"""Screenshots of the main screens, taken from the app itself (offscreen), for docs/ui.md.

Run ``scripts/screenshots`` (or ``python -m dealer_assist.ui.screenshots --out DIR``). It builds
a small cardroom in memory, deals the rulings' worked examples through the same controllers the
screens use, and saves each screen at 1280x800 and 1920x1080 in the dark and light themes.
"""

from __future__ import annotations

import argparse
import contextlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dealer_assist.cards import parse_card
from dealer_assist.events import Bet as BetEvent
from dealer_assist.events import (
    BoardDealt,
    CardDealt,
    Check,
    Discard,
    Event,
    Raise,
)
from dealer_assist.games.champs_and_cowards.events import Champ, Coward
from dealer_assist.services import Argon2PinHasher, InMemoryStore, Services, Session

CC_TABLE: dict[str, Any] = {
    "name": "Table 1", "game": "champs-and-cowards", "seats": 8, "smallest_chip": 100,
    "params": {"chip": 200, "decks": 1},
}
CARO_TABLE: dict[str, Any] = {
    "name": "Table 2", "game": "caro-holdem", "seats": 3, "smallest_chip": 100,
    "buy_in": 100000, "params": {"unit": 1000, "ante": 100, "cap": 4},
}
CHINESE_TABLE: dict[str, Any] = {
    "name": "Table 3", "game": "chinese-poker", "seats": 4, "smallest_chip": 100,
    "params": {"unit": 100},
}
PINEAPPLE_TABLE: dict[str, Any] = {
    "name": "Table 4", "game": "pineapple", "seats": 6, "smallest_chip": 100,
    "buy_in": 40000, "params": {"structure": "no-limit", "blinds": [100, 200]},
}
#: The Champs and Cowards example of the house rulings (ruling 10), after the start.
CC_EXAMPLE: list[tuple[str, int, str]] = [
    ("card", 1, "7h"), ("card", 2, "Kc"), ("card", 3, "2s"), ("card", 4, "9d"),
    ("card", 5, "3s"), ("card", 6, "Jc"), ("card", 7, "Jh"), ("card", 8, "9c"),
    ("champ", 4, ""), ("card", 4, "4c"), ("coward", 4, ""), ("champ", 5, ""),
    ("card", 5, "2h"), ("champ", 5, ""), ("card", 5, "Qh"), ("coward", 6, ""),
    ("coward", 7, ""), ("coward", 8, ""), ("champ", 1, ""), ("card", 1, "As"),
    ("champ", 1, ""), ("card", 1, "Td"), ("coward", 1, ""), ("champ", 2, ""),
    ("card", 2, "5d"), ("champ", 2, ""), ("card", 2, "Ac"), ("champ", 2, ""),
    ("card", 2, "8s"), ("champ", 2, ""), ("card", 2, "5h"), ("coward", 3, ""),
]


def cc_events() -> list[Event]:
    out: list[Event] = []
    for kind, seat, card in CC_EXAMPLE:
        if kind == "card":
            out.append(CardDealt(seat=seat, card=parse_card(card)))
        elif kind == "champ":
            out.append(Champ(seat=seat))
        else:
            out.append(Coward(seat=seat))
    return out


def caro_events() -> list[Event]:
    """Caro Hold 'em ruling 8's hand up to the blip discards."""
    def cards(text: str) -> tuple[Any, ...]:
        return tuple(parse_card(c) for c in text.split())

    return [
        Check(seat=1), Check(seat=2), Check(seat=3), BoardDealt(cards=cards("Ah Kd")),
        Check(seat=1), Check(seat=2), Check(seat=3), BoardDealt(cards=cards("7c")),
        Discard(seat=1, cards=cards("3d")), BetEvent(seat=1),
        Discard(seat=2, cards=cards("6h 8h Jc")), Raise(seat=2),
    ]


def cardroom() -> tuple[Services, Session, Session]:
    """A room with a dealer, a floor person and two tables; returns (services, dealer, floor)."""
    svc = Services(InMemoryStore("Riverside Cardroom"), hasher=Argon2PinHasher(fast=True))
    admin = svc.create_first_admin(name="ada", full_name="Ada Lovelace", pin="9999")
    boss = Session(user=admin, signed_in_at=svc.clock())
    svc.add_user(boss, name="dana", full_name="Dana Whitfield", role="dealer", pin="1111")
    svc.add_user(boss, name="fran", full_name="Fran Okafor", role="floor", pin="2222")
    svc.add_table(boss, CC_TABLE)
    svc.add_table(boss, CARO_TABLE)
    return svc, svc.sign_in("dana", "1111"), svc.sign_in("fran", "2222")


def take(out: Path, only: str | None = None) -> list[Path]:
    from dealer_assist.ui.controllers import DealerController, FloorController
    from dealer_assist.ui.dealer_window import DealerScreen
    from dealer_assist.ui.dialogs import SignInDialog
    from dealer_assist.ui.floor_console import FloorConsole
    from dealer_assist.ui.qt import QWidget, application
    from dealer_assist.ui.theme import DARK, LIGHT, Theme, apply_theme

    app = application()
    out.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []

    def shot(name: str, make: Callable[[], QWidget], theme: Theme,
             size: tuple[int, int]) -> None:
        if only and only not in name:
            return
        apply_theme(app, theme)
        w = make()
        w.resize(*size)
        w.show()
        for _ in range(3):
            app.processEvents()
        screen = w if isinstance(w, DealerScreen) else getattr(w, "dealer", None)
        if isinstance(screen, DealerScreen):
            screen.refresh()
            app.processEvents()
        path = out / f"{name}-{theme.name}-{size[0]}x{size[1]}.png"
        w.grab().save(str(path))
        saved.append(path)
        w.close()
        w.deleteLater()
        app.processEvents()

    def dealer_cc(stop: int, *, fail: bool = False, picker: bool = False,
                  misdeal: bool = False) -> DealerScreen:
        svc, dana, _ = cardroom()
        c = DealerController(svc, dana)
        c.open_table(svc.find_table("Table 1").id, "fran")
        c.start_hand()
        for ev in cc_events()[:stop]:
            c.record(ev)
        if misdeal:
            from dealer_assist.services import Approval

            c.misdeal("card exposed on the deal", Approval("fran", "2222"))
        screen = DealerScreen(c)
        if picker:
            screen.cards.picker_button.setChecked(True)
            screen.cards.input.setText("7h")
            screen.cards.show_error(
                "7h cannot come from the stub: it is already face up at seat 1")
        if fail:
            screen.cards.input.setText("4c")
            screen.banner.show_failure("database is locked (another station is writing)")
        return screen

    def dealer_caro(stop: int, discard: bool) -> DealerScreen:
        svc, dana, _ = cardroom()
        c = DealerController(svc, dana)
        c.open_table(svc.find_table("Table 2").id, "fran")
        c.start_hand()
        for ev in caro_events()[:stop]:
            c.record(ev)
        screen = DealerScreen(c)
        if discard:
            screen._trigger("d")
        return screen

    def dealer_other(table: dict[str, Any], betting_done: bool) -> DealerScreen:
        """Chinese Poker as dealt (twelve actions, four seats), or no-limit Pineapple at its
        discards (every seat called: a discard and a Kill per seat)."""
        svc, dana, _ = cardroom()
        svc.add_table(svc.sign_in("ada", "9999"), table)
        c = DealerController(svc, dana)
        c.open_table(svc.find_table(table["name"]).id, "fran")
        c.start_hand()
        while betting_done and c.now is not None and c.now.prompt().phase == "betting":
            prompt = c.now.prompt()
            action = next(a for a in prompt.actions if a.enabled and a.kind in ("check", "call"))
            c.record(c.event_for(action))
        return DealerScreen(c)

    def floor() -> FloorConsole:
        svc, dana, fran = cardroom()
        c = DealerController(svc, dana)
        c.open_table(svc.find_table("Table 1").id, "fran")
        c.start_hand()
        for ev in cc_events():
            c.record(ev)
        f = FloorConsole(FloorController(svc, fran))
        f.search()
        f.select_row(0)
        f.slider.setValue(16)
        f.reveal_reason.setText("dispute at seat 3")
        f.reveal()
        return f

    def main_window() -> QWidget:
        from dealer_assist.ui.main_window import MainWindow

        svc, _, fran = cardroom()
        win = MainWindow(svc, fran, where="sqlite:////home/fran-okafor/.local/share/dealer-assist/"
                                               "dealer-assist.sqlite3")
        assert win.dealer is not None
        c = win.dealer.c
        c.open_table(svc.find_table("Table 1").id, "fran")
        c.start_hand()
        for ev in cc_events()[:24]:
            c.record(ev)
        return win

    def users() -> QWidget:
        from dealer_assist.errors import DealerAssistError
        from dealer_assist.ui.users_dialog import UsersWindow

        svc, _, _ = cardroom()
        boss = svc.sign_in("ada", "9999")
        for name, full, role in (("devon", "Devon Marsh", "dealer"),
                                 ("otto", "Otto Brandt", "auditor"),
                                 ("flo", "Florence Nightingale-Ramírez", "floor")):
            svc.add_user(boss, name=name, full_name=full, role=role, pin="4444")
        for name, wrong in (("devon", 3), ("fran", 1)):
            for _ in range(wrong):
                with contextlib.suppress(DealerAssistError):
                    svc.sign_in(name, "0000")
        svc.set_user_active(boss, "otto", False)
        w = UsersWindow(svc, boss)
        w.select_name("devon")
        return w

    def change_pin() -> QWidget:
        from dealer_assist.ui.dialogs import ChangePinDialog

        svc, dana, _ = cardroom()
        d = ChangePinDialog(svc, dana)
        for box, text in ((d.old, "1234"), (d.pin, "2468"), (d.pin2, "2468")):
            box.setText(text)
        d._try_accept()  # a wrong old PIN: refused in the dialog, the new PINs kept
        return d

    def sign_in() -> SignInDialog:
        svc, _, _ = cardroom()
        d = SignInDialog(svc)
        d.name.setText("dana")
        return d

    def players_board() -> QWidget:
        from dealer_assist.services.floorboard.fake import InMemoryFloor
        from dealer_assist.services.floorboard.handlers import FloorBoard
        from dealer_assist.services.floorboard.ports import FloorTable
        from dealer_assist.ui.board_window import BoardWindow

        svc, _, fran = cardroom()
        nine = tuple(range(1, 10))
        room = InMemoryFloor([
            FloorTable(1, "Table 1", "champs-and-cowards", "$2 chip", nine[:8], 2, 100,
                       dealer="dana"),
            FloorTable(2, "Table 2", "caro-holdem", "$10/$20", nine[:3], 2, 100, 100000,
                       dealer="dana"),
            FloorTable(3, "Table 3", "caro-holdem", "$10/$20", nine[:3], 2, 100, 100000)])
        board = FloorBoard(room, room, svc.clock)
        board.open_table(fran, 1)
        board.open_table(fran, 2)
        for seat, name in enumerate(("Ann", "Bo", "Cy", "Dee", "Eli", "Flo"), start=1):
            board.seat(fran, 1, seat, player=name)
        board.seat(fran, 2, 1, player="Gus", amount=100000)
        for name in ("Hal", "Ida", "Jo", "Kit"):
            board.add_to_list(fran, name, "caro-holdem", "$10/$20")
        board.add_to_list(fran, "Lou", "champs-and-cowards", "$2 chip")
        hal = board.state().lists[("caro-holdem", "$10/$20")][0].entry
        board.call(fran, hal, 2, 2)
        window = BoardWindow(board, room="Riverside Cardroom")
        window.reload()
        return window

    for theme, size in ((DARK, (1280, 800)), (LIGHT, (1920, 1080)), (LIGHT, (1280, 800)),
                        (DARK, (1920, 1080))):
        shot("dealer-champs-to-act", lambda: dealer_cc(16), theme, size)
        shot("dealer-caro-discard", lambda: dealer_caro(8, True), theme, size)
        shot("floor-replay-revealed", floor, theme, size)
    shot("dealer-champs-push-steps", lambda: dealer_cc(len(CC_EXAMPLE)), DARK, (1280, 800))
    shot("dealer-champs-push-steps", lambda: dealer_cc(len(CC_EXAMPLE)), LIGHT, (1920, 1080))
    shot("dealer-caro-raise", lambda: dealer_caro(11, False), DARK, (1280, 800))
    shot("dealer-misdeal", lambda: dealer_cc(5, misdeal=True), DARK, (1280, 800))
    shot("dealer-database-banner", lambda: dealer_cc(9, fail=True), DARK, (1280, 800))
    shot("dealer-card-picker", lambda: dealer_cc(1, picker=True), LIGHT, (1280, 800))
    shot("dealer-chinese-poker", lambda: dealer_other(CHINESE_TABLE, False), DARK, (1280, 800))
    shot("dealer-pineapple-discards", lambda: dealer_other(PINEAPPLE_TABLE, True), DARK,
         (1280, 800))
    shot("players-board", players_board, DARK, (1280, 800))
    shot("players-board", players_board, LIGHT, (1920, 1080))
    shot("sign-in", sign_in, DARK, (640, 320))
    shot("users", users, DARK, (1280, 800))
    shot("users", users, LIGHT, (1280, 800))
    shot("change-my-pin", change_pin, DARK, (600, 400))
    shot("main-window-floor-person", main_window, DARK, (1280, 800))
    shot("main-window-floor-person", main_window, LIGHT, (1920, 1080))
    return saved


def main() -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    parser = argparse.ArgumentParser(description="Screenshots of the screens for the docs")
    parser.add_argument("--out", default="docs/screenshots", help="folder for the PNG files")
    parser.add_argument("--only", help="only screens whose name contains this")
    args = parser.parse_args()
    for p in take(Path(args.out), args.only):
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

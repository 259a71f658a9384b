"""A real X display for the app: Xvfb at 1280x800 with a window manager (openbox), the app
started as a dealer starts it (its own process, its default database under a fresh HOME), and
keystrokes sent with xdotool to whatever has the focus, as a keyboard would.

What every real-window test shares lives here: the station's first run and its first people
(:func:`first_run`), signing in, a table opened and dealt, the push ticked and the shift closed
with the floor's approval, quitting from the sign-in, and :func:`dealer_shift`, which does the
first run, signs the dealer in and afterwards checks the app's log and layout problems. A game's
test then reads as the dealer's keystrokes and the checks of that game.

Waits are bounded and poll for a state (a window's title, a row in the database), never sleep
for a fixed time.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dealer_assist.engine.base import Prompt
from dealer_assist.engine.hand import replay
from dealer_assist.engine.log import hand_events
from dealer_assist.services import Argon2PinHasher, Services

TOOLS = ("Xvfb", "openbox", "xdotool")
WAIT = 30.0  # seconds, the most any single step may take on a loaded machine

#: The main window's title once the station is named (first_run names it Riverside Cardroom).
MAIN = r"^Dealer Assist — Riverside Cardroom"
SIGN_IN = r"^Sign in$"
QUIT = r"^Quit Dealer Assist\?$"


def missing_tools() -> list[str]:
    return [t for t in TOOLS if shutil.which(t) is None]


@contextmanager
def x_display(width: int = 1280, height: int = 800) -> Iterator[dict[str, str]]:
    """Xvfb on a free display number (it picks one and writes it to a pipe) and openbox."""
    r, w = os.pipe()
    xvfb = subprocess.Popen(
        ["Xvfb", "-displayfd", str(w), "-screen", "0", f"{width}x{height}x24", "-nolisten",
         "tcp"], pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(w)
    number = b""
    with os.fdopen(r, "rb") as pipe:
        while not number.endswith(b"\n"):
            ch = pipe.read(1)
            if not ch:
                break
            number += ch
    env = {**os.environ, "DISPLAY": f":{number.decode().strip()}"}
    env.pop("QT_QPA_PLATFORM", None)  # the tests' offscreen setting: this one is a real screen
    env.pop("WAYLAND_DISPLAY", None)
    wm = subprocess.Popen(["openbox"], env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL)
    try:
        if shutil.which("xprop"):  # the window manager is up: it focuses the app's windows
            until(lambda: "window id" in subprocess.run(
                ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=env, capture_output=True,
                text=True, timeout=WAIT).stdout, "openbox to manage the display")
        yield env
    finally:
        for p in (wm, xvfb):
            p.terminate()
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()


class App:
    """The app's process on the display, and the keyboard."""

    #: What the process runs after the Python interpreter: the app as a dealer starts it.
    argv: tuple[str, ...] = ("-m", "dealer_assist.cli")

    def __init__(self, env: dict[str, str], home: Path, log: Path,
                 command: tuple[str, ...] = ()) -> None:
        """``command``: the app's command and options (none: the app itself)."""
        self.env = {**env, "HOME": str(home)}
        for k in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "DEALER_ASSIST_DB",
                  "DEALER_ASSIST_NO_USER_DB", "DEALER_ASSIST_SETTINGS"):
            self.env.pop(k, None)  # the station's first start: its own settings and database
        self.log = log
        # the app checks what it shows with the font twenty times a second (ui/layout_check.py)
        self.layout_log = log.with_name(log.stem + "-layout.jsonl")
        self.env["DEALER_ASSIST_LAYOUT_LOG"] = str(self.layout_log)
        #: What the layout checks of :meth:`check` found, step by step.
        self.problems: list[str] = []
        self.out = log.open("ab")
        self.proc = subprocess.Popen([sys.executable, *self.argv, *command], env=self.env,
                                     cwd=str(home), stdout=self.out, stderr=self.out)

    def x(self, *args: str) -> str:
        done = subprocess.run(["xdotool", *args], env=self.env, capture_output=True,
                              text=True, timeout=WAIT)
        return done.stdout.strip()

    def active(self) -> str:
        return self.x("getactivewindow", "getwindowname")

    def wait_for(self, title: str) -> None:
        """Until the window with a title matching ``title`` (a regex) has the focus."""
        pattern = re.compile(title)

        start = time.monotonic()

        def ok() -> bool:
            if self.proc.poll() is not None:
                raise AssertionError(f"the app quit while waiting for {title!r}:\n"
                                     + self.log.read_text(errors="replace")[-2000:])
            if pattern.search(self.active()):
                return True
            if time.monotonic() - start > 5:  # a window mapped while the WM was busy: give
                self.x("search", "--onlyvisible", "--name", title,  # it the focus it missed
                       "windowactivate")
            return False

        try:
            until(ok, f"a focused window titled {title!r}")
        except AssertionError as exc:
            raise AssertionError(f"{exc} (focused: {self.active()!r}); the app's log:\n"
                                 + self.log.read_text(errors="replace")[-2000:]) from None
        settle()

    def press_for(self, title: str, *keys: str, tries: int = 3) -> None:
        """Press ``keys`` until a window titled ``title`` has the focus. A window just given
        the focus on a loaded machine can miss the first keys pressed into it (the app still
        busy drawing it): a person presses again, and so does this, up to ``tries`` times."""
        pattern = re.compile(title)
        for _ in range(tries - 1):
            self.key(*keys)
            try:
                until(lambda: pattern.search(self.active()), f"a window titled {title!r}", 8)
                return
            except AssertionError:
                continue
        self.key(*keys)
        self.wait_for(title)

    def layout(self, step: str) -> list[str]:
        """What the app's next check (begun after this call) finds wrong with what it shows:
        a window larger than the screen, a clipped label, a button without its key."""
        seen = self.layout_log.stat().st_size if self.layout_log.exists() else 0

        def fresh() -> tuple[list[str]] | None:
            if not self.layout_log.exists():
                return None
            with self.layout_log.open("rb") as f:
                f.seek(seen)
                lines = [x for x in f.read().split(b"\n") if x.strip()]
            # the first line after ``seen`` may be a check begun before: take the second
            return (json.loads(lines[1])["problems"],) if len(lines) > 1 else None

        (got,) = until(fresh, f"the app's layout check after {step}")
        return [f"{step}: {p}" for p in got]

    def check(self, step: str) -> None:
        """Note what the app's next layout check finds (see :meth:`layout`)."""
        self.problems.extend(self.layout(step))

    def type(self, text: str) -> None:
        self.x("type", "--delay", "12", text)

    def key(self, *keys: str) -> None:
        self.x("key", "--delay", "12", *keys)

    def enter(self, text: str = "") -> None:
        if text:
            self.type(text)
        self.key("Return")

    def quit_wait(self) -> int:
        try:
            return self.proc.wait(timeout=WAIT)
        finally:
            self.out.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.out.close()

    def screenshot(self, path: Path) -> None:
        """The whole screen as the dealer sees it (ImageMagick's import), when installed."""
        if shutil.which("import"):
            subprocess.run(["import", "-window", "root", str(path)], env=self.env,
                           timeout=WAIT, check=False)


#: How long a window the window manager just focused is given before keys go to it: Qt
#: sends a key to the window it has seen activated, and on a loaded machine the activation
#: can still be queued behind the window's drawing (the keys then go to the window before).
SETTLE_S = 0.2


def settle() -> None:
    """A person's pause between seeing a window come up and typing into it."""
    time.sleep(SETTLE_S)


def until(ok: Callable[[], Any], what: str, timeout: float = WAIT) -> Any:
    """Poll ``ok`` until it returns something true; fail naming ``what`` after ``timeout``."""
    end = time.monotonic() + timeout
    while True:
        got = ok()
        if got:
            return got
        if time.monotonic() > end:
            raise AssertionError(f"waited {timeout:.0f} s for {what}")
        time.sleep(0.05)


# --- the station and its database ---------------------------------------------------------------


def default_db(home: Path) -> Path:
    """The database a new station makes at its default path under ``home``."""
    return home / ".local" / "share" / "dealer-assist" / "dealer-assist.sqlite3"


def services(home: Path) -> Services:
    """The project's services on the station's default database, as the tests check it."""
    from dealer_assist.db.bootstrap import open_services

    return open_services(f"sqlite:///{default_db(home)}", hasher=Argon2PinHasher())


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


# --- the keystrokes every test shares ------------------------------------------------------------


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


def sign_in(app: App, name: str, pin: str) -> None:
    app.wait_for(SIGN_IN)
    app.enter(name)  # Enter after the name goes to the PIN box
    app.enter(pin)
    app.wait_for(MAIN)


def approve(app: App, pin: str) -> None:
    app.wait_for(r"^Floor approval$")
    app.enter("fran")
    app.enter(pin)


def open_and_deal(app: App, pick: int) -> None:
    """O, the table ``pick`` rows down the list, Enter for the table and for the floor, then
    N: the table's first hand is dealt."""
    app.key("o")
    app.wait_for(r"^Open a table and shift$")
    app.key(*["Down"] * pick, "Return", "Return")
    app.wait_for(MAIN)
    app.key("n")


def form(app: App, title: str, *boxes: str) -> None:
    """The action's form: each box typed and Enter (the last Enter records)."""
    app.wait_for(title)
    for text in boxes:
        app.enter(text)
    app.wait_for(MAIN)


def push_and_close(app: App, step: Callable[[str], None], ticks: int = 14) -> None:
    """The push steps ticked (T, ``ticks`` times), then the shift closed (X) with the floor's
    approval, back at the main window."""
    step("push steps")
    app.key(*["t"] * ticks)
    step("push steps ticked")
    app.key("x")
    approve(app, "2222")
    app.wait_for(MAIN)


def quit_from_main(app: App) -> None:
    """Sign out (Ctrl+Q), Escape at the sign-in asks, Alt+Q quits: the app exits 0."""
    app.key("ctrl+q")
    app.wait_for(SIGN_IN)
    app.key("Escape")
    app.wait_for(QUIT)
    app.key("alt+q")
    assert app.quit_wait() == 0


@dataclass
class Shift:
    """A dealer signed in at a new station (see :func:`dealer_shift`)."""

    app: App
    svc: Services
    admin: Any
    #: What the app's layout checks found, step by step (must stay empty).
    problems: list[str] = field(default_factory=list)

    def step(self, name: str) -> None:
        """Note what the app's next layout check finds after the step ``name``."""
        self.problems.extend(self.app.layout(name))

    def table(self, name: str) -> Table:
        return Table(self.svc, name)


@contextmanager
def dealer_shift(display: dict[str, str], tmp_path: Path,
                 *tables: dict[str, Any]) -> Iterator[Shift]:
    """The app on ``display`` at a new station under ``tmp_path/home``: the first run, the
    ``tables`` added, Dana the dealer signed in at the main window. Afterwards (the app stopped,
    a screenshot of the last screen in ``tmp_path/last.png``) its log must hold no traceback and
    every layout check of a step must have found nothing wrong."""
    home = tmp_path / "home"
    home.mkdir()
    app = App(display, home, tmp_path / "app.log")
    try:
        svc, admin = first_run(app, home)
        for table in tables:
            svc.add_table(admin, table)
        sign_in(app, "dana", "1111")
        shift = Shift(app, svc, admin)
        yield shift
    finally:
        app.screenshot(tmp_path / "last.png")
        app.stop()
    assert "Traceback" not in app.log.read_text()
    assert shift.problems == []

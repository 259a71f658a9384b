"""A real X display for the app: Xvfb at 1280x800 with a window manager (openbox), the app
started as a dealer starts it (its own process, its default database under a fresh HOME), and
keystrokes sent with xdotool to whatever has the focus, as a keyboard would.

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
from pathlib import Path
from typing import Any

TOOLS = ("Xvfb", "openbox", "xdotool")
WAIT = 30.0  # seconds, the most any single step may take on a loaded machine


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

    def __init__(self, env: dict[str, str], home: Path, log: Path) -> None:
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
        self.proc = subprocess.Popen([sys.executable, "-m", "dealer_assist.cli"], env=self.env,
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

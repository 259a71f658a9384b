"""How the app starts and stops as a process: start-up notes for ``--debug`` and a clean close
on SIGTERM.

A station that shuts down (or a service manager, or the bundle test) sends SIGTERM; without a
handler Python dies mid-write. Here it closes every open dialog and the window instead, so the
database is closed and the app returns as if the person had closed it. ``--debug`` prints when
each screen is up, which is how a support call (and the cold-start benchmark) sees how far a
station got.
"""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from dealer_assist.ui.qt import QApplication, QDialog, QTimer

_NOTES = {"on": False, "t0": time.monotonic()}


def enable_notes() -> None:
    """``--debug``: print start-up notes on stderr."""
    _NOTES["on"] = True


def note(what: str) -> None:
    """One start-up milestone (``startup: sign-in shown 1.23 s``), only with ``--debug``."""
    if _NOTES["on"]:
        print(f"startup: {what} {time.monotonic() - float(_NOTES['t0']):.2f} s", file=sys.stderr,
              flush=True)


def note_when_shown(what: str) -> None:
    """Note ``what`` once the event loop that shows it is running."""
    if _NOTES["on"]:
        QTimer.singleShot(0, lambda: note(what))


def close_everything(app: QApplication) -> None:
    """Reject every open dialog (nothing half-entered is saved) and end the event loop."""
    for w in app.topLevelWidgets():
        if isinstance(w, QDialog) and w.isVisible():
            w.reject()
    for w in app.topLevelWidgets():
        if w.isVisible():
            w.close()
    app.quit()


@contextmanager
def close_on_terminate(app: QApplication) -> Iterator[None]:
    """While the app runs, SIGTERM closes it cleanly (see the module docstring)."""
    if not hasattr(signal, "SIGTERM"):  # pragma: no cover - every platform we ship has it
        yield
        return
    state: dict[str, Any] = {}

    def handler(_signum: int, _frame: Any) -> None:
        QTimer.singleShot(0, lambda: close_everything(app))

    try:
        state["old"] = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    # Python runs signal handlers only between bytecodes; a timer hands it the thread now and
    # then while Qt's loop waits.
    tick = QTimer(app)
    tick.timeout.connect(lambda: None)
    tick.start(200)
    try:
        yield
    finally:
        tick.stop()
        tick.deleteLater()
        signal.signal(signal.SIGTERM, state["old"])

"""The app started as a station starts it (``python -m dealer_assist.cli``), but on the tests'
clock: the time is read from the file named by ``DEALER_ASSIST_TEST_CLOCK`` (ISO text), which
the test moves by hand, so a push due "in one minute" is due when the test says so, on any day
and any machine.

Run as a script (``python tests/ui/realwindow/clocked_app.py``): it wraps the one composition
root every start goes through (:func:`dealer_assist.db.bootstrap.open_services`) and then runs
the command line unchanged. The test's own services read the same file (:class:`FileClock`),
so every record of the walk-through, whichever process writes it, carries the same time line.
"""

from __future__ import annotations

import os
import sys
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ENV = "DEALER_ASSIST_TEST_CLOCK"


class FileClock:
    """The time in ``path``, plus one microsecond a call: strictly increasing within one
    process, and a step later than anything before once the test moves the file on (the test
    moves it by whole seconds, far more than a process's calls add)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.base: datetime | None = None
        self.ticks = 0

    def __call__(self) -> datetime:
        base = datetime.fromisoformat(self.path.read_text().strip())
        if base != self.base:
            self.base, self.ticks = base, 0
        self.ticks += 1
        return base + timedelta(microseconds=self.ticks)

    def set(self, when: datetime) -> None:
        """Move the room's clock to ``when`` (every process reads it at its next call)."""
        self.path.write_text(when.isoformat())


def main() -> int:
    from dealer_assist.db import bootstrap

    clock = FileClock(Path(os.environ[ENV]))
    real = bootstrap.open_services

    def open_services(*args: Any, **kwargs: Any) -> Any:
        kwargs.setdefault("clock", clock)
        return real(*args, **kwargs)

    bootstrap.open_services = open_services  # type: ignore[assignment]
    from dealer_assist.cli import main as cli

    return cli()


if __name__ == "__main__":
    sys.exit(main())

"""Regression: the installed Qt binding must keep Python's reference counts straight across
signals. PySide6 6.12.0 drops a reference to ``None``/``True``/``False`` each time a signal calls
a Python slot that returns one; on Python 3.11 a long shift counts them down to zero and the app
aborts ("bool_dealloc"). pyproject.toml excludes that release; this test catches any other."""

from __future__ import annotations

import subprocess
import sys

PROBE = """
import sys
from PySide6.QtCore import QCoreApplication, QObject, Signal
app = QCoreApplication([])
class Emitter(QObject):
    fired = Signal()
def returns_none():
    return None
def returns_true():
    return True
e = Emitter()
e.fired.connect(returns_none)
e.fired.connect(returns_true)
before = (sys.getrefcount(None), sys.getrefcount(True))
for _ in range(20000):
    e.fired.emit()
after = (sys.getrefcount(None), sys.getrefcount(True))
print(after[0] - before[0], after[1] - before[1])
"""


def test_regression_slots_returning_none_or_true_keep_their_references() -> None:
    run = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         timeout=120, env={"QT_QPA_PLATFORM": "offscreen", "PATH": ""})
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["0", "0"]

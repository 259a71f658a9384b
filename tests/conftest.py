"""Test-wide setup. Qt must be headless before any QApplication exists."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("DEALER_ASSIST_NO_USER_DB", "1")
# Station settings (ui/station.py) go to a file of the run's own, never the developer's: a test
# that stores settings points DEALER_ASSIST_SETTINGS at its own tmp_path.
os.environ["DEALER_ASSIST_SETTINGS"] = str(
    Path(tempfile.mkdtemp(prefix="dealer-assist-settings-")) / "station.ini")
# the room's signing key for checkpoints: one made for this test run, never the user's
os.environ.setdefault("DEALER_ASSIST_KEY", os.path.join(
    tempfile.mkdtemp(prefix="dealer-assist-key-"), "room-key.pem"))
if not os.path.exists(os.environ["DEALER_ASSIST_KEY"]):  # made as `keys init` makes it
    from dealer_assist.db.keys import create_key

    create_key(Path(os.environ["DEALER_ASSIST_KEY"]))

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
EXAMPLES_DIR = ROOT / "tests" / "data" / "examples"


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    """The worked examples of the rulings as hand logs with expected outcomes."""
    return EXAMPLES_DIR

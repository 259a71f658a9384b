"""Test-wide setup. Qt must be headless before any QApplication exists."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

#: The folders this process made for the run, removed when pytest ends in it (each xdist
#: worker and the controller remove their own, in ``pytest_unconfigure``).
_RUN_FOLDERS: list[str] = []


def _run_folder(prefix: str) -> str:
    folder = tempfile.mkdtemp(prefix=prefix)
    _RUN_FOLDERS.append(folder)
    return folder


os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("DEALER_ASSIST_NO_USER_DB", "1")
# Station settings (ui/station.py) go to a file of the run's own, never the developer's: a test
# that stores settings points DEALER_ASSIST_SETTINGS at its own tmp_path.
os.environ["DEALER_ASSIST_SETTINGS"] = str(
    Path(_run_folder("dealer-assist-settings-")) / "station.ini")
# the room's signing key for checkpoints: one made for this test run, never the user's
if "DEALER_ASSIST_KEY" not in os.environ:
    os.environ["DEALER_ASSIST_KEY"] = os.path.join(
        _run_folder("dealer-assist-key-"), "room-key.pem")
if not os.path.exists(os.environ["DEALER_ASSIST_KEY"]):  # made as `keys init` makes it
    from dealer_assist.db.keys import create_key

    create_key(Path(os.environ["DEALER_ASSIST_KEY"]))


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _RUN_FOLDERS:
        shutil.rmtree(folder, ignore_errors=True)


ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
EXAMPLES_DIR = ROOT / "tests" / "data" / "examples"


# --- running on every core (pytest-xdist; scripts/test runs ``-n auto --dist loadfile``) -------
# Each test file runs whole on one worker, so a module's shared set-up (a bundle build, a big
# room's database) is built once. Two more rules, below: the test files that build the project in
# the source tree share one worker, and the slowest files start first.

#: Test files that build the project with setuptools in the source tree (its build/ and
#: *.egg-info folders): never two at once, so they run on one worker, one after the other.
SOURCE_TREE_BUILDS = ("tests/test_packaging.py", "tests/packaging/test_bundle.py")
#: The slowest files (a bundle build, a room-size day, the real-window shifts): started first,
#: so that no worker is left running one of them alone at the end.
SLOW_FIRST = ("tests/packaging/", "tests/test_packaging.py", "tests/reports/test_room_size.py",
              "tests/ui/realwindow/")


@pytest.hookimpl(trylast=True)  # after pytest's own ordering by fixtures
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER"):  # the order the workers are handed files in
        items.sort(key=lambda item: not _rel(item).startswith(SLOW_FIRST))  # stable


@pytest.hookimpl(optionalhook=True)  # a pytest-xdist hook: absent with -p no:xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    class Scheduler(LoadFileScheduling):
        """loadfile, with the source-tree builds as one unit, in collection order."""

        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return "source-tree-build" if path in SOURCE_TREE_BUILDS else path

    config.option.loadscopereorder = False  # keep SLOW_FIRST's order (not by test count)
    return Scheduler(config, log)


def _rel(item: pytest.Item) -> str:
    return item.path.relative_to(ROOT).as_posix()


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    """The worked examples of the rulings as hand logs with expected outcomes."""
    return EXAMPLES_DIR

"""The desktop bundle itself, not the source: built once per run with scripts/package's builder,
then started the way a station starts it. A bundle that misses a module, a migration, a preset,
a font or a Qt plugin fails here, not at a cardroom.

Pins issue-level promises: ``--version`` names the build's commit without git on the station;
``db upgrade`` creates the database in a fresh data folder; the window comes up offscreen and a
SIGTERM closes it cleanly (exit 0); ``demo`` then ``verify`` pass; a shift report is written with
the bundled fonts and the version in its footer; the bundle stays under its size budget and
carries no test or benchmark packages.
"""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.reports.pdftext import pages

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


def _builder():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("da_build", ROOT / "packaging" / "build.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


BUILD = _builder()


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if importlib.util.find_spec("PyInstaller") is None:
        pytest.skip("PyInstaller is not installed (it is in the dev extras: scripts/setup --test)")
    if not sys.platform.startswith("linux"):
        pytest.skip("the bundle test builds the Linux bundle")
    out = tmp_path_factory.mktemp("bundle")
    started = time.monotonic()
    r = subprocess.run(
        [sys.executable, str(ROOT / "packaging" / "build.py"), "--dist", str(out / "dist"),
         "--work", str(out / "work"), "--top", "0"],
        capture_output=True, text=True, timeout=900, check=False,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    print(f"bundle built in {time.monotonic() - started:.0f} s: {r.stdout.strip()}")
    return out / "dist" / "dealer-assist"


@pytest.fixture
def station(tmp_path: Path) -> dict[str, str]:
    """A station's environment: its own home and data folder, no developer settings, no git."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("DEALER_ASSIST_", "PYTHON", "VIRTUAL_ENV", "XDG_"))}
    env.update(HOME=str(tmp_path / "home"), XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), QT_QPA_PLATFORM="offscreen",
               DEALER_ASSIST_SETTINGS=str(tmp_path / "station.ini"),
               PATH="/usr/bin:/bin")
    return env


def _run(bundle: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(bundle / "dealer-assist"), *args], env=env, capture_output=True,
                          text=True, timeout=300, check=False)


def test_version_names_the_release_and_the_baked_commit(bundle: Path,
                                                        station: dict[str, str]) -> None:
    station["PATH"] = str(bundle)  # no git on a station: the commit must be baked in
    r = _run(bundle, station, "--version")
    assert r.returncode == 0, r.stderr
    from dealer_assist import __version__

    assert r.stdout.startswith(f"Dealer Assist {__version__}")
    commit = BUILD.git_commit()
    if commit:
        assert f"({commit})" in r.stdout


def test_db_upgrade_creates_the_database_in_a_fresh_data_folder(bundle: Path,
                                                                 station: dict[str, str],
                                                                 tmp_path: Path) -> None:
    r = _run(bundle, station, "db", "upgrade", "--admin-pin", "4321")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "data" / "dealer-assist" / "dealer-assist.sqlite3").is_file()
    r = _run(bundle, station, "db", "info")
    assert r.returncode == 0 and "dealer-assist.sqlite3" in r.stdout, r.stdout + r.stderr


def test_demo_then_verify_then_a_shift_report(bundle: Path, station: dict[str, str],
                                              tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'demo.sqlite3'}"
    r = _run(bundle, station, "--db", db, "demo", "--hands", "6", "--tables", "1")
    assert r.returncode == 0, r.stdout + r.stderr
    r = _run(bundle, station, "--db", db, "verify")
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stdout.startswith("intact: 1 table, 6 hands")
    pdf = tmp_path / "shift.pdf"
    r = _run(bundle, station, "--db", db, "report", "shift", "--out", str(pdf),
             "--as", "fran", "--pin", "2000")
    assert r.returncode == 0, r.stdout + r.stderr
    text = pages(pdf)
    assert "Shift report" in text[0]
    from dealer_assist import __version__

    assert f"Dealer Assist {__version__}" in text[0]  # the footer names the build
    assert b"DejaVuSans" in pdf.read_bytes()  # the fonts travelled with the bundle: suits print


def _up_then_terminated(bundle: Path, env: dict[str, str], args: list[str], screen: str,
                        *, up_s: float) -> str:
    """Start the app, wait for ``screen`` to be shown, leave it up ``up_s``, SIGTERM it: it
    must still be running then and exit 0. Returns what it said on stderr."""
    proc = subprocess.Popen([str(bundle / "dealer-assist"), "--debug", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    shown = threading.Event()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line)
            if line.startswith(f"startup: {screen} shown"):
                shown.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        assert shown.wait(180), "".join(lines)  # a hang guard, not a timing
        time.sleep(up_s)
        assert proc.poll() is None, "".join(lines)  # still up
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(60) == 0, "".join(lines)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(10)
    err = "".join(lines)
    assert "Traceback" not in err and "internal error" not in err, err
    return err


def test_window_comes_up_offscreen_and_sigterm_closes_it_cleanly(bundle: Path,
                                                                  station: dict[str, str],
                                                                  tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    r = _run(bundle, station, "--db", db, "db", "upgrade", "--admin-pin", "4321")
    assert r.returncode == 0, r.stderr
    err = _up_then_terminated(bundle, station, ["--db", db], "sign-in", up_s=3)
    assert "startup: database open" in err


def test_a_new_station_asks_to_be_set_up_and_a_sigterm_saves_nothing(
    bundle: Path, station: dict[str, str], tmp_path: Path
) -> None:
    _up_then_terminated(bundle, station, [], "station set-up", up_s=1)
    assert not (tmp_path / "station.ini").exists()  # cancelled, not half set up
    assert not (tmp_path / "data" / "dealer-assist" / "dealer-assist.sqlite3").exists()


def test_bundle_is_under_budget_with_its_data_and_without_test_packages(bundle: Path) -> None:
    total, _ = BUILD.sizes(bundle)
    assert total < BUILD.BUDGET_MB * 1024 * 1024, f"{total / 1024 / 1024:.1f} MB"
    inside = bundle / "_internal"
    src = sorted(p.name for p in (ROOT / "db" / "migrations" / "versions").glob("*.py"))
    got = sorted(p.name for p in (inside / "dealer_assist/db/migrations/versions").glob("*.py"))
    assert got == src
    assert (inside / "dealer_assist/db/migrations/script.py.mako").is_file()
    presets = sorted(p.name for p in (ROOT / "dealer_assist/fees/presets").glob("*.toml"))
    assert sorted(p.name for p in (inside / "dealer_assist/fees/presets").glob("*.toml")) == presets
    for font in BUILD.FONT_FILES:
        assert (inside / "fonts" / font).is_file(), font
    assert (inside / "PySide6/Qt/plugins/platforms/libqxcb.so").is_file()
    assert (inside / "PySide6/Qt/plugins/platforms/libqwayland.so").is_file()
    for unwanted in ("pytest", "_pytest", "hypothesis", "pokerkit", "eval7", "treys", "pypdf",
                     "mypy", "tests", "bench", "PySide6/QtNetwork.abi3.so",
                     "PySide6/Qt/lib/libQt6Network.so.6", "PySide6/Qt/translations"):
        assert not (inside / unwanted).exists(), unwanted
    assert not re.search(r"pyinstaller", " ".join(p.name for p in inside.iterdir()), re.I)


@pytest.fixture(autouse=True)
def _no_leftovers() -> Iterator[None]:
    yield
    assert not (ROOT / "dealer_assist" / "_build.py").exists()  # the build never writes the source

"""Benchmark: cold start of the desktop bundle to the sign-in screen, beside importing Qt.

``ours`` is the wall time from starting ``dist/dealer-assist/dealer-assist --debug`` (offscreen,
on a small database that has its admin) until it reports ``startup: sign-in shown`` on stderr:
the bundle unpacks nothing (one folder), but it loads Python, Qt, SQLAlchemy, opens and checks
the database and builds the dialog. ``qt-import`` is ``python -c "import PySide6.QtWidgets"``
with the project's interpreter, measured in the same run: the floor for any PySide6 program.
Each figure is the median of ``--runs`` starts; the first start of each is also printed
(closest to a station just switched on, when the files are not yet in the page cache).

The bundle is the one in ``dist/dealer-assist`` (``scripts/package``), or built here first.

    .venv/bin/python bench/bench_cold_start.py [--runs 7] [--bundle DIR]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _bundle(arg: Path | None) -> Path:
    if arg is not None:
        return arg
    bundle = ROOT / "dist" / "dealer-assist"
    if not (bundle / "dealer-assist").is_file():
        r = subprocess.run([sys.executable, str(ROOT / "packaging" / "build.py"), "--top", "0"],
                           check=False)
        if r.returncode != 0:
            raise SystemExit("bench: the bundle could not be built (scripts/package says why)")
    return bundle


def _env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DEALER_ASSIST_", "PYTHON"))}
    env.update(QT_QPA_PLATFORM="offscreen", HOME=str(folder),
               DEALER_ASSIST_SETTINGS=str(folder / "station.ini"))
    return env


def start_to_sign_in(exe: Path, db: str, env: dict[str, str]) -> float:
    """Seconds from spawn to the sign-in dialog being shown; then the app is closed (SIGTERM)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen([str(exe), "--debug", "--db", db], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    took = None
    for line in proc.stderr:
        if line.startswith("startup: sign-in shown"):
            took = time.perf_counter() - t0
            break
    proc.send_signal(signal.SIGTERM)
    proc.wait(60)
    if took is None:
        raise SystemExit("bench: the bundle never showed the sign-in screen")
    return took


def qt_import() -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import PySide6.QtWidgets"], check=True)
    return time.perf_counter() - t0


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--bundle", type=Path, default=None)
    args = p.parse_args()
    bundle = _bundle(args.bundle)
    with tempfile.TemporaryDirectory(prefix="dealer-assist-cold-") as tmp:
        folder = Path(tmp)
        env = _env(folder)
        db = f"sqlite:///{folder / 'room.sqlite3'}"
        subprocess.run([str(bundle / "dealer-assist"), "--db", db, "db", "upgrade",
                        "--admin-pin", "4321"], env=env, check=True, capture_output=True)
        ours, base = [], []
        for _ in range(args.runs):  # interleaved, so both see the same machine
            base.append(qt_import())
            ours.append(start_to_sign_in(bundle / "dealer-assist", db, env))
    o, b = statistics.median(ours), statistics.median(base)
    print(f"BENCH cold-start ours={o:.2f} qt-import={b:.2f} ratio={o / b:.2f} s")
    print(f"BENCH cold-start-first ours={ours[0]:.2f} qt-import={base[0]:.2f} "
          f"ratio={ours[0] / base[0]:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())

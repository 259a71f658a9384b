"""Workers die with their parent (regression: after kill -9 of ``verify`` its workers ran on
for 25 s; those of a killed ``demo`` were alive 11 minutes later)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: A program that starts a pool the way verify and demo do, prints its workers' pids and waits.
CHILD = """
import os, sys, time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from dealer_assist.workers import pool_options

def pid(_):
    time.sleep(0.2)
    return os.getpid()

if __name__ == "__main__":
    ctx = get_context(sys.argv[1])
    with ProcessPoolExecutor(max_workers=2, mp_context=ctx, **pool_options()) as pool:
        print(" ".join(map(str, sorted(set(pool.map(pid, range(4)))))), flush=True)
        pool.submit(time.sleep, 600)
        time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie (not yet reaped by init) is gone for our purposes
        return "zombie" not in Path(f"/proc/{pid}/status").read_text().lower()
    except OSError:
        return False


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_regression_pool_workers_die_when_their_parent_is_killed(
    method: str, tmp_path: Path
) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    proc = subprocess.Popen([sys.executable, str(script), method], stdout=subprocess.PIPE,
                            text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        workers = [int(p) for p in proc.stdout.readline().split()]
        assert workers and all(_alive(p) for p in workers)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    deadline = time.monotonic() + 60  # generous: only that they go, not how fast
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in workers if _alive(p)]

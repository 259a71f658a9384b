"""Worker processes that die with the process that started them.

``verify`` and ``demo`` work on every CPU in a process pool. When the program is killed
(``kill -9``, a closed terminal, a crash) its workers must not run on reading or dealing for
minutes: each worker asks Linux to kill it when its parent dies (``prctl(PR_SET_PDEATHSIG)``),
and a watch thread in each worker (on every system) ends it once the starting process is gone.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from typing import Any

#: ``prctl`` option: the signal a process gets when its parent dies (linux/prctl.h).
PR_SET_PDEATHSIG = 1
#: How often the watch thread looks for the starting process (seconds).
WATCH_EVERY_S = 0.5


def pool_options() -> dict[str, Any]:
    """``initializer``/``initargs`` for a ``ProcessPoolExecutor``: its workers die with this
    process."""
    return {"initializer": die_with_parent, "initargs": (os.getpid(),)}


def die_with_parent(owner: int) -> None:
    """In a worker: end this process when ``owner`` (the process that made the pool) is gone."""
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # no prctl: the watch thread alone
            pass
    if os.getppid() != parent or not _alive(owner):  # gone before prctl took hold
        os._exit(1)
    threading.Thread(target=_watch, args=(owner, parent), name="parent-watch",
                     daemon=True).start()


def _watch(owner: int, parent: int) -> None:
    while True:
        time.sleep(WATCH_EVERY_S)
        if os.getppid() != parent or not _alive(owner):
            os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process now holds the number: ours is gone
        return False
    return True

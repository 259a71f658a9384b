"""Pausing Python's cyclic garbage collector around bulk work (verify's parts, the reports).

Both make hundreds of thousands of small objects without cycles that live until the work ends;
the collector would only walk them again and again (about a tenth of the time). Reference
counting still frees everything else, and the collector resumes, and catches up, afterwards.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """No cyclic collection inside the block; the collector is on again after it if it was."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()

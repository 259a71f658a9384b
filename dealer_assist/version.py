"""What program produced a record: the version, and the commit when there is one.

An auditor reading a report, an audit entry or the About box needs to know exactly which build
wrote it. A bundle has no git, so ``packaging/build.py`` bakes the commit into
``dealer_assist/_build.py`` at build time; a source checkout asks git once; an installed wheel
has only the version.
"""

from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path

from dealer_assist import __version__

#: Written by the bundle build, never committed: ``COMMIT = "abc123def456"`` (``-dirty`` when
#: the tree had changes the commit does not hold).
BUILD_MODULE = "dealer_assist._build"


def version() -> str:
    """The release number, e.g. ``0.1.0``."""
    return __version__


@lru_cache(maxsize=1)
def commit() -> str | None:
    """The commit this program was built from (``-dirty`` if changed since), or None."""
    try:
        from dealer_assist import _build  # type: ignore[attr-defined]
    except ImportError:
        return _commit_from_git(Path(__file__).resolve().parent.parent)
    baked = getattr(_build, "COMMIT", None)
    return str(baked) if baked else None


def _commit_from_git(root: Path) -> str | None:
    """The checkout's commit, only when this file sits in a git work tree (not site-packages)."""
    if not (root / ".git").exists():
        return None
    try:
        r = subprocess.run(
            ["git", "-C", str(root), "describe", "--always", "--dirty", "--abbrev=12"],
            capture_output=True, text=True, timeout=5, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    out = r.stdout.strip()
    return out if r.returncode == 0 and out else None


def version_line() -> str:
    """One line for a footer, an audit entry or ``--version``: ``Dealer Assist 0.1.0 (abc123)``."""
    c = commit()
    return f"Dealer Assist {version()}" + (f" ({c})" if c else "")

"""Quality gates run with the suite: lint, strict typing of the core, and the layer contract."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CORE_PACKAGES = {
    "cards", "deck", "money", "events", "errors", "engine", "games", "evaluate", "fees",
    "services", "settings", "gc_pause", "version", "bounded", "workers", "dossier",
}
OUTER_PACKAGES = {"cli", "ui", "db", "reports"}


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff_lint_is_clean() -> None:
    r = _run(str(BIN / "ruff"), "check", ".")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_on_the_core() -> None:
    r = _run(str(BIN / "mypy"), "dealer_assist", "--no-error-summary")
    assert r.returncode == 0, r.stdout + r.stderr


def test_import_contract_core_pure_and_layers_point_inward(tmp_path: Path) -> None:
    """import-linter reads the source tree, so lay the packages out as they are installed."""
    pkg = tmp_path / "dealer_assist"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "dealer_assist", pkg, ignore=ignore)
    for outer in ("ui", "db", "reports"):
        shutil.copytree(ROOT / outer, pkg / outer, ignore=ignore)
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    r = subprocess.run(
        [str(BIN / "lint-imports"), "--no-cache", "--config", str(ROOT / "pyproject.toml")],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env,
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_every_core_module_is_covered_by_the_contract() -> None:
    """A new top-level module must be declared core (and so kept pure) or an outer layer."""
    pkg = ROOT / "dealer_assist"
    names = {p.stem for p in pkg.glob("*.py") if p.stem != "__init__"}
    names |= {p.name for p in pkg.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    unknown = names - CORE_PACKAGES - OUTER_PACKAGES
    if unknown:
        pytest.fail(f"add {sorted(unknown)} to the core contract in pyproject.toml and here")

"""Quality gates run with the suite: lint, strict typing of every package (the core, cli, ui, db
and reports), and the layer contract."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CORE_PACKAGES = {
    "cards", "deck", "money", "events", "errors", "engine", "games", "evaluate", "fees",
    "services", "settings", "gc_pause", "version", "bounded", "workers", "dossier",
}
OUTER_PACKAGES = {"cli", "ui", "db", "reports"}
#: The outer layers kept at the top of the repository and installed under dealer_assist.
MAPPED = ("ui", "db", "reports")


def _run(*cmd: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)


def _installed_layout(top: Path) -> Path:
    """Copy the packages under ``top`` as they are installed (ui/, db/ and reports/ inside
    dealer_assist), so the tools see ``dealer_assist.ui`` and the others as the code imports
    them. The copies keep their files' times (so mypy's cache stays valid)."""
    pkg = top / "dealer_assist"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "dealer_assist", pkg, ignore=ignore)
    for outer in MAPPED:
        shutil.copytree(ROOT / outer, pkg / outer, ignore=ignore)
    return pkg


def test_ruff_lint_is_clean() -> None:
    r = _run(str(BIN / "ruff"), "check", ".")
    assert r.returncode == 0, r.stdout + r.stderr


def test_mypy_strict_on_every_package_as_installed(tmp_path: Path) -> None:
    """The core, cli, ui, db (with its migrations) and reports, each checked against the others'
    real types (pyproject.toml's [tool.mypy]: strict; reportlab and phevaluator have no types)."""
    _installed_layout(tmp_path)
    r = subprocess.run(
        [str(BIN / "mypy"), "--config-file", str(ROOT / "pyproject.toml"),
         "--cache-dir", str(ROOT / ".mypy_cache"), "--no-error-summary", "-p", "dealer_assist"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
    )
    out = r.stdout + r.stderr
    for outer in MAPPED:  # name the files where they are in the repository
        out = out.replace(f"dealer_assist/{outer}/", f"{outer}/")
    assert r.returncode == 0, out


def test_import_contract_core_pure_and_layers_point_inward(tmp_path: Path) -> None:
    """import-linter reads the source tree, so lay the packages out as they are installed."""
    _installed_layout(tmp_path)
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
        pytest.fail(f"add {sorted(unknown)} to the core contracts in pyproject.toml (the pure "
                    "core and a layer inside it) and here")


def _core_layers() -> list[set[str]]:
    """The layers of the core's own contract, top first, each a set of top-level names."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    (core,) = [c for c in config["tool"]["importlinter"]["contracts"]
               if c["name"].startswith("Layers inside the core")]
    return [{m.strip().removeprefix("dealer_assist.") for m in re.split(r"[|:]", layer)}
            for layer in core["layers"]]


def test_every_core_module_has_a_layer_inside_the_core() -> None:
    """A core module left out of the core's layers could import any of them unnoticed."""
    placed = [name for layer in _core_layers() for name in layer]
    assert len(placed) == len(set(placed)), "a module is given two layers"
    assert set(placed) == CORE_PACKAGES


def test_core_layers_run_dossier_services_games_settings_fees_engine() -> None:
    """The order docs/architecture.md draws: the dossier on top, the engine under every game."""
    layers = _core_layers()
    order = ("dossier", "services", "games", "settings", "fees", "engine")
    where = [next(i for i, layer in enumerate(layers) if name in layer) for name in order]
    assert where == sorted(set(where)), dict(zip(order, where, strict=True))


def test_import_contract_refuses_the_engine_importing_the_dossier(tmp_path: Path) -> None:
    """The core's layers are held: a module of the engine that imports the dossier (the circle
    engine/base.py once closed through dossier/declare.py) and a game that imports the services
    are both named, so the contract cannot pass by checking nothing."""
    pkg = _installed_layout(tmp_path)
    (pkg / "engine" / "wrong_way.py").write_text(
        "from dealer_assist.dossier import stats  # noqa: F401\n"
    )
    (pkg / "games" / "wrong_way.py").write_text(
        "from dealer_assist.services import model  # noqa: F401\n"
    )
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    r = subprocess.run(
        [str(BIN / "lint-imports"), "--no-cache", "--config", str(ROOT / "pyproject.toml")],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env,
    )
    out = " ".join((r.stdout + r.stderr).split())
    assert r.returncode != 0
    assert "dealer_assist.engine.wrong_way -> dealer_assist.dossier.stats" in out
    assert "dealer_assist.games.wrong_way -> dealer_assist.services.model" in out


def test_import_contract_refuses_a_builder_drawing_or_one_report_importing_another(
        tmp_path: Path) -> None:
    """The reports' own contracts are held: a builder that imports the page code and one
    report's layout importing another report's are both named."""
    pkg = _installed_layout(tmp_path)
    (pkg / "reports" / "build" / "wrong_way.py").write_text(
        "from dealer_assist.reports.render import style  # noqa: F401\n"
    )
    day = pkg / "reports" / "layouts" / "day.py"
    day.write_text(day.read_text() + "from dealer_assist.reports.layouts import shift  # noqa\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    r = subprocess.run(
        [str(BIN / "lint-imports"), "--no-cache", "--config", str(ROOT / "pyproject.toml")],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, env=env,
    )
    out = " ".join((r.stdout + r.stderr).split())
    assert r.returncode != 0
    assert "dealer_assist.reports.build.wrong_way -> dealer_assist.reports.render.style" in out
    assert "dealer_assist.reports.layouts.day -> dealer_assist.reports.layouts.shift" in out

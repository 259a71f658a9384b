"""Regression: ui/, db/ and reports/ install under dealer_assist, migrations included.

An earlier layout found packages by folder name only, so an installed copy had no
dealer_assist.db, .ui or .reports at all.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROOTS = {"dealer_assist": "dealer_assist", "db": "dealer_assist.db", "ui": "dealer_assist.ui",
         "reports": "dealer_assist.reports"}


def _declared() -> set[str]:
    conf = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return set(conf["tool"]["setuptools"]["packages"])


def test_regression_every_package_folder_is_declared_for_install() -> None:
    found = set()
    for folder, name in ROOTS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join([name, *rel.parts]) if rel.parts else name)
    assert found - _declared() == set(), "add these to [tool.setuptools] packages"


def test_regression_wheel_carries_layers_migrations_and_presets(tmp_path: Path) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(ROOT)],
        capture_output=True, text=True, timeout=300,
    )
    assert r.returncode == 0, r.stderr
    wheel = next(tmp_path.glob("*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for must in ["dealer_assist/db/models.py", "dealer_assist/ui/qt.py",
                 "dealer_assist/reports/render.py", "dealer_assist/db/migrations/env.py",
                 "dealer_assist/db/migrations/versions/0001_initial.py",
                 "dealer_assist/fees/presets/rake-with-cap.toml"]:
        assert must in names, must

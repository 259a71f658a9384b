"""Regression: ui/, db/ and reports/ install under dealer_assist, migrations included.

An earlier layout found packages by folder name only, so an installed copy had no
dealer_assist.db, .ui or .reports at all.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROOTS = {"dealer_assist": "dealer_assist", "db": "dealer_assist.db", "ui": "dealer_assist.ui",
         "reports": "dealer_assist.reports"}


def _package_folders() -> set[str]:
    found = set()
    for folder, name in ROOTS.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            rel = init.parent.relative_to(ROOT / folder)
            found.add(".".join([name, *rel.parts]) if rel.parts else name)
    return found


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
                 "dealer_assist/reports/render/page.py", "dealer_assist/db/migrations/env.py",
                 "dealer_assist/db/migrations/versions/0001_initial.py",
                 "dealer_assist/fees/presets/rake-with-cap.toml"]:
        assert must in names, must
    # every package folder is found and installed, a new game's included, with no list to keep
    missing = [p for p in _package_folders() if p.replace(".", "/") + "/__init__.py" not in names]
    assert missing == [], missing


# --- the bundle's recipe: Linux and Windows kept in step (the bundle itself: tests/packaging) ---
PKG = ROOT / "packaging"


def test_windows_installer_matches_the_spec_icon_and_version_and_keeps_the_database() -> None:
    iss = (PKG / "windows" / "dealer-assist.iss").read_text()
    spec = (PKG / "dealer-assist.spec").read_text()
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert f'#define AppVersion "{version}"' in iss
    assert r"SetupIconFile=..\icons\dealer-assist.ico" in iss
    assert '"icons" / "dealer-assist.ico"' in spec
    assert (PKG / "icons" / "dealer-assist.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"
    assert (PKG / "icons" / "dealer-assist.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # Every data file the spec collects lands in the bundle folder the installer copies whole.
    assert r'Source: "..\..\dist\dealer-assist\*"' in iss and "recursesubdirs" in iss
    # The uninstaller removes the program, never the records or the station's settings.
    assert "[UninstallDelete]" not in iss and "uninsdeletekey" not in iss.lower()


def test_linux_launcher_points_at_the_bundle_and_its_icon() -> None:
    desktop = (PKG / "linux" / "dealer-assist.desktop").read_text()
    assert "Exec=/opt/dealer-assist/dealer-assist" in desktop
    assert "Icon=/opt/dealer-assist/_internal/icons/dealer-assist.png" in desktop
    assert '(str(HERE / "icons"), "icons")' in (PKG / "dealer-assist.spec").read_text()


def test_version_line_names_the_release_and_the_checkout_commit() -> None:
    from dealer_assist import __version__
    from dealer_assist.version import version_line

    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert __version__ == version
    r = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                       text=True, check=False)
    if r.returncode != 0:  # not a checkout: the version alone
        assert version_line() == f"Dealer Assist {version}"
        return
    # (-dirty depends on the tree when first asked; the commit does not.)
    assert re.fullmatch(rf"Dealer Assist {re.escape(version)} \({r.stdout[:12]}(-dirty)?\)",
                        version_line()), version_line()


def test_version_option_prints_the_version_line(capsys: object) -> None:
    import pytest

    from dealer_assist.cli import main
    from dealer_assist.version import version_line

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == version_line() + "\n"  # type: ignore[attr-defined]

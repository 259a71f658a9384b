"""Build the one-folder desktop bundle for the machine this runs on (Linux or Windows).

Steps: install the project (no dependencies) into a staging folder, so ``db/``, ``ui/`` and
``reports/`` sit under ``dealer_assist`` as they do in an installed copy; write the version and
commit into ``dealer_assist/_build.py`` there (a bundle has no git); copy the report fonts; run
PyInstaller on ``packaging/dealer-assist.spec`` from inside the build folder (so the source tree
is never on the import path); then print the bundle's size and largest parts and refuse a bundle
over the budget. ``scripts/package`` runs this with the project's .venv.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "dealer-assist.spec"
NAME = "dealer-assist"
#: The bundle must stay under this (docs/packaging.md says why it is what it is).
BUDGET_MB = 205
#: The report faces (reports/render/style.py): suits and the euro sign need DejaVu.
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
              "DejaVuSansMono.ttf")
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/dejavu",
             "/usr/share/fonts/TTF")


class BuildError(Exception):
    """A step failed; the message says which and what to do."""


def git_commit(root: Path = ROOT) -> str | None:
    """The checkout's commit (``-dirty`` when the work tree has changes), or None outside git."""
    if shutil.which("git") is None:
        return None
    r = subprocess.run(["git", "-C", str(root), "describe", "--always", "--dirty", "--abbrev=12"],
                       capture_output=True, text=True, check=False)
    return r.stdout.strip() or None if r.returncode == 0 else None


def find_fonts() -> Path:
    """A folder with every face in :data:`FONT_FILES` (``DEALER_ASSIST_FONT_DIR``, or the
    system's)."""
    env = os.environ.get("DEALER_ASSIST_FONT_DIR")
    for d in ([env] if env else []) + list(FONT_DIRS):
        if all((Path(d) / f).is_file() for f in FONT_FILES):
            return Path(d)
    raise BuildError(
        "the DejaVu fonts the reports print with were not found (" + ", ".join(FONT_FILES)
        + "): install fonts-dejavu-core, or put the files in a folder and set "
        "DEALER_ASSIST_FONT_DIR to it"
    )


def _clean_setuptools_scratch() -> None:
    """setuptools builds in ROOT/build/lib and keeps what it copied there: a module deleted from
    the source would ride along into the next bundle. Start and end without it."""
    for scratch in (ROOT / "build").glob("lib*"):
        shutil.rmtree(scratch, ignore_errors=True)
    for scratch in (ROOT / "build").glob("bdist.*"):
        shutil.rmtree(scratch, ignore_errors=True)


def stage(work: Path, commit: str | None) -> Path:
    """Install the project into ``work/stage`` as pip would on a station, plus ``_build.py``."""
    target = work / "stage"
    shutil.rmtree(target, ignore_errors=True)
    _clean_setuptools_scratch()
    r = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-build-isolation",
         "--no-compile", "--no-warn-script-location", "-q", "--target", str(target), str(ROOT)],
        capture_output=True, text=True, check=False,
    )
    if r.returncode != 0:
        raise BuildError(f"installing the project into {target} failed:\n{r.stderr.strip()}")
    _clean_setuptools_scratch()
    (target / "dealer_assist" / "_build.py").write_text(
        '"""Written by packaging/build.py when the bundle was built; never committed."""\n\n'
        f"COMMIT = {commit!r}\n", encoding="utf-8",
    )
    fonts = work / "fonts"
    shutil.rmtree(fonts, ignore_errors=True)
    fonts.mkdir(parents=True)
    src = find_fonts()
    for f in FONT_FILES:
        shutil.copy2(src / f, fonts / f)
    for lic in ("LICENSE", "COPYING"):
        for p in (src / lic, Path("/usr/share/doc/fonts-dejavu-core/copyright")):
            if p.is_file():
                shutil.copy2(p, fonts / "DejaVu-LICENSE.txt")
                break
    return target


def run_pyinstaller(work: Path, dist: Path, staged: Path) -> None:
    env = dict(os.environ, DEALER_ASSIST_STAGE=str(staged), DEALER_ASSIST_FONTS=str(work / "fonts"))
    env.pop("PYTHONPATH", None)
    r = subprocess.run(
        [sys.executable, "-m", "PyInstaller", str(SPEC), "--noconfirm", "--log-level", "WARN",
         "--distpath", str(dist), "--workpath", str(work / "pyinstaller")],
        cwd=work, env=env, capture_output=True, text=True, check=False,
    )
    if r.returncode != 0:
        raise BuildError(f"PyInstaller failed:\n{(r.stdout + r.stderr).strip()[-4000:]}")


def sizes(bundle: Path) -> tuple[int, list[tuple[str, int]]]:
    """The bundle's total bytes and its parts (top-level entries; Qt libraries one by one)."""
    parts: dict[str, int] = {}
    total = 0
    for p in bundle.rglob("*"):
        if not p.is_file() or p.is_symlink():
            continue
        n = p.stat().st_size
        total += n
        rel = p.relative_to(bundle).parts
        depth = 5 if rel[:3] == ("_internal", "PySide6", "Qt") else (
            3 if rel[:2] == ("_internal", "PySide6") else 2)
        key = "/".join(rel[:depth])
        parts[key] = parts.get(key, 0) + n
    return total, sorted(parts.items(), key=lambda kv: -kv[1])


def build(*, dist: Path, work: Path, budget_mb: float = BUDGET_MB) -> Path:
    """Build the bundle into ``dist/dealer-assist`` and return its folder."""
    try:
        import PyInstaller  # noqa: F401
    except ImportError as exc:
        raise BuildError("PyInstaller is not installed: pip install -e '.[dev]'") from exc
    work.mkdir(parents=True, exist_ok=True)
    staged = stage(work, git_commit())
    run_pyinstaller(work, dist, staged)
    bundle = dist / NAME
    total, _ = sizes(bundle)
    if total > budget_mb * 1024 * 1024:
        raise BuildError(f"the bundle is {total / 1024 / 1024:.1f} MB, over its budget of "
                         f"{budget_mb} MB: see docs/packaging.md for what may go")
    return bundle


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="package", description=__doc__.split("\n\n")[0])
    p.add_argument("--dist", type=Path, default=ROOT / "dist", help="where the bundle goes")
    p.add_argument("--work", type=Path, default=ROOT / "build" / "package",
                   help="scratch folder for staging and PyInstaller")
    p.add_argument("--budget-mb", type=float, default=BUDGET_MB)
    p.add_argument("--top", type=int, default=12, help="how many of the largest parts to list")
    args = p.parse_args(argv)
    started = time.monotonic()
    try:
        bundle = build(dist=args.dist.resolve(), work=args.work.resolve(),
                       budget_mb=args.budget_mb)
    except BuildError as exc:
        print(f"package: {exc}", file=sys.stderr)
        return 2
    total, parts = sizes(bundle)
    print(f"package: {bundle} built in {time.monotonic() - started:.0f} s, "
          f"{total / 1024 / 1024:.1f} MB (budget {args.budget_mb:g} MB)")
    for key, n in parts[: args.top]:
        print(f"  {n / 1024 / 1024:7.1f} MB  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The UI's modules each do one job (issue 42): none grows past about 500 lines."""

from __future__ import annotations

from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "ui"


def test_regression_no_ui_module_is_over_500_lines() -> None:
    """The dealer screen, the dialogs, the table view, the floor console, the panels and the
    controllers were split by job into packages; a module that grows past 500 lines again is
    named here, to be split the same way."""
    long = {str(p.relative_to(UI)): n for p in sorted(UI.rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert long == {}
    for package in ("dealer_window", "dialogs", "table_view", "floor_console", "panels",
                    "controllers"):  # the split is there to be measured
        assert (UI / package / "__init__.py").is_file()
        assert not (UI / f"{package}.py").exists()

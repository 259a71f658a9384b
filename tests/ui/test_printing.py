"""Reports go to paper through the system's print dialog, as the same PDF that is exported."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.services import Services
from dealer_assist.ui import workers
from dealer_assist.ui.printing import PrintFailed, print_command, send_to_printer
from dealer_assist.ui.qt import QDialog, QPrintDialog, QPrinter, Qt
from tests.ui.test_floor_console import console, deal_example


def _ok(cmd: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
    return subprocess.CompletedProcess(cmd, 0, "request id is Floor-7 (1 file(s))", "")


def test_print_command_names_printer_copies_and_title(tmp_path: Path) -> None:
    pdf = tmp_path / "shift-3.pdf"
    assert print_command(pdf, "Floor", 2, "Shift 3 report") == [
        "lp", "-n", "2", "-t", "Shift 3 report", "-d", "Floor", str(pdf)]


def test_send_to_printer_reports_what_went_where(tmp_path: Path) -> None:
    seen: list[list[str]] = []

    def run(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
        seen.append(cmd)
        return _ok(cmd)

    said = send_to_printer(tmp_path / "h.pdf", "Floor", 3, run=run, platform="linux")
    assert said == "Sent h.pdf to Floor, 3 copies" and seen[0][:3] == ["lp", "-n", "3"]


def test_a_refusing_printer_says_why_and_where_the_report_is(tmp_path: Path) -> None:
    def refuse(cmd: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        return subprocess.CompletedProcess(cmd, 1, "", "lp: The printer or class does not exist.")

    with pytest.raises(PrintFailed, match=r"the printer Cage refused the report \(lp: The "
                       r"printer or class does not exist.\): check the printer and try again; "
                       r"the report is saved as "):
        send_to_printer(tmp_path / "h.pdf", "Cage", 1, run=refuse, platform="linux")


def test_floor_prints_the_hand_report_through_the_print_dialog(
    qtbot: Any, sqlite_services: Services, examples_dir: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The dialog's "print to file" keeps a copy; a real printer gets the PDF via lp."""
    svc = sqlite_services
    deal_example(svc, examples_dir)
    w = console(qtbot, svc)
    qtbot.mouseClick(w.search_button, Qt.MouseButton.LeftButton)
    w.select_row(0)
    copy = tmp_path / "printed.pdf"

    def accept_to_file(dialog: QPrintDialog) -> int:
        printer: QPrinter = dialog.printer()
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(copy))
        return int(QDialog.DialogCode.Accepted.value)

    monkeypatch.setattr(QPrintDialog, "exec", accept_to_file)
    qtbot.mouseClick(w.print_hand, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.last_printed is not None or w.notice.isVisible(), timeout=20000)
    assert w.last_printed is not None, w.notice.text()
    assert copy.read_bytes() == w.last_printed.read_bytes()
    assert copy.read_bytes()[:5] == b"%PDF-"
    assert w.info.text() == f"Saved a copy of {w.last_printed.name} as {copy}"
    assert any(e.action == "report" for e in svc.store.audit_log())

    asked: list[str] = []

    def cancel(dialog: QPrintDialog) -> int:
        asked.append(dialog.windowTitle())
        return int(QDialog.DialogCode.Rejected.value)

    monkeypatch.setattr(QPrintDialog, "exec", cancel)
    w.last_printed = None
    w.info.setText("")
    qtbot.mouseClick(w.print_shift, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(asked) and not workers._RUNNING, timeout=20000)
    assert w.c.hand is not None and asked == [f"Print: Shift {w.c.hand.shift_id} report"]
    assert w.last_printed is None and w.info.text() == ""


def test_regression_print_hand_after_a_reveal_prints_the_cards_and_logs_one_reveal(
    qtbot: Any, sqlite_services: Services, examples_dir: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Print hand [P] after a reveal prints the cards as Hand PDF does (it withheld them),
    and names the reveal already logged (no second "reveal" entry)."""
    svc = sqlite_services
    deal_example(svc, examples_dir)
    w = console(qtbot, svc)
    qtbot.mouseClick(w.search_button, Qt.MouseButton.LeftButton)
    w.select_row(0)
    assert w.c.hand is not None
    hand_id = w.c.hand.id
    w.reveal_reason.setText("dispute at seat 2")
    qtbot.mouseClick(w.reveal_button, Qt.MouseButton.LeftButton)
    assert w.c.revealed
    copy = tmp_path / "printed.pdf"

    def accept_to_file(dialog: QPrintDialog) -> int:
        printer: QPrinter = dialog.printer()
        printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
        printer.setOutputFileName(str(copy))
        return int(QDialog.DialogCode.Accepted.value)

    monkeypatch.setattr(QPrintDialog, "exec", accept_to_file)
    qtbot.mouseClick(w.print_hand, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.last_printed is not None or w.notice.isVisible(), timeout=20000)
    assert w.last_printed is not None, w.notice.text()
    assert [e.action for e in svc.reveals(hand_id)] == ["reveal"]
    reports = [e.detail for e in svc.store.audit_log(action="report")]
    assert any("hidden cards revealed" in d for d in reports), reports

"""Printing a report: the system's print dialog chooses the printer and copies, and the PDF the
report engine wrote goes to that printer through the operating system's print service.

The report is always the same PDF that is exported, so a printed copy and a saved copy of a
report cannot differ.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.ui.qt import QDialog, QPrintDialog, QPrinter, QWidget

Runner = Callable[..., Any]


class PrintFailed(DealerAssistError):
    """The print service refused or is missing; the report itself is safe on disk."""


def print_command(pdf: Path, printer: str, copies: int, title: str) -> list[str]:
    """The CUPS command (Linux and macOS) that prints ``pdf`` on ``printer``."""
    cmd = ["lp", "-n", str(max(1, copies)), "-t", title]
    if printer:
        cmd += ["-d", printer]
    return [*cmd, str(pdf)]


def send_to_printer(
    pdf: Path, printer: str, copies: int, *, title: str = "Dealer Assist report",
    run: Runner = subprocess.run, platform: str = sys.platform,
) -> str:
    """Print ``pdf``; returns what to tell the person, raises :class:`PrintFailed` with advice."""
    if platform.startswith("win"):
        startfile = getattr(os, "startfile", None)
        if startfile is None:
            raise PrintFailed("printing is not available on this system")
        for _ in range(max(1, copies)):
            startfile(str(pdf), "print")
        return f"Sent {pdf.name} to the default printer"
    if shutil.which("lp") is None and run is subprocess.run:
        raise PrintFailed(
            "no print service found (the 'lp' command of CUPS is missing): install CUPS, or "
            f"print the saved PDF {pdf} from a PDF viewer"
        )
    result = run(print_command(pdf, printer, copies, title), capture_output=True, text=True,
                 timeout=60)
    if result.returncode != 0:
        why = (result.stderr or result.stdout or "").strip().splitlines()
        raise PrintFailed(
            f"the printer {printer or '(default)'} refused the report"
            + (f" ({why[0]})" if why else "")
            + f": check the printer and try again; the report is saved as {pdf}"
        )
    where = printer or "the default printer"
    return f"Sent {pdf.name} to {where}" + (f", {copies} copies" if copies > 1 else "")


def print_pdf(parent: QWidget | None, pdf: Path, *, title: str, run: Runner = subprocess.run,
              log: Callable[[str], Any] | None = None) -> str | None:
    """Show the system's print dialog for ``pdf``; ``None`` when the person cancels.

    "Print to file" in the dialog saves a copy of the PDF where the person chose. ``log``
    records what happened (the printer and copies, a copy saved, or the print cancelled)."""
    said = _print_pdf(parent, pdf, title=title, run=run, log=log)
    return said


def _print_pdf(parent: QWidget | None, pdf: Path, *, title: str, run: Runner,
               log: Callable[[str], Any] | None) -> str | None:
    note = log or (lambda _text: None)
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setDocName(title)
    from dealer_assist.ui.station import current

    if current().printer:  # the station's printer for reports, chosen at set-up
        printer.setPrinterName(current().printer)
    dialog = QPrintDialog(printer, parent)
    dialog.setObjectName("print-dialog")
    dialog.setWindowTitle(f"Print: {title}")
    if dialog.exec() != QDialog.DialogCode.Accepted:
        note(f"{title}: print cancelled")
        return None
    target = printer.outputFileName()
    if printer.outputFormat() == QPrinter.OutputFormat.PdfFormat and target:
        shutil.copyfile(pdf, target)
        note(f"{title}: a copy saved as {target} (print to file)")
        return f"Saved a copy of {pdf.name} as {target}"
    name, copies = printer.printerName() or "(default printer)", max(1, printer.copyCount())
    try:
        said = send_to_printer(pdf, printer.printerName(), printer.copyCount(), title=title,
                               run=run)
    except PrintFailed as exc:
        note(f"{title}: printer {name}, {copies} copies: FAILED ({exc})")
        raise
    note(f"{title}: printer {name}, {copies} cop{'ies' if copies != 1 else 'y'}")
    return said

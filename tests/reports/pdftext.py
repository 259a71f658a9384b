"""Read a PDF back: its pages' text (pypdf)."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader


def pages(path: Path) -> list[str]:
    return [p.extract_text() or "" for p in PdfReader(str(path)).pages]

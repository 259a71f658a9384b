"""What one report collects while its story is laid out, in a context of its own: its zone, its
paper's scale, the notes printed whole in its appendix and every table as data (for its CSVs).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextvars import ContextVar, copy_context
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from functools import wraps
from typing import Any, ParamSpec, TypeVar

from reportlab.platypus import Flowable, Paragraph


@dataclass(slots=True)
class ReportState:
    """What one report holds while its story is laid out: the zone its times are printed in
    (the room's; records stay UTC), the scale of its paper, the section being laid out, the
    values printed whole in its appendix, and every table as data (for its CSV files).

    Each report has its own (:func:`begin` starts one, :func:`own_report` keeps it apart from
    the caller's): two reports built at once on two threads, one inside another, or one after
    a failed one never share a note, a table or a zone."""

    zone: tzinfo = UTC
    scale: float = 1.0
    section: str = ""
    appendix: list[tuple[str, str]] = field(default_factory=list)
    #: Every table of the report as data: (section, header, rows, total row or None).
    tables: list[tuple[str, list[str], list[list[str]], list[str] | None]] = field(
        default_factory=list)


_CURRENT: ContextVar[ReportState | None] = ContextVar("dealer_assist_report", default=None)


_P = ParamSpec("_P")


_R = TypeVar("_R")


def current() -> ReportState:
    """The state of the report being laid out in this context (a fresh one outside any)."""
    st = _CURRENT.get()
    if st is None:
        st = ReportState()
        _CURRENT.set(st)
    return st


def own_report(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``fn`` (a report's render) in a context of its own: the report state it starts
    never replaces its caller's (a report written while another is being laid out)."""

    @wraps(fn)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        return copy_context().run(fn, *args, **kwargs)

    return run


def rendered(render: Callable[..., Any], *args: Any) -> tuple[Any, ReportState]:
    """``render(*args)`` in a context of its own, and the state that report left (its
    tables, for the CSV files written beside the PDF)."""
    ctx = copy_context()
    out = ctx.run(render, *args)
    return out, ctx.run(current)


def scaled(widths: Sequence[float]) -> list[float]:
    """Column widths drawn for A4, fitted to the paper in use."""
    k = current().scale
    return list(widths) if k == 1.0 else [w * k for w in widths]


def use_zone(name: str) -> None:
    """Print this report's times in the zone ``name``."""
    from zoneinfo import ZoneInfo

    current().zone = UTC if name == "UTC" else ZoneInfo(name)


#: A cell longer than this (characters) or than ``CELL_LINES`` lines is summarised, and its
#: whole value printed in the appendix: a table row is never taller than a page.
CELL_CHARS = 480


CELL_LINES = 8


#: A long-table row of more lines than this is carried on in rows of its own (``(cont.)``).
ROW_LINES = 24


def start_report() -> ReportState:
    """A new report's state in this context: nothing the last report collected is in it."""
    st = ReportState()
    _CURRENT.set(st)
    return st


def appendix_note(where: str, text: str) -> int:
    """Keep ``text`` whole for the report's appendix; its number there."""
    notes = current().appendix
    notes.append((where, text))
    return len(notes)


def summarised(text: str, where: str, *, chars: int = CELL_CHARS) -> str:
    """``text`` itself when short; else its start and a pointer to the appendix, which prints
    it whole (a long value never makes a row taller than a page)."""
    if len(text) <= chars and text.count("\n") < CELL_LINES:
        return text
    head = " ".join(text[: chars * 2 // 3].split("\n")[:CELL_LINES - 2])
    cut = head.rfind(" ")
    if cut > len(head) // 2:
        head = head[:cut]
    n = appendix_note(where, text)
    return f"{head} … [{len(text):,} characters: in full in appendix note {n}]"


def collect_table(header: Sequence[str], rows: Sequence[Sequence[object]],
                  total: Sequence[object] | None) -> None:
    """Keep a table of the report as plain text rows, for the CSV files written beside it."""
    def text(v: object) -> str:
        if isinstance(v, Paragraph):
            return " ".join(v.getPlainText().split())
        return "" if isinstance(v, Flowable) else str(v)

    st = current()
    st.tables.append((st.section, [str(h) for h in header], [[text(v) for v in r] for r in rows],
                   None if total is None else [text(v) for v in total]))


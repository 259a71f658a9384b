"""Each report keeps its own state (its appendix notes, its tables for the CSV files, its zone
and paper): two reports laid out at once, on two threads or one inside the other, or one
after a failed one, never mix."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.reports import generate
from dealer_assist.reports.layouts import shift as shift_layout
from dealer_assist.reports.render.state import current, start_report, summarised

from .pdftext import pages
from .room import Room, make_room

LONG = "the count sheet reads " + "seven hundred and twenty " * 40  # > one cell: appendix


@pytest.fixture
def room() -> Room:
    r = make_room(hands=3)
    r.svc.log(r.floor, "note", LONG)
    return r


def _audit(room: Room, path: Path) -> Any:
    return generate.audit_report(
        room.svc, room.floor, path, since=datetime(2026, 11, 21, tzinfo=UTC),
        until=datetime(2026, 11, 21, tzinfo=UTC) + timedelta(days=2), csv=True)


def _sections(done: Any) -> set[str]:
    return {t[0] for t in done.tables}


def _text(path: Path) -> str:
    return " ".join(" ".join(p.split()) for p in pages(path))


def test_regression_report_written_inside_another_keeps_its_own_tables_and_appendix(
        room: Room, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the shift report's story is being laid out, the audit report is written in full
    (as a second floor console thread might): each PDF and each set of CSV files holds only
    its own tables and notes."""
    inner: list[Any] = []
    story = shift_layout.shift_story

    def shift_story_then_audit(r: Any, st: Any) -> Any:
        out = story(r, st)  # the shift report's tables are collected now
        inner.append(_audit(room, tmp_path / "audit.pdf"))
        return out

    monkeypatch.setattr(shift_layout, "shift_story", shift_story_then_audit)
    shift = generate.shift_report(room.svc, room.floor, tmp_path / "shift.pdf",
                                  shift_id=room.shift_id, csv=True)
    audit = inner[-1]  # (written twice: it took the serial the shift report expected)
    alone = generate.shift_report(room.svc, room.floor, tmp_path / "alone.pdf",
                                  shift_id=room.shift_id)
    assert _sections(shift) == _sections(alone)  # none lost, none of the audit report's
    assert [t[1] for t in shift.tables] == [t[1] for t in alone.tables]
    assert {"Actions by kind", "Log"} <= _sections(audit)
    assert not _sections(shift) & {"Actions by kind", "Log"}
    assert len(shift.csv) == len(alone.tables) and len(audit.csv) == len(audit.tables)
    a_text, s_text = _text(audit.path), _text(shift.path)
    assert "Appendix: values in full" in a_text and "seven hundred and twenty" in a_text
    assert "Appendix: values in full" not in s_text
    assert "seven hundred and twenty" not in s_text


def test_regression_reports_on_two_threads_at_once_do_not_mix(
        room: Room, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The shift report waits, half laid out, while another thread writes the audit report."""
    started, finished = threading.Event(), threading.Event()
    story = shift_layout.shift_story

    def waiting_story(r: Any, st: Any) -> Any:
        out = story(r, st)
        started.set()
        assert finished.wait(60)
        return out

    monkeypatch.setattr(shift_layout, "shift_story", waiting_story)
    got: dict[str, Any] = {}

    def shift_thread() -> None:
        got["shift"] = generate.shift_report(room.svc, room.floor, tmp_path / "shift.pdf",
                                             shift_id=room.shift_id, csv=True)

    t = threading.Thread(target=shift_thread)
    t.start()
    assert started.wait(60)
    audit = _audit(room, tmp_path / "audit.pdf")
    finished.set()
    t.join(60)
    shift = got["shift"]
    assert {"Actions by kind", "Log"} <= _sections(audit)
    assert not _sections(shift) & {"Actions by kind", "Log"}
    assert "Appendix: values in full" not in _text(shift.path)
    assert "Appendix: values in full" in _text(audit.path)


def test_regression_a_failed_report_leaves_nothing_to_the_next(
        room: Room, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A report that fails half laid out (its notes and tables collected) leaves none of them
    to the next report written in the same thread."""
    story = shift_layout.shift_story

    def failing(r: Any, st: Any) -> Any:
        story(r, st)
        summarised(LONG, "a note of the failed report")
        raise RuntimeError("disk full")

    monkeypatch.setattr(shift_layout, "shift_story", failing)
    with pytest.raises(RuntimeError):
        generate.shift_report(room.svc, room.floor, tmp_path / "bad.pdf",
                              shift_id=room.shift_id)
    monkeypatch.setattr(shift_layout, "shift_story", story)
    start_report()  # and a half-finished report laid out here by hand, too
    summarised(LONG, "a note laid out outside any written report")
    shift = generate.shift_report(room.svc, room.floor, tmp_path / "shift.pdf",
                                  shift_id=room.shift_id, csv=True)
    text = _text(shift.path)
    assert "Appendix: values in full" not in text and "seven hundred" not in text
    assert len(current().appendix) == 1  # the caller's own state is its own, untouched
    alone = generate.shift_report(room.svc, room.floor, tmp_path / "again.pdf",
                                  shift_id=room.shift_id, csv=True)
    assert shift.tables == alone.tables

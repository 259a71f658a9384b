"""Reports after a seat or period mark was voided: the give-back prints and nets out of the time
collected, and the voided mark is listed among the shift's exceptions and voids."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

from services.support import make_room
from services.test_time_collection import time_room

from dealer_assist.reports.build.audit import build_audit
from dealer_assist.reports.build.day import build_day
from dealer_assist.reports.build.shift import build_shift
from dealer_assist.reports.layouts.audit import render_audit
from dealer_assist.reports.layouts.shift import render_shift
from dealer_assist.services import Approval

from .pdftext import pages

AT = datetime(2026, 11, 22, 2, 0, tzinfo=UTC)


def _voided_room():  # type: ignore[no-untyped-def]
    room = time_room(make_room())
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    svc.seat_in(d, t, 2)
    svc.mark_period(d, t)
    room.clock.advance(minutes=1)
    svc.mark_period(d, t)  # marked twice
    svc.void_time(d, t, 4, "period marked twice", approval=Approval(name="fran", pin="2222"))
    return room


def test_shift_report_nets_the_give_back_and_lists_the_voided_mark(tmp_path: Path) -> None:
    room = _voided_room()
    r = build_shift(room.store, by="test", at=AT)
    assert sorted(c.amount for c in r.time) == [-500, -500, 500, 500, 500, 500]
    assert r.time_total == 1000 and r.time_given_back == 1000
    (void,) = r.voids
    assert (void.hand_number, void.target, void.what, void.reason, void.approved_by) == (
        None, 4, "mark 4", "period marked twice", "Fran Floor (fran)")
    (exc,) = [e for e in r.exceptions if e.severity == "void"]
    assert exc.hand_number is None
    head = "Table T1 time mark 4 (period 2) voided at 2026-11-21 20:01 UTC by Dee Dealer"
    assert exc.text[: len(head)] == head  # (the room's fixed clock, not today's date)
    assert exc.text.endswith("period marked twice; seat 1 given back $5; seat 2 given back $5; "
                             "approved by Fran Floor (fran)")
    out = tmp_path / "shift.pdf"
    render_shift(r, out)
    text = " ".join(" ".join(pages(out)).split())
    assert "Time collected from seats $10" in text
    assert "of which given back (voided marks) -$10" in text
    assert "seat 1 given back $5; seat 2 given back $5" in text
    assert "mark 4 period marked twice" in text


def test_day_report_counts_the_time_void_and_nets_its_give_back() -> None:
    room = _voided_room()
    r = build_day(room.store, day=date(2026, 11, 21), by="test", at=AT)
    (t1,) = r.tables
    assert t1.time_fees == 1000 and t1.voids == 1
    assert any(e.severity == "void" and "time mark 4 (period 2)" in e.text for e in r.exceptions)


def test_audit_report_prints_the_time_void_with_its_approver(tmp_path: Path) -> None:
    room = _voided_room()
    r = build_audit(room.store, since=datetime(2026, 11, 21, tzinfo=UTC),
                    until=datetime(2026, 11, 23, tzinfo=UTC), by="test", at=AT)
    (void,) = [e for e in r.entries if e.action == "void"]
    assert void.target == "Table T1"
    assert void.detail == ("table mark 4 (period 2): period marked twice; seat 1 give back $5; "
                           "seat 2 give back $5; approved by Fran Floor (fran)")
    out = tmp_path / "audit.pdf"
    render_audit(r, out)
    text = " ".join(" ".join(pages(out)).split())
    assert "table mark 4 (period 2): period marked twice" in text

"""A count's times and its sign-offs, on SQLite and PostgreSQL: a count starts after its shift
opened and its box's drop and ends no later than it is entered (within the room's clock
tolerance); a variance is signed off after the count; a later sign-off is a new entry with a
reason and the reports list every sign-off in order. Whatever slipped in, the shift report
names it among its exceptions."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from services.support import Room

from dealer_assist.errors import BadInput
from dealer_assist.reports.build.shift import build_shift
from dealer_assist.reports.layouts.shift import render_shift
from dealer_assist.services import Approval
from dealer_assist.services.counts import (
    record_count,
    record_drop,
    register_box,
    set_room_clock,
    signoff_count,
    signoffs,
)
from dealer_assist.services.room import COUNT_ACTION, count_detail, new_count, room_clock
from tests.reports.pdftext import pages

TEAM = ["Cora Cashier", "Carl Counter"]


def _closed_and_dropped(room: Room) -> int:
    """The room's shift (opened 20:00 UTC) closed at 21:00 and its box dropped at 21:05."""
    shift = room.store.list_shifts(room.table_id)[-1]
    room.clock.advance(hours=1)
    room.svc.close_shift(room.dealer, shift.id, approval=Approval("fran", "2222"))
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-01")
    room.clock.advance(minutes=5)
    record_drop(room.svc, room.floor, shift_id=shift.id, box="T1-01")
    room.clock.advance(hours=1)  # now 22:05
    return shift.id


def _count(room: Room, shift_id: int, started: datetime, ended: datetime, counted: int = 500,
           **kw: object):  # type: ignore[no-untyped-def]
    return new_count(table_id=room.table_id, shift_id=shift_id, box="T1-01", counted=counted,
                     team=TEAM, started=started, ended=ended, **kw)  # type: ignore[arg-type]


def _at(room: Room, hh: int, mm: int) -> datetime:
    return room.clock.now.replace(hour=hh, minute=mm, second=0, microsecond=0)


def test_a_count_dated_ahead_of_its_entry_is_refused(room: Room) -> None:
    sid = _closed_and_dropped(room)
    week = room.clock.now + timedelta(days=7)
    with pytest.raises(BadInput, match=r"after now .*enter a count once it has ended"):
        record_count(room.svc, room.floor, _count(room, sid, week, week + timedelta(hours=1)))
    with pytest.raises(BadInput, match="after now"):  # entered 22:05 for a count 22:15-22:40
        record_count(room.svc, room.floor, _count(room, sid, _at(room, 22, 15),
                                                  _at(room, 22, 40)))
    # within the room's clock tolerance (5 minutes by default) an end just ahead is accepted
    record_count(room.svc, room.floor, _count(room, sid, _at(room, 21, 30), _at(room, 22, 8)))


def test_the_rooms_clock_tolerance_is_a_room_setting(room: Room) -> None:
    sid = _closed_and_dropped(room)
    set_room_clock(room.svc, room.floor, room_clock(zone="UTC", tolerance_minutes=0))
    with pytest.raises(BadInput, match="after now"):
        record_count(room.svc, room.floor, _count(room, sid, _at(room, 21, 30), _at(room, 22, 8)))
    with pytest.raises(BadInput, match="clock tolerance is 0 to 60 minutes"):
        room_clock(zone="UTC", tolerance_minutes=90)


def test_a_count_or_correction_starting_before_its_shift_opened_or_its_drop_is_refused(
        room: Room) -> None:
    sid = _closed_and_dropped(room)
    with pytest.raises(BadInput, match=f"before shift {sid} opened"):
        record_count(room.svc, room.floor, _count(room, sid, _at(room, 19, 0), _at(room, 19, 30)))
    with pytest.raises(BadInput, match="before drop box T1-01 was dropped"):
        record_count(room.svc, room.floor, _count(room, sid, _at(room, 20, 30), _at(room, 21, 30)))
    first = record_count(room.svc, room.floor, _count(room, sid, _at(room, 21, 10),
                                                      _at(room, 21, 40)))
    with pytest.raises(BadInput, match=f"before shift {sid} opened"):
        record_count(room.svc, room.floor, _count(room, sid, _at(room, 19, 0), _at(room, 19, 30),
                                                  counted=400, corrects=first.seq,
                                                  reason="recount"))


def test_a_variance_is_signed_off_only_after_the_count_has_ended(room: Room) -> None:
    sid = _closed_and_dropped(room)  # now 22:05
    entry = record_count(room.svc, room.floor, _count(room, sid, _at(room, 21, 30),
                                                      _at(room, 22, 9)))
    with pytest.raises(BadInput, match=rf"count entry {entry.seq} runs until .*22:09.*after the "
                                       r"count has ended"):
        signoff_count(room.svc, room.auditor, entry=entry.seq, explanation="lid")
    room.clock.advance(minutes=5)
    signoff_count(room.svc, room.auditor, entry=entry.seq, explanation="chips in the lid")


def test_a_later_signoff_is_a_new_entry_with_a_reason_and_every_one_is_reported(
        room: Room, tmp_path: Path) -> None:
    sid = _closed_and_dropped(room)
    entry = record_count(room.svc, room.floor, _count(room, sid, _at(room, 21, 10),
                                                      _at(room, 21, 40)))
    first = signoff_count(room.svc, room.auditor, entry=entry.seq,
                          explanation="chips found in the box lid")
    with pytest.raises(BadInput, match=f"already signed off \\(entry {first.seq}\\): a later "
                                       "sign-off is a new entry and needs a reason"):
        signoff_count(room.svc, room.auditor, entry=entry.seq, explanation="miscounted")
    admin_later = signoff_count(room.svc, room.admin, entry=entry.seq,
                                explanation="the lid chips were a different table's",
                                reason="the first explanation was wrong")
    got = [(s.number, s.explanation, s.follows, s.reason) for s in signoffs(room.store)]
    assert got == [(first.seq, "chips found in the box lid", None, ""),
                   (admin_later.seq, "the lid chips were a different table's", first.seq,
                    "the first explanation was wrong")]
    r = build_shift(room.store, shift_id=sid, by="t", at=room.clock.now)
    assert r.count is not None
    assert [s.number for s in r.count.signoffs] == [first.seq, admin_later.seq]
    assert r.count.signoff is not None and r.count.signoff.number == admin_later.seq
    out = tmp_path / "shift.pdf"
    render_shift(r, out)
    text = " ".join(" ".join(pages(out)).split())
    assert "chips found in the box lid" in text
    assert (f"the lid chips were a different table's (after sign-off {first.seq}: the first "
            "explanation was wrong)") in text


def test_count_times_that_slipped_in_are_named_and_a_correction_prints_the_replaced_times(
        room: Room, tmp_path: Path) -> None:
    """Records written before these checks (or by any other way in) are still named: the
    report re-checks every count's times."""
    sid = _closed_and_dropped(room)
    good = record_count(room.svc, room.floor, _count(room, sid, _at(room, 21, 10),
                                                     _at(room, 21, 40)))
    bad = _count(room, sid, _at(room, 19, 0), _at(room, 23, 40), counted=400,
                 corrects=good.seq, reason="recount")
    room.svc.log(room.floor, COUNT_ACTION, count_detail(bad), table_id=room.table_id)
    r = build_shift(room.store, shift_id=sid, by="t", at=room.clock.now)
    texts = [e.text for e in r.exceptions if e.severity == "count"]
    assert any("ends after it was entered" in t for t in texts), texts
    assert any(f"starts before shift {sid} opened" in t for t in texts), texts
    assert any("starts before the box's drop" in t for t in texts), texts
    out = tmp_path / "shift.pdf"
    render_shift(r, out)
    text = " ".join(" ".join(pages(out)).split())
    assert "Exceptions: None" not in text
    assert "2026-11-21 21:10 UTC to 21:40 UTC" in text  # the replaced count's times
    assert "2026-11-21 19:00 UTC to 23:40 UTC" in text

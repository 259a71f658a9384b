"""The drop count's controls (CA 4 CCR 12385, WAC 230-15-355 and -610): a box registered to its
table and dropped for a shift, one count per box unless corrected, a team of two, a team
independent of the shift's approvals, a variance explained and signed off by a second person;
and the exceptions a reviewer needs about counts and shifts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from dealer_assist.errors import BadInput
from dealer_assist.reports.build.day import build_day
from dealer_assist.reports.build.shift import build_shift
from dealer_assist.services import Approval
from dealer_assist.services.counts import (
    counts,
    record_count,
    record_drop,
    register_box,
    signoff_count,
)
from dealer_assist.services.errors import NotAllowed
from dealer_assist.services.room import new_count

from .room import Room, make_room

TEAM = ["Cora Cashier", "Carl Counter"]


@pytest.fixture
def room() -> Room:
    r = make_room(hands=4)
    r.svc.add_user(r.admin, name="flo", full_name="Florence Park", role="floor", pin="3333")
    r.svc.add_user(r.admin, name="otto", full_name="Otto Auditor", role="auditor", pin="4444")
    r.svc.close_shift(r.dealer, r.shift_id, approval=Approval("fran", "2222"))
    return r


def _count(room: Room, box: str = "T1-01", team: list[str] = TEAM, counted: int = 1400,
           **kw: object) -> object:
    return new_count(table_id=room.table_id, shift_id=room.shift_id, box=box, counted=counted,
                     team=team, **kw)  # type: ignore[arg-type]


def test_drop_box_must_be_registered_to_the_shifts_table_and_dropped_for_that_shift(
        room: Room) -> None:
    with pytest.raises(BadInput, match="T1-01 is not registered to any table"):
        record_count(room.svc, room.floor, _count(room))  # type: ignore[arg-type]
    other = room.svc.add_table(room.admin, {
        "name": "T2", "game": "champs-and-cowards", "seats": 6, "smallest_chip": 100,
        "params": {"chip": 200, "decks": 1}})
    register_box(room.svc, room.floor, table_id=other.id, box="T2-01")
    with pytest.raises(BadInput, match="T2-01 is registered to T2, not T1"):
        record_count(room.svc, room.floor, _count(room, box="T2-01"))  # type: ignore[arg-type]
    with pytest.raises(BadInput, match="a box belongs to one table"):
        register_box(room.svc, room.floor, table_id=room.table_id, box="T2-01")
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-01")
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-02")
    record_drop(room.svc, room.floor, shift_id=room.shift_id, box="T1-02")
    with pytest.raises(BadInput, match="T1-02 was already dropped for shift"):
        record_drop(room.svc, room.floor, shift_id=room.shift_id, box="T1-02")
    dealer_shift = room.svc.open_shift(room.dealer, room.table_id, floor="fran")
    record_drop(room.svc, room.floor, shift_id=dealer_shift.id, box="T1-01")
    with pytest.raises(BadInput, match=f"dropped for shift {dealer_shift.id}, not shift "
                                       f"{room.shift_id}"):
        record_count(room.svc, room.floor, _count(room))  # type: ignore[arg-type]


def test_a_second_count_of_a_box_is_refused_unless_it_corrects_with_a_reason(room: Room) -> None:
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-01")
    record_drop(room.svc, room.floor, shift_id=room.shift_id, box="T1-01")
    first = record_count(room.svc, room.floor, _count(room))  # type: ignore[arg-type]
    with pytest.raises(BadInput, match=f"already counted \\(entry {first.seq}\\): a second "
                                       f"count is a correction: give --corrects {first.seq}"):
        record_count(room.svc, room.floor, _count(room))  # type: ignore[arg-type]
    record_count(room.svc, room.floor, _count(room, counted=1300, corrects=first.seq,
                                              reason="recounted"))  # type: ignore[arg-type]
    r = build_shift(room.store, shift_id=room.shift_id, by="t", at=room.clock.now)
    assert r.count is not None and [e.counted for e in r.count.entries] == [1400, 1300]
    assert r.count.drop is not None and r.count.drop.dropped_by == "Francesca Floor (fran)"


def test_a_count_team_has_two_people_and_a_start_before_its_end() -> None:
    with pytest.raises(BadInput, match="a count team has at least two people"):
        new_count(table_id=1, shift_id=1, box="B", counted=1, team=["Cora Cashier"])
    t = datetime(2026, 11, 22, 6, 0, tzinfo=UTC)
    with pytest.raises(BadInput, match="end time is before its start"):
        new_count(table_id=1, shift_id=1, box="B", counted=1, team=TEAM, started=t,
                  ended=t - timedelta(minutes=5))


def test_a_team_member_who_approved_the_shifts_dispute_needs_a_second_floor_approval(
        room: Room) -> None:
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-01")
    team = ["Francesca Floor", "Carl Counter"]  # fran ruled the shift's dispute
    with pytest.raises(NotAllowed, match="Francesca Floor approved voids, misdeals or disputes"):
        record_count(room.svc, room.floor, _count(room, team=team))  # type: ignore[arg-type]
    entry = record_count(room.svc, room.floor, _count(room, team=team),  # type: ignore[arg-type]
                         approval=Approval("flo", "3333"))
    (c,) = [x for x in counts(room.store) if x.number == entry.seq]
    assert c.count.independence == "Florence Park (flo)"


def test_regression_a_counts_second_approval_is_refused_before_its_pin_from_the_team_or_self(
        room: Room) -> None:
    """The second approval of a count whose team is not independent: never the floor person
    entering it (the one approval rule: refused and logged as such before any PIN is tried)
    and never a counter; neither leaves an approval entry behind."""
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-01")
    team = ["Francesca Floor", "Florence Park"]  # fran ruled the shift's dispute
    before = len(room.store.audit_log(action="approval"))
    with pytest.raises(NotAllowed, match="cannot approve their own count of drop box T1-01"):
        record_count(room.svc, room.floor, _count(room, team=team),  # type: ignore[arg-type]
                     approval=Approval("fran", "0000"))
    with pytest.raises(NotAllowed, match="Florence Park cannot give the second approval: "
                                         "they are on the count team"):
        record_count(room.svc, room.floor, _count(room, team=team),  # type: ignore[arg-type]
                     approval=Approval("flo", "0000"))
    assert len(room.store.audit_log(action="approval")) == before
    assert counts(room.store) == []


def test_a_variance_is_explained_and_signed_off_by_a_second_person_in_the_day_report(
        room: Room) -> None:
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-01")
    entry = record_count(room.svc, room.floor, _count(room, counted=1))  # type: ignore[arg-type]
    day = build_day(room.store, by="t", at=room.clock.now + timedelta(days=2))
    (short,) = [e for e in day.exceptions if "SHORT" in e.text]
    assert "NOT YET EXPLAINED AND SIGNED OFF" in short.text
    with pytest.raises(NotAllowed, match="a second person signs off"):
        signoff_count(room.svc, room.floor, entry=entry.seq, explanation="chips in the lid")
    otto = room.svc.sign_in("otto", "4444")
    signoff_count(room.svc, otto, entry=entry.seq, explanation="chips found in the box lid")
    day = build_day(room.store, by="t", at=room.clock.now + timedelta(days=2))
    (d,) = day.counts
    assert d.signoff is not None and d.signoff.by == "Otto Auditor (otto)"
    assert d.signoff.explanation == "chips found in the box lid"
    (short,) = [e for e in day.exceptions if "SHORT" in e.text]
    assert "explained (chips found in the box lid) and signed off by Otto Auditor" in short.text


def test_exceptions_a_never_counted_closed_shift_an_open_shift_and_a_count_during_it(
        room: Room) -> None:
    day = build_day(room.store, by="t", at=room.clock.now + timedelta(days=2))
    assert any(f"shift {room.shift_id} closed at" in e.text and "never counted" in e.text
               for e in day.exceptions)
    later = room.svc.open_shift(room.dealer, room.table_id, floor="fran")
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-09")
    record_count(room.svc, room.floor, new_count(  # against the open shift
        table_id=room.table_id, shift_id=later.id, box="T1-09", counted=0, team=TEAM))
    day = build_day(room.store, by="t", at=room.clock.now + timedelta(days=2))
    texts = [e.text for e in day.exceptions]
    assert any(f"while shift {later.id} was still open" in t for t in texts), texts
    assert any(f"shift {later.id} is still open after its gaming day ended" in t
               for t in texts), texts

"""Rules the stations enforce at input, re-checked by ``verify`` and named on the audit report
with their records, on SQLite and PostgreSQL: one dealer at one table at a time, audit times
that run forward, no approval by the person it approves, a count team independent of the
shift it counts. Each breach is written past the services (the store port, a raw entry), as
an old version or a station's bug could have."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from services.support import Room, settings

from dealer_assist.db.bootstrap import Database
from dealer_assist.db.verify import check_rules_db, verify_database
from dealer_assist.reports.build.audit import build_audit
from dealer_assist.reports.layouts.audit import render_audit
from dealer_assist.services import Approval
from dealer_assist.services.counts import record_count, record_drop, register_box
from dealer_assist.services.errors import NotAllowed
from dealer_assist.services.room import COUNT_ACTION, count_detail, new_count
from tests.reports.pdftext import pages


def _rules(database: Database) -> list[str]:
    return [str(f) for f in check_rules_db(database)]


def _audit_text(room: Room, tmp_path: Path) -> tuple[list[str], str]:
    r = build_audit(room.store, since=datetime(2026, 11, 20, tzinfo=UTC),
                    until=datetime(2026, 11, 23, tzinfo=UTC), by="t", at=room.clock.now)
    out = tmp_path / "audit.pdf"
    render_audit(r, out)
    return ([e.text for e in r.exceptions if e.severity == "rule"],
            " ".join(" ".join(pages(out)).split()))


def test_a_genuine_room_breaks_no_rule(room: Room, database: Database) -> None:
    room.svc.settle(room.dealer, room.hand(["As", "Kd", "2c"]))
    assert _rules(database) == []
    assert verify_database(database).ok


def test_one_dealer_signed_in_at_two_tables_is_named_unless_the_floor_allowed_it(
        room: Room, database: Database, tmp_path: Path) -> None:
    t2 = room.svc.add_table(room.admin, settings(), name="T2")
    t3 = room.svc.add_table(room.admin, settings(), name="T3")
    first = room.store.list_shifts(room.table_id)[0]
    room.clock.advance(minutes=3)
    room.svc.open_shift(room.dealer, t2.id, floor="fran", approval=Approval("fran", "2222"))
    room.clock.advance(minutes=3)
    sneaked = room.store.open_shift(table_id=t3.id, dealer="dee", floor="fran",
                                    at=room.clock())  # past the rule
    (found,) = _rules(database)
    assert found.startswith(f"one dealer, one table: dealer dee opened shift {sneaked.id} at T3 "
                            "at 2026-11-21 20:06:00 UTC while dealing T1 (shift "
                            f"{first.id}, open since 2026-11-21 20:00:00 UTC); T2 (shift ")
    assert found.endswith("with no floor approval of dealing both")
    report = verify_database(database)
    assert not report.ok and f"NOT INTACT: {found}" in report.summary()
    texts, pdf = _audit_text(room, tmp_path)
    assert texts == [found]
    assert f"dealer dee opened shift {sneaked.id} at T3" in pdf


def test_audit_entries_whose_times_run_backwards_are_named(
        room: Room, database: Database, tmp_path: Path) -> None:
    room.clock.advance(minutes=10)
    ahead = room.svc.log(room.floor, "note", "the floor's note")
    room.clock.now -= timedelta(minutes=2)  # two stations' clocks: within the tolerance
    room.svc.log(room.floor, "note", "another station")
    assert _rules(database) == []
    room.clock.now -= timedelta(hours=1)
    back = room.svc.log(room.floor, "note", "dated an hour back")
    (found,) = _rules(database)
    assert found == (f"audit times run backwards: audit entry {back.seq} (note by fran) is dated "
                     "2026-11-21 19:08:00 UTC, before entry "
                     f"{back.seq - 1} (note) recorded ahead of it at 2026-11-21 20:08:00 UTC")
    assert ahead.seq == back.seq - 2
    assert not verify_database(database).ok
    texts, pdf = _audit_text(room, tmp_path)
    assert texts == [found] and f"audit entry {back.seq} (note by fran)" in pdf


def test_a_journal_batch_keeps_its_times_and_is_not_named() -> None:
    """A station's journal sends its batch after an outage: its entries keep the times they
    were made at, before the entries other stations recorded meanwhile."""
    from dealer_assist.services.model import AuditEntry
    from dealer_assist.services.rulecheck import RuleRecords, rule_findings

    t = datetime(2026, 11, 21, 20, tzinfo=UTC)
    entries = [AuditEntry(1, t, "fran", "note", "", 2, None, 1),
               AuditEntry(2, t - timedelta(hours=1), "dee", "void", "", 1, 7, 2),
               AuditEntry(3, t - timedelta(minutes=50), "dee", "misdeal", "", 1, 8, 3),
               AuditEntry(4, t + timedelta(minutes=1), None, "journal-sync", "", 1, None, 4)]
    records = RuleRecords(entries, [], {}, {}, {})
    assert rule_findings(records) == []
    unsent = RuleRecords(entries[:3], [], {}, {}, {})
    assert [f.rule for f in rule_findings(unsent)] == ["audit times run backwards"]


def test_an_approval_by_the_person_it_approves_is_named(
        room: Room, database: Database, tmp_path: Path) -> None:
    hand = room.hand(["As", "Kd", "2c"])
    approval = room.svc.approve(Approval("fran", "2222"), what="misdeal of hand 1",
                                table_id=room.table_id, hand_id=hand)
    misdeal = room.svc.log(room.floor, "misdeal", "hand 1: card exposed; approved by fran",
                           table_id=room.table_id, hand_id=hand)
    (found,) = _rules(database)
    entry = room.store.audit_head().entries - 1
    assert entry == misdeal.seq - 1 and approval.name == "fran"
    assert found == (f"an approval by the person it approves: audit entry {entry}: fran approved "
                     f"the misdeal of hand 1 that they recorded themselves (entry {misdeal.seq}, "
                     "misdeal)")
    assert not verify_database(database).ok
    texts, _ = _audit_text(room, tmp_path)
    assert texts == [found]


def test_a_count_team_with_the_shifts_dealer_needs_the_second_approval(
        room: Room, database: Database, tmp_path: Path) -> None:
    shift = room.store.list_shifts(room.table_id)[0]
    room.clock.advance(minutes=30)
    room.svc.close_shift(room.dealer, shift.id, approval=Approval("fran", "2222"))
    register_box(room.svc, room.floor, table_id=room.table_id, box="T1-01")
    record_drop(room.svc, room.floor, shift_id=shift.id, box="T1-01")
    count = new_count(table_id=room.table_id, shift_id=shift.id, box="T1-01", counted=0,
                      team=["Dee Dealer", "Carl Counter"])
    with pytest.raises(NotAllowed, match=f"Dee Dealer dealt shift {shift.id}: the count team "
                                         "must be independent of the shift"):
        record_count(room.svc, room.floor, count)
    entry = room.svc.log(room.floor, COUNT_ACTION, count_detail(count), table_id=room.table_id)
    (found,) = _rules(database)
    assert found == (f"count team not independent: count entry {entry.seq} (drop box T1-01, "
                     f"shift {shift.id}) was counted by Dee Dealer (its dealer) of that shift, "
                     "with no second floor approval")
    assert not verify_database(database).ok
    texts, pdf = _audit_text(room, tmp_path)
    assert texts == [found] and "Dee Dealer (its dealer)" in pdf

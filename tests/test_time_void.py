"""Voiding a table-level mark (seat in, seat out, period): the account is folded again without
it, the void's own time lines give back or collect the difference seat by seat, money moves
only with the floor's approval, and verify re-derives the void's lines."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import settings as settings_
from hypothesis import strategies as st
from services.support import Room, make_room, settings
from services.test_time_collection import TIME_FEE, time_room

from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.events import event_from_json
from dealer_assist.fees import time_fees
from dealer_assist.services import Approval, ApprovalRequired, InMemoryStore, verify_store
from dealer_assist.services.model import SettingsVersion, StoredEvent
from dealer_assist.services.timeacct import fold_time, time_policy_of

FLOOR = Approval(name="fran", pin="2222")


@pytest.fixture
def room() -> Room:
    return make_room()


def lines_of(room: Room, seq: int) -> list[tuple[int | None, int, int | None]]:
    return [(x.seat, x.amount, x.period) for x in room.svc.time_collections(room.table_id)
            if x.seq == seq]


def by_seat(room: Room) -> dict[int, int]:
    out: dict[int, int] = {}
    for x in room.svc.time_collections(room.table_id):
        assert x.seat is not None
        out[x.seat] = out.get(x.seat, 0) + x.amount
    return out


def test_void_of_a_seat_in_that_collected_nothing_needs_no_approval(room: Room) -> None:
    time_room(room)
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    wrong = svc.seat_in(d, t, 3)  # the wrong seat pressed, before any period mark
    assert wrong.collect == ()
    now = svc.void_time(d, t, 2, "wrong seat pressed")
    assert now.seated == (1,) and now.collect == () and now.events == 3
    assert now.last is not None and now.last.body == {
        "type": "void", "target": 2, "reason": "wrong seat pressed"}
    audit = room.store.audit_log(action="void")
    assert [a.detail for a in audit] == ["table mark 2 (seat 3 in): wrong seat pressed"]
    mark = svc.mark_period(d, t)
    assert [(x.seat, x.amount) for x in mark.collect] == [(1, 500)]  # seat 3 pays nothing
    assert verify_store(room.store).ok


def test_void_of_a_period_mark_gives_every_seats_fee_back_with_approval(room: Room) -> None:
    time_room(room)
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    svc.seat_in(d, t, 2)
    svc.mark_period(d, t)
    room.clock.advance(minutes=2)
    twice = svc.mark_period(d, t)  # marked twice
    assert twice.period == 2 and twice.collect_total() == 1000
    head = room.store.chain_head(t)
    with pytest.raises(ApprovalRequired, match=r"seat 1 give back \$5; seat 2 give back \$5\)"):
        svc.void_time(d, t, 4, "period marked twice")
    assert room.store.chain_head(t) == head  # nothing stored without approval
    now = svc.void_time(d, t, 4, "period marked twice", approval=FLOOR)
    assert now.last is not None
    assert lines_of(room, now.last.seq) == [(1, -500, 1), (2, -500, 1)]
    assert [(x.seat, x.amount) for x in now.collect] == [(1, -500), (2, -500)]
    assert now.period == 1 and by_seat(room) == {1: 500, 2: 500}
    assert svc.time_now(t) == now  # what the call returns is what the record says
    (entry,) = room.store.audit_log(action="void")
    assert entry.detail == ("table mark 4 (period 2): period marked twice; seat 1 give back "
                            "$5; seat 2 give back $5; approved by fran")
    assert entry.actor == "dee" and entry.table_id == t
    room.clock.advance(minutes=30)
    nxt = svc.mark_period(d, t)  # the next mark is period 2 again
    assert [(x.seat, x.amount, x.period) for x in nxt.collect] == [(1, 500, 2), (2, 500, 2)]
    assert verify_store(room.store).ok


def test_void_that_moves_money_refuses_a_dealers_pin_as_approval(room: Room) -> None:
    time_room(room)
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    svc.mark_period(d, t)
    from dealer_assist.services import NotAllowed

    with pytest.raises(NotAllowed, match="only a floor person can approve"):
        svc.void_time(d, t, 2, "no period yet", approval=Approval(name="dee", pin="1111"))
    assert room.store.audit_log(action="void") == []


def test_void_of_a_seat_out_collects_the_period_the_seat_then_owes(room: Room) -> None:
    time_room(room)
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    svc.seat_in(d, t, 2)
    svc.mark_period(d, t)
    room.clock.advance(minutes=5)
    svc.seat_out(d, t, 2)  # the wrong seat: seat 1 left, not seat 2
    room.clock.advance(minutes=30)
    svc.mark_period(d, t)  # period 2: seat 1 pays, seat 2 does not
    now = svc.void_time(d, t, 4, "wrong seat out", approval=FLOOR)
    assert [(x.seat, x.amount, x.period) for x in now.collect] == [(2, 500, 2)]
    assert by_seat(room) == {1: 1000, 2: 1000}
    assert verify_store(room.store).ok


def test_prorated_void_of_a_seat_out_gives_back_its_minutes_until_the_seat_really_leaves(
    room: Room,
) -> None:
    time_room(room, {**TIME_FEE, "billing": "prorated"})
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    room.clock.advance(minutes=12)
    out = svc.seat_out(d, t, 1)  # pressed too early
    assert [(x.seat, x.amount) for x in out.collect] == [(1, 200)]
    now = svc.void_time(d, t, 2, "player still playing", approval=FLOOR)
    assert [(x.seat, x.amount, x.period) for x in now.collect] == [(1, -200, 0)]
    assert now.seated == (1,)
    room.clock.advance(minutes=6)
    really = svc.seat_out(d, t, 1)  # 18 minutes from the seat-in: 18/30 of $5
    assert [(x.seat, x.amount) for x in really.collect] == [(1, 300)]
    assert by_seat(room) == {1: 300}
    assert verify_store(room.store).ok


def test_void_refused_when_a_later_mark_depends_on_it(room: Room) -> None:
    time_room(room)
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 2)
    room.clock.advance(minutes=3)
    svc.seat_out(d, t, 2)
    head = room.store.chain_head(t)
    with pytest.raises(RuleViolation) as err:
        svc.void_time(d, t, 1, "wrong seat")
    assert str(err.value) == (
        "without mark 1 (seat 2 in), mark 2 (seat 2 out at 20:03:01) would make no sense "
        "(seat 2 is not seated): void mark 2 first")
    assert room.store.chain_head(t) == head
    svc.void_time(d, t, 2, "wrong seat")
    now = svc.void_time(d, t, 1, "wrong seat")  # in the order the message says
    assert now.seated == () and now.events == 4


def test_void_of_a_void_is_refused(room: Room) -> None:
    time_room(room)
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    svc.void_time(d, t, 1, "wrong seat")
    with pytest.raises(RuleViolation, match="mark 2 is itself a void: a void cannot be voided"):
        svc.void_time(d, t, 2, "undo the void")
    with pytest.raises(RuleViolation, match=r"mark 1 \(seat 1 in\) is already void"):
        svc.void_time(d, t, 1, "again")
    with pytest.raises(RuleViolation, match="void names mark 9, which is not an earlier mark"):
        svc.void_time(d, t, 9, "no such mark")


def test_void_needs_a_reason(room: Room) -> None:
    time_room(room)
    room.svc.seat_in(room.dealer, room.table_id, 1)
    with pytest.raises(BadInput, match="a void needs a reason"):
        room.svc.void_time(room.dealer, room.table_id, 1, "   ")
    assert room.store.audit_log(action="void") == []


def test_void_of_a_mark_under_an_earlier_settings_version_is_refused(room: Room) -> None:
    time_room(room)
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    time_room(room, {**TIME_FEE, "amount": 600})
    svc.seat_in(d, t, 2)
    with pytest.raises(RuleViolation, match=r"mark 1 \(seat 1 in\) was recorded under an "
                       r"earlier settings version .* record a dispute"):
        svc.void_time(d, t, 1, "wrong seat")


def test_time_marks_list_numbers_what_and_the_void(room: Room) -> None:
    time_room(room)
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    svc.mark_period(d, t)
    svc.mark_period(d, t)
    svc.void_time(d, t, 3, "twice", approval=FLOOR)
    marks = svc.time_marks(t)
    assert [(m.number, m.what, m.voided_by, m.is_void) for m in marks] == [
        (1, "seat 1 in", None, False), (2, "period 1", None, False),
        (3, "period 2", 4, False), (4, "void of mark 3", None, True)]


def test_verify_names_a_tampered_void_line_on_sqlite(tmp_path: Path) -> None:
    from dealer_assist.db.bootstrap import open_database
    from dealer_assist.db.store import SqlStore
    from dealer_assist.db.verify import verify_database

    url = f"sqlite:///{tmp_path}/store.db"
    room = time_room(make_room(SqlStore(open_database(url))))
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    svc.seat_in(d, t, 2)
    svc.mark_period(d, t)
    svc.mark_period(d, t)
    void = svc.void_time(d, t, 4, "period marked twice", approval=FLOOR)
    svc.seat_in(d, t, 3)
    db = room.store.db  # type: ignore[attr-defined]
    report = verify_database(db)
    assert report.ok, report.summary()
    con = sqlite3.connect(tmp_path / "store.db")
    con.execute("DROP TRIGGER ledger_lines_no_update")
    con.execute("UPDATE ledger_lines SET amount = -100 WHERE hand_id IS NULL AND amount = -500 "
                "AND seat = 2")
    con.commit()
    con.close()
    report = verify_database(db)
    assert report.problem is not None and void.last is not None
    assert (report.problem.table, report.problem.seq) == ("T1", void.last.seq)
    assert "ledger has seat 1 period 1 -500, seat 2 period 1 -100" in report.problem.message


def test_fold_names_a_stored_void_that_does_not_stand() -> None:
    room = time_room(make_room(InMemoryStore()))
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    svc.seat_out(d, t, 1)
    svc.void_time(d, t, 2, "x")
    rows = room.store.table_level_events(t)
    bad = [rows[0], rows[1], rows[2].__class__(**{**vars_of(rows[2]), "body": {
        "type": "void", "target": 1, "reason": "x"}})]
    fold = fold_time(t, "T1", room.store.settings_versions(t), bad, None)
    assert fold.problem is not None and fold.problem.seq == rows[2].seq
    assert "the void of mark 1 does not stand: without mark 1" in fold.problem.message


def vars_of(row: object) -> dict[str, object]:
    from dataclasses import fields

    return {f.name: getattr(row, f.name) for f in fields(row)}  # type: ignore[arg-type]


def _row(n: int, at: datetime, body: dict[str, object]) -> StoredEvent:
    return StoredEvent(table_id=1, seq=n, hand_id=None, number=n, actor="dee", time=at,
                       body=body, prev_hash="", hash="")


@settings_(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 9), st.integers(1, 3), st.integers(0, 40)),
                min_size=1, max_size=25),
       st.sampled_from(["whole", "prorated"]))
def test_rule_after_voids_each_seat_has_paid_exactly_what_the_kept_marks_owe(
    steps: list[tuple[int, int, int]], billing: str,
) -> None:
    """Whatever is voided, what each seat paid in all (collections less give-backs) is what
    the account of the marks still standing says it owes."""
    doc = {**settings(), "fee": {**TIME_FEE, "billing": billing}}
    t0 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
    version = SettingsVersion(1, 1, 1, "highcard", doc, t0, "admin")
    policy = time_policy_of(version)
    assert policy is not None
    rows: list[StoredEvent] = []
    at = t0
    seated: set[int] = set()
    for choice, seat, minutes in steps:
        at += timedelta(minutes=minutes)
        n = len(rows) + 1
        if choice >= 7 and rows:  # void an earlier row, if the fold lets it stand
            trial = [*rows, _row(n, at, {"type": "void", "target": 1 + choice * n % (n - 1 or 1),
                                         "reason": "x"})]
            if fold_time(1, "T1", [version], trial, None).problem is None:
                rows = trial
            continue
        if choice == 0:
            body: dict[str, object] = {"type": "period"}
        else:
            body = {"type": "seat_out" if seat in seated else "seat_in", "seat": seat}
        trial = [*rows, _row(n, at, body)]
        if fold_time(1, "T1", [version], trial, None).problem is None:
            rows = trial
            seated = set(fold_time(1, "T1", [version], rows, None).state.seated)  # type: ignore[union-attr]
    fold = fold_time(1, "T1", [version], rows, None)
    assert fold.problem is None
    voided = {r.body["target"] for r in rows if r.body["type"] == "void"}
    kept = [(r.time, event_from_json(r.body)) for n, r in enumerate(rows, start=1)
            if r.body["type"] != "void" and n not in voided]
    owed = time_fees(policy, kept, smallest_chip=1, table="T1").by_seat()
    paid: dict[int, int] = {}
    for x in fold.lines:
        assert x.seat is not None
        paid[x.seat] = paid.get(x.seat, 0) + x.amount
    assert {s: a for s, a in paid.items() if a} == {s: a for s, a in owed.items() if a}

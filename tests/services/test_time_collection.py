"""Time collection through the services: seat and period events in the table's chain, the
collections as ledger lines, refusals a dealer reads, and verify re-folding them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dealer_assist.errors import RuleViolation
from dealer_assist.services import InMemoryStore, LedgerLine, NotAllowed, verify_store

from .support import Room, make_room, settings

TIME_FEE = {"kind": "time", "amount": 500, "period_minutes": 30}


def time_room(room: Room, fee: dict[str, object] | None = None) -> Room:
    """The test cardroom's table switched to a time collection."""
    room.svc.change_settings(room.admin, room.table_id, {**settings(), "fee": fee or TIME_FEE})
    room.clock.advance(seconds=1)
    return room


def test_period_mark_collects_a_whole_period_from_each_seated_seat(room: Room) -> None:
    time_room(room)
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    svc.seat_in(d, t, 3)
    room.clock.advance(minutes=5)
    now = svc.mark_period(d, t)
    assert [(x.seat, x.amount, x.period, x.detail, x.kind) for x in now.collect] == [
        (1, 500, 1, "time", "fee"), (3, 500, 1, "time", "fee")]
    assert now.collect_total() == 1000 and now.seated == (1, 3)
    assert now.last is not None and now.last.hand_id is None and now.last.actor == "dee"
    assert [x.seq for x in now.collect] == [now.last.seq] * 2


def test_seat_events_take_the_tables_next_seq_between_hands(room: Room) -> None:
    time_room(room)
    hand_id = room.hand(["As", "Kd", "2c"])
    before = room.store.chain_head(room.table_id)
    now = room.svc.seat_in(room.dealer, room.table_id, 2)
    assert before is not None and now.last is not None
    assert now.last.seq == before.seq + 1 and now.last.prev_hash == before.hash
    assert now.last.number == 1 and room.svc.hand(hand_id).events == 4
    assert verify_store(room.store).ok


def test_sitting_in_with_more_than_half_the_period_left_pays_it_at_once(room: Room) -> None:
    time_room(room)
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    svc.mark_period(d, t)
    room.clock.advance(minutes=10)
    late = svc.seat_in(d, t, 2)
    assert [(x.seat, x.amount, x.period) for x in late.collect] == [(2, 500, 1)]
    room.clock.advance(minutes=20)
    svc.seat_out(d, t, 1)
    nxt = svc.mark_period(d, t)
    assert [(x.seat, x.amount, x.period) for x in nxt.collect] == [(2, 500, 2)]
    assert sum(x.amount for x in svc.time_collections(t)) == 1500


def test_prorated_billing_collects_the_minutes_when_a_player_leaves(room: Room) -> None:
    time_room(room, {**TIME_FEE, "billing": "prorated"})
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    room.clock.advance(minutes=12)
    out = svc.seat_out(d, t, 1)
    assert [(x.seat, x.amount) for x in out.collect] == [(1, 200)]  # 12/30 of $5


def test_rule_nonsense_is_refused_with_a_message_and_nothing_is_stored(room: Room) -> None:
    time_room(room)
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    head = room.store.chain_head(t)
    with pytest.raises(RuleViolation, match="seat 1 is already seated"):
        svc.seat_in(d, t, 1)
    with pytest.raises(RuleViolation, match="seat 2 is not seated"):
        svc.seat_out(d, t, 2)
    with pytest.raises(RuleViolation, match=r"seat 7 is not a seat at T1 \(its seats are 1, 2, 3"):
        svc.seat_in(d, t, 7)
    with pytest.raises(NotAllowed):
        svc.seat_in(room.auditor, t, 2)
    assert room.store.chain_head(t) == head


def test_a_table_without_a_time_policy_refuses_seat_marks(room: Room) -> None:
    assert room.svc.time_policy(room.table_id) is None
    with pytest.raises(RuleViolation, match="T1 does not collect time"):
        room.svc.seat_in(room.dealer, room.table_id, 1)


def test_seat_marks_need_an_open_shift(room: Room) -> None:
    time_room(room)
    shift = room.svc.current_shift(room.table_id)
    assert shift is not None
    room.store.close_shift(shift.id, dealer="dee", floor="fran", at=room.clock())
    with pytest.raises(RuleViolation, match="T1 has no open shift: open a shift first"):
        room.svc.mark_period(room.dealer, room.table_id)


def test_a_settings_change_starts_a_new_time_account(room: Room) -> None:
    time_room(room)
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    svc.change_settings(room.admin, t, {**settings(), "fee": {**TIME_FEE, "amount": 700}})
    room.clock.advance(seconds=1)
    assert svc.time_now(t).seated == ()
    svc.seat_in(d, t, 2)
    now = svc.mark_period(d, t)
    assert [(x.seat, x.amount) for x in now.collect] == [(2, 700)]
    assert verify_store(room.store).ok


def test_verify_names_the_period_event_whose_recorded_collection_was_altered() -> None:
    room = time_room(make_room())
    svc, d, t = room.svc, room.dealer, room.table_id
    svc.seat_in(d, t, 1)
    mark = svc.mark_period(d, t)
    assert verify_store(room.store).ok
    store = room.store
    assert isinstance(store, InMemoryStore)
    store.time_lines[0] = replace(store.time_lines[0], amount=100)
    report = verify_store(store)
    assert report.problem is not None and mark.last is not None
    assert report.problem.seq == mark.last.seq
    assert "seat 1 period 1 500" in report.problem.message
    store.time_lines[0] = replace(store.time_lines[0], amount=500)
    store.time_lines.append(LedgerLine.time_line(
        table_id=t, seat=2, amount=500, period=1, seq=mark.last.seq, at=mark.last.time))
    assert verify_store(store).problem is not None

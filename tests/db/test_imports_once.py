"""A hand log is imported once, whatever carry-in or stacks it is given again, and imported
money never enters the day's totals: the day summary lists imported hands on their own."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from services.support import Room

from dealer_assist.db.bootstrap import Database
from dealer_assist.errors import BadInput
from dealer_assist.services.imports import MARK, log_fingerprint


def _settled_log(room: Room) -> list[str]:
    hand = room.hand(["Ad", "Kd", "Qd"])
    room.svc.settle(room.dealer, hand)
    return room.svc.export_hand(room.floor, hand).splitlines()


def _with_carry_in(lines: list[str], cents: int) -> list[str]:
    first = json.loads(lines[0])
    first["carry_in"] = cents
    return [json.dumps(first), *lines[1:]]


def test_regression_the_same_log_is_imported_once(room: Room, database: Database) -> None:
    lines = _settled_log(room)
    hand = room.svc.import_hand(room.admin, room.table_id, lines)
    entry = room.store.audit_log(action="import")[-1]
    from dealer_assist.engine.hand import parse_lines

    events, _ = parse_lines(lines)  # the events as the log gives them (not its seq or hash)
    fingerprint = log_fingerprint([e.to_json() for e in events])
    assert entry.detail.endswith(f"; {MARK}{fingerprint}")
    events = len(room.svc.hand_events(hand.id))
    for again in (lines, _with_carry_in(lines, 99_999_900)):
        with pytest.raises(BadInput, match=rf"this hand log was imported before \(hand "
                           rf"{hand.number}, id {hand.id}\): a hand is imported once, whatever "
                           r"its carry-in or stacks; nothing was imported"):
            room.svc.import_hand(room.admin, room.table_id, again)
    assert len(room.store.audit_log(action="import")) == 1
    assert len(room.svc.hand_events(hand.id)) == events


def test_regression_the_store_refuses_a_repeat_even_when_the_services_were_passed_by(
    room: Room, database: Database
) -> None:
    """Two stations importing the same log at once both pass the services' look; the store's
    transaction (imports take turns on PostgreSQL) takes the first only."""
    from dealer_assist.services.model import NewEvent

    lines = _settled_log(room)
    room.svc.import_hand(room.admin, room.table_id, lines)
    note = room.store.audit_log(action="import")[-1].detail.split(": ", 1)[1]
    at = datetime(2026, 11, 21, 21, tzinfo=UTC)
    start = NewEvent(body=json.loads(lines[0]), actor="admin", time=at)
    with pytest.raises(BadInput, match="this hand log was imported before"):
        room.store.import_hand(table_id=room.table_id, actor="admin", at=at, game="highcard",
                               seats=(1, 2, 3), events=[start], lines=None, note=note)


def test_regression_imported_money_is_not_in_the_days_totals(
    room: Room, database: Database
) -> None:
    from dealer_assist.reports.build.day import build_day

    lines = _settled_log(room)
    before = build_day(room.store, by="test", at=room.clock())
    inflated = _with_carry_in(lines, 0)  # (the test game has no carry-in: the same log)
    room.svc.import_hand(room.admin, room.table_id, inflated)
    after = build_day(room.store, by="test", at=room.clock(), day=before.day)
    assert [(t.table, t.hands, t.put_in, t.house_fees) for t in after.tables] == [
        (t.table, t.hands, t.put_in, t.house_fees) for t in before.tables]
    assert after.fees == before.fees
    (imp,) = after.imported
    assert (imp.table, imp.number, imp.status) == ("T1", 2, "settled")
    assert imp.money_in == 300 and imp.fees == 10
    assert imp.imported_by.startswith("Ada Admin")

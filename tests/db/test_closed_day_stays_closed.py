"""A closed day stays closed (SQLite and PostgreSQL): a change of the room's clock applies from
the next gaming day that has not started; a day over (archived or not) and the day running
when the clock changed keep their bounds, and the first day of the new clock begins where the
day before it ended."""

from __future__ import annotations

from datetime import UTC, date, datetime

from services.support import Room

from dealer_assist.reports.build.day import build_day
from dealer_assist.services.counts import day_bounds_of, gaming_day_of, set_room_clock
from dealer_assist.services.room import ARCHIVE_ACTION, room_clock


def _utc(*a: int) -> datetime:
    return datetime(*a, tzinfo=UTC)


def test_a_clock_change_after_a_day_was_archived_keeps_that_days_bounds(room: Room) -> None:
    for cards in (["As", "Kd", "2c"], ["Qs", "Jd", "3c"]):  # 2026-11-21 from 20:00 UTC
        room.svc.settle(room.dealer, room.hand(cards))
    day = date(2026, 11, 21)
    before = day_bounds_of(room.store, day)[:2]
    report = build_day(room.store, day=day, by="t", at=_utc(2026, 11, 28, 12))
    room.clock.now = _utc(2026, 11, 28, 12)
    room.svc.log(room.floor, ARCHIVE_ACTION, "gaming day 2026-11-21: 2 hands")
    set_room_clock(room.svc, room.floor, room_clock(zone="America/Los_Angeles", day_starts=6))
    assert day_bounds_of(room.store, day)[:2] == before == (_utc(2026, 11, 21), _utc(2026, 11, 22))
    again = build_day(room.store, day=day, by="t", at=_utc(2026, 11, 28, 13))
    assert again.period == report.period and again.total("hands") == report.total("hands") == 2
    # the day running when the clock changed keeps its bounds; the next is the new clock's,
    # beginning where the day before it ended; the one after is the new clock's whole day
    assert day_bounds_of(room.store, date(2026, 11, 28))[:2] == (_utc(2026, 11, 28),
                                                                  _utc(2026, 11, 29))
    start, end, clock = day_bounds_of(room.store, date(2026, 11, 29))
    assert (start, end, clock.zone) == (_utc(2026, 11, 29), _utc(2026, 11, 30, 14),
                                        "America/Los_Angeles")
    assert day_bounds_of(room.store, date(2026, 11, 30))[:2] == (_utc(2026, 11, 30, 14),
                                                                  _utc(2026, 12, 1, 14))
    assert gaming_day_of(room.store, _utc(2026, 11, 29, 3)) == date(2026, 11, 29)
    assert gaming_day_of(room.store, _utc(2026, 11, 21, 23)) == day


def test_a_second_change_before_the_new_clock_begins_replaces_the_first(room: Room) -> None:
    room.clock.now = _utc(2026, 11, 28, 12)
    set_room_clock(room.svc, room.floor, room_clock(zone="America/Los_Angeles", day_starts=6))
    room.clock.now = _utc(2026, 11, 28, 13)
    set_room_clock(room.svc, room.floor, room_clock(zone="Europe/Paris", day_starts=8))
    start, end, clock = day_bounds_of(room.store, date(2026, 11, 29))
    assert (start, end, clock.zone) == (_utc(2026, 11, 29), _utc(2026, 11, 30, 7),
                                        "Europe/Paris")

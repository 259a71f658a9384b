"""The house net on a real store (SQLite and PostgreSQL): the hands' rake and the time
collected from seats, both read from the stored rows, make the shift's and the day's house
net."""

from __future__ import annotations

from datetime import UTC, date, datetime

from services.support import Room
from services.test_time_collection import time_room

from dealer_assist.reports.build.day import build_day
from dealer_assist.reports.build.shift import build_shift

AT = datetime(2026, 11, 22, 2, 0, tzinfo=UTC)


def test_house_net_counts_time_collections_on_the_store(room: Room) -> None:
    for cards in (["As", "Kd", "2c"], ["Qs", "Jd", "3c"]):
        room.svc.settle(room.dealer, room.hand(cards))
    time_room(room)
    room.svc.seat_in(room.dealer, room.table_id, 1)
    room.svc.seat_in(room.dealer, room.table_id, 2)
    room.clock.advance(minutes=5)
    room.svc.mark_period(room.dealer, room.table_id)
    shift = build_shift(room.store, by="test", at=AT)
    assert (shift.house_fees, shift.time_total, shift.house_net) == (20, 1000, 1020)
    day = build_day(room.store, day=date(2026, 11, 21), by="test", at=AT)
    assert (day.total("house_fees"), day.total("time_fees"), day.house_net) == (20, 1000, 1020)

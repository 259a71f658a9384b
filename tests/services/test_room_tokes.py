"""The toke box per room shift (issue 44): a room counts one toke box per room shift and
splits it among every dealer who dealt in it, at any table, by the room's rule; the split sums
to the count exactly in whole cents, and the odd cents are named."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from dealer_assist.errors import BadInput
from dealer_assist.services import Approval
from dealer_assist.services.counts import set_room_clock
from dealer_assist.services.dealer_box import Rules
from dealer_assist.services.dealer_handlers import set_rules
from dealer_assist.services.dealer_hooks import enter_room_tokes, room_toke_split
from dealer_assist.services.room import room_clock
from dealer_assist.services.tokes import room_shift_bounds

from .dealer_room import DealerRoom, make_dealer_room

DAY = date(2026, 11, 22)
SHIFTS = (("day", 6), ("swing", 14), ("grave", 22))


def _swing_at_two_tables() -> DealerRoom:
    """Room shifts day 06-14, swing 14-22, grave 22-06 (UTC), set on the 21st: they keep the
    days from the 22nd. On the 22nd, from 20:00 dana deals T1 (her shift) and gil T2; at 20:30
    eve relieves dana at T1 and deals on past 22:00, into the grave shift, as gil does; the
    clock stops at 22:30."""
    r = make_dealer_room()
    clock = r.room.clock
    assert clock.now.replace(microsecond=0) == datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
    set_room_clock(r.svc, r.room.admin, room_clock(zone="UTC", shifts=SHIFTS))
    set_rules(r.box, r.room.floor, Rules(toke_rule="minutes"), now=clock())
    dee_shift = r.svc.current_shift(r.tables["T1"])
    r.svc.close_shift(r.room.dealer, dee_shift.id, approval=Approval("fran", "2222"))
    clock.advance(days=1)
    r.svc.open_shift(r.dealers["dana"], r.tables["T1"], floor="fran")
    r.sit("gil", "T2")
    clock.advance(minutes=30)
    r.sit("eve", "T1")
    clock.advance(minutes=120)
    return r


def test_room_shift_bounds_follow_the_rooms_named_shifts_and_the_gaming_day() -> None:
    clock = room_clock(zone="America/Los_Angeles", day_starts=6, shifts=SHIFTS)
    start, end = room_shift_bounds(clock, DAY, "grave")  # 22:00 PST to 06:00 the next day
    assert (start, end) == (datetime(2026, 11, 23, 6, 0, tzinfo=UTC),
                            datetime(2026, 11, 23, 14, 0, tzinfo=UTC))
    whole = room_shift_bounds(room_clock(zone="UTC"), DAY, "")
    assert whole == (datetime(2026, 11, 22, tzinfo=UTC), datetime(2026, 11, 23, tzinfo=UTC))
    with pytest.raises(BadInput, match='"night" is not one of the room\'s shifts: choose '
                                       "day, swing, grave"):
        room_shift_bounds(clock, DAY, "night")
    with pytest.raises(BadInput, match="the room names no shifts"):
        room_shift_bounds(room_clock(zone="UTC"), DAY, "swing")


def test_one_toke_box_per_room_shift_split_among_every_dealer_who_dealt_in_it_at_any_table(
) -> None:
    r = _swing_at_two_tables()
    fran = r.room.floor
    count = enter_room_tokes(r.svc, fran, day=DAY, room_shift="swing", amount=1001,
                             team=("Ann Count", "Bob Count"))
    assert (count.day, count.room_shift, count.amount) == (DAY, "swing", 1001)
    shares = room_toke_split(r.svc, DAY, "swing")
    # minutes in 14:00-22:00 over both tables: dana 30 (T1), eve 90 (T1), gil 120 (T2);
    # 1001 x 30/240, x 90/240, x 120/240 = 125.125, 375.375, 500.5: the one cent left over
    # goes to the largest remainder, gil's
    assert [(s.dealer, s.weight, s.cents, s.odd_cent) for s in shares] == [
        ("dana", 30, 125, 0), ("eve", 90, 375, 0), ("gil", 120, 501, 1)]
    assert sum(s.cents for s in shares) == 1001
    assert all(type(s.cents) is int for s in shares)


def test_a_room_shift_box_is_counted_once_after_the_shift_ends_and_nothing_else_is_written(
) -> None:
    r = make_dealer_room()
    set_room_clock(r.svc, r.room.admin, room_clock(zone="UTC", shifts=SHIFTS))
    r.room.clock.advance(days=1)
    fran = r.room.floor
    with pytest.raises(BadInput, match="the swing shift of 2026-11-22 runs until 2026-11-22 "
                                       "22:00 UTC: count its toke box after it ends"):
        enter_room_tokes(r.svc, fran, day=DAY, room_shift="swing", amount=100,
                         team=("Ann Count", "Bob Count"))
    with pytest.raises(BadInput, match='"night" is not one of the room\'s shifts'):
        enter_room_tokes(r.svc, fran, day=DAY, room_shift="night", amount=100,
                         team=("Ann Count", "Bob Count"))
    r.room.clock.advance(hours=3)
    enter_room_tokes(r.svc, fran, day=DAY, room_shift="swing", amount=100,
                     team=("Ann Count", "Bob Count"))
    with pytest.raises(BadInput, match="the toke box of the swing shift of 2026-11-22 was "
                                       "already counted"):
        enter_room_tokes(r.svc, fran, day=DAY, room_shift="swing", amount=5,
                         team=("Ann Count", "Bob Count"))
    with pytest.raises(BadInput, match="two different people"):
        enter_room_tokes(r.svc, fran, day=DAY, room_shift="day", amount=5,
                         team=("Ann Count", "ann count"))
    assert [(t.room_shift, t.amount) for t in r.box.toke_counts()] == [("swing", 100)]


def test_the_grave_shift_box_goes_to_who_dealt_after_22_not_to_the_swing_dealers(
) -> None:
    r = _swing_at_two_tables()
    r.room.clock.advance(hours=8)  # the grave shift is over at 06:00
    enter_room_tokes(r.svc, r.room.floor, day=DAY, room_shift="grave", amount=999,
                     team=("Ann Count", "Bob Count"))
    shares = room_toke_split(r.svc, DAY, "grave")
    # eve and gil deal on from 22:00 to the end of the grave shift: equal minutes, so an
    # equal split, the odd cent to the first name (ties in name order)
    assert [(s.dealer, s.cents, s.odd_cent) for s in shares] == [("eve", 500, 1),
                                                                  ("gil", 499, 0)]
    assert r.room.clock.now > datetime(2026, 11, 23, 6, 0, tzinfo=UTC)

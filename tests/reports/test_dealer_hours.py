"""Dealer hours, late pushes, voids per dealer and the toke split on the shift report (PDF and
CSV), from a real SQLite file; the toke split conserves the box in whole cents."""

from __future__ import annotations

import csv
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.dealer_box import SqlDealerRecords
from dealer_assist.db.store import SqlStore
from dealer_assist.errors import BadInput
from dealer_assist.reports import generate
from dealer_assist.reports.dealer_hours import for_shift
from dealer_assist.services.dealer_box import Rules
from dealer_assist.services.dealer_handlers import count_tokes, set_rules
from dealer_assist.services.tokes import split
from tests.services.dealer_room import DealerRoom, make_dealer_room

from .pdftext import pages


@pytest.fixture
def database(tmp_path: Path) -> Iterator[Database]:
    db = open_database(f"sqlite:///{tmp_path / 'room.sqlite3'}")
    yield db
    db.close()


def _shift_with_a_push(database: Database) -> DealerRoom:
    """dana deals T1 for 30 minutes (one hand), eve relieves her and deals 20 minutes (two
    hands, one with a void); the toke box of the shift counted $10.01."""
    r = make_dealer_room(SqlStore(database), SqlDealerRecords(database))
    clock = r.room.clock
    set_rules(r.box, r.room.floor, Rules(push_minutes=20, break_after_minutes=80,
                                         break_minutes=20, grace_minutes=5), now=clock())
    r.sit("dana", "T1")
    clock.advance(minutes=1)
    r.finish("dana", r.deal("dana", "T1", ["9d", "Kc", "2h"]))
    clock.advance(minutes=29)
    r.sit("eve", "T1")
    clock.advance(minutes=1)
    hand = r.deal("eve", "T1", ["9d"])
    r.svc.void(r.dealers["eve"], hand, 2, reason="wrong seat")
    from dealer_assist.cards import parse_card
    from dealer_assist.events import CardDealt

    for seat, c in ((1, "9d"), (2, "Kc"), (3, "2h")):
        r.svc.record(r.dealers["eve"], hand, CardDealt(seat=seat, card=parse_card(c)))
    r.finish("eve", hand)
    clock.advance(minutes=1)
    r.finish("eve", r.deal("eve", "T1", ["9d", "Kc", "2h"]))
    shift = r.svc.current_shift(r.tables["T1"])
    count_tokes(r.box, r.room.floor, shift_id=shift.id, amount=1001, team=("Fran Floor",
                                                                           "Gus Floor"),
                now=clock())
    clock.now = clock.now.replace(second=0, microsecond=0) + timedelta(minutes=18)
    return r


def test_dealer_hours_late_push_voids_and_toke_split_of_a_shift(database: Database) -> None:
    r = _shift_with_a_push(database)
    shift = r.svc.current_shift(r.tables["T1"])
    s = for_shift(r.svc.store, r.box, shift, r.room.clock.now)
    assert s is not None
    assert [(d.dealer, d.table, d.minutes, d.hands) for d in s.downs] == [
        ("dana", "T1", 30, 1), ("eve", "T1", 20, 2)]
    assert (s.downs[0].per_hour, s.downs[1].per_hour) == (2.0, 6.0)
    assert s.downs[0].table_per_hour == s.downs[0].game_per_hour == 3.6  # 3 hands in 50 min
    assert [(x.dealer, x.over_minutes) for x in s.late] == [("dana", 10)]
    totals = {t.dealer: t for t in s.totals}
    assert (totals["eve"].voids, totals["dana"].voids) == (1, 0)
    assert (totals["dana"].late_pushes, totals["eve"].late_pushes) == (1, 0)
    [tokes] = s.tokes
    assert [(x.dealer, x.weight, x.cents, x.odd_cent) for x in tokes.shares] == [
        ("dana", 30, 601, 1), ("eve", 20, 400, 0)]
    assert tokes.odd_cents == ("dana",)


def test_shift_report_prints_dealer_hours_and_the_toke_split_and_writes_them_as_csv(
    database: Database, tmp_path: Path,
) -> None:
    r = _shift_with_a_push(database)
    done = generate.shift_report(r.svc, r.room.floor, tmp_path / "shift.pdf", csv=True,
                                 shift_id=r.svc.current_shift(r.tables["T1"]).id)
    text = "\n".join(pages(done.path))
    assert "Dealer hours" in text and "Late pushes" in text
    assert "Toke box counted $10.01 by Fran Floor and Gus Floor; split by minutes dealt; the " \
           "odd cents went to: dana." in " ".join(text.split())
    tokes = next(p for p in done.csv if "tokes" in p.name)
    rows = list(csv.reader(tokes.open(encoding="utf-8")))
    assert rows[0][:4] == ["Dealer", "Weight", "Share ($)", "Odd cent"]
    assert [row[:3] for row in rows[1:]] == [["dana", "30", "6.01"], ["eve", "20", "4.00"],
                                             ["Total", "50", "10.01"]]
    hours = next(p for p in done.csv if "dealer-hours" in p.name)
    assert [row[0] for row in csv.reader(hours.open(encoding="utf-8"))][1:] == ["dana", "eve"]


@given(st.integers(min_value=0, max_value=10**9),
       st.dictionaries(st.sampled_from(["ann", "bo", "cy", "di", "ed"]),
                       st.integers(min_value=0, max_value=600), min_size=1))
def test_toke_split_conserves_the_box_in_whole_cents(amount: int, weights: dict[str, int]
                                                      ) -> None:
    shares = split(amount, weights)
    assert sum(s.cents for s in shares) == amount
    assert all(isinstance(s.cents, int) for s in shares)
    assert sum(s.odd_cent for s in shares) < len(shares)
    total = sum(weights.values())
    for s in shares:  # nobody is more than a cent from their exact share
        exact = amount * (s.weight if total else 1) / (total or len(shares))
        assert abs(s.cents - exact) < 1


def test_toke_split_equal_names_the_odd_cents_and_refuses_bad_input() -> None:
    shares = split(1000, {"ann": 1, "bo": 1, "cy": 1})
    assert [(s.dealer, s.cents, s.odd_cent) for s in shares] == [
        ("ann", 334, 1), ("bo", 333, 0), ("cy", 333, 0)]
    with pytest.raises(BadInput, match="whole number of cents"):
        split(-1, {"ann": 1})
    with pytest.raises(BadInput, match="nobody to share the tokes with"):
        split(100, {})


def test_day_summary_prints_every_tables_dealer_hours_and_the_toke_split(
    database: Database, tmp_path: Path,
) -> None:
    r = _shift_with_a_push(database)
    r.sit("gil", "T2")
    r.room.clock.advance(minutes=10)
    r.finish("gil", r.deal("gil", "T2", ["9d", "Kc", "2h"]))
    done = generate.day_report(r.svc, r.room.floor, tmp_path / "day.pdf", csv=True)
    section = done.report.dealer_box  # type: ignore[union-attr]
    assert [(d.dealer, d.table, d.hands) for d in section.downs] == [
        ("dana", "T1", 1), ("eve", "T1", 2), ("gil", "T2", 1)]
    assert [(t.shift_id, t.amount) for t in section.tokes] == [
        (r.svc.current_shift(r.tables["T1"]).id, 1001)]
    text = " ".join(" ".join(pages(done.path)).split())
    assert "Dealer hours" in text and "Tokes, shift 1 (T1)" in text
    # the day still running: downs counted up to the report's time, not the day's end
    # (eve's down, still running, 20:30 to the report at 21:00: 30 minutes like dana's; the
    # odd cent of the tie goes by name)
    assert "dana 30 $5.01 1 eve 30 $5 — Total 60 $10.01 1" in text


def test_a_dealer_the_box_never_placed_deals_their_shift_under_the_old_rule_hours_and_tokes(
    database: Database,
) -> None:
    """Issue 44: dee opened T1's shift before the room kept downs (no down record of hers):
    under the old shift rule she is down at T1 from the opening until eve, placed by the box,
    relieves her. Dealer hours and the toke split both count her 41 minutes, not eve's 20
    twice nor nothing; the split sums to the box in whole cents, the odd cent named."""
    from dealer_assist.services.dealer_hooks import take_table, toke_split
    from tests.services.support import make_room

    store = SqlStore(database)
    room = make_room(store)  # dee opens T1's shift: the room keeps no downs yet
    svc, clock = room.svc, room.clock
    clock.advance(minutes=1)
    svc.settle(room.dealer, room.hand(["9d", "Kc", "2h"]))
    clock.advance(minutes=40)
    box = SqlDealerRecords(database)
    svc.dealer_box = box  # from now on the room keeps downs
    svc.add_user(room.admin, name="eve", full_name="Eve Dealer", role="dealer", pin="1112")
    shift = svc.current_shift(room.table_id)
    take_table(svc, svc.sign_in("eve", "1112"), room.table_id, shift)  # eve relieves dee
    clock.advance(minutes=20)
    count_tokes(box, room.floor, shift_id=shift.id, amount=1001,
                team=("Fran Floor", "Gus Floor"), now=clock())

    s = for_shift(store, box, shift, clock.now)
    assert s is not None
    assert [(d.dealer, d.table, d.minutes, d.hands) for d in s.downs] == [
        ("dee", "T1", 41, 1), ("eve", "T1", 20, 0)]
    assert {t.dealer: t.minutes for t in s.totals} == {"dee": 41, "eve": 20}
    [tokes] = s.tokes
    # 1001 x 41/61 = 672.8..., 1001 x 20/61 = 328.1...: the odd cent to dee's larger remainder
    expected = [("dee", 41, 673, 1), ("eve", 20, 328, 0)]
    assert [(x.dealer, x.weight, x.cents, x.odd_cent) for x in tokes.shares] == expected
    assert [(x.dealer, x.weight, x.cents, x.odd_cent) for x in toke_split(svc, shift.id)] \
        == expected
    assert sum(x.cents for x in tokes.shares) == 1001


def test_a_room_that_never_uses_the_box_still_gets_dealer_hours_by_the_shift_rule(
    database: Database,
) -> None:
    """No down record at all: each dealer's shift is their down (a floor person's shift is
    not a dealer's and is left out)."""
    from dealer_assist.services import Approval
    from tests.services.support import make_room, settings

    store = SqlStore(database)
    room = make_room(store)
    svc, clock = room.svc, room.clock
    t2 = svc.add_table(room.admin, settings(), name="T2").id
    svc.open_shift(room.floor, t2, floor="fran")  # the floor opened T2: no dealer's down
    clock.advance(minutes=1)
    svc.settle(room.dealer, room.hand(["9d", "Kc", "2h"]))
    clock.advance(minutes=44)
    shift = svc.current_shift(room.table_id)
    svc.close_shift(room.dealer, shift.id, approval=Approval("fran", "2222"))
    box = SqlDealerRecords(database)
    s = for_shift(store, box, svc.shift(shift.id), clock.now + timedelta(hours=1))
    assert s is not None
    assert [(d.dealer, d.minutes, d.hands, d.end is not None) for d in s.downs] == [
        ("dee", 45, 1, True)]
    from dealer_assist.reports.dealer_hours import for_day

    day = for_day(store, box, shift.opened_at, clock.now + timedelta(hours=1))
    assert day is not None and [d.dealer for d in day.downs] == ["dee"]


def test_shift_and_day_reports_print_the_room_shifts_toke_split_over_every_table(
    database: Database, tmp_path: Path,
) -> None:
    """The room's one box for gaming day 2026-11-21 (the room names no shifts), shared by
    minutes among dana and eve (T1) and gil (T2): on T1's shift report too, whole."""
    from datetime import date

    from dealer_assist.services.dealer_hooks import enter_room_tokes

    r = make_dealer_room(SqlStore(database), SqlDealerRecords(database))
    clock = r.room.clock
    r.sit("dana", "T1")
    r.sit("gil", "T2")
    clock.advance(minutes=30)
    r.sit("eve", "T1")
    clock.advance(minutes=30)
    clock.advance(days=1)
    enter_room_tokes(r.svc, r.room.floor, day=date(2026, 11, 21), room_shift="", amount=1001,
                     team=("Ann Count", "Bob Count"))
    shift = r.svc.current_shift(r.tables["T1"])
    section = for_shift(r.svc.store, r.box, shift, clock.now)
    assert section is not None
    [tokes] = section.tokes
    # to midnight: dana 30 min, eve 210, gil 240 (480 in all); 1001 x 30/480 = 62.5625,
    # x 210/480 = 437.9375, x 240/480 = 500.5: 999 whole cents, the two left over to the two
    # largest remainders, eve's (.9375) and dana's (.5625), not gil's (.5)
    assert tokes.title == "Tokes, gaming day 2026-11-21 (every table)"
    assert [(s.dealer, s.weight, s.cents, s.odd_cent) for s in tokes.shares] == [
        ("dana", 30, 63, 1), ("eve", 210, 438, 1), ("gil", 240, 500, 0)]
    assert sum(s.cents for s in tokes.shares) == 1001
    done = generate.shift_report(r.svc, r.room.floor, tmp_path / "shift.pdf", shift_id=shift.id)
    text = " ".join("\n".join(pages(done.path)).split())
    assert "Tokes, gaming day 2026-11-21 (every table)" in text
    assert "Toke box counted $10.01 by Ann Count and Bob Count; split by minutes dealt; the " \
           "odd cents went to: dana, eve." in text

"""Time collection with worked numbers: whole periods in advance and prorated minutes, across a
period boundary and with a player who sits out; the clock is always passed in."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.errors import HandLogError, RuleViolation
from dealer_assist.events import Event, Fold, Period, SeatIn, SeatOut
from dealer_assist.fees import parse_fee_policy, time_fees, time_start, timed_events

WHOLE = parse_fee_policy({"kind": "time", "amount": 500, "period_minutes": 30})
PRORATED = parse_fee_policy(
    {"kind": "time", "amount": 500, "period_minutes": 30, "billing": "prorated"}
)


def t(hhmm: str) -> datetime:
    h, m = hhmm.split(":")
    return datetime(2026, 1, 31, int(h), int(m))


def test_ruling_time_whole_periods_in_advance_across_boundaries_and_a_sit_out() -> None:
    assert WHOLE is not None
    events: list[tuple[datetime, Event]] = [
        (t("20:00"), SeatIn(seat=1)),
        (t("20:00"), SeatIn(seat=2)),
        (t("20:00"), Period()),             # period 1: seats 1 and 2 pay $5
        (t("20:10"), SeatIn(seat=3)),       # 20 of 30 minutes left: pays period 1 now
        (t("20:20"), SeatIn(seat=4)),       # 10 minutes left: free until the next mark
        (t("20:25"), SeatOut(seat=2)),
        (t("20:28"), SeatIn(seat=2)),       # period 1 already paid: nothing again
        (t("20:30"), Period()),             # period 2: seats 1, 2, 3, 4
        (t("20:40"), SeatOut(seat=3)),      # sits out: no refund, owes nothing more
        (t("21:00"), Period()),             # period 3: seats 1, 2, 4
    ]
    state = time_fees(WHOLE, events, smallest_chip=100, table="T4")
    assert state.by_seat() == {1: 1500, 2: 1500, 3: 1000, 4: 1000}
    assert state.total() == 5000
    assert [(ln.from_seat, ln.period) for ln in state.lines] == [
        (1, 1), (2, 1), (3, 1), (1, 2), (2, 2), (3, 2), (4, 2), (1, 3), (2, 3), (4, 3),
    ]
    assert all(ln.kind == "time" and ln.fund == "house" and ln.table == "T4" for ln in state.lines)
    assert state.lines[2].at == t("20:10")
    assert state.seated == (1, 2, 4)


def test_ruling_time_prorated_minutes_across_a_period_boundary() -> None:
    assert PRORATED is not None
    events: list[tuple[datetime, Event]] = [
        (t("20:00"), SeatIn(seat=1)),
        (t("20:00"), Period()),
        (t("20:10"), SeatIn(seat=2)),
        (t("20:30"), Period()),             # seat 1: 30 min $5; seat 2: 20 min $3.33 -> $3
        (t("20:42"), SeatOut(seat=2)),      # seat 2: 12 min $2
        (t("21:00"), Period()),             # seat 1: 30 min $5
    ]
    state = time_fees(PRORATED, events, smallest_chip=100)
    assert [(ln.from_seat, ln.amount, ln.period) for ln in state.lines] == [
        (1, 500, 1), (2, 300, 1), (2, 200, 2), (1, 500, 2),
    ]
    by_cent = time_fees(PRORATED, events, smallest_chip=1)
    assert by_cent.by_seat() == {1: 1000, 2: 333 + 200}


def test_prorated_accrued_shows_what_a_seat_owes_so_far() -> None:
    assert PRORATED is not None
    state = time_fees(PRORATED, [(t("20:00"), SeatIn(seat=5))], smallest_chip=1)
    assert state.accrued(t("20:45")) == {5: 750}


@pytest.mark.parametrize(
    ("events", "message"),
    [
        ([(t("20:00"), SeatIn(seat=1)), (t("20:05"), SeatIn(seat=1))], "seat 1 is already seated"),
        ([(t("20:00"), SeatOut(seat=2))], "seat 2 is not seated"),
        ([(t("20:10"), Period()), (t("20:00"), Period())], "earlier than the previous event"),
        ([(t("20:00"), Fold(seat=1))], '"fold" is not a time event'),
    ],
)
def test_time_events_that_make_no_sense_are_refused(
    events: list[tuple[datetime, Event]], message: str
) -> None:
    assert WHOLE is not None
    with pytest.raises(RuleViolation) as info:
        time_fees(WHOLE, events)
    assert message in str(info.value)


def test_time_fold_refuses_a_table_without_a_time_fee() -> None:
    rake = parse_fee_policy({"kind": "rake", "percent": "5"})
    assert rake is not None
    with pytest.raises(RuleViolation, match="not a time collection"):
        time_start(rake)


def test_timed_events_read_the_recorded_time_from_json_lines() -> None:
    lines = [
        '{"type": "seat_in", "seat": 3, "at": "2026-01-31T20:00:00"}',
        '{"type": "period", "at": "2026-01-31T20:00:00"}',
    ]
    assert timed_events(lines) == [(t("20:00"), SeatIn(seat=3)), (t("20:00"), Period())]
    with pytest.raises(HandLogError, match='line 1: a time event needs "at"'):
        timed_events(['{"type": "period"}'])


def test_per_hour_of_a_time_fee_is_exact() -> None:
    assert WHOLE is not None
    assert WHOLE.per_hour() == 1000


def test_time_events_are_registered_and_round_trip() -> None:
    from dealer_assist.events import event_from_json

    for ev in (SeatIn(seat=4), SeatOut(seat=4), Period()):
        assert event_from_json(ev.to_json()) == ev
    assert SeatIn(seat=4).to_json() == {"type": "seat_in", "seat": 4}
    assert Period().to_json() == {"type": "period"}


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.sampled_from(["in", "out", "period"]),
                          st.integers(1, 4)), max_size=25))
def test_time_whole_billing_never_charges_a_seat_twice_for_a_period(
    steps: list[tuple[int, str, int]],
) -> None:
    assert WHOLE is not None and PRORATED is not None
    now = t("20:00")
    seated: set[int] = set()
    timed: list[tuple[datetime, Event]] = []
    minutes_seated: dict[int, int] = {}
    for gap, what, seat in steps:
        for s in seated:
            minutes_seated[s] = minutes_seated.get(s, 0) + gap
        now += timedelta(minutes=gap)
        if what == "period":
            timed.append((now, Period()))
        elif what == "in" and seat not in seated:
            seated.add(seat)
            timed.append((now, SeatIn(seat=seat)))
        elif what == "out" and seat in seated:
            seated.remove(seat)
            timed.append((now, SeatOut(seat=seat)))
    whole = time_fees(WHOLE, timed)
    pairs = [(ln.from_seat, ln.period) for ln in whole.lines]
    assert len(pairs) == len(set(pairs))
    assert all(ln.amount == 500 and ln.period and ln.period >= 1 for ln in whole.lines)
    marks = sum(1 for _, ev in timed if isinstance(ev, Period))
    assert whole.period == marks
    prorated = time_fees(PRORATED, timed, smallest_chip=1)
    for seat, paid in prorated.by_seat().items():
        assert paid <= 500 * minutes_seated.get(seat, 0) // 30

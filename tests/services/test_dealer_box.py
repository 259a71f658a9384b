"""The dealer box's use cases over its ports: one table at a time per dealer, pushes and
breaks by the rotation, the floor's dealer view, bad input refused with nothing written.
Run here on the in-memory records; tests/db/test_dealer_box_db.py runs them again on SQLite
and PostgreSQL."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest

from dealer_assist.errors import BadInput, DealerAssistError, RuleViolation
from dealer_assist.services import Approval
from dealer_assist.services.dealer_box import (
    BREAK,
    DEAL,
    DownRecord,
    Rotation,
    Rules,
    fold_downs,
    late_pushes,
    overlaps,
    running,
)
from dealer_assist.services.dealer_handlers import (
    count_tokes,
    dealer_view,
    set_rotation,
    set_rules,
    start_break,
    station_notice,
)
from dealer_assist.services.errors import NotAllowed

from .dealer_room import DealerRoom, make_dealer_room

MakeRoom = Callable[[], DealerRoom]


@pytest.fixture
def make() -> MakeRoom:
    return make_dealer_room


def _where(r: DealerRoom) -> dict[str, int | None]:
    names = {v: k for k, v in r.tables.items()}
    return {d.dealer: (names.get(d.table_id) if d.table_id else None)  # type: ignore[misc]
            for d in running(fold_downs(r.box.downs())).values()}


def _rules(r: DealerRoom, **kw: int | str) -> None:
    set_rules(r.box, r.room.floor, Rules(**kw), now=r.room.clock())  # type: ignore[arg-type]


def _rotation(r: DealerRoom, dealers: tuple[str, ...], tables: tuple[str, ...]) -> None:
    set_rotation(r.box, r.room.floor, Rotation(dealers, tuple(r.tables[t] for t in tables)),
                 now=r.room.clock(), active_dealers=("dana", "eve", "gil"),
                 open_tables={v: k for k, v in r.tables.items()})


def test_rule_one_table_at_a_time_signing_in_at_b_ends_the_down_at_a(make: MakeRoom) -> None:
    r = make()
    assert r.sit("dana", "T1")
    r.room.clock.advance(minutes=25)
    assert r.sit("dana", "T2")
    downs = fold_downs(r.box.downs())
    assert [(d.dealer, d.table_id, d.end is None) for d in downs] == [
        ("dana", r.tables["T1"], False), ("dana", r.tables["T2"], True)]
    assert downs[0].end == downs[1].start
    assert _where(r) == {"dana": "T2"}
    # dana no longer deals T1: the database's records say she is at T2
    with pytest.raises(RuleViolation, match="dana is not down at T1"):
        r.deal("dana", "T1", ["9d", "Kc", "2h"])


def test_a_dealer_pushed_out_is_told_who_deals_the_table_now_and_where_to_go(
    make: MakeRoom,
) -> None:
    """Issue 44's walk-through: once eve relieves dana at T1, dana's station (still showing
    T1) says who deals there and sends her on; her N is refused with the same words."""
    r = make()
    _rules(r, push_minutes=1)
    _rotation(r, ("dana", "eve"), ("T1", "T2"))
    r.sit("dana", "T1")
    r.room.clock.advance(minutes=2)
    r.sit("eve", "T1")
    names = {t.id: t.name for t in r.svc.list_tables()}
    told = station_notice(r.box, r.tables["T1"], names, now=r.room.clock(), between_hands=True,
                          viewer="dana")
    assert told == "eve deals T1 now: press O and sign in at T2"
    assert station_notice(r.box, r.tables["T1"], names, now=r.room.clock(),
                          between_hands=True, viewer="eve") == "Push due in 1 min"
    with pytest.raises(RuleViolation, match=r"^eve deals T1 now, not dana: press O to sign in "
                                            r"at your next table \(or to take T1 back"):
        r.deal("dana", "T1", ["9d", "Kc", "2h"])


def test_rotation_a_free_dealer_relieves_the_push_due_first_not_the_first_table(
    make: MakeRoom,
) -> None:
    """eve has dealt T2 since 20:00, dana T1 since 20:10; both go to a break next (the break
    rule), and gil, the one free dealer, relieves T2, due at 20:20, before T1, due at 20:30."""
    from dealer_assist.services.dealer_box import plan

    r = make()
    _rules(r, push_minutes=20, break_after_minutes=20, break_minutes=15)
    _rotation(r, ("dana", "eve", "gil"), ("T1", "T2"))
    r.sit("eve", "T2")
    r.room.clock.advance(minutes=10)
    r.sit("dana", "T1")
    r.room.clock.advance(minutes=5)
    pushes = {p.table_id: p for p in plan(r.box.rotation(), r.box.rules() or Rules(),
                                          fold_downs(r.box.downs()), r.room.clock())}
    assert (pushes[r.tables["T2"]].relief, pushes[r.tables["T1"]].relief) == ("gil", None)
    assert (pushes[r.tables["T2"]].to, pushes[r.tables["T1"]].to) == (None, None)  # breaks


def test_rule_never_mid_hand_a_dealer_with_a_hand_in_play_is_told_to_finish_it(
    make: MakeRoom,
) -> None:
    r = make()
    r.sit("dana", "T1")
    hand = r.deal("dana", "T1", ["9d", "Kc", "2h"])
    before = r.box.downs()
    with pytest.raises(RuleViolation,
                       match="dana is dealing hand 1 at T1: push after this hand, then sign "
                             "in at T2"):
        r.sit("dana", "T2")
    assert r.box.downs() == before  # nothing written
    r.finish("dana", hand)
    assert r.sit("dana", "T2")
    assert _where(r) == {"dana": "T2"}


def test_rule_the_relief_waits_for_the_end_of_the_hand_then_ends_the_down_before_it(
    make: MakeRoom,
) -> None:
    r = make()
    r.sit("dana", "T1")
    hand = r.deal("dana", "T1", ["9d", "Kc", "2h"])
    with pytest.raises(RuleViolation, match="hand 1 is in play at T1: wait for the end of it, "
                                            "then sign in to relieve dana"):
        r.sit("eve", "T1")
    r.finish("dana", hand)
    r.room.clock.advance(minutes=1)
    assert r.sit("eve", "T1")
    assert _where(r) == {"eve": "T1"}  # dana is between tables: her down ended
    r.deal("eve", "T1", ["9d", "Kc", "2h"])  # the relief deals the shift dana's down began


def test_rule_push_notice_counts_down_then_names_the_push_between_hands(make: MakeRoom) -> None:
    r = make()
    _rules(r, push_minutes=20, break_after_minutes=80, break_minutes=20, grace_minutes=2)
    _rotation(r, ("dana", "eve"), ("T1", "T2"))
    r.sit("dana", "T1")
    names = {v: k for k, v in r.tables.items()}
    t1 = r.tables["T1"]
    now = r.room.clock.now
    assert station_notice(r.box, t1, names, now=now + timedelta(minutes=17),
                          between_hands=True) == "Push due in 3 min"
    assert station_notice(r.box, t1, names, now=now + timedelta(minutes=21),
                          between_hands=False) == "Push after this hand"
    assert station_notice(r.box, t1, names, now=now + timedelta(minutes=21),
                          between_hands=True) == "Push: dana to T2 (eve deals here)"


def test_rule_break_after_the_dealt_minutes_the_relief_sends_the_dealer_on_break(
    make: MakeRoom,
) -> None:
    r = make()
    _rules(r, push_minutes=20, break_after_minutes=40, break_minutes=20, grace_minutes=2)
    _rotation(r, ("dana", "eve", "gil"), ("T1", "T2"))
    r.sit("dana", "T1")
    r.room.clock.advance(minutes=20)
    r.sit("eve", "T1")
    r.sit("dana", "T2")  # 20 minutes dealt: on to the next table
    r.room.clock.advance(minutes=20)
    names = {v: k for k, v in r.tables.items()}
    assert station_notice(r.box, r.tables["T2"], names, now=r.room.clock.now,
                          between_hands=True) == "Push: dana to break (eve deals here)"
    assert station_notice(r.box, r.tables["T1"], names, now=r.room.clock.now,
                          between_hands=True) == "Push: eve to T2 (gil deals here)"
    r.sit("gil", "T1")  # the string: gil in at the first table, eve on to the next
    assert running(fold_downs(r.box.downs())).get("eve") is None
    r.sit("eve", "T2")  # 40 minutes dealt: the relief's sign-in starts dana's break
    run = running(fold_downs(r.box.downs()))
    assert run["dana"].kind == BREAK and run["dana"].table_id is None
    assert run["dana"].start == run["eve"].start
    rows = {row.dealer: row for row in dealer_view(r.box, names, now=r.room.clock.now)}
    assert rows["dana"].where == "break"
    assert rows["gil"].where == "T1" and rows["eve"].where == "T2"


def test_rule_late_push_flagged_past_the_interval_plus_the_grace(make: MakeRoom) -> None:
    r = make()
    _rules(r, push_minutes=20, break_after_minutes=80, break_minutes=20, grace_minutes=5)
    _rotation(r, ("dana", "eve"), ("T1", "T2"))
    r.sit("dana", "T1")
    names = {v: k for k, v in r.tables.items()}
    start = r.room.clock.now
    on_time = {x.dealer: x for x in dealer_view(r.box, names, now=start + timedelta(minutes=25))}
    assert on_time["dana"].late_minutes == 0
    late = {x.dealer: x for x in dealer_view(r.box, names, now=start + timedelta(minutes=31))}
    assert late["dana"].late_minutes == 11
    assert late["dana"].next_place == "T2"
    assert late["eve"].where == "between tables" and late["eve"].next_place == "T1"
    rules = r.box.rules()
    assert rules is not None
    flagged = late_pushes(fold_downs(r.box.downs()), rules, start + timedelta(minutes=31))
    assert [(f.down.dealer, f.over_minutes) for f in flagged] == [("dana", 11)]


def test_bad_input_rules_and_rotations_refused_with_nothing_written(make: MakeRoom) -> None:
    r = make()
    with pytest.raises(BadInput, match="a 20 minute break after 470 minutes dealing is longer "
                                       "than the 480 minute shift"):
        _rules(r, break_after_minutes=470, break_minutes=20)
    with pytest.raises(BadInput, match='"tips" is not one of the room\'s toke splits'):
        _rules(r, toke_rule="tips")
    with pytest.raises(BadInput, match="push minutes must be a whole number from 1 to 240"):
        _rules(r, push_minutes=0)
    assert r.box.rules() is None
    with pytest.raises(BadInput, match="dee is not an active dealer"):
        _rotation(r, ("dana", "dee"), ("T1",))
    with pytest.raises(BadInput, match="table 99 is closed"):
        set_rotation(r.box, r.room.floor, Rotation(("dana",), (99,)), now=r.room.clock(),
                     active_dealers=("dana",), open_tables={1: "T1"})
    with pytest.raises(NotAllowed, match="only a floor or admin user can set the rotation"):
        set_rotation(r.box, r.dealers["dana"], Rotation(("dana",), (r.tables["T1"],)),
                     now=r.room.clock(), active_dealers=("dana",),
                     open_tables={r.tables["T1"]: "T1"})
    assert r.box.rotation() == Rotation()


def test_breaks_a_dealer_with_a_hand_in_play_starts_the_break_after_it(make: MakeRoom) -> None:
    from dealer_assist.services.dealer_hooks import StoreHands

    r = make()
    r.sit("dana", "T1")
    hand = r.deal("dana", "T1", ["9d", "Kc", "2h"])
    with pytest.raises(RuleViolation, match="the break starts after this hand"):
        start_break(r.box, StoreHands(r.svc), r.room.floor, "dana", now=r.room.clock())
    with pytest.raises(NotAllowed):
        start_break(r.box, StoreHands(r.svc), r.dealers["eve"], "dana", now=r.room.clock())
    r.finish("dana", hand)
    start_break(r.box, StoreHands(r.svc), r.room.floor, "dana", now=r.room.clock())
    assert running(fold_downs(r.box.downs()))["dana"].kind == BREAK


def test_tokes_counted_once_per_shift_by_two_people(make: MakeRoom) -> None:
    r = make()
    now = r.room.clock()
    with pytest.raises(BadInput, match="counted by two different people"):
        count_tokes(r.box, r.room.floor, shift_id=1, amount=100, team=("Fran", "fran"), now=now)
    with pytest.raises(BadInput, match="whole cents"):
        count_tokes(r.box, r.room.floor, shift_id=1, amount=-5, team=("Fran", "Gus"), now=now)
    with pytest.raises(NotAllowed):
        count_tokes(r.box, r.dealers["dana"], shift_id=1, amount=100, team=("A", "B"), now=now)
    row = count_tokes(r.box, r.room.floor, shift_id=1, amount=12_345, team=("Fran", "Gus"),
                      now=now)
    assert (row.amount, row.team, row.actor) == (12_345, ("Fran", "Gus"), "fran")
    with pytest.raises(BadInput, match="already counted"):
        count_tokes(r.box, r.room.floor, shift_id=1, amount=1, team=("Fran", "Gus"), now=now)
    assert [t.amount for t in r.box.toke_counts()] == [12_345]


def test_a_floor_person_records_without_a_down(make: MakeRoom) -> None:
    r = make()
    assert r.svc.start_hand(r.room.floor, r.tables["T2"], seats=(1, 2, 3)).hand.number == 1
    assert r.box.downs() == []


def test_overlapping_downs_named_when_a_record_runs_back_in_time() -> None:
    t = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)
    recs = [DownRecord(1, t, "dana", "dana", DEAL, 1),
            DownRecord(2, t + timedelta(minutes=30), "dana", "dana", DEAL, 2),
            DownRecord(3, t + timedelta(minutes=10), "dana", "dana", DEAL, 3)]
    found = overlaps(recs)
    assert [(o.dealer, o.first.seq, o.second.seq) for o in found] == [("dana", 2, 3)]
    assert overlaps(recs[:2]) == []


def test_refusals_are_dealer_assist_errors(make: MakeRoom) -> None:
    """Every refusal above is one the UI shows as a message (never a traceback)."""
    r = make()
    r.sit("dana", "T1")
    r.deal("dana", "T1", ["9d", "Kc"])  # a hand in play
    with pytest.raises(DealerAssistError):
        r.sit("dana", "T2")


def test_regression_a_restarted_station_resumes_where_the_dealer_is_down_not_their_old_shift(
    make: MakeRoom,
) -> None:
    """dana opened T2's shift (T2's first one closed), eve relieved her there and dana moved
    to T3: dana's station, restarted, comes back at T3, never pushing eve out of the shift
    dana opened."""
    r = make()
    gus = r.svc.sign_in("gus", "2223")
    r.svc.close_shift(gus, r.svc.current_shift(r.tables["T2"]).id,
                      approval=Approval("fran", "2222"))
    r.svc.open_shift(r.dealers["dana"], r.tables["T2"], floor="fran")
    r.sit("eve", "T2")
    r.sit("dana", "T3")
    shift = r.svc.shift_to_resume(r.dealers["dana"])
    assert shift is not None and shift.table_id == r.tables["T3"]
    assert r.svc.shift_to_resume(r.dealers["gil"]) is None
    assert _where(r) == {"eve": "T2", "dana": "T3"}


def test_rule_a_toke_box_is_split_by_the_rule_in_force_when_it_was_counted(
    make: MakeRoom,
) -> None:
    """A room that changes its toke rule later does not re-split a box counted before: the
    shift report printed again next week gives every dealer the same share."""
    from dealer_assist.services.dealer_hooks import toke_split

    r = make()
    _rules(r, toke_rule="equal")
    r.sit("dana", "T1")
    r.room.clock.advance(minutes=10)
    r.sit("eve", "T1")  # eve relieves dana: 10 minutes to dana, 50 to eve
    r.room.clock.advance(minutes=50)
    shift = r.svc.store.current_shift(r.tables["T1"])
    assert shift is not None
    count_tokes(r.box, r.room.floor, shift_id=shift.id, amount=10_000, team=("Fran", "Gus"),
                now=r.room.clock())
    before = toke_split(r.svc, shift.id)
    r.room.clock.advance(minutes=5)
    _rules(r, toke_rule="minutes")
    assert r.box.rules(at=r.box.toke_counts()[0].at).toke_rule == "equal"  # type: ignore[union-attr]
    assert toke_split(r.svc, shift.id) == before
    assert sorted((s.dealer, s.cents) for s in before) == [("dana", 5_000), ("eve", 5_000)]


def test_regression_a_dealer_sent_off_the_tables_is_not_sent_to_relieve_a_table(
    make: MakeRoom,
) -> None:
    """A dealer the floor took off the tables (O) was counted free and named as the next
    relief of a table, on the dealer view as heading there; off is off until they sign in."""
    from dealer_assist.services.dealer_box import plan
    from dealer_assist.services.dealer_handlers import dealer_view
    from dealer_assist.services.dealer_hooks import StoreHands

    r = make()
    _rules(r, push_minutes=20, break_after_minutes=60, break_minutes=15)
    _rotation(r, ("dana", "gil", "eve"), ("T1", "T2"))
    r.sit("dana", "T1")
    r.sit("gil", "T2")
    start_break(r.box, StoreHands(r.svc), r.room.floor, "gil", now=r.room.clock(), off=True)
    r.room.clock.advance(minutes=5)
    pushes = {p.table_id: p for p in plan(r.box.rotation(), r.box.rules() or Rules(),
                                          fold_downs(r.box.downs()), r.room.clock())}
    # dana moves on to T2 at her push; eve, never down yet, is the one free dealer for T1
    assert (pushes[r.tables["T1"]].relief, pushes[r.tables["T2"]].relief) == ("eve", "dana")
    names = {t.id: t.name for t in r.svc.list_tables()}
    rows = {row.dealer: row for row in dealer_view(r.box, names, now=r.room.clock())}
    assert (rows["gil"].where, rows["gil"].next_place) == ("off the tables", "")
    assert (rows["eve"].where, rows["eve"].next_place) == ("between tables", "T1")
    # signing in again puts gil back in the rotation
    r.sit("gil", "T2")
    assert _where(r)["gil"] == "T2"

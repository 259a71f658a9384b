"""Managing people: the users' sign-in state for the admin's screen, PIN reset and change,
disabling and enabling, who may do it, and the audit entry each change writes."""

from __future__ import annotations

import contextlib
from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.errors import BadInput
from dealer_assist.services import LockedOut, NotAllowed, Session, SignInFailed
from dealer_assist.services.model import UserState

from .support import Room, make_room

ADMINS = ("admin", "a", "b", "c")


def wrong_pins(room: Room, name: str, times: int) -> None:
    for _ in range(times):
        with pytest.raises((SignInFailed, LockedOut)):
            room.svc.sign_in(name, "0000")


def states(room: Room) -> dict[str, UserState]:
    return {s.user.name: s for s in room.svc.user_states(room.admin)}


def last_audit(room: Room) -> tuple[str | None, str, str]:
    e = room.store.audit_log()[-1]
    return e.actor, e.action, e.detail


# --- the users' state --------------------------------------------------------------------------


def test_user_states_list_everyone_by_name_with_role_and_active() -> None:
    room = make_room()
    got = room.svc.user_states(room.admin)
    assert [(s.user.name, s.user.full_name, s.user.role, s.user.active) for s in got] == [
        ("admin", "Ada Admin", "admin", True),
        ("dee", "Dee Dealer", "dealer", True),
        ("fran", "Fran Floor", "floor", True),
        ("otto", "Otto Auditor", "auditor", True),
    ]
    assert all(s.failed == 0 and not s.locked and s.locked_until is None for s in got)
    assert not hasattr(got[0], "pin_hash")


def test_user_states_count_wrong_pins_and_show_a_running_lockout_until_it_ends(
    room: Room,
) -> None:
    wrong_pins(room, "dee", 2)
    wrong_pins(room, "otto", 3)
    locked_at = room.clock.now
    now = states(room)
    assert now["dee"].failed == 2 and not now["dee"].locked
    assert now["otto"].locked and now["otto"].failed == 0  # a lockout starts the count again
    until = now["otto"].locked_until
    assert until is not None and timedelta(0) < until - locked_at <= timedelta(minutes=5)
    assert until.strftime("%H:%M") == "20:05"
    room.clock.advance(minutes=5, seconds=1)
    assert states(room)["otto"].locked_until is None  # run out: not shown as locked


def test_user_states_are_for_an_admin_only(room: Room) -> None:
    with pytest.raises(NotAllowed, match="fran is a floor: only admin can see the users"):
        room.svc.user_states(room.floor)
    with pytest.raises(NotAllowed, match="dee is a dealer: only admin can see the users"):
        room.svc.user_states(room.dealer)


# --- reset and change a PIN --------------------------------------------------------------------


def test_reset_pin_lifts_the_lockout_and_the_log_says_so(room: Room) -> None:
    wrong_pins(room, "dee", 3)
    assert states(room)["dee"].locked
    room.svc.reset_pin(room.admin, "dee", "5555")
    assert last_audit(room) == ("admin", "pin-reset", "new PIN for dee; lockout lifted")
    assert not states(room)["dee"].locked
    assert room.svc.sign_in("dee", "5555").name == "dee"
    wrong_pins(room, "fran", 1)
    room.svc.reset_pin(room.admin, "fran", "6666")
    assert last_audit(room) == ("admin", "pin-reset", "new PIN for fran")
    assert states(room)["fran"].failed == 0


def test_reset_pin_refuses_a_short_pin_and_keeps_the_old_one(room: Room) -> None:
    with pytest.raises(BadInput, match="a PIN is 4 to 12 digits"):
        room.svc.reset_pin(room.admin, "dee", "12")
    assert room.svc.sign_in("dee", "1111").name == "dee"
    with pytest.raises(NotAllowed, match="only admin can reset PINs"):
        room.svc.reset_pin(room.floor, "dee", "5555")


def test_change_pin_needs_the_old_pin_and_is_logged(room: Room) -> None:
    room.svc.change_pin(room.dealer, "1111", "246810")
    assert last_audit(room) == ("dee", "pin-changed", "dee changed their PIN")
    assert room.svc.sign_in("dee", "246810").name == "dee"
    with pytest.raises(SignInFailed):
        room.svc.sign_in("dee", "1111")


def test_change_pin_refuses_a_bad_new_pin_before_it_costs_a_try(room: Room) -> None:
    with pytest.raises(BadInput, match="a PIN is 4 to 12 digits"):
        room.svc.change_pin(room.dealer, "0000", "12")
    with pytest.raises(BadInput, match="the new PIN is the same as the old one"):
        room.svc.change_pin(room.dealer, "1111", "1111")
    assert states(room)["dee"].failed == 0


def test_change_pin_with_a_wrong_old_pin_counts_toward_the_lockout(room: Room) -> None:
    with pytest.raises(SignInFailed, match=r"^the old PIN is wrong \(2 more tries before dee is"):
        room.svc.change_pin(room.dealer, "0000", "5555")
    assert last_audit(room) == ("dee", "pin-change-failed", "wrong PIN (1 of 3)")
    with pytest.raises(SignInFailed, match=r"\(1 more try before"):
        room.svc.change_pin(room.dealer, "0000", "5555")
    with pytest.raises(LockedOut, match="dee is locked until 20:05"):
        room.svc.change_pin(room.dealer, "0000", "5555")
    assert states(room)["dee"].locked
    room.clock.advance(minutes=5, seconds=1)
    assert room.svc.sign_in("dee", "1111").name == "dee"  # the PIN did not change


# --- disable and enable ------------------------------------------------------------------------


def test_disabled_user_cannot_sign_in_until_enabled_again_and_both_are_logged(room: Room) -> None:
    room.svc.set_user_active(room.admin, "dee", False)
    assert last_audit(room) == ("admin", "user-disabled", "dee")
    assert not states(room)["dee"].user.active
    with pytest.raises(SignInFailed, match="unknown name or wrong PIN"):
        room.svc.sign_in("dee", "1111")
    assert "dee" not in {u.name for u in room.svc.floor_people()}
    room.svc.set_user_active(room.admin, "dee", True)
    assert last_audit(room) == ("admin", "user-enabled", "dee")
    assert room.svc.sign_in("dee", "1111").name == "dee"


def test_disabling_twice_is_refused_without_a_log_entry(room: Room) -> None:
    room.svc.set_user_active(room.admin, "dee", False)
    entries = len(room.store.audit_log())
    with pytest.raises(BadInput, match="dee is already disabled"):
        room.svc.set_user_active(room.admin, "dee", False)
    with pytest.raises(BadInput, match="fran is already active"):
        room.svc.set_user_active(room.admin, "fran", True)
    assert len(room.store.audit_log()) == entries


def test_an_admin_cannot_disable_their_own_name(room: Room) -> None:
    with pytest.raises(NotAllowed, match="admin cannot disable their own name"):
        room.svc.set_user_active(room.admin, "admin", False)
    assert states(room)["admin"].user.active
    with pytest.raises(NotAllowed, match="only admin can enable or disable users"):
        room.svc.set_user_active(room.floor, "dee", False)


def test_a_disabled_admin_left_signed_in_can_no_longer_manage_users(room: Room) -> None:
    room.svc.add_user(room.admin, name="bea", full_name="Bea Admin", role="admin", pin="7777")
    bea = room.svc.sign_in("bea", "7777")
    room.svc.set_user_active(room.admin, "bea", False)
    with pytest.raises(NotAllowed, match="bea is disabled: sign out"):
        room.svc.set_user_active(bea, "bea", True)  # re-enabling herself
    with pytest.raises(NotAllowed, match="bea is disabled"):
        room.svc.set_user_active(bea, "admin", False)  # the last active admin
    with pytest.raises(NotAllowed, match="bea is disabled"):
        room.svc.user_states(bea)
    with pytest.raises(NotAllowed, match="bea is disabled"):
        room.svc.change_pin(bea, "7777", "8888")
    assert last_audit(room) == ("bea", "pin-change-refused", "disabled user")
    assert states(room)["admin"].user.active and not states(room)["bea"].user.active


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(ADMINS), st.sampled_from(ADMINS), st.booleans()),
                max_size=12))
def test_the_room_always_keeps_an_active_admin(moves: list[tuple[str, str, bool]]) -> None:
    """Whatever three admins do to each other, at least one active admin remains."""
    room = make_room()
    sessions: dict[str, Session] = {}
    for n in "abc":
        room.svc.add_user(room.admin, name=n, full_name=f"Admin {n}", role="admin", pin="1234")
        sessions[n] = room.svc.sign_in(n, "1234")
    sessions["admin"] = room.admin
    for actor, target, active in moves:
        with contextlib.suppress(NotAllowed, BadInput):
            room.svc.set_user_active(sessions[actor], target, active)
        assert any(u.role == "admin" and u.active for u in room.store.list_users())


# --- adding --------------------------------------------------------------------------------------


def test_add_user_trims_the_name_refuses_a_taken_one_and_is_logged(room: Room) -> None:
    user = room.svc.add_user(room.admin, name=" zed ", full_name="Zed  Zee", role="floor",
                             pin="4444")
    assert (user.name, user.full_name) == ("zed", "Zed Zee")
    assert last_audit(room) == ("admin", "user-added", "zed (Zed Zee) as floor")
    with pytest.raises(BadInput, match='a user named "zed" already exists'):
        room.svc.add_user(room.admin, name="zed", full_name="Other", role="dealer", pin="4444")


def test_a_name_disabled_while_signed_in_can_deal_no_more(monkeypatch: pytest.MonkeyPatch) -> None:
    """At this station at once; at another station sharing the store once its re-check
    interval has run out (it does not read the user on every input)."""
    from dealer_assist.cards import parse_card
    from dealer_assist.events import CardDealt
    from dealer_assist.services import Services
    from dealer_assist.services import authorizer as app_module

    room = make_room()
    hand = room.hand([])
    other = Services(room.store, clock=room.clock, hasher=room.svc.hasher)
    there = other.sign_in("dee", "1111")
    other.record(there, hand, CardDealt(seat=1, card=parse_card("9d")))
    room.svc.set_user_active(room.admin, "dee", False)
    with pytest.raises(NotAllowed, match="dee is disabled: sign out; a disabled name cannot"):
        room.svc.start_hand(room.dealer, room.table_id)
    # the other station saw dee active a moment ago: it takes one more input, then re-reads
    other.record(there, hand, CardDealt(seat=2, card=parse_card("5c")))
    monkeypatch.setattr(app_module, "ACTIVE_RECHECK_S", 0.0)
    with pytest.raises(NotAllowed, match="dee is disabled"):
        other.record(there, hand, CardDealt(seat=3, card=parse_card("2h")))
    room.svc.set_user_active(room.admin, "dee", True)
    assert other.record(there, hand, CardDealt(seat=3, card=parse_card("2h"))).over

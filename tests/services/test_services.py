"""The application services over the in-memory store: whole use cases without a database."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dealer_assist.cards import parse_card
from dealer_assist.errors import BadInput, HandLogError, RuleViolation
from dealer_assist.events import CardDealt, Check
from dealer_assist.services import (
    Adjustment,
    Approval,
    ApprovalRequired,
    Conflict,
    HandFilter,
    InMemoryStore,
    LedgerLine,
    LockedOut,
    NotAllowed,
    Services,
    SignInFailed,
    verify_store,
)

from .support import FAST, Room, make_room, settings


def card(seat: int, code: str) -> CardDealt:
    return CardDealt(seat=seat, card=parse_card(code))


# --- users ------------------------------------------------------------------------------------


def test_first_run_creates_the_admin_once() -> None:
    svc = Services(InMemoryStore(), hasher=FAST)
    assert svc.needs_first_admin()
    admin = svc.create_first_admin(name="boss", full_name="Bo Boss", pin="4321")
    assert admin.role == "admin" and not svc.needs_first_admin()
    with pytest.raises(NotAllowed, match="an admin already exists"):
        svc.create_first_admin(name="other", full_name="O Ther", pin="4321")


def test_pin_is_stored_only_as_an_argon2_hash(room: Room) -> None:
    """The in-memory store keeps the argon2id hash; a database never hands one out (SQLite
    checks it inside the store, PostgreSQL inside the server)."""
    secret = room.store.user_secret("dee")
    assert secret is not None
    if secret.pin_hash:
        assert secret.pin_hash.startswith("$argon2id$") and "1111" not in secret.pin_hash


def _server_clock(room: Room) -> None:
    """On PostgreSQL the database's own clock runs the lockout (a station cannot wind it on):
    the lockout's times are tested there in tests/db/test_station_rights.py."""
    if getattr(getattr(room.store, "db", None), "dialect", "") == "postgresql":
        pytest.skip("PostgreSQL: the server's clock runs the lockout")


def test_three_wrong_pins_lock_for_five_minutes(room: Room) -> None:
    _server_clock(room)
    with pytest.raises(SignInFailed, match=r"^unknown name or wrong PIN \(3 wrong PINs") as first:
        room.svc.sign_in("dee", "0000")
    assert first.value.attempts_left == 2
    with pytest.raises(SignInFailed, match="unknown name or wrong PIN"):
        room.svc.sign_in("dee", "0000")
    with pytest.raises(LockedOut, match="locked until 20:05"):
        room.svc.sign_in("dee", "0000")
    with pytest.raises(LockedOut, match=r"try again after 20:05 UTC \(in 5 minutes\)"):
        room.svc.sign_in("dee", "1111")  # even the right PIN, while locked
    room.clock.advance(minutes=4, seconds=1)
    with pytest.raises(LockedOut, match=r"after 20:05 UTC \(in 1 minute\)"):
        room.svc.sign_in("dee", "1111")
    room.clock.advance(seconds=60)
    assert room.svc.sign_in("dee", "1111").role == "dealer"
    actions = [e.action for e in room.store.audit_log() if e.actor == "dee"]
    assert actions[-6:] == [
        "login-failed", "login-failed", "lockout", "login-refused", "login-refused", "login",
    ]


def test_a_right_pin_resets_the_count_of_wrong_ones(room: Room) -> None:
    for _ in range(2):
        with pytest.raises(SignInFailed):
            room.svc.sign_in("dee", "0000")
    room.svc.sign_in("dee", "1111")
    with pytest.raises(SignInFailed) as again:
        room.svc.sign_in("dee", "0000")
    assert again.value.attempts_left == 2


def test_unknown_user_is_refused_and_logged_without_saying_which_was_wrong(room: Room) -> None:
    with pytest.raises(SignInFailed, match="unknown name or wrong PIN") as unknown:
        room.svc.sign_in("nobody", "1234")
    assert room.store.audit_log()[-1].action == "login-failed"
    assert 'unknown name "nobody"' in room.store.audit_log()[-1].detail
    with pytest.raises(SignInFailed) as known:
        room.svc.sign_in("dee", "1234")
    assert str(unknown.value) == str(known.value)  # names cannot be found by trying


def _answers(room: Room, name: str) -> list[tuple[str, str]]:
    """What four wrong tries, then the right PIN of ``dee``, then five minutes later one more
    wrong try, answer on ``name``: the exception's kind and message."""
    seen: list[tuple[str, str]] = []
    for pin, wait in (("0000", 0), ("0000", 0), ("0000", 0), ("0000", 0), ("1111", 0),
                      ("0000", 301)):
        room.clock.advance(seconds=wait)
        with pytest.raises((SignInFailed, LockedOut)) as err:
            room.svc.sign_in(name, pin)
        seen.append((type(err.value).__name__, str(err.value).replace(name, "NAME")))
    return seen


def test_unknown_name_is_locked_after_the_same_tries_as_a_known_one(room: Room) -> None:
    """Regression: three wrong tries locked a real name but never an unknown one, so the
    lockout message told which names exist. Both now answer alike, try for try."""
    _server_clock(room)
    unknown = _answers(room, "nobody")
    known = _answers(make_room(), "dee")  # a room of its own: the same clock readings
    assert unknown == known
    assert [kind for kind, _ in unknown] == [
        "SignInFailed", "SignInFailed", "LockedOut", "LockedOut", "LockedOut", "SignInFailed"]
    assert unknown[2][1].startswith("wrong PIN 3 times: NAME is locked until")
    actions = [e.action for e in room.store.audit_log() if e.actor is None]
    assert actions[-6:] == ["login-failed", "login-failed", "lockout", "login-refused",
                            "login-refused", "login-failed"]


def test_a_pin_like_unknown_name_is_counted_but_never_logged(room: Room) -> None:
    seen = []
    for _ in range(4):
        with pytest.raises((SignInFailed, LockedOut)) as err:
            room.svc.sign_in("3001", "")
        seen.append(str(err.value))
    assert all("3001" not in e.detail for e in room.store.audit_log())
    assert all("3001" not in text for text in seen)  # nor shown back in the lockout message
    assert seen[2].startswith("wrong PIN 3 times: this name is locked until")
    assert room.store.audit_log()[-1].action == "login-refused"


def test_regression_unknown_name_is_locked_at_every_station(room: Room) -> None:
    """Regression: an unknown name's tries were counted per process, so another station (or
    the same one restarted) started again from nothing. The store counts them now."""
    from dealer_assist.services import Services

    for _ in range(3):
        with pytest.raises((SignInFailed, LockedOut)):
            room.svc.sign_in("nobody", "0000")
    other = Services(room.store, clock=room.clock, hasher=room.svc.hasher)
    with pytest.raises(LockedOut, match="nobody is locked after 3 wrong PINs"):
        other.sign_in("nobody", "0000")


def test_regression_a_pin_typed_into_the_name_box_is_not_logged(room: Room) -> None:
    with pytest.raises(SignInFailed):
        room.svc.sign_in("3001", "")
    entry = room.store.audit_log()[-1]
    assert entry.action == "login-failed" and "3001" not in entry.detail
    assert "it may be a PIN" in entry.detail


def test_regression_a_refused_action_of_a_signed_in_user_is_audited(room: Room) -> None:
    with pytest.raises(NotAllowed, match="only admin can add users"):
        room.svc.add_user(room.dealer, name="x", full_name="X Y", role="admin", pin="1234")
    entry = room.store.audit_log()[-1]
    assert (entry.actor, entry.action) == ("dee", "refused")
    assert entry.detail == "dealer tried to add users"


def test_admin_reset_lifts_a_lockout(room: Room) -> None:
    for _ in range(3):
        with pytest.raises((SignInFailed, LockedOut)):
            room.svc.sign_in("dee", "0000")
    room.svc.reset_pin(room.admin, "dee", "5555")
    assert room.svc.sign_in("dee", "5555").name == "dee"


def test_regression_two_admins_disabling_each_other_leave_one_active(
    room: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two admins at two stations disable each other at the same moment: each one's own check
    (still active?) passes before the other's write lands. The write itself re-checks, in its
    transaction, so the second one is refused and the room keeps an active admin."""
    room.svc.add_user(room.admin, name="bea", full_name="Bea Admin", role="admin", pin="8888")
    bea = room.svc.sign_in("bea", "8888")
    room.svc.set_user_active(bea, "admin", False)  # Bea's write lands first
    # Ada's check ran before Bea's write: replay that by skipping it now
    monkeypatch.setattr(room.svc.user_handlers, "require_admin", lambda session, what: None)
    with pytest.raises(NotAllowed, match="admin is disabled: sign out"):
        room.svc.set_user_active(room.admin, "bea", False)
    states = {u.name: u.active for u in room.svc.list_users(bea)}
    assert states["bea"] is True and states["admin"] is False
    entries = [e for e in room.svc.audit_log(bea) if e.action == "user-disabled"]
    assert [e.detail for e in entries] == ["admin"]


def test_roles_only_admin_adds_users(room: Room) -> None:
    with pytest.raises(NotAllowed, match="fran is a floor: only admin can add users"):
        room.svc.add_user(room.floor, name="x", full_name="X Y", role="dealer", pin="1234")
    with pytest.raises(BadInput, match="unknown role"):
        room.svc.add_user(room.admin, name="x", full_name="X Y", role="boss", pin="1234")
    with pytest.raises(BadInput, match="4 to 12 digits"):
        room.svc.add_user(room.admin, name="x", full_name="X Y", role="dealer", pin="12a4")


def test_roles_auditor_cannot_deal_and_dealer_cannot_read_audit(room: Room) -> None:
    with pytest.raises(NotAllowed, match="only dealer or floor can deal hands"):
        room.svc.start_hand(room.auditor, room.table_id)
    with pytest.raises(NotAllowed, match="read the audit log"):
        room.svc.audit_log(room.dealer)
    assert room.svc.audit_log(room.auditor)


# --- shifts and hands -------------------------------------------------------------------------


def test_start_hand_uses_the_current_settings_version(room: Room) -> None:
    first_id = room.hand(["9d", "Kc", "2h"])
    room.svc.settle(room.dealer, first_id)
    first = room.svc.hand_now(first_id)
    v2 = room.svc.change_settings(room.admin, room.table_id, {**settings(ante=500), "seats": 2})
    assert v2.version == 2
    second = room.svc.start_hand(room.dealer, room.table_id)
    assert first.hand.settings_id != second.hand.settings_id == v2.id
    assert second.replay.start.get("ante") == 500 and second.replay.start.seats == (1, 2)
    assert first.replay.start.get("ante") == 100


def test_settings_the_game_refuses_are_not_saved(room: Room) -> None:
    with pytest.raises(RuleViolation, match="ante must be a positive"):
        room.svc.change_settings(room.admin, room.table_id, settings(ante=-5))
    assert room.svc.settings(room.table_id).version == 1


def test_record_refused_event_stores_nothing(room: Room) -> None:
    now = room.svc.start_hand(room.dealer, room.table_id)
    hand_id = now.hand.id
    with pytest.raises(RuleViolation, match="the card goes to seat 1, not seat 2"):
        room.svc.record(room.dealer, hand_id, card(2, "9d"))
    room.svc.record(room.dealer, hand_id, card(1, "9d"))
    with pytest.raises(RuleViolation, match="9d already dealt"):
        room.svc.record(room.dealer, hand_id, card(2, "9d"))
    assert [r.body for r in room.store.hand_events(hand_id)][1:] == [
        {"type": "card", "seat": 1, "card": "9d"}
    ]


def test_events_are_chained_per_table_with_seq_actor_and_time(room: Room) -> None:
    hand_id = room.hand(["9d", "Kc", "2h"])
    rows = room.store.hand_events(hand_id)
    assert [r.seq for r in rows] == [1, 2, 3, 4]
    assert [r.number for r in rows] == [1, 2, 3, 4]
    assert all(r.actor == "dee" for r in rows)
    assert rows[1].prev_hash == rows[0].hash and rows[0].prev_hash == "0" * 64
    assert room.svc.chain_head(room.table_id).hash == rows[-1].hash  # type: ignore[union-attr]


def test_settle_writes_ledger_lines_that_balance(room: Room) -> None:
    hand_id = room.hand(["9d", "Kc", "2h"])
    s = room.svc.settle(room.dealer, hand_id)
    assert dict(s.payouts) == {2: 290} and s.conserved
    lines = {(x.kind, x.seat, x.detail): x.amount for x in room.svc.ledger(hand_id)}
    assert lines == {
        ("put_in", 1, ""): 100, ("put_in", 2, ""): 100, ("put_in", 3, ""): 100,
        ("push", 2, ""): 290, ("fee", None, "rake"): 10,
    }
    assert room.svc.hand(hand_id).status == "settled"


def test_settle_refuses_an_unfinished_hand(room: Room) -> None:
    hand_id = room.hand(["9d"])
    with pytest.raises(RuleViolation, match="not over yet: deal a card to seat 2"):
        room.svc.settle(room.dealer, hand_id)


def test_void_in_an_open_hand_needs_no_approval_and_is_logged(room: Room) -> None:
    hand_id = room.hand(["9d", "Kc"])
    now = room.svc.void(room.dealer, hand_id, 3, "wrong card for seat 2")
    assert now.replay.steps[2].voided
    now = room.svc.record(room.dealer, hand_id, card(2, "Qc"))
    assert now.replay.state.cards[-1][1] == parse_card("Qc")
    entry = room.store.audit_log()[-1]
    assert (entry.action, entry.hand_id) == ("void", hand_id)
    assert entry.detail == "event 3 (card): wrong card for seat 2"


def test_ruling_void_in_a_finished_hand_needs_a_floor_pin(room: Room) -> None:
    hand_id = room.hand(["9d", "Kc", "2h"])
    room.svc.settle(room.dealer, hand_id)
    with pytest.raises(ApprovalRequired, match="floor person must approve"):
        room.svc.void(room.dealer, hand_id, 4, "seat 3 had the 2s")
    with pytest.raises(NotAllowed, match="only a floor person can approve"):
        room.svc.void(room.dealer, hand_id, 4, "seat 3 had the 2s",
                      approval=Approval("dee", "1111"))
    with pytest.raises(SignInFailed):
        room.svc.void(room.dealer, hand_id, 4, "seat 3 had the 2s",
                      approval=Approval("fran", "0000"))
    assert len(room.store.hand_events(hand_id)) == 4
    now = room.svc.void(room.dealer, hand_id, 4, "seat 3 had the 2s",
                        approval=Approval("fran", "2222"))
    assert now.hand.status == "open" and room.svc.hand(hand_id).status == "open"
    room.svc.record(room.dealer, hand_id, card(3, "As"))
    s = room.svc.settle(room.dealer, hand_id)
    assert dict(s.payouts) == {3: 290}
    assert {x.settlement for x in room.svc.ledger(hand_id)} == {2}
    assert verify_store(room.store).ok


def test_void_that_would_break_a_later_event_is_refused(room: Room) -> None:
    hand_id = room.hand(["9d", "Kc"])
    with pytest.raises(RuleViolation, match=r"cannot void event 2: event 3 would then be wrong "
                       r"\(the card goes to seat 1, not seat 2\)"):
        room.svc.void(room.dealer, hand_id, 2, "wrong card")
    room.svc.void(room.dealer, hand_id, 3, "wrong card")
    with pytest.raises(RuleViolation, match="start of a hand cannot be voided"):
        room.svc.void(room.dealer, hand_id, 1, "misdeal")
    with pytest.raises(RuleViolation, match="event 3 is already void"):
        room.svc.void(room.dealer, hand_id, 3, "again")
    assert len(room.store.hand_events(hand_id)) == 4


def test_void_needs_a_reason(room: Room) -> None:
    hand_id = room.hand(["9d"])
    with pytest.raises(BadInput, match="needs a reason"):
        room.svc.void(room.dealer, hand_id, 2, "  ")


def test_carry_out_becomes_next_hands_carry_in(room: Room) -> None:
    hand_id = room.hand(["9d", "Kc", "2h"])
    room.svc.settle(room.dealer, hand_id)
    carry = LedgerLine(hand_id=hand_id, kind="carry_out", amount=40)
    room.store.settle_hand(hand_id, [*room.svc.ledger(hand_id), carry])
    nxt = room.svc.start_hand(room.dealer, room.table_id)
    assert nxt.replay.start.get("carry_in") == 40


def test_close_shift_needs_floor_sign_off_and_finished_hands(room: Room) -> None:
    shift = room.svc.current_shift(room.table_id)
    assert shift is not None
    hand_id = room.hand(["9d"])
    with pytest.raises(RuleViolation, match="hand 1 is not finished"):
        room.svc.close_shift(room.dealer, shift.id, approval=Approval("fran", "2222"))
    room.svc.record(room.dealer, hand_id, card(2, "Kc"))
    room.svc.record(room.dealer, hand_id, card(3, "Kd"))
    room.svc.settle(room.dealer, hand_id)
    closed = room.svc.close_shift(room.dealer, shift.id, approval=Approval("fran", "2222"))
    assert (closed.closed_by, closed.closed_floor) == ("dee", "fran")
    with pytest.raises(RuleViolation, match="no open shift"):
        room.svc.start_hand(room.dealer, room.table_id)


def test_resume_after_restart_reloads_the_hand_from_the_store(room: Room) -> None:
    hand_id = room.hand(["9d", "Kc"])
    fresh = Services(room.store, clock=room.clock, hasher=FAST)
    now = fresh.current_hand(room.table_id)
    assert now is not None and now.hand.id == hand_id
    assert now.prompt().to_act == 3
    fresh.record(room.dealer, hand_id, card(3, "2h"))
    assert fresh.hand_now(hand_id).over


# --- floor ------------------------------------------------------------------------------------


def test_ruling_13_only_floor_reveals_and_every_reveal_is_logged(room: Room) -> None:
    hand_id = room.hand(["9d", "Kc", "2h"])
    assert room.svc.hand_now(hand_id).view().seats[2].cards == ()
    with pytest.raises(NotAllowed, match="reveal destroyed hands"):
        room.svc.reveal(room.dealer, hand_id)
    with pytest.raises(BadInput, match="a reveal needs a reason"):
        room.svc.reveal(room.floor, hand_id, reason="  ")
    view = room.svc.reveal(room.floor, hand_id, reason="dispute at seat 1")
    assert view.seats[2].cards == ("2h",)
    (entry,) = room.svc.reveals(hand_id)
    assert (entry.actor, entry.detail) == ("fran", "hand 1 after event 4: dispute at seat 1")


def test_dispute_records_notes_ruling_and_balanced_adjustments(room: Room) -> None:
    hand_id = room.hand(["9d", "Kc", "2h"])
    with pytest.raises(BadInput, match=r"do not balance .* 500 cents"):
        room.svc.record_dispute(room.floor, hand_id, notes="n", ruling="r",
                                adjustments=[Adjustment(500, seat=1)])
    room.svc.add_user(room.admin, name="gil", full_name="Gil Floor", role="floor", pin="5555")
    d = room.svc.record_dispute(
        room.floor, hand_id, notes="seat 1 says the 9d was the 9h", ruling="card stands",
        adjustments=[Adjustment(500, seat=1, note="goodwill"), Adjustment(-500, seat=None)],
        approval=Approval("gil", "5555"),
    )
    assert d.floor == "fran" and len(d.adjustments) == 2
    assert room.svc.hand(hand_id).disputed
    assert [h.id for h in room.svc.list_hands(HandFilter(disputed=True))] == [hand_id]
    with pytest.raises(NotAllowed):
        room.svc.record_dispute(room.dealer, hand_id, notes="n", ruling="r")


def test_regression_dispute_adjustments_need_a_second_floor_person(room: Room) -> None:
    """Insider review: the floor console filled the approver with the signed-in floor
    person's name, so one floor person alone approved their own adjustments. Adjustments now
    need a second floor person, by the rule of every other approval (``approve`` with the
    session asking); the approval names the adjustments with their amounts."""
    hand_id = room.hand(["9d", "Kc", "2h"])
    room.svc.add_user(room.admin, name="gil", full_name="Gil Floor", role="floor", pin="5555")
    moves = [Adjustment(400, seat=1, note="goodwill"), Adjustment(-400, seat=None)]
    with pytest.raises(ApprovalRequired, match=r"adjustments in hand 1 need a second floor "
                       r"person's approval: another floor person \(not fran\) types"):
        room.svc.record_dispute(room.floor, hand_id, notes="n", ruling="r", adjustments=moves)
    with pytest.raises(NotAllowed, match=r"fran is signed in at this station and cannot "
                       r"approve their own adjustments in hand 1: seat 1 \+\$4, house -\$4: "
                       r"another floor person types their name and PIN"):
        room.svc.record_dispute(room.floor, hand_id, notes="n", ruling="r", adjustments=moves,
                                approval=Approval("fran", "2222"))
    with pytest.raises(NotAllowed, match="dee is a dealer: only a floor person can approve"):
        room.svc.record_dispute(room.floor, hand_id, notes="n", ruling="r", adjustments=moves,
                                approval=Approval("dee", "1111"))
    assert room.svc.disputes(hand_id) == []
    refused = room.store.audit_log(action="approval-refused")
    assert [(e.actor, e.detail) for e in refused] == [
        ("fran", "fran tried to approve their own adjustments in hand 1: seat 1 +$4, house -$4"),
        ("dee", "dealer cannot approve adjustments in hand 1: seat 1 +$4, house -$4")]
    d = room.svc.record_dispute(room.floor, hand_id, notes="n", ruling="refund",
                                adjustments=moves, approval=Approval("gil", "5555"))
    assert d.floor == "fran" and [a.amount for a in d.adjustments] == [400, -400]
    (approval,) = room.store.audit_log(action="approval")
    assert (approval.actor, approval.detail, approval.hand_id) == (
        "gil", "adjustments in hand 1: seat 1 +$4, house -$4", hand_id)
    (entry,) = room.store.audit_log(action="dispute")
    assert entry.detail == "hand 1: refund; adjustments approved by gil"
    # a dispute without adjustments moves no money: the floor person records it alone
    room.svc.record_dispute(room.floor, hand_id, notes="n", ruling="hand stands")
    assert len(room.svc.disputes(hand_id)) == 2


def test_list_hands_filters(room: Room) -> None:
    a = room.hand(["9d", "Kc", "2h"])
    room.svc.settle(room.dealer, a)
    b = room.hand(["9c"])
    assert [h.id for h in room.svc.list_hands()] == [b, a]
    assert [h.id for h in room.svc.list_hands(HandFilter(status="settled"))] == [a]
    assert [h.id for h in room.svc.list_hands(HandFilter(dealer="dee", limit=1))] == [b]
    assert room.svc.list_hands(HandFilter(game="caro-holdem")) == []
    assert room.svc.list_hands(HandFilter(since=room.clock.now)) == []


def test_export_then_import_gives_the_same_hand_and_both_are_logged(room: Room) -> None:
    hand_id = room.hand(["9d", "Kc"])
    room.svc.void(room.dealer, hand_id, 3, "typo")
    room.svc.record(room.dealer, hand_id, card(2, "Kd"))
    room.svc.record(room.dealer, hand_id, card(3, "2h"))
    text = room.svc.export_hand(room.floor, hand_id)
    lines = text.splitlines()
    assert len(lines) == 6 and '"seq": 1' in lines[0] and '"actor": "dee"' in lines[0]
    t2 = room.svc.add_table(room.admin, settings(), name="T2")
    imported = room.svc.import_hand(room.admin, t2.id, lines)
    assert imported.status == "settled" and imported.events == 6
    assert room.svc.hand_replay(imported.id).state == room.svc.hand_replay(hand_id).state
    assert [e.action for e in room.store.audit_log()[-3:]] == ["export", "table-added", "import"]
    with pytest.raises(NotAllowed):
        room.svc.export_hand(room.dealer, hand_id)


def test_import_refuses_a_log_that_does_not_replay(room: Room) -> None:
    bad = [
        '{"type":"start","game":"high-card-test","seats":[1,2]}',
        '{"type":"card","seat":2,"card":"9d"}',
    ]
    with pytest.raises(HandLogError, match="line 2: the card goes to seat 1"):
        room.svc.import_hand(room.admin, room.table_id, bad)
    assert room.svc.list_hands() == []


def test_other_events_are_refused_by_the_game_not_stored(room: Room) -> None:
    hand_id = room.hand([])
    with pytest.raises(RuleViolation, match="takes only cards"):
        room.svc.record(room.dealer, hand_id, Check(seat=1))


# --- verify on the fake store -----------------------------------------------------------------


def test_verify_intact_room() -> None:
    room = make_room()
    for cards in (["9d", "Kc", "2h"], ["Ad", "Ac", "3h"]):
        room.svc.settle(room.dealer, room.hand(cards))
    report = verify_store(room.store)
    assert report.ok and (report.hands, report.events) == (2, 8)


def test_verify_names_a_changed_event() -> None:
    room = make_room()
    hand_id = room.hand(["9d", "Kc", "2h"])
    room.svc.settle(room.dealer, hand_id)
    chain = room.store.events[room.table_id]
    chain[2] = replace(chain[2], body={"type": "card", "seat": 2, "card": "Ac"})
    report = verify_store(room.store)
    assert report.problem is not None and report.problem.seq == 3
    assert "hash does not match its content" in report.problem.message


def test_verify_names_a_ledger_that_does_not_match() -> None:
    room = make_room()
    hand_id = room.hand(["9d", "Kc", "2h"])
    room.svc.settle(room.dealer, hand_id)
    ledger = room.store.ledgers[hand_id]
    ledger[3] = replace(ledger[3], amount=280)
    report = verify_store(room.store)
    assert report.problem is not None and report.problem.seq == 4
    assert "ledger lines do not match" in report.problem.message
    assert "events give push seat 2 290" in report.problem.message


def test_two_stations_in_one_hand_conflict_and_the_second_reloads(room: Room) -> None:
    hand_id = room.hand(["9d"])
    other = Services(room.store, clock=room.clock, hasher=FAST)
    other.hand_now(hand_id)
    room.svc.record(room.dealer, hand_id, card(2, "Kc"))
    with pytest.raises(Conflict, match="changed at another station"):
        other.record(room.dealer, hand_id, card(2, "Qc"))
    now = other.record(room.dealer, hand_id, card(3, "Qc"))
    assert [r.body.get("card") for r in room.store.hand_events(hand_id)] == [
        None, "9d", "Kc", "Qc",
    ]
    assert now.over

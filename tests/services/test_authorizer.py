"""The authorizer alone, over the in-memory store: roles, disabled names, logged refusals."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dealer_assist.services.auth import Argon2PinHasher
from dealer_assist.services.authorizer import Approval, Authorizer
from dealer_assist.services.errors import NotAllowed, SignInFailed
from dealer_assist.services.fake import InMemoryStore
from dealer_assist.services.model import Session, User

NOW = datetime(2026, 1, 2, 20, 0, tzinfo=UTC)


def _session(store: InMemoryStore, name: str, role: str) -> Session:
    user = store.add_user(name=name, full_name=name.title(), role=role, pin_hash="x", at=NOW)
    return Session(user=user, signed_in_at=NOW)


def _authorizer(store: InMemoryStore, ticks: list[float]) -> Authorizer:
    return Authorizer(store, lambda: NOW, monotonic=lambda: ticks[0])


def test_role_without_the_permission_is_refused_and_the_refusal_logged() -> None:
    store = InMemoryStore()
    dealer = _session(store, "dana", "dealer")
    with pytest.raises(NotAllowed, match="dana is a dealer: only admin can add users"):
        _authorizer(store, [0.0]).require(dealer, "users", "add users")
    last = store.audit_log()[-1]
    assert (last.actor, last.action) == ("dana", "refused")
    assert last.detail == "dealer tried to add users"


def test_role_with_the_permission_and_an_active_name_passes_without_logging() -> None:
    store = InMemoryStore()
    admin = _session(store, "ada", "admin")
    _authorizer(store, [0.0]).require(admin, "users", "add users")
    assert store.audit_log() == []


def test_disabled_name_is_refused_once_the_recheck_time_has_passed() -> None:
    store = InMemoryStore()
    floor = _session(store, "flo", "floor")
    ticks = [0.0]
    auth = _authorizer(store, ticks)
    auth.require_active(floor, "close the shift")
    user: User = floor.user
    store.set_user_active(user.id, False)
    ticks[0] = 10.0  # within the recheck window: the name seen active a moment ago is trusted
    auth.require_active(floor, "close the shift")
    ticks[0] = 31.0
    with pytest.raises(NotAllowed, match="flo is disabled: sign out; a disabled name cannot "
                                         "close the shift"):
        auth.require_active(floor, "close the shift")
    assert store.audit_log()[-1].action == "refused"


# --- approvals: checked by the authorizer and bound to what they approve --------------------
FAST = Argon2PinHasher(fast=True)


def _person(store: InMemoryStore, name: str, role: str, pin: str) -> Session:
    user = store.add_user(name=name, full_name=name.title(), role=role,
                          pin_hash=FAST.hash(pin), at=NOW)
    return Session(user=user, signed_in_at=NOW)


def test_an_approval_is_bound_to_its_subject_and_its_entry_is_what_the_change_carries() -> None:
    """The authorizer tries the approver's PIN for this subject and logs the ``approval``
    entry with it: the entry's detail, table and hand are the change's, and the approver it
    returns carries that entry's id (the ``approval_id`` the change is written with)."""
    store = InMemoryStore()
    dealer = _person(store, "dana", "dealer", "1111")
    _person(store, "flo", "floor", "2222")
    auth = Authorizer(store, lambda: NOW, hasher=FAST)
    who = auth.approve(Approval("flo", "2222"), what="misdeal of hand 8", table_id=3,
                       hand_id=41, session=dealer)
    entry = store.audit_log()[-1]
    assert (entry.action, entry.actor, entry.detail) == ("approval", "flo", "misdeal of hand 8")
    assert (entry.table_id, entry.hand_id) == (3, 41)
    assert who.name == "flo" and who.entry == entry.id


def test_a_floor_person_never_approves_their_own_change_and_no_pin_is_tried() -> None:
    store = InMemoryStore()
    flo = _person(store, "flo", "floor", "2222")
    auth = Authorizer(store, lambda: NOW, hasher=FAST)
    with pytest.raises(NotAllowed, match="flo is signed in at this station and cannot approve "
                                         "their own closing shift 4"):
        auth.approve(Approval(" FLO ", "2222"), what="closing shift 4", session=flo)
    last = store.audit_log()[-1]
    assert (last.action, last.detail) == ("approval-refused",
                                          "flo tried to approve their own closing shift 4")
    assert store.user_secret("flo") is not None
    assert store.user_secret("flo").failed == 0  # type: ignore[union-attr]


def test_a_dealer_s_right_pin_approves_nothing_and_the_refusal_is_logged() -> None:
    store = InMemoryStore()
    _person(store, "dana", "dealer", "1111")
    auth = Authorizer(store, lambda: NOW, hasher=FAST)
    with pytest.raises(NotAllowed, match="dana is a dealer: only a floor person can approve "
                                         "void of event 3 in hand 2"):
        auth.approve(Approval("dana", "1111"), what="void of event 3 in hand 2")
    last = store.audit_log()[-1]
    assert (last.actor, last.action) == ("dana", "approval-refused")
    assert [e.action for e in store.audit_log()].count("approval") == 0


def test_a_wrong_approval_pin_counts_toward_the_lockout_like_a_sign_in() -> None:
    store = InMemoryStore()
    _person(store, "flo", "floor", "2222")
    auth = Authorizer(store, lambda: NOW, hasher=FAST)
    with pytest.raises(SignInFailed, match="unknown name or wrong PIN"):
        auth.approve(Approval("flo", "0000"), what="misdeal of hand 8")
    assert store.audit_log()[-1].action == "approval-failed"
    assert store.user_secret("flo").failed == 1  # type: ignore[union-attr]


def test_the_reports_and_commands_name_the_roles_as_kinds_of_user() -> None:
    """The reports' and the commands' refusals keep their words (``users=True``); the
    services' keep theirs."""
    store = InMemoryStore()
    dealer = _session(store, "dana", "dealer")
    auth = _authorizer(store, [0.0])
    with pytest.raises(NotAllowed, match="dana is a dealer: only a floor, auditor or admin "
                                         "user can generate reports"):
        auth.require(dealer, "review", "generate reports", users=True)
    with pytest.raises(NotAllowed, match="dana is a dealer: only floor or auditor or admin can "
                                         "read the audit log"):
        auth.require(dealer, "audit", "read the audit log")
    assert [e.detail for e in store.audit_log()] == ["dealer tried to generate reports",
                                                     "dealer tried to read the audit log"]

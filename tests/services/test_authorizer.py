"""The authorizer alone, over the in-memory store: roles, disabled names, logged refusals."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dealer_assist.services.authorizer import Authorizer
from dealer_assist.services.errors import NotAllowed
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

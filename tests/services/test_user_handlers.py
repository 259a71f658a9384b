"""The users' handlers take only the ports they use (docs/architecture.md, "Ports, handlers
and the authorizer"): the users' port, the audit log's and the authorizer. Given a users' store
and an audit log that are two different stores, each call writes only where it belongs."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dealer_assist.services.auth import Argon2PinHasher
from dealer_assist.services.authorizer import Authorizer
from dealer_assist.services.errors import NotAllowed
from dealer_assist.services.fake import InMemoryStore
from dealer_assist.services.user_handlers import UserHandlers

NOW = datetime(2026, 1, 2, 20, 0, tzinfo=UTC)
FAST = Argon2PinHasher(fast=True)


def _handlers() -> tuple[UserHandlers, InMemoryStore, InMemoryStore]:
    users, audit = InMemoryStore(), InMemoryStore()
    return UserHandlers(users, audit, Authorizer(users, lambda: NOW, hasher=FAST),
                        lambda: NOW), users, audit


def test_users_go_to_the_users_port_and_what_was_done_to_the_audit_log() -> None:
    handlers, users, audit = _handlers()
    handlers.create_first_admin(name="ada", full_name="Ada  Admin", pin="9999")
    admin = handlers.sign_in("ada", "9999")
    handlers.add_user(admin, name="flo", full_name="Flo Floor", role="floor", pin="2222")
    assert [(u.name, u.full_name, u.role) for u in users.list_users()] == [
        ("ada", "Ada Admin", "admin"), ("flo", "Flo Floor", "floor")]
    assert [(e.actor, e.action) for e in audit.audit_log()] == [
        ("ada", "user-added"), ("ada", "login"), ("ada", "user-added")]
    assert users.audit_log() == [] and audit.list_users() == []
    assert [u.name for u in handlers.floor_people()] == ["flo"]


def test_a_floor_person_manages_no_users_and_the_refusal_is_the_authorizer_s() -> None:
    handlers, users, audit = _handlers()
    handlers.create_first_admin(name="ada", full_name="Ada Admin", pin="9999")
    admin = handlers.sign_in("ada", "9999")
    handlers.add_user(admin, name="flo", full_name="Flo Floor", role="floor", pin="2222")
    flo = handlers.sign_in("flo", "2222")
    with pytest.raises(NotAllowed, match="flo is a floor: only admin can add users"):
        handlers.add_user(flo, name="gil", full_name="Gil", role="floor", pin="5555")
    assert [u.name for u in users.list_users()] == ["ada", "flo"]
    assert users.audit_log()[-1].detail == "floor tried to add users"  # the authorizer's log
    assert "refused" not in [e.action for e in audit.audit_log()]

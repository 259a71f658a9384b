"""The tables' handlers take only the ports they use (docs/architecture.md, "Ports, handlers
and the authorizer"): given a tables' port, an audit log and the authorizer that are three
different stores, each call reads and writes only its own."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from dealer_assist.services.authorizer import Authorizer
from dealer_assist.services.errors import NotAllowed, NotFound
from dealer_assist.services.fake import InMemoryStore
from dealer_assist.services.model import Session
from dealer_assist.services.table_handlers import TableHandlers
from tests.services.support import settings

NOW = datetime(2026, 1, 2, 20, 0, tzinfo=UTC)


def _handlers() -> tuple[TableHandlers, InMemoryStore, InMemoryStore, InMemoryStore]:
    tables, audit, people = InMemoryStore(), InMemoryStore(), InMemoryStore()
    return (TableHandlers(tables, audit, Authorizer(people, lambda: NOW), lambda: NOW),
            tables, audit, people)


def _session(people: InMemoryStore, name: str, role: str) -> Session:
    user = people.add_user(name=name, full_name=name.title(), role=role, pin_hash="x", at=NOW)
    return Session(user=user, signed_in_at=NOW)


def test_a_table_is_written_to_the_tables_port_and_logged_on_the_audit_log_only() -> None:
    handlers, tables, audit, people = _handlers()
    floor = _session(people, "flo", "floor")
    table = handlers.add_table(floor, settings(), name="T7")
    assert [t.name for t in tables.list_tables()] == ["T7"]
    assert tables.latest_settings(table.id) is not None
    assert [(e.actor, e.action, e.table_id) for e in audit.audit_log()] == [
        ("flo", "table-added", table.id)]
    assert audit.list_tables() == [] and people.audit_log() == []
    row = handlers.change_settings(floor, table.id, settings())
    assert row.version == 2 and handlers.settings(table.id).version == 2
    assert audit.audit_log()[-1].detail.startswith("T7: version 2")


def test_a_dealer_adds_no_table_and_the_refusal_is_the_authorizer_s() -> None:
    handlers, tables, audit, people = _handlers()
    dealer = _session(people, "dana", "dealer")
    with pytest.raises(NotAllowed, match="dana is a dealer: only floor or admin can add tables"):
        handlers.add_table(dealer, settings(), name="T7")
    assert tables.list_tables() == [] and audit.audit_log() == []
    assert people.audit_log()[-1].detail == "dealer tried to add tables"


def test_an_unknown_table_names_the_tables_there_are() -> None:
    handlers, _, _, people = _handlers()
    handlers.add_table(_session(people, "flo", "floor"), settings(), name="T7")
    with pytest.raises(NotFound, match=r'there is no table "T9" \(tables: T7\)'):
        handlers.find_table("T9")

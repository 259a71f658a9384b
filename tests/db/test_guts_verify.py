"""Guts through the services on a real database: each hand starts with the last settled hand's
pot as its ``pot_in`` (the engine's carry-in under the game's name) and the stacks it left;
verify passes such a table and names a start whose pot was changed behind the app's back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from services.support import make_room

from dealer_assist.cards import parse_cards
from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.engine.build import build_event
from dealer_assist.services import HandNow, Services, Session

from .test_insider import _rechain, _rows, _sql, _unguard

SETTINGS: dict[str, Any] = {"game": "guts", "seats": [1, 2, 3], "smallest_chip": 100,
                            "buy_in": 10000, "params": {"ante": 100, "max": 2000}}


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    db = open_database(sqlite_url)
    yield db
    db.close()


def act(svc: Services, who: Session, now: HandNow, kind: str, seat: int,
        given: dict[str, Any] | None = None) -> HandNow:
    action = next(a for a in now.prompt().actions if a.kind == kind and a.seat == seat)
    assert action.enabled, action.reason
    return svc.record(who, now.hand.id, build_event(action, given, vocab=now.game.events))


def _table(database: Database) -> tuple[Services, Session, int]:
    room = make_room(SqlStore(database))
    table = room.svc.add_table(room.admin, dict(SETTINGS), name="Guts")
    room.svc.add_user(room.admin, name="gus", full_name="Gus Guts", role="dealer", pin="4444")
    dealer = room.svc.sign_in("gus", "4444")
    room.svc.open_shift(dealer, table.id, floor="fran")
    return room.svc, dealer, table.id


def test_the_pot_and_the_stacks_carry_to_the_next_hand_and_verify_passes(
    database: Database,
) -> None:
    svc, dee, table = _table(database)
    now = svc.start_hand(dee, table)  # button seat 3: seat 1 declares first; $1 antes
    assert now.replay.start.params["pot_in"] == 0
    for kind, seat in (("in", 1), ("in", 2), ("out", 3)):
        now = act(svc, dee, now, kind, seat)
    now = act(svc, dee, now, "show", 1, {"cards": parse_cards("Ah Ad")})
    now = act(svc, dee, now, "show", 2, {"cards": parse_cards("Kh Qd")})
    svc.settle(dee, now.hand.id)
    second = svc.start_hand(dee, table)
    # pot $3 won by seat 1; seat 2 lost and paid $3: the next pot is $3 and nobody antes
    assert second.replay.start.params["pot_in"] == 300
    assert second.replay.start.params["stacks"] == {"1": 10200, "2": 9600, "3": 9900}
    assert second.replay.start.params["button"] == 1
    report = verify_database(database)
    assert report.ok, report.summary()


def test_a_pot_changed_behind_the_apps_back_is_named(database: Database) -> None:
    svc, dee, table = _table(database)
    now = svc.start_hand(dee, table)
    for kind, seat in (("out", 1), ("out", 2), ("out", 3)):
        now = act(svc, dee, now, kind, seat)
    svc.settle(dee, now.hand.id)
    second = svc.start_hand(dee, table).hand.id
    ((event_id, body),) = _rows(database, "SELECT id, body FROM events WHERE hand_id = ? AND "
                                "number = 1", (second,))
    start = json.loads(str(body))
    assert start["pot_in"] == 300  # nobody in: the antes carry unchanged
    start["pot_in"] = 5000
    _unguard(database)
    _sql(database, "UPDATE events SET body = ? WHERE id = ?",
         (json.dumps(start, separators=(",", ":"), sort_keys=True), event_id))
    _rechain(database, table)
    text = verify_database(database).summary()
    assert ("hand 2 starts with a carry-in (pot_in) of 5000 but hand 1 carried out 300, and "
            "no change is approved by a floor person") in text

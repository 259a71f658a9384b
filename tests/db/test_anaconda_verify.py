"""Anaconda through the services on a real database: what a split leaves in the pot is the
next hand's ``pot_in`` (the engine's carry-in under the game's name), the stacks follow, and
verify passes the table and names a start whose pot was changed behind the app's back."""

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

SETTINGS: dict[str, Any] = {
    "game": "anaconda", "seats": [1, 2, 3], "smallest_chip": 100, "buy_in": 20000,
    "params": {"structure": "limit", "ante": 100, "small_bet": 200, "big_bet": 400, "cap": 4},
}


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    db = open_database(sqlite_url)
    yield db
    db.close()


def act(svc: Services, who: Session, now: HandNow, kind: str, seat: int | None = None,
        given: dict[str, Any] | None = None, label: str = "") -> HandNow:
    action = next(a for a in now.prompt().actions
                  if a.kind == kind and (seat is None or a.seat == seat)
                  and (not label or a.label == label))
    assert action.enabled, action.reason
    return svc.record(who, now.hand.id, build_event(action, given, vocab=now.game.events))


def _split_hand(svc: Services, dee: Session, table: int) -> HandNow:
    """$3 antes, a $4 bet in the third round called by one, seat 3 folds: $11; high $5,
    low $5, $1 stays."""
    now = svc.start_hand(dee, table)
    for _ in range(2):
        for s in (1, 2, 3):
            now = act(svc, dee, now, "check", s)
        now = act(svc, dee, now, "pass")
    now = act(svc, dee, now, "bet", 1)
    now = act(svc, dee, now, "call", 2)
    now = act(svc, dee, now, "fold", 3)
    now = act(svc, dee, now, "declare", 1, label="Seat 1 high")
    now = act(svc, dee, now, "declare", 2, label="Seat 2 low")
    for c1, c2 in (("Ah", "2c"), ("Ad", "3c"), ("Ks", "5d"), ("Kd", "7h")):
        now = act(svc, dee, now, "roll", 1, {"card": parse_cards(c1)[0]})
        now = act(svc, dee, now, "roll", 2, {"card": parse_cards(c2)[0]})
    now = act(svc, dee, now, "check", 1)
    now = act(svc, dee, now, "check", 2)
    now = act(svc, dee, now, "show", 1, {"cards": parse_cards("Ah Ad Ks Kd 9c")})
    now = act(svc, dee, now, "show", 2, {"cards": parse_cards("2c 3c 5d 7h 4s")})
    svc.settle(dee, now.hand.id)
    return now


def _table(database: Database) -> tuple[Services, Session, int]:
    room = make_room(SqlStore(database))
    table = room.svc.add_table(room.admin, dict(SETTINGS), name="Anaconda")
    room.svc.add_user(room.admin, name="ana", full_name="Ana Conda", role="dealer", pin="4444")
    dealer = room.svc.sign_in("ana", "4444")
    room.svc.open_shift(dealer, table.id, floor="fran")
    return room.svc, dealer, table.id


def test_the_odd_chip_carries_to_the_next_hand_verify_passes_and_names_a_changed_pot(
    database: Database,
) -> None:
    svc, dee, table = _table(database)
    _split_hand(svc, dee, table)
    second = svc.start_hand(dee, table)
    params = second.replay.start.params
    assert params["pot_in"] == 100
    assert params["stacks"] == {"1": 20000, "2": 20000, "3": 19900}
    report = verify_database(database)
    assert report.ok, report.summary()
    # an insider changes the second hand's pot and recomputes the chain: verify names it
    ((event_id, body),) = _rows(database, "SELECT id, body FROM events WHERE hand_id = ? AND "
                                "number = 1", (second.hand.id,))
    start = json.loads(str(body))
    start["pot_in"] = 0
    _unguard(database)
    _sql(database, "UPDATE events SET body = ? WHERE id = ?",
         (json.dumps(start, separators=(",", ":"), sort_keys=True), event_id))
    _rechain(database, table)
    text = verify_database(database).summary()
    assert ("hand 2 starts with a carry-in (pot_in) of 0 but hand 1 carried out 100, and no "
            "change is approved by a floor person") in text

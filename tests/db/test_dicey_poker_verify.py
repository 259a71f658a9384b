"""Dicey Poker at a table, through the services and a real SQLite file: a refusal records
nothing; the running totals and the prize carry from hand to hand under the game's names
(``dealer``, ``totals_in``, ``carry_in``), verify passes them, and names a running total
rewritten behind the app's back."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from services.support import make_room

from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Start
from tests.games.dicey_helpers import A, B, ev, play_round

from .test_insider import _rechain, _rows, _sql, _unguard

TABLE = {"game": "dicey-poker", "seats": 2, "smallest_chip": 100,
         "params": {"target": 150, "dice": "table", "entry": 500}}


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    db = open_database(sqlite_url)
    yield db
    db.close()


def _play(svc: Any, dealer: Any, table: int, *, refuse: bool = False) -> int:
    now = svc.start_hand(dealer, table)
    if refuse:  # a roll before the deal: refused, and nothing recorded
        count = len(svc.hand_events(now.hand.id))
        with pytest.raises(RuleViolation, match="deal the hole cards first"):
            svc.record(dealer, now.hand.id, ev("roll", 1, die="d10", value=3))
        assert len(svc.hand_events(now.hand.id)) == count
    start = now.replay.start
    assert isinstance(start, Start)
    for e in play_round({1: A, 2: B}, start=start).events[1:]:
        now = svc.record(dealer, now.hand.id, e)
    svc.settle(dealer, now.hand.id)
    return int(now.hand.id)


def test_dicey_poker_hands_follow_on_and_verify(database: Database) -> None:
    room = make_room(SqlStore(database))
    table = room.svc.add_table(room.admin, TABLE, name="DP").id
    room.svc.add_user(room.admin, name="dora", full_name="Dora Dealer", role="dealer",
                      pin="4444")
    dora = room.svc.sign_in("dora", "4444")
    room.svc.open_shift(dora, table, floor="fran")
    first = _play(room.svc, dora, table, refuse=True)
    second = _play(room.svc, dora, table)
    starts = [room.svc.hand_events(h)[0].body for h in (first, second)]
    assert starts[0]["entry"] == 500 and starts[0].get("totals_in") in (None, {})
    assert starts[1]["totals_in"] == {"1": 80, "2": 50} and starts[1]["carry_in"] == 1000
    assert starts[1]["dealer"] != starts[0]["dealer"]
    report = verify_database(database)
    assert report.ok, report.summary()
    ((event_id, body),) = _rows(database, "SELECT id, body FROM events WHERE hand_id = ? AND "
                                "number = 1", (second,))
    start = json.loads(str(body))
    start["totals_in"] = {"1": 80, "2": 90}
    _unguard(database)
    _sql(database, "UPDATE events SET body = ? WHERE id = ?",
         (json.dumps(start, separators=(",", ":"), sort_keys=True), event_id))
    _rechain(database, table)
    text = verify_database(database).summary()
    assert 'starts with totals_in {"1": 80, "2": 90} but hand' in text

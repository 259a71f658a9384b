"""Markets poker at a table, through the services and the store: each hand starts with the stacks
the last one left and the advantage cards its folded players chose; a refusal records nothing;
verify holds each start to what the hand before carries; a player ending below 12 chips ends
the game, the standings say so, and the next hand (after a rebuy) starts a new game."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from services.support import make_room

from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.engine.log import hand_events
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event

from .test_insider import _rechain, _rows, _sql, _unguard

EXAMPLES = Path(__file__).resolve().parent.parent / "data" / "examples"
SETTINGS = {"game": "markets", "seats": [1, 2, 3], "smallest_chip": 100, "buy_in": 2000,
            "params": {"chip": 100}}


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    db = open_database(sqlite_url)
    yield db
    db.close()


def _events(*lines: dict[str, Any]) -> list[Event]:
    start = {"type": "start", "game": "markets", "seats": [1, 2, 3]}
    return hand_events([start, *lines])[1:]


def _example() -> list[Event]:
    lines = (EXAMPLES / "markets-auction-three-players.jsonl").read_text().splitlines()
    return hand_events(json.loads(x) for x in lines)[1:]


def _table(database: Database) -> tuple[Any, Any, int]:
    svc, dealer, table, _ = _room_table(database)
    return svc, dealer, table


def _room_table(database: Database) -> tuple[Any, Any, int, Any]:
    room = make_room(SqlStore(database))
    svc = room.svc
    table = svc.add_table(room.admin, dict(SETTINGS), name="Markets")
    svc.add_user(room.admin, name="mia", full_name="Mia Markets", role="dealer", pin="5555")
    dealer = svc.sign_in("mia", "5555")
    svc.open_shift(dealer, table.id, floor="fran")
    return svc, dealer, table.id, room.floor


def _hand(svc: Any, dealer: Any, table: int, events: list[Event]) -> Any:
    now = svc.start_hand(dealer, table)
    for e in events:
        now = svc.record(dealer, now.hand.id, e)
    svc.settle(dealer, now.hand.id)
    return now


def _second(dealer_seat: int = 1) -> list[Event]:
    """The second hand, dealt by seat 1: seats 3 and 1 fold to seat 2's bet, and choose."""
    return _events(
        {"type": "disclose", "seat": 2, "card": "Ah"},
        {"type": "disclose", "seat": 3, "card": "7d"},
        {"type": "disclose", "seat": 1, "card": "Qc"},
        {"type": "supplier", "card": "9c"}, {"type": "externality", "card": "3c"},
        {"type": "bet", "seat": 2, "to": 2}, {"type": "fold", "seat": 3},
        {"type": "fold", "seat": 1},
        {"type": "choose", "seat": 3, "card": "7d"}, {"type": "choose", "seat": 1, "card": "5s"},
    )


def test_hands_follow_on_with_stacks_and_advantage_cards_and_verify_clean(
    database: Database,
) -> None:
    svc, dealer, table = _table(database)
    first = svc.start_hand(dealer, table)
    assert "advantage" not in first.replay.start.params  # the first hand of a game
    for e in _example():
        first = svc.record(dealer, first.hand.id, e)
    svc.settle(dealer, first.hand.id)
    second = svc.start_hand(dealer, table)
    start = second.replay.start
    assert start.get("dealer") == 1 and start.get("advantage") == {}
    assert start.get("stacks") == {"1": 2100, "2": 2500, "3": 1400}
    # a refusal: the dealer's words, nothing recorded
    before = len(svc.store.hand_events(second.hand.id))
    with pytest.raises(RuleViolation, match="deal the products: seat 2's disclosure is next"):
        svc.record(dealer, second.hand.id, _events({"type": "bid", "seat": 2, "chips": 1})[0])
    assert len(svc.store.hand_events(second.hand.id)) == before
    for e in _second():
        second = svc.record(dealer, second.hand.id, e)
    svc.settle(dealer, second.hand.id)
    third = svc.start_hand(dealer, table)
    assert third.replay.start.get("advantage") == {"1": "5s", "3": "7d"}
    so_far = svc.game_so_far(table)
    assert len(so_far.hands) == 2 and not so_far.over
    assert so_far.sheet is not None and so_far.sheet.rows == (
        ("1", "21", "25", "14"), ("2", "19", "28", "13"))
    report = verify_database(database)
    assert report.ok, report.summary()
    # an advantage card rewritten behind the app's back, the chain recomputed: named
    ((event_id, body),) = _rows(database, "SELECT id, body FROM events WHERE hand_id = ? AND "
                                "number = 1", (third.hand.id,))
    changed = json.loads(str(body))
    changed["advantage"] = {"1": "As", "3": "7d"}
    _unguard(database)
    _sql(database, "UPDATE events SET body = ? WHERE id = ?",
         (json.dumps(changed, separators=(",", ":"), sort_keys=True), event_id))
    _rechain(database, table)
    text = verify_database(database).summary()
    assert ('hand 3 starts with advantage {"1": "As", "3": "7d"} but hand 2 carries '
            '{"1": "5s", "3": "7d"}, and no new game is approved by a floor person') in text


def test_a_player_below_twelve_chips_ends_the_game_and_a_rebuy_starts_a_new_one(
    database: Database, tmp_path: Path,
) -> None:
    from dealer_assist.reports.generate import game_report

    svc, dealer, table, floor = _room_table(database)
    _hand(svc, dealer, table, _example())          # seat 3 leaves it with 14 chips
    _hand(svc, dealer, table, _second())           # 13 chips
    third = svc.start_hand(dealer, table)  # dealer 2: seats 2 and 3 ante 2, seat 1 one
    for e in _events(
        {"type": "disclose", "seat": 3, "card": "Kh"},
        {"type": "disclose", "seat": 1, "card": "Ah"},
        {"type": "disclose", "seat": 2, "card": "2c"},
        {"type": "supplier", "card": "9h"}, {"type": "externality", "card": "3c"},
        {"type": "bet", "seat": 3, "to": 1}, {"type": "call", "seat": 1},
        {"type": "call", "seat": 2}, {"type": "externality", "card": "8d"},
        {"type": "check", "seat": 3}, {"type": "bet", "seat": 1, "to": 2},
        {"type": "fold", "seat": 2}, {"type": "fold", "seat": 3},
        {"type": "choose", "seat": 3, "card": "Kh"}, {"type": "choose", "seat": 2, "card": "2c"},
    ):
        third = svc.record(dealer, third.hand.id, e)
    svc.settle(dealer, third.hand.id)
    # seat 3: 13 - 2 - 1 = 10 chips; seat 1: 19 - 2 + the pot of 8 = 25; seat 2: 28 - 3 = 25
    assert svc.next_stacks(table) == {1: 2500, 2: 2500, 3: 1000}
    so_far = svc.game_so_far(table)
    assert so_far.over and len(so_far.hands) == 3
    assert so_far.sheet is not None and so_far.sheet.lines == (
        "standings: seat 1 25 chips, seat 2 25 chips, seat 3 10 chips",
        "game over: seat 3 ended below 12 chips; final standings above")
    done = game_report(svc, floor, tmp_path / "game.pdf", table="Markets")
    assert [h.number for h in done.report.hands] == [1, 2, 3]
    assert all(h.conserved for h in done.report.hands) and not done.report.exceptions
    with pytest.raises(RuleViolation, match="seat 3 has 10 chips: a Markets poker game needs at "
                       "least 12 chips each"):
        svc.start_hand(dealer, table)
    fourth = svc.start_hand(dealer, table, stacks={3: 2000})  # a rebuy: a new game
    assert fourth.replay.start.get("dealer") == 3
    assert "advantage" not in fourth.replay.start.params
    assert fourth.prompt().message == "Deal seat 1 its advantage card face up"
    report = verify_database(database)
    assert report.ok, report.summary()

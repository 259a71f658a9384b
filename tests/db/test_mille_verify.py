"""Verify follows Mille's score sheet from hand to hand: a running total or a chapeau count
rewritten in a hand's start behind the app's back (the chain recomputed) is named, a new game
on the record is accepted, and the demo deals a Mille table's hands one after another with
the sheet carried."""

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
from dealer_assist.games.mille.events import Left, Meld, Out
from dealer_assist.services import Approval

from .test_any_game_verify import _rewrite_start

SETTINGS = {"game": "mille", "seats": 2, "smallest_chip": 100, "stakes": "$1-$5",
            "params": {"stakes": [100, 500]}}


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    db = open_database(sqlite_url)
    yield db
    db.close()


def _first_hand(database: Database) -> tuple[Any, int, Any]:
    room = make_room(SqlStore(database))
    svc = room.svc
    table = svc.add_table(room.admin, SETTINGS, name="Mille 1")
    svc.add_user(room.admin, name="mo", full_name="Mo Mille", role="dealer", pin="5555")
    dealer = svc.sign_in("mo", "5555")
    svc.open_shift(dealer, table.id, floor="fran")
    now = svc.start_hand(dealer, table.id)
    for ev in (Meld(seat=1, cards=parse_cards("Kh Kd 2c")), Left(seat=2, cards=parse_cards("Qs")),
               Out(seat=1)):
        svc.record(dealer, now.hand.id, ev)
    svc.settle(dealer, now.hand.id)  # seat 1: 40; seat 2: -100, a chapeau
    return svc, table.id, dealer


@pytest.mark.parametrize(("key", "forged", "carried"), [
    ("totals_in", '{"1": 40, "2": 0}', '{"1": 40, "2": -100}'),
    ("chapeaux_in", '{"1": 0, "2": 0}', '{"1": 0, "2": 1}'),
])
def test_a_rewritten_running_total_or_chapeau_count_is_named(
    database: Database, key: str, forged: str, carried: str
) -> None:
    svc, table, dealer = _first_hand(database)
    second = svc.start_hand(dealer, table).hand.id
    assert verify_database(database).ok
    _rewrite_start(database, second, table, **{key: json.loads(forged)})
    text = verify_database(database).summary()
    assert (f"hand 2 starts with {key} {forged} but hand 1 carries {carried}, and no new game "
            "is approved by a floor person") in text


def test_a_new_game_on_the_record_is_accepted(database: Database) -> None:
    svc, table, dealer = _first_hand(database)
    now = svc.start_hand(dealer, table, new_game=True, approval=Approval("fran", "2222"))
    assert "totals_in" not in now.replay.start.params
    report = verify_database(database)
    assert report.ok, report.summary()


def test_the_demo_carries_the_sheet_from_hand_to_hand() -> None:
    from dealer_assist.db.demo_plan import plan_table
    from dealer_assist.engine.hand import Folded
    from dealer_assist.engine.log import hand_events
    from dealer_assist.engine.registry import get_game
    from dealer_assist.engine.stored import fold

    game = get_game("mille")
    plan = plan_table("mille", 12, seed=4, with_void=True)
    totals = {1: 0, 2: 0}
    ended = 0
    for hand in plan:
        events = hand_events(json.loads(b) for b in hand.bodies)
        given = events[0].get("totals_in") or {}  # type: ignore[attr-defined]
        assert {int(k): v for k, v in given.items()} == {s: v for s, v in totals.items()
                                                         if given or v}
        result = fold(events)
        assert isinstance(result, Folded)
        if hand.misdeal:
            continue  # dealt again with what it carried in
        totals = result.state.totals()
        if game.game_over(result.state):
            ended += 1
            totals = {1: 0, 2: 0}
    assert ended >= 1

"""The floor's live view carries a hand's fold forward by the new events alone: a row rebuilt
after each input reads only the rows after the last one it saw, and shows exactly what a view
built from nothing shows, through a void, the hand's end, the next hand and a new view. Regression:
each input made the view read and fold the whole hand again (the floor saw inputs late)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cards import parse_card
from dealer_assist.events import CardDealt
from dealer_assist.services.live import LiveView
from services.support import make_room


@pytest.mark.parametrize("kind", ["memory", "sqlite"])
def test_regression_live_rows_read_only_new_events_and_match_a_fresh_view(
    tmp_path: Path, kind: str
) -> None:
    if kind == "sqlite":
        from dealer_assist.db.bootstrap import open_database
        from dealer_assist.db.store import SqlStore

        room = make_room(SqlStore(open_database(f"sqlite:///{tmp_path / 'room.sqlite3'}")))
    else:
        room = make_room()
    svc, dealer, t = room.svc, room.dealer, room.table_id
    view = LiveView(svc)
    reads: list[tuple[dict[int, int], list[int]]] = []
    tables_now = svc.store.tables_now

    def spy(table_ids: Any, held: Any) -> Any:
        got = tables_now(table_ids, held)
        reads.append((dict(held), [e.number for now in got.values() for e in now.events]))
        return got

    svc.store.tables_now = spy  # type: ignore[method-assign]

    def same() -> Any:
        row = view.row(t)
        fresh = LiveView(svc).row(t)
        assert row == fresh
        return row

    now = svc.start_hand(dealer, t, seats=(1, 2, 3))
    hand = now.hand.id
    assert same().events == 1
    for seat, card in ((1, "As"), (2, "Kd")):
        svc.record(dealer, hand, CardDealt(seat=seat, card=parse_card(card)))
        row = same()
        assert row.last_input == f"card seat {seat} {card}"
    assert row.events == 3
    # the view kept from one input to the next read only the new row each time (a fresh
    # view reads the hand whole)
    assert reads == [({}, [1]), ({}, [1]), ({hand: 1}, [2]), ({}, [1, 2]),
                     ({hand: 2}, [3]), ({}, [1, 2, 3])]

    svc.void(dealer, hand, 3, "wrong card")  # a void changes what came before: fold again
    row = same()
    assert row.floor == "void of event 3: wrong card" and row.events == 4
    svc.record(dealer, hand, CardDealt(seat=2, card=parse_card("Qd")))
    assert same().last_input == "card seat 2 Qd"
    svc.record(dealer, hand, CardDealt(seat=3, card=parse_card("2c")))
    assert same().status == "finished"
    svc.settle(dealer, hand)
    second = svc.start_hand(dealer, t, seats=(1, 2, 3)).hand.id
    row = same()
    assert (row.hand_id, row.hand_number, row.events) == (second, 2, 1)

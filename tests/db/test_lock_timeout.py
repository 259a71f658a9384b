"""One station holding a table's row (``SELECT ... FOR UPDATE`` on card_tables) must not freeze
the room: every recording transaction gives up after the lock timeout with a message that says
so, nothing is recorded, and the same input goes in once the lock is gone (the dealer's screen
keeps it for Retry, as on any database fault)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from services.support import make_room, settings

from dealer_assist.cards import parse_card
from dealer_assist.db import bootstrap
from dealer_assist.db.bootstrap import open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.events import CardDealt
from dealer_assist.services import StoreUnavailable

pytestmark = pytest.mark.postgres


@pytest.fixture
def holder(pg_url: str) -> Iterator[Any]:
    """A second connection, as an insider's session would hold it."""
    import psycopg

    from dealer_assist.db.notify import libpq_url

    conn = psycopg.connect(libpq_url(pg_url))
    yield conn
    conn.close()


def test_regression_a_held_table_row_times_out_with_a_message_and_keeps_nothing(
    pg_url: str, holder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bootstrap, "LOCK_TIMEOUT_S", 0.3)
    room = make_room(SqlStore(open_database(pg_url)))
    t2 = room.svc.add_table(room.admin, settings(), name="T2")
    room.svc.open_shift(room.floor, t2.id, floor="fran")
    now = room.svc.start_hand(room.dealer, room.table_id)
    room.svc.record(room.dealer, now.hand.id, CardDealt(seat=1, card=parse_card("As")))
    before = len(room.svc.hand_events(now.hand.id))

    holder.execute("SELECT * FROM card_tables WHERE id = %s FOR UPDATE", (room.table_id,))
    busy = (r"the database .* is busy: another station or program has held this table for "
            r"more than 0.3 s, so nothing was recorded; try again in a moment")
    with pytest.raises(StoreUnavailable, match=busy):  # the one-statement append
        room.svc.record(room.dealer, now.hand.id, CardDealt(seat=2, card=parse_card("Kd")))
    with pytest.raises(StoreUnavailable, match=busy):  # and the locking path after it
        room.svc.record(room.dealer, now.hand.id, CardDealt(seat=2, card=parse_card("Kd")))
    other = room.svc.start_hand(room.floor, t2.id)  # the rest of the room deals on
    assert other.hand.number == 1
    assert len(room.svc.hand_events(now.hand.id)) == before

    holder.rollback()  # the lock is gone: the same input goes in, once
    after = room.svc.record(room.dealer, now.hand.id, CardDealt(seat=2, card=parse_card("Kd")))
    assert after.last.number == before + 1
    assert len(room.svc.hand_events(now.hand.id)) == before + 1
    room.svc.store.close()  # type: ignore[attr-defined]


def test_regression_a_hand_start_at_a_held_table_times_out(
    pg_url: str, holder: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bootstrap, "LOCK_TIMEOUT_S", 0.3)
    room = make_room(SqlStore(open_database(pg_url)))
    holder.execute("SELECT * FROM card_tables WHERE id = %s FOR UPDATE", (room.table_id,))
    with pytest.raises(StoreUnavailable, match="is busy: another station or program has held"):
        room.svc.start_hand(room.dealer, room.table_id)
    holder.rollback()
    assert room.svc.start_hand(room.dealer, room.table_id).hand.number == 1
    room.svc.store.close()  # type: ignore[attr-defined]

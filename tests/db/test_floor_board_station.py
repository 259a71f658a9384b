"""PostgreSQL, as a station's own login role: the floor board's records are taken only from a
live floor or admin sign-in writing in its own name (schema 0020's table, 0017's trigger), so a
dealer's station cannot write one even past the app's own check, nor in the floor's name."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from services.support import FAST

from dealer_assist.db.bootstrap import floor_board, open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.errors import DealerAssistError
from dealer_assist.services import Services
from dealer_assist.services.floorboard import records as r
from dealer_assist.services.floorboard.records import NewEntry

from .pg import PgCluster
from .stations import station_room

pytestmark = pytest.mark.postgres


@pytest.fixture(scope="module")
def station(pg_cluster: PgCluster, pg_template: str) -> Iterator[Any]:
    station_url, room = station_room(pg_cluster, pg_template, "floor_station")
    db = open_database(station_url)
    svc = Services(SqlStore(db), clock=room.clock, hasher=FAST)
    svc.floor_board = floor_board(db, room.clock)
    yield svc, room.table_id
    db.close()


def _forge(svc: Services, actor: str, token: str) -> None:
    """Past the app's role check: straight to the records port."""
    assert svc.floor_board is not None
    with svc.floor_board.records.writing() as tx:
        tx.append(NewEntry(r.OPEN, table_id=1), at=datetime.now(UTC), actor=actor,
                  token=token)


def test_the_floor_writes_through_the_station_role_a_dealer_cannot(station: Any) -> None:
    svc, table_id = station
    board = svc.floor_board
    fran = svc.sign_in("fran", "2222")
    board.open_table(fran, table_id)
    board.seat(fran, table_id, 2, player="Ann")
    assert [e.what.action for e in board.records.entries()] == ["open", "seat"]
    dee = svc.sign_in("dee", "1111")
    with pytest.raises(DealerAssistError) as refused:
        _forge(svc, "dee", dee.token)             # a dealer, in their own name
    assert "floor_entries records are written by a floor or admin only" in str(refused.value)
    with pytest.raises(DealerAssistError) as refused:
        _forge(svc, "fran", dee.token)            # a dealer's sign-in in the floor's name
    assert "floor_entries records are written by a floor or admin only" in str(refused.value)
    with pytest.raises(DealerAssistError):
        _forge(svc, "fran", "")                   # no sign-in at all
    assert [e.what.action for e in board.records.entries()] == ["open", "seat"]

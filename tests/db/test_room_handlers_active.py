"""A floor person disabled while signed in can do nothing more on the floor board or in the
dealer box, as in every other use case: the handlers outside the services make the services'
check (the name's state read from the store, the refusal logged). On PostgreSQL the sealed
tables' trigger already takes nothing from a disabled name's sign-in."""

from __future__ import annotations

import pytest
from services.support import make_room

from dealer_assist.db.bootstrap import Database, floor_board
from dealer_assist.db.dealer_box import SqlDealerRecords
from dealer_assist.db.store import SqlStore
from dealer_assist.services.dealer_box import Rules
from dealer_assist.services.dealer_hooks import set_room_rules
from dealer_assist.services.errors import NotAllowed


def test_regression_a_disabled_floor_person_can_no_longer_act_on_the_board_or_the_box(
    database: Database,
) -> None:
    room = make_room(SqlStore(database))
    svc = room.svc
    board = floor_board(database, room.clock)
    board.still_active = svc.require_active
    svc.dealer_box = SqlDealerRecords(database)
    fran = room.floor
    board.open_table(fran, room.table_id)  # signed in and enabled: taken
    svc.set_user_active(room.admin, "fran", False)
    svc._seen_active.clear()  # the services re-read a name's state every few seconds
    before = board.records.count()
    with pytest.raises(NotAllowed, match="fran is disabled"):
        board.close_table(fran, room.table_id)
    with pytest.raises(NotAllowed, match="fran is disabled"):
        set_room_rules(svc, fran, Rules())
    assert board.records.count() == before and svc.dealer_box.rules() is None
    refusals = [e.detail for e in svc.store.audit_log(action="refused")]
    assert any("close" in d for d in refusals) and any("dealer rules" in d for d in refusals)

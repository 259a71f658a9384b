"""An import is one transaction with its audit entry, or nothing (regression: an import that
failed late left 25 events stored as an open hand with no audit entry, and its own open shift
blocked the table's next shift)."""

from __future__ import annotations

import pytest
from services.support import Room

import dealer_assist.db.store as store_module
from dealer_assist.services import HandFilter


def _counts(room: Room) -> tuple[int, int, int, object]:
    return (len(room.svc.list_hands(HandFilter(limit=None))), len(room.svc.list_shifts()),
            len(room.store.audit_log()), room.svc.chain_head(room.table_id))


def test_regression_an_import_failing_at_its_last_write_leaves_nothing(
    room: Room, monkeypatch: pytest.MonkeyPatch
) -> None:
    hand_id = room.hand(["9d", "Kc", "2h"])
    room.svc.settle(room.dealer, hand_id)
    lines = room.svc.export_hand(room.floor, hand_id).splitlines()
    before = _counts(room)

    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("the disk went away at the audit entry")

    monkeypatch.setattr(store_module, "append_audit", broken)
    with pytest.raises(RuntimeError):
        room.svc.import_hand(room.admin, room.table_id, lines)
    monkeypatch.undo()
    assert _counts(room) == before  # no hand, no shift, no events on the chain
    hand = room.svc.import_hand(room.admin, room.table_id, lines)
    assert hand.imported and hand.status == "settled"
    assert room.store.audit_log()[-1].action == "import"
    from dealer_assist.services import verify_store

    assert verify_store(room.store).ok


@pytest.mark.postgres
def test_regression_a_value_too_long_for_postgresql_is_not_called_a_network_failure(
    pg_url: str,
) -> None:
    from datetime import UTC, datetime

    from dealer_assist.db.bootstrap import open_database
    from dealer_assist.db.store import SqlStore
    from dealer_assist.services import StoreUnavailable

    store = SqlStore(open_database(pg_url))
    with pytest.raises(StoreUnavailable, match="refused a value as too long or too large") as e:
        store.add_table(name="T" * 500, at=datetime.now(UTC))
    assert "check the network" not in str(e.value)
    store.close()

"""An import is one transaction with its audit entry, or nothing (regression: an import that
failed late left 25 events stored as an open hand with no audit entry, and its own open shift
blocked the table's next shift)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from services.support import Room

import dealer_assist.db.store.hand_log as store_module
from dealer_assist.services import Approval, HandFilter


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


#: An import in a child process that stops, inside its transaction, after its events and before
#: its audit entry, says so, and waits to be killed.
KILLED_CHILD = """
import sys, time
import dealer_assist.db.store.hand_log as store_module
from services.support import FAST
from dealer_assist.db.bootstrap import open_services

real = store_module.append_audit

def stop_here(conn, rows):
    if rows and rows[0]["action"] == "import":
        print("inside", flush=True)
        time.sleep(600)
    return real(conn, rows)

store_module.append_audit = stop_here
svc = open_services(sys.argv[1], hasher=FAST)
admin = svc.sign_in("admin", "9999")
svc.import_hand(admin, int(sys.argv[2]), open(sys.argv[3]).read().splitlines())
"""


def test_regression_kill_9_mid_import_leaves_nothing_and_the_table_goes_on(
    room: Room, db_url: str, tmp_path: Path
) -> None:
    hand_id = room.hand(["9d", "Kc", "2h"])
    room.svc.settle(room.dealer, hand_id)
    log = tmp_path / "hand.jsonl"
    log.write_text(room.svc.export_hand(room.floor, hand_id))
    shift = room.svc.current_shift(room.table_id)
    assert shift is not None
    room.svc.close_shift(room.dealer, shift.id, approval=Approval("fran", "2222"))
    before = _counts(room)[:2], room.svc.chain_head(room.table_id)
    script = tmp_path / "child.py"
    script.write_text(KILLED_CHILD)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    child = subprocess.Popen([sys.executable, str(script), db_url, str(room.table_id), str(log)],
                             stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "inside"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
    # nothing of it: no hand, no shift, no events, no import entry (the child's sign-in stays)
    assert (_counts(room)[:2], room.svc.chain_head(room.table_id)) == before
    assert room.store.audit_log(action="import") == []
    shift = room.svc.open_shift(room.dealer, room.table_id, floor="fran")  # not blocked
    assert room.svc.start_hand(room.dealer, room.table_id).hand.number == 2

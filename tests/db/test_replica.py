"""`dealer-assist verify` against a streaming replica (docs/room.md): a hot standby made with
pg_basebackup from the test cluster follows the primary, and verify checks the room there,
reading only, while the stations write to the primary."""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from typing import Any

import pytest
from services.support import make_room

from dealer_assist.cli import main
from dealer_assist.db.bootstrap import open_database
from dealer_assist.db.store import SqlStore

from .pg import PgCluster

#: A bounded wait for the replica to replay the primary's changes (caps a hang only).
BOUND_S = 30.0

pytestmark = pytest.mark.postgres


@pytest.fixture
def replica(pg_cluster: Any) -> Iterator[PgCluster]:
    standby = PgCluster()
    if standby.as_root:
        shutil.chown(standby.root, "postgres", "postgres")
        os.chmod(standby.root, 0o755)
    r = standby._run(str(standby.bin / "pg_basebackup"), "-D", str(standby.data), "-h",
                     "127.0.0.1", "-p", str(pg_cluster.port), "-U", "postgres", "-R",
                     "-X", "stream", "-c", "fast", "--no-sync")
    if r.returncode != 0:
        shutil.rmtree(standby.root, ignore_errors=True)
        raise RuntimeError(f"pg_basebackup failed: {r.stderr or r.stdout}")
    standby.start(init=False)
    yield standby
    standby.stop()


def test_verify_runs_against_a_streaming_replica(
    pg_url: str, replica: PgCluster, capsys: Any
) -> None:
    room = make_room(SqlStore(open_database(pg_url)))
    for cards in (["As", "Kd", "9c"], ["2s", "Qh", "Jd"]):
        hand = room.hand(cards)
        room.svc.settle(room.dealer, hand)
    head = room.svc.chain_head(room.table_id)
    assert head is not None
    replica_url = replica.url(pg_url.rsplit("/", 1)[1])
    deadline = time.monotonic() + BOUND_S
    seen = -1
    while time.monotonic() < deadline:
        try:
            db = open_database(replica_url, upgrade=False, create=False)
        except Exception:  # the database is not on the standby yet
            time.sleep(0.1)
            continue
        with db.engine.connect() as conn:
            seen = int(conn.exec_driver_sql(
                "SELECT head_seq FROM card_tables WHERE id = %s", (room.table_id,)).scalar() or 0)
            standby = conn.exec_driver_sql("SELECT pg_is_in_recovery()").scalar()
        db.close()
        if seen == head.seq:
            break
        time.sleep(0.1)
    assert seen == head.seq and standby is True
    capsys.readouterr()
    assert main(["verify", "--db", replica_url]) == 0
    out = capsys.readouterr().out
    assert out.startswith("intact: ") and "2 hands, 8 events; every chain links" in out
    room.svc.store.close()  # type: ignore[attr-defined]

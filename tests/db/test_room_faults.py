"""The room under faults: station processes (one per table, each with its journal) deal on one
PostgreSQL while the network between one station and the server is cut (a proxy the test
controls on 127.0.0.1), the server is stopped and started again mid-shift, and a station is
killed mid-input and started again. After all of it: every input each station reported recorded
is on the server exactly once, every chain verifies, and no journal holds anything unsent."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from services.support import make_room

from dealer_assist.db.bootstrap import open_database
from dealer_assist.db.journal_file import Journal
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.services import Approval

from .proxy import Proxy
from .test_crash_and_concurrency import CC_TABLE

CHILD = Path(__file__).with_name("room_child.py")
#: Bounds on every wait (they cap a hang; nothing asserts how long anything took).
BOUND_S = 60.0

pytestmark = pytest.mark.postgres


class Station:
    def __init__(self, url: str, table_id: int, seed: int, hands: int, journal: Path) -> None:
        self.args = [url, str(table_id), str(seed), str(hands), str(journal), "0.01"]
        self.journal = journal
        self.lines: list[str] = []
        self.proc = self._start()

    def _start(self) -> subprocess.Popen[str]:
        env = dict(os.environ, PYTHONPATH=str(CHILD.parent.parent))
        return subprocess.Popen([sys.executable, str(CHILD), *self.args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=env)

    def read_until(self, count: int) -> None:
        """Read the station's lines until it reported ``count`` more inputs (or ended)."""
        assert self.proc.stdout is not None
        goal = self.events() + count
        while self.events() < goal:
            line = self.proc.stdout.readline()
            if not line:
                return
            self.lines.append(line.strip())

    def kill_and_restart(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        out, _ = self.proc.communicate(timeout=BOUND_S)
        self.lines += [x.strip() for x in out.splitlines()]
        self.proc = self._start()

    def finish(self) -> tuple[int, str]:
        out, err = self.proc.communicate(timeout=BOUND_S)
        self.lines += [x.strip() for x in out.splitlines()]
        return int(self.proc.returncode), err

    def events(self) -> int:
        return sum(1 for x in self.lines if x.startswith("event "))

    def committed(self) -> list[tuple[int, int]]:
        return [(int(p[1]), int(p[2])) for p in (x.split() for x in self.lines)
                if len(p) == 3 and p[0] == "event"]


def test_stations_ride_out_a_cut_a_server_restart_and_a_kill(
    pg_cluster: Any, pg_url: str, tmp_path: Path
) -> None:
    room = make_room(SqlStore(open_database(pg_url)))
    tables = []
    for i in range(3):
        table = room.svc.add_table(room.admin, CC_TABLE, name=f"CC {i + 1}")
        room.svc.open_shift(room.dealer, table.id, floor="fran",  # one dealer, floor allows
                            approval=Approval(name="fran", pin="2222"))
        tables.append(table.id)
    room.svc.store.close()  # type: ignore[attr-defined]
    dbname = pg_url.rsplit("/", 1)[1]
    with Proxy(pg_cluster.port) as proxy:
        stations = [
            Station(proxy.url(dbname) if i == 0 else pg_url, t, seed=7 + i, hands=8,
                    journal=tmp_path / f"journal-{i}.sqlite3")
            for i, t in enumerate(tables)
        ]
        try:
            for s in stations:
                s.read_until(12)
            # the network between station 1 and the server is cut, then restored
            proxy.cut()
            stations[0].read_until(10)
            proxy.restore()
            # the server stops mid-shift and comes back
            for s in stations:
                s.read_until(5)
            pg_cluster.halt()
            stations[1].read_until(3)
            pg_cluster.start(init=False)
            # a station killed mid-input, and started again on its journal
            stations[2].read_until(4)
            stations[2].kill_and_restart()
            results = [s.finish() for s in stations]
        finally:
            for s in stations:
                if s.proc.poll() is None:
                    s.proc.kill()
                    s.proc.communicate(timeout=BOUND_S)
    for (code, err), s in zip(results, stations, strict=True):
        assert code == 0, f"{s.lines[-3:]} {err[-2000:]}"
        assert s.lines[-1] == "synced"
        assert Journal(s.journal).count() == 0

    db = open_database(pg_url)
    with db.engine.connect() as conn:
        stored = conn.exec_driver_sql(
            "SELECT hand_id, number, count(*) FROM events WHERE hand_id IS NOT NULL "
            "GROUP BY hand_id, number").all()
    assert all(n == 1 for _h, _num, n in stored)
    on_server = {(h, num) for h, num, _n in stored}
    for s in stations:
        assert set(s.committed()) <= on_server
    with db.engine.connect() as conn:
        synced = conn.exec_driver_sql(
            "SELECT detail FROM audit_log WHERE action = 'journal-sync'").scalars().all()
        settled = conn.exec_driver_sql(
            "SELECT table_id, count(*) FROM hands WHERE status = 'settled' GROUP BY table_id"
        ).all()
        settlements = conn.exec_driver_sql(
            "SELECT l.hand_id, max(l.settlement), count(*) FILTER (WHERE l.kind = 'fee'), "
            "json_array_length(h.seats::json) FROM ledger_lines l JOIN hands h ON h.id = "
            "l.hand_id GROUP BY l.hand_id, h.seats").all()
    # each hand settled once: its per-player fee counted once for each player
    assert len(settlements) == 24
    assert all(n == 1 and fees == players for _h, n, fees, players in settlements)
    # the cut and the stop were ridden out on the journals of stations 1 and 2
    assert any(x.startswith("journal-0: ") for x in synced), synced
    assert any(x.startswith("journal-1: ") for x in synced), synced
    assert sorted(settled) == [(t, 8) for t in tables]
    report = verify_database(db)
    assert report.ok, report
    db.close()

"""Crash safety and concurrency: stations in child processes, killed with SIGKILL at random
moments or writing to one database at once. Reopened, nothing reported committed is missing,
every chain verifies and the open hand resumes."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from services.support import make_room

from dealer_assist.cards import parse_card
from dealer_assist.db.bootstrap import open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.events import CardDealt
from dealer_assist.services import Approval, HandFilter, StoreUnavailable

from .crash_child import plan
from .pg import PgCluster

CHILD = Path(__file__).with_name("crash_child.py")
CC_TABLE = {"game": "champs-and-cowards", "seats": 6, "smallest_chip": 100,
            "params": {"chip": 200, "decks": 1}, "fee": {"kind": "per-player", "amount": 100}}


def _room(url: str, tables: int) -> list[int]:
    """Users (the test cardroom's) and ``tables`` Champs and Cowards tables with open shifts."""
    room = make_room(SqlStore(open_database(url)))
    ids = []
    for i in range(tables):
        table = room.svc.add_table(room.admin, CC_TABLE, name=f"CC {i + 1}")
        room.svc.open_shift(room.dealer, table.id, floor="fran",  # one dealer, floor allows
                            approval=Approval(name="fran", pin="2222"))
        ids.append(table.id)
    room.svc.store.close()  # type: ignore[attr-defined]
    return ids


def _child(url: str, table_id: int, seed: int, hands: int) -> subprocess.Popen[str]:
    env = dict(os.environ, PYTHONPATH=str(CHILD.parent.parent))
    return subprocess.Popen(
        [sys.executable, str(CHILD), url, str(table_id), str(seed), str(hands)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
    )


def _committed(lines: list[str]) -> set[tuple[int, int]]:
    out = set()
    for line in lines:
        parts = line.split()
        if len(parts) == 3 and parts[0] == "event":
            out.add((int(parts[1]), int(parts[2])))
    return out


def test_sigkill_at_random_moments_loses_nothing_reported_and_the_hand_resumes(
    db_url: str,
) -> None:
    (table_id,) = _room(db_url, 1)
    rng = random.Random(6)
    reported: set[tuple[int, int]] = set()
    for _ in range(3):
        child = _child(db_url, table_id, seed=11, hands=1000)
        assert child.stdout is not None
        lines = [child.stdout.readline() for _ in range(rng.randint(5, 60))]
        assert child.poll() is None, child.communicate()[1]
        time.sleep(rng.uniform(0.0, 0.05))
        child.send_signal(signal.SIGKILL)
        rest, err = child.communicate(timeout=30)
        lines += rest.splitlines()
        assert child.returncode == -signal.SIGKILL, err
        reported |= _committed(lines)
        db = open_database(db_url)
        store = SqlStore(db)
        stored = {(r.hand_id, r.number) for h in store.list_hands(HandFilter(limit=None))
                  for r in store.hand_events(h.id)}
        assert reported <= stored, f"lost {sorted(reported - stored)}"
        report = verify_database(db)
        assert report.ok, report.summary()
        db.close()
    db = open_database(db_url)
    last = SqlStore(db).last_hand(table_id)
    db.close()
    assert last is not None
    hands = last.number  # the last run finishes the hand that was open, and stops
    child = _child(db_url, table_id, seed=11, hands=hands)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    db = open_database(db_url)
    store = SqlStore(db)
    done = store.list_hands(HandFilter(table_id=table_id, limit=None))
    assert sorted(h.number for h in done) == list(range(1, hands + 1))
    assert {h.status for h in done} == {"settled"}
    for h in done:
        want = [e.to_json() for e in plan(11, h.number)[1:]]
        assert [dict(r.body) for r in store.hand_events(h.id)[1:]] == want
    assert verify_database(db).ok
    db.close()


@pytest.mark.postgres
def test_stations_writing_to_one_postgresql_at_once_lose_nothing(pg_url: str) -> None:
    stations, hands = 3, 3
    tables = _room(pg_url, stations)
    children = [_child(pg_url, t, seed=20 + i, hands=hands) for i, t in enumerate(tables)]
    for child in children:
        _, err = child.communicate(timeout=90)
        assert child.returncode == 0, err
    db = open_database(pg_url)
    store = SqlStore(db)
    for i, t in enumerate(tables):
        done = store.list_hands(HandFilter(table_id=t, limit=None))
        assert sorted(h.number for h in done) == list(range(1, hands + 1))
        expected = sum(len(plan(20 + i, n)) for n in range(1, hands + 1))
        head = store.chain_head(t)
        assert head is not None and head.seq == expected
    report = verify_database(db)
    assert report.ok, report.summary()
    assert report.hands == stations * hands
    db.close()


def test_stations_sharing_one_sqlite_file_wait_for_each_other(sqlite_url: str) -> None:
    tables = _room(sqlite_url, 2)
    children = [_child(sqlite_url, t, seed=30 + i, hands=2) for i, t in enumerate(tables)]
    for child in children:
        _, err = child.communicate(timeout=90)
        assert child.returncode == 0, err
    db = open_database(sqlite_url)
    report = verify_database(db)
    assert report.ok and report.hands == 4, report.summary()
    db.close()


@pytest.mark.postgres
def test_postgresql_going_down_mid_hand_loses_nothing_and_the_retry_goes_in(
    pg_cluster: PgCluster,
) -> None:
    pg = PgCluster().start()  # a cluster of its own, to stop and start again
    try:
        room = make_room(SqlStore(open_database(pg.create_database())))
        now = room.svc.start_hand(room.dealer, room.table_id)
        room.svc.record(room.dealer, now.hand.id, CardDealt(seat=1, card=parse_card("9d")))
        pg.halt()
        card = CardDealt(seat=2, card=parse_card("Kc"))
        with pytest.raises(StoreUnavailable, match=r"cannot reach the database .* check the "
                           "network and that the database server is running, then retry; "
                           "nothing was recorded"):
            room.svc.record(room.dealer, now.hand.id, card)
        pg.start(init=False)
        after = room.svc.record(room.dealer, now.hand.id, card)
        assert [r.number for r in room.store.hand_events(now.hand.id)] == [1, 2, 3]
        assert after.prompt().to_act == 3
    finally:
        pg.stop()

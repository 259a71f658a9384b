"""Event store benchmarks.

- Recording one dealer input, commit included (the services' ``record``: the game's check, the
  chained append in one transaction), p50 and p99, against a bare insert-and-commit of a row of
  the same size with sqlite3 / psycopg, on SQLite (WAL, synchronous=FULL, both) and on a
  throwaway PostgreSQL cluster (fsync on).
- ``verify`` throughput on a 10,000-hand demo database, against replaying the same hands alone
  (events already in memory, no database, no hashing).
- ``verify --since-checkpoint`` (the shift close's check) against full verify on the same
  10,000-hand database with 100 hands dealt after its last signed checkpoint.

    /tmp/venv/bin/python bench/bench_store.py [--quick] [--no-postgresql] [--verify-only]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from dealer_assist.db.bootstrap import open_database  # noqa: E402
from dealer_assist.db.demo import fill_demo  # noqa: E402
from dealer_assist.db.store import SqlStore  # noqa: E402
from dealer_assist.db.verify import verify_database  # noqa: E402
from dealer_assist.engine.hand import Folded  # noqa: E402
from dealer_assist.engine.log import hand_events  # noqa: E402
from dealer_assist.engine.registry import game_names, get_game  # noqa: E402
from dealer_assist.engine.stored import fold  # noqa: E402
from dealer_assist.services import Argon2PinHasher, Services  # noqa: E402

CACHE = Path(os.environ.get("DEALER_ASSIST_BENCH_CACHE", tempfile.gettempdir()))
FAST = Argon2PinHasher(fast=True)
#: The game inputs are recorded for: the first game with a demo table, at its demo table.
GAME = next(get_game(g) for g in game_names() if get_game(g).demo is not None)
ROW = {"card": "9d", "seat": 3, "type": "card"}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def line(name: str, ours: float, peer_name: str, peer: float, unit: str) -> None:
    ratio = ours / peer if peer else float("inf")
    print(f"BENCH {name} ours={ours:.3f} {peer_name}={peer:.3f} ratio={ratio:.2f} {unit}",
          flush=True)


class Station:
    """A dealer station on a fresh database: ``step()`` records the next dealer input."""

    def __init__(self, url: str) -> None:
        svc = Services(SqlStore(open_database(url)), hasher=FAST)
        svc.create_first_admin(name="admin", full_name="Bench Admin", pin="1000")
        admin = svc.sign_in("admin", "1000")
        svc.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2000")
        svc.add_user(admin, name="dee", full_name="Dee Dealer", role="dealer", pin="3000")
        self.svc = svc
        self.dealer = svc.sign_in("dee", "3000")
        assert GAME.demo is not None
        self.table = svc.add_table(admin, dict(GAME.demo.settings), name="Bench").id
        svc.open_shift(self.dealer, self.table, floor="fran")
        self.game = GAME
        self.rng = random.Random(1)
        self.pending: list[Any] = []
        self.now: Any = None

    def step(self) -> float:
        """Milliseconds for one ``Services.record`` (check + chained append + commit)."""
        if not self.pending:
            if self.now is not None:
                self.svc.settle(self.dealer, self.now.hand.id)
            events = self.game.sample_hand(self.rng, players=min(6, self.game.players[1]))
            self.now = self.svc.start_hand(self.dealer, self.table,
                                           seats=list(events[0].seats))
            self.pending = list(events[1:])
        ev = self.pending.pop(0)
        t0 = time.perf_counter()
        self.now = self.svc.record(self.dealer, self.now.hand.id, ev)
        return (time.perf_counter() - t0) * 1000

    def close(self) -> None:
        #: inputs PostgreSQL took in one statement (the others took the locking path)
        self.one_statement = getattr(self.svc.store, "one_statement_appends", 0)
        self.svc.store.close()  # type: ignore[attr-defined]


class BareSqlite:
    """A bare insert-and-commit of a row of the same size, sqlite3, same pragmas."""

    def __init__(self, path: Path) -> None:
        self.con = sqlite3.connect(path, isolation_level=None)
        self.con.execute("PRAGMA journal_mode=WAL")
        self.con.execute("PRAGMA synchronous=FULL")
        self.con.execute("CREATE TABLE ev (id INTEGER PRIMARY KEY, seq INTEGER, time TEXT, "
                         "actor TEXT, body TEXT, hash TEXT)")
        self.body = json.dumps(ROW)
        self.i = 0

    def step(self) -> float:
        self.i += 1
        t0 = time.perf_counter()
        self.con.execute("BEGIN")
        self.con.execute("INSERT INTO ev (seq, time, actor, body, hash) VALUES (?, ?, ?, ?, ?)",
                         (self.i, "2026-11-22T00:00:00.000000+00:00", "dee", self.body,
                          "0" * 64))
        self.con.execute("COMMIT")
        return (time.perf_counter() - t0) * 1000

    def close(self) -> None:
        self.con.close()


class BarePostgresql:
    """A bare insert-and-commit of a row of the same size with psycopg."""

    def __init__(self, dsn: str) -> None:
        import psycopg

        self.con = psycopg.connect(dsn)
        self.con.execute("CREATE TABLE ev (id BIGSERIAL PRIMARY KEY, seq BIGINT, "
                         "time TIMESTAMP, actor TEXT, body TEXT, hash TEXT)")
        self.con.commit()
        self.body = json.dumps(ROW)
        self.i = 0

    def step(self) -> float:
        self.i += 1
        t0 = time.perf_counter()
        self.con.execute("INSERT INTO ev (seq, time, actor, body, hash) VALUES "
                         "(%s, now(), %s, %s, %s)", (self.i, "dee", self.body, "0" * 64))
        self.con.commit()
        return (time.perf_counter() - t0) * 1000

    def close(self) -> None:
        self.con.close()


def interleaved(ours: Any, bare: Any, inputs: int) -> tuple[list[float], list[float]]:
    """Alternate the two, so both see the same disk and machine load."""
    a: list[float] = []
    b: list[float] = []
    for _ in range(inputs):
        a.append(ours.step())
        b.append(bare.step())
    ours.close()
    bare.close()
    return a, b


def bench_sqlite(inputs: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        ours, bare = interleaved(Station(f"sqlite:///{tmp}/ours.db"),
                                 BareSqlite(Path(tmp) / "bare.db"), inputs)
    line("record-p50-sqlite", pct(ours, 0.5), "bare-insert", pct(bare, 0.5), "ms")
    line("record-p99-sqlite", pct(ours, 0.99), "bare-insert", pct(bare, 0.99), "ms")


def bench_postgresql(inputs: int) -> None:
    from db.pg import PgCluster, pg_bin

    if pg_bin() is None:
        print("# record-postgresql skipped: no PostgreSQL binaries", flush=True)
        return
    with PgCluster(fsync=True) as pg:
        pg.create_database("bare")
        bare = BarePostgresql(f"host=127.0.0.1 port={pg.port} user=postgres dbname=bare")
        station = Station(pg.create_database("ours"))
        ours, base = interleaved(station, bare, inputs)
    print(f"# record-postgresql: {station.one_statement} of {inputs} inputs in one statement",
          flush=True)
    line("record-p50-postgresql", pct(ours, 0.5), "bare-insert", pct(base, 0.5), "ms")
    line("record-p99-postgresql", pct(ours, 0.99), "bare-insert", pct(base, 0.99), "ms")


def demo_database(hands: int) -> str:
    """A demo database of ``hands`` hands, made once and kept in the cache folder."""
    path = CACHE / f"dealer-assist-bench-demo-{hands}.sqlite3"
    url = f"sqlite:///{path}"
    if path.exists():
        db = open_database(url)
        with db.engine.connect() as conn:
            have = conn.exec_driver_sql("SELECT COUNT(*) FROM hands").scalar()
        db.close()
        if have == hands:
            return url
        for p in path.parent.glob(path.name + "*"):
            p.unlink()
    db = open_database(url)
    result = fill_demo(db, hands=hands, tables=4, seed=1, hasher=FAST)
    print(f"# {result.summary()}", flush=True)
    db.close()
    return url


def replay_only(url: str) -> tuple[float, int]:
    """Hands per second folding every hand's events, already parsed, in memory."""
    db = open_database(url)
    hands: dict[int, list[Any]] = {}
    with db.engine.connect() as conn:
        for hand_id, body in conn.exec_driver_sql(
            "SELECT hand_id, body FROM events WHERE hand_id IS NOT NULL ORDER BY table_id, seq"
        ):
            hands.setdefault(hand_id, []).append(json.loads(body))
    db.close()
    parsed = [hand_events(lines) for lines in hands.values()]
    t0 = time.perf_counter()
    for events in parsed:
        result = fold(events)
        assert isinstance(result, Folded)
        if result.over:  # (a misdeal settles as refunds; a hand left open has nothing yet)
            result.settle()
    took = time.perf_counter() - t0
    return len(hands) / took, len(hands)


def bench_verify(hands: int) -> None:
    """``verify_database`` as the CLI runs it (its parts on every CPU), against replaying the
    same hands alone in this one process."""
    import resource

    def cpu() -> list[float]:  # this process, and its finished children (verify's workers)
        return [r.ru_utime + r.ru_stime for r in (resource.getrusage(resource.RUSAGE_SELF),
                                                  resource.getrusage(resource.RUSAGE_CHILDREN))]

    url = demo_database(hands)
    db = open_database(url)
    before = cpu()
    t0 = time.perf_counter()
    report = verify_database(db)
    took = time.perf_counter() - t0
    here, workers = (b - a for a, b in zip(before, cpu(), strict=True))
    db.close()
    assert report.ok, report.summary()
    peer, n = replay_only(url)
    assert n == report.hands
    print(f"# verify: {report.hands} hands, {report.events} events in {took:.2f} s; CPU "
          f"{here:.2f} s in this process, {workers:.2f} s in its workers", flush=True)
    line("verify", report.hands / took, "replay-only", peer, "hands/s")


def bench_verify_incremental(hands: int, after: int = 100) -> None:
    """``verify --since-checkpoint`` (what the shift close runs) against full verify, on a copy
    of the demo database with ``after`` hands dealt after its last signed checkpoint."""
    import shutil

    from dealer_assist.db.checkpoints import sign_checkpoint
    from dealer_assist.db.keys import create_key

    url = demo_database(hands)
    folder = Path(tempfile.mkdtemp(prefix="dealer-assist-bench-"))
    try:
        src = Path(url.removeprefix("sqlite:///"))
        con = sqlite3.connect(src)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.close()
        shutil.copy(src, folder / "copy.sqlite3")
        db = open_database(f"sqlite:///{folder / 'copy.sqlite3'}")
        key = create_key(folder / "room-key.pem")
        # only a checkpoint signed with what a check found intact is a starting point for
        # --since-checkpoint: the copy is checked whole first, as a shift close does
        assert verify_database(db).ok
        sign_checkpoint(db, key, reason="bench", checked={"full": True})
        fill_demo(db, hands=after, tables=4, seed=2, hasher=FAST)
        t0 = time.perf_counter()
        inc = verify_database(db, key=key, since_checkpoint=True)
        took_inc = time.perf_counter() - t0
        t0 = time.perf_counter()
        full = verify_database(db, key=key)
        took_full = time.perf_counter() - t0
        db.close()
        assert inc.ok and full.ok, (inc.summary(), full.summary())
        print(f"# verify-incremental: {inc.hands} hands since checkpoint {inc.since}; full: "
              f"{full.hands} hands", flush=True)
        line("verify-incremental", took_inc, "full", took_full, "s")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer inputs and hands")
    ap.add_argument("--no-postgresql", action="store_true")
    ap.add_argument("--hands", type=int, default=None, help="demo hands for verify (10000)")
    ap.add_argument("--verify-only", action="store_true", help="only the verify benchmarks")
    args = ap.parse_args()
    inputs = 300 if args.quick else 2000
    if not args.verify_only:
        bench_sqlite(inputs)
        if not args.no_postgresql:
            bench_postgresql(inputs)
    bench_verify(args.hands or (1000 if args.quick else 10000))
    bench_verify_incremental(args.hands or (1000 if args.quick else 10000),
                             20 if args.quick else 100)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The room on one PostgreSQL: 50 tables, each a station recording one dealer input a second.

- Recording one input (the services' ``record``: the game's check, the chained append, the
  commit, and the NOTIFY its transaction sends), p50 and p99 over every input of the run, beside
  a bare insert-and-commit of a row of the same size on its own connection, made at the same time
  under the same load (10 a second).
- The floor's delay: from the moment a dealer's input starts to the moment the floor's live
  view has rebuilt that table's row with that input in it, with the view told by PostgreSQL's
  LISTEN/NOTIFY, beside the same view told by polling the tables' chain heads every 0.2 s (the
  SQLite way), both following the same run. Each floor view runs in its own process, as the
  floor's console runs on its own machine in a room (the stations are other machines): the
  stations' threads here share one process, and a view among them would measure their lock.
- The stations sharing one process share one heap too: before the timed run the set-up's
  objects are collected and frozen (``gc.freeze``), so a full collection during the run walks
  what the run makes, as a station's own would, not fifty stations' set-ups (see
  docs/benchmarks.md).

    .venv/bin/python bench/bench_room.py [--tables 50] [--seconds 20]
"""

from __future__ import annotations

import argparse
import bisect
import gc
import json
import multiprocessing
import random
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from dealer_assist.db.bootstrap import open_database  # noqa: E402
from dealer_assist.db.notify import PgFeed, PollFeed  # noqa: E402
from dealer_assist.db.store import SqlStore  # noqa: E402
from dealer_assist.engine.registry import get_game  # noqa: E402
from dealer_assist.services import Approval, Argon2PinHasher, Services  # noqa: E402
from dealer_assist.services.live import ChangeFeed, LiveView  # noqa: E402

FAST = Argon2PinHasher(fast=True)
CC = {"game": "champs-and-cowards", "seats": 8, "smallest_chip": 100,
      "params": {"chip": 200, "decks": 1}, "fee": {"kind": "per-player", "amount": 100}}
ROW = {"card": "9d", "seat": 3, "type": "card"}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def line(name: str, ours: float, peer_name: str, peer: float, unit: str) -> None:
    ratio = ours / peer if peer else float("inf")
    print(f"BENCH {name} ours={ours:.3f} {peer_name}={peer:.3f} ratio={ratio:.2f} {unit}",
          flush=True)


class Inputs:
    """When each input started: (table, hand, event number) -> the start time."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.started: list[tuple[int, int, int, float]] = []

    def add(self, table_id: int, hand_id: int, number: int, at: float) -> None:
        with self.lock:
            self.started.append((table_id, hand_id, number, at))


class Table:
    """One station: its own store (connection) on the room's database, dealing one table."""

    def __init__(self, url: str, table_id: int, seed: int) -> None:
        self.svc = Services(SqlStore(open_database(url)), hasher=FAST)
        self.dealer = self.svc.sign_in("dee", "3000")
        self.table = table_id
        self.game = get_game("champs-and-cowards")
        self.rng = random.Random(seed)
        self.pending: list[Any] = []
        self.now: Any = None

    def step(self, inputs: Inputs) -> float:
        if not self.pending:
            if self.now is not None:
                self.svc.settle(self.dealer, self.now.hand.id)
            events = self.game.sample_hand(self.rng, players=6)
            self.now = self.svc.start_hand(self.dealer, self.table, seats=list(events[0].seats))
            self.pending = list(events[1:])
        ev = self.pending.pop(0)
        t0 = time.perf_counter()
        self.now = self.svc.record(self.dealer, self.now.hand.id, ev)
        took = (time.perf_counter() - t0) * 1000
        inputs.add(self.table, self.now.hand.id, self.now.hand.events, t0)
        return took


def follow(kind: str, url: str, ready: Any, stop: Any, out: Any) -> None:
    """The floor, in a process of its own: on each change, rebuild the changed tables' rows;
    every row seen, as (table, hand, events in it, when it was built). ``time.perf_counter``
    is the system's monotonic clock, the same in every process."""
    feed: ChangeFeed = PgFeed(url) if kind == "notify" else PollFeed(open_database(url),
                                                                     interval=0.2)
    view = LiveView(Services(SqlStore(open_database(url)), hasher=FAST))
    seen: list[tuple[int, int, int, float]] = []
    first = True
    while not stop.is_set():
        changed = feed.wait(0.2)
        rows = view.all() if changed is None else view.rows(changed) if changed else []
        done = time.perf_counter()
        seen.extend((r.table_id, r.hand_id or 0, r.events, done) for r in rows)
        if first:
            first = False
            ready.set()
    feed.close()
    out.send(seen)
    out.close()


def delays(inputs: list[tuple[int, int, int, float]],
           seen: list[tuple[int, int, int, float]]) -> list[float]:
    """For each input, ms from its start to the first row the floor built holding it (the
    same hand with at least its number of events, or a later hand)."""
    per_table: dict[int, list[tuple[float, tuple[int, int]]]] = {}
    for table_id, hand_id, events, at in seen:
        per_table.setdefault(table_id, []).append((at, (hand_id, events)))
    out: list[float] = []
    for table_id, hand_id, number, t0 in inputs:
        rows = per_table.get(table_id, [])
        i = bisect.bisect_left(rows, (t0,))
        got = next((at for at, key in rows[i:] if key >= (hand_id, number)), None)
        if got is not None:
            out.append((got - t0) * 1000)
    return out


def run(tables: int, seconds: float) -> None:
    from db.pg import PgCluster, pg_bin

    if pg_bin() is None:
        print("# bench_room skipped: no PostgreSQL binaries", flush=True)
        return
    # each station: the store's own connection and a pooled one for reads; the floor's two
    with PgCluster(fsync=True, max_connections=3 * tables + 20) as pg:
        import psycopg

        url = pg.create_database("room")
        pg.create_database("bare")
        setup = Services(SqlStore(open_database(url)), hasher=FAST)
        setup.create_first_admin(name="admin", full_name="Bench Admin", pin="1000")
        admin = setup.sign_in("admin", "1000")
        setup.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2000")
        setup.add_user(admin, name="dee", full_name="Dee Dealer", role="dealer", pin="3000")
        dee = setup.sign_in("dee", "3000")
        ids = []
        for i in range(tables):
            t = setup.add_table(admin, CC, name=f"T{i + 1:02d}")
            # one dealer at every table: the floor allows each table past the first
            setup.open_shift(dee, t.id, floor="fran",
                             approval=Approval(name="fran", pin="2000") if ids else None)
            ids.append(t.id)
        stations = [Table(url, t, seed=i) for i, t in enumerate(ids)]

        bare = psycopg.connect(f"host=127.0.0.1 port={pg.port} user=postgres dbname=bare",
                               autocommit=True)
        bare.execute("CREATE TABLE ev (id BIGSERIAL PRIMARY KEY, table_id INT, seq BIGINT, "
                     "time TIMESTAMP, actor TEXT, body TEXT, prev_hash TEXT, hash TEXT)")
        body = json.dumps(ROW)

        inputs = Inputs()
        ctx = multiprocessing.get_context("spawn")
        stop = ctx.Event()
        floors = []
        for kind in ("notify", "poll"):
            ready = ctx.Event()
            mine, theirs = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=follow, args=(kind, url, ready, stop, theirs), daemon=True)
            proc.start()
            floors.append((kind, proc, ready, mine))
        for _kind, _proc, ready, _pipe in floors:
            ready.wait(60)  # listening / has its first picture

        ours: list[float] = []
        base: list[float] = []
        errors: list[str] = []
        # Fifty stations' heaps share this one process, so one full collection of Python's
        # cyclic collector would walk all of them (120-170 ms measured, every thread stopped):
        # a pause no station, with its own heap, has. What the set-up made is collected and
        # frozen out of later collections; what the run makes is collected as usual.
        gc.collect()
        gc.freeze()
        t0 = time.perf_counter() + 0.2
        rounds = int(seconds)

        def deal(i: int, st: Table) -> None:
            for k in range(rounds):
                wait = t0 + k + i / tables - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                try:
                    ours.append(st.step(inputs))
                except Exception as exc:  # counted and named, never hidden
                    errors.append(f"{type(exc).__name__}: {exc}")

        def bare_inserts() -> None:
            for k in range(rounds * 10):
                wait = t0 + k / 10 + 0.037 - time.perf_counter()
                if wait > 0:
                    time.sleep(wait)
                a = time.perf_counter()
                bare.execute(
                    "INSERT INTO ev (table_id, seq, time, actor, body, prev_hash, hash) "
                    "VALUES (%s, %s, now(), %s, %s, %s, %s)",
                    (1, k + 1, "dee", body, "0" * 64, "f" * 64))
                base.append((time.perf_counter() - a) * 1000)

        workers = [threading.Thread(target=deal, args=(i, st)) for i, st in enumerate(stations)]
        workers.append(threading.Thread(target=bare_inserts))
        for w in workers:
            w.start()
        for w in workers:
            w.join(timeout=seconds + 120)
        time.sleep(1.0)  # the floors catch up with the last inputs
        stop.set()
        seen = {}
        for kind, proc, _ready, pipe in floors:
            seen[kind] = pipe.recv() if pipe.poll(30) else []
            proc.join(timeout=10)
        notify_delays = delays(inputs.started, seen["notify"])
        poll_delays = delays(inputs.started, seen["poll"])
        bare.close()
        for st in stations:
            st.svc.store.close()  # type: ignore[attr-defined]
        setup.store.close()  # type: ignore[attr-defined]
    print(f"# {tables} tables x {rounds} s: {len(ours)} inputs recorded, {len(errors)} refused"
          + (f" (first: {errors[0]})" if errors else "")
          + f"; the floor saw {len(notify_delays)} by NOTIFY, {len(poll_delays)} by polling",
          flush=True)
    line("room-record-p50", pct(ours, 0.5), "bare-insert", pct(base, 0.5), "ms")
    line("room-record-p99", pct(ours, 0.99), "bare-insert", pct(base, 0.99), "ms")
    line("room-floor-delay-p50", pct(notify_delays, 0.5), "polling", pct(poll_delays, 0.5), "ms")
    line("room-floor-delay-p99", pct(notify_delays, 0.99), "polling", pct(poll_delays, 0.99),
         "ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--quick", action="store_true", help="10 tables for 5 s")
    ap.add_argument("--no-postgresql", action="store_true", help="skip (this bench needs it)")
    args, _ = ap.parse_known_args()
    if args.no_postgresql:
        return 0
    if args.quick:
        args.tables, args.seconds = 10, 5.0
    run(args.tables, args.seconds)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The floor board on one PostgreSQL: 50 tables open on the board and 300 players waiting.

- Recording one floor action (the handler: the board's lock, the records since the last read
  folded, the checks, the chained append, the commit and the NOTIFY its transaction sends), p50
  and p99, beside a bare insert-and-commit of a row of the same columns on its own connection,
  made in turn with them: each goes first after the pause between rounds in half of them (the
  one made right after the other finds the machine warm, a quarter to half a millisecond
  faster: see docs/benchmarks.md). (The tables are not dealing here: bench_room measures the room's
  load; this measures the floor's own path.) 400 actions by default: the p99 is then the fifth
  worst of each, not the second or third, which one scheduling hiccup moves.
- Before the timed run what the set-up made is collected and frozen (``gc.freeze``), as the
  app does after a station's start-up (``ui/main_window.py``'s ``open_app``).
- The board's delay: from the moment an action starts to the moment the players' board's feed
  hears of it, told by LISTEN/NOTIFY, beside the same feed polling the records' head every
  0.2 s (the SQLite way), each in a process of its own (the board is its own machine).

    .venv/bin/python bench/bench_floor.py [--tables 50] [--waiting 300] [--actions 400]
"""

from __future__ import annotations

import argparse
import gc
import multiprocessing
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from dealer_assist.db.bootstrap import floor_board, open_database  # noqa: E402
from dealer_assist.db.store import SqlStore  # noqa: E402
from dealer_assist.services import Argon2PinHasher, Services  # noqa: E402

FAST = Argon2PinHasher(fast=True)


def table(i: int) -> dict[str, Any]:
    return {"game": "champs-and-cowards", "seats": 8, "smallest_chip": 100,
            "stakes": "$2 chip" if i % 2 else "$5 chip", "params": {"chip": 200, "decks": 1}}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def line(name: str, ours: float, peer_name: str, peer: float, unit: str) -> None:
    ratio = ours / peer if peer else float("inf")
    print(f"BENCH {name} ours={ours:.3f} {peer_name}={peer:.3f} ratio={ratio:.2f} {unit}",
          flush=True)


def follow(kind: str, url: str, ready: Any, stop: Any, out: Any) -> None:
    """A board's feed in its own process: the time each change was heard."""
    from dealer_assist.db.board_feed import PgBoardFeed, PollBoardFeed

    db = open_database(url)
    feed = PgBoardFeed(url) if kind == "notify" else PollBoardFeed(db, interval=0.2)
    feed.wait(0.5)  # connected / first picture
    ready.set()
    heard: list[float] = []
    while not stop.is_set():
        if feed.wait(0.1):
            heard.append(time.perf_counter())
    out.send(heard)
    feed.close()


def run(tables: int, waiting: int, actions: int) -> None:
    from db.pg import PgCluster, pg_bin

    if pg_bin() is None:
        print("# bench_floor skipped: no PostgreSQL binaries", flush=True)
        return
    with PgCluster(fsync=True, max_connections=40) as pg:
        import psycopg

        url = pg.create_database("floor")
        pg.create_database("bare")
        db = open_database(url)
        svc = Services(SqlStore(db), hasher=FAST)
        svc.create_first_admin(name="admin", full_name="Bench Admin", pin="1000")
        admin = svc.sign_in("admin", "1000")
        svc.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2000")
        fran = svc.sign_in("fran", "2000")
        ids = [svc.add_table(admin, table(i), name=f"T{i + 1:02d}").id for i in range(tables)]
        board = floor_board(db, svc.clock)
        for t in ids:
            board.open_table(fran, t)
        for p in range(waiting):
            board.add_to_list(fran, f"P{p:03d}", "champs-and-cowards",
                              "$2 chip" if p % 2 else "$5 chip")
        bare = psycopg.connect(f"host=127.0.0.1 port={pg.port} user=postgres dbname=bare",
                               autocommit=True)
        bare.execute("CREATE TABLE fe (id SERIAL PRIMARY KEY, seq BIGINT, at TIMESTAMP, "
                     "actor TEXT, prev_hash TEXT, hash TEXT, action TEXT, table_id INT, "
                     "seat INT, player TEXT, game TEXT, stakes TEXT, entry BIGINT, "
                     "amount BIGINT, minutes INT, other_table INT, setting TEXT, value TEXT)")

        ctx = multiprocessing.get_context("spawn")
        stop = ctx.Event()
        boards = []
        for kind in ("notify", "poll"):
            ready = ctx.Event()
            mine, theirs = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=follow, args=(kind, url, ready, stop, theirs), daemon=True)
            proc.start()
            boards.append((kind, proc, ready, mine))
        for _k, _p, ready, _m in boards:
            ready.wait(60)

        # what the set-up made stays (as a board freezes what its start-up built: ui's
        # open_app): a full collection, about 30 ms here, walks only what the run makes
        gc.collect()
        gc.freeze()
        ours: list[float] = []
        base: list[float] = []
        started: list[float] = []
        def insert_bare(n: int) -> None:
            t1 = time.perf_counter()
            bare.execute("INSERT INTO fe (seq, at, actor, prev_hash, hash, action, player, "
                         "game, stakes) VALUES (%s, %s, 'fran', %s, %s, 'list-add', %s, "
                         "'champs-and-cowards', '$2 chip')",
                         (n, datetime.now(UTC).replace(tzinfo=None), "0" * 64, "f" * 64,
                          f"N{n:04d}"))
            base.append(time.perf_counter() - t1)

        for n in range(actions):
            last = board.state().lists[("champs-and-cowards", "$2 chip")][-1].entry
            if n % 4 >= 2:  # each goes first (after the pause) in half the rounds
                insert_bare(n)
            t0 = time.perf_counter()
            started.append(t0)
            if n % 2 == 0:
                board.add_to_list(fran, f"N{n:04d}", "champs-and-cowards", "$2 chip")
            else:
                board.remove(fran, last)
            ours.append(time.perf_counter() - t0)
            if n % 4 < 2:
                insert_bare(n)
            time.sleep(0.25)  # one action at a time, apart enough for a 0.2 s poll to see each
        time.sleep(0.5)
        stop.set()
        heard = {}
        for kind, proc, _ready, mine in boards:
            heard[kind] = mine.recv()
            proc.join(10)
        bare.close()
        db.close()

    ms = 1000.0
    line("floor-action-p50", pct(ours, 0.5) * ms, "bare-insert", pct(base, 0.5) * ms, "ms")
    line("floor-action-p99", pct(ours, 0.99) * ms, "bare-insert", pct(base, 0.99) * ms, "ms")
    delay: dict[str, list[float]] = {}
    for kind, times in heard.items():
        out = []
        for i, s in enumerate(started):
            end = started[i + 1] if i + 1 < len(started) else float("inf")
            seen = [h for h in times if s <= h < end]
            if seen:
                out.append(seen[0] - s)
        delay[kind] = out
        print(f"# {kind}: heard {len(out)} of {len(started)} actions", flush=True)
    for q, name in ((0.5, "p50"), (0.99, "p99")):
        line(f"board-delay-{name}", pct(delay["notify"], q) * ms, "polling",
             pct(delay["poll"], q) * ms, "ms")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tables", type=int, default=50)
    ap.add_argument("--waiting", type=int, default=300)
    ap.add_argument("--actions", type=int, default=400)
    ap.add_argument("--quick", action="store_true", help="10 tables, 60 waiting, 40 actions")
    ap.add_argument("--no-postgresql", action="store_true", help="skip (this bench needs it)")
    args, _ = ap.parse_known_args()
    if args.no_postgresql:
        return 0
    if args.quick:
        args.tables, args.waiting, args.actions = 10, 60, 40
    run(args.tables, args.waiting, args.actions)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: the dossier's simulation, per game, beside replaying the same hands.

For each game, ``--hands`` hands are dealt at its demo table's settings on ``--workers``
processes (default: every CPU), exactly as ``dealer-assist dossier`` deals them. Within the same
run each hand is dealt and settled (``ours``: the game's ``sample_hand``, the fold and the
settlement, with the stakes and conservation checks and the game's own numbers) and then its log
is written as JSON Lines, read back line by line as ``verify`` reads a stored hand, and replayed
to its settlement (``replay``). Both rates are
hands per second of one process, times the workers; ``wall`` is the whole simulation's rate by
the clock (checks included), the figure that says how long a dossier of a million hands takes.

    .venv/bin/python bench/bench_dossier.py [--hands 4000] [--workers N] [--games a,b]
"""

from __future__ import annotations

import argparse
import os
import time

from dealer_assist.dossier.simulate import plan, simulate
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.settings.table import parse_table_settings


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=4000)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--games", default="")
    args = ap.parse_args()
    games = [g for g in args.games.split(",") if g] or game_names()
    for name in games:
        demo = get_game(name).demo
        if demo is None:
            continue
        document = dict(demo.settings)
        p = plan(document, parse_table_settings(document))
        started = time.perf_counter()
        t = simulate(p, args.hands, seed=1, workers=args.workers, chunk=500)
        wall = time.perf_counter() - started
        if t.failed:
            raise SystemExit(f"bench: {name}: {t.failed} hands failed: {t.failures[0]}")
        ours = t.hands / t.simulate_s * args.workers
        replay = t.hands / t.replay_s * args.workers
        print(f"BENCH simulate-{name} ours={ours:.0f} replay={replay:.0f} "
              f"ratio={ours / replay:.2f} hands/s ({args.workers} workers)")
        print(f"BENCH simulate-{name}-wall ours={t.hands / wall:.0f} hands/s with every check "
              f"({args.hands} hands in {wall:.1f} s; a million would take "
              f"{1_000_000 / (t.hands / wall) / 60:.0f} min)")


if __name__ == "__main__":
    main()

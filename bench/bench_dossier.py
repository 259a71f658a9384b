"""Benchmark: the dossier's simulation, per game, beside replaying the same hands.

For each game, ``--hands`` hands are dealt at its demo table's settings on ``--workers``
processes (default: every CPU), exactly as ``dealer-assist dossier`` deals them. Within the same
run each hand is dealt and settled (``ours``: the game's ``sample_deal``, its settlement, the
table and conservation checks, the log written and the game's own numbers) and then its log
is read back line by line as ``verify`` reads a stored hand, and replayed to its settlement
(``replay``). Both rates are hands per second of one process, times the workers.

``simulate-<game>-wall`` is the whole simulation's rate by the clock, every check included: the
figure that says how long a dossier of a million hands takes. Its yardstick, measured in the
same run, is ``fold``: the game's own fold of the same number of its sample hands (each event
applied by its rules, through its working copy where it gives one, as ``verify`` folds a stored
hand; nothing else), in this process, times the workers; the simulation deals and replays
every hand, so it cannot reach half of it.

    .venv/bin/python bench/bench_dossier.py [--hands 1000] [--workers N] [--games a,b]
"""

from __future__ import annotations

import argparse
import os
import random
import time

from dealer_assist.dossier.simulate import Plan, plan, simulate
from dealer_assist.engine.hand import fold
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.settings.table import parse_table_settings


def main() -> None:
    ap = argparse.ArgumentParser()
    # (1,000 hands a game: two chunks of 500, one on each of 2 workers, a steady rate;
    # 4,000 for each of the 14 games ran past the 15 minutes `scripts/bench` has on 2 cores)
    ap.add_argument("--hands", type=int, default=1000)
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
        rate = t.hands / wall
        folds = _fold_rate(p, min(args.hands, 1000)) * args.workers
        print(f"BENCH simulate-{name}-wall ours={rate:.0f} fold={folds:.0f} "
              f"ratio={rate / folds:.2f} hands/s with every check ({args.hands} hands in "
              f"{wall:.1f} s on {args.workers} workers; a million would take "
              f"{1_000_000 / rate / 60:.1f} min)")


def _fold_rate(p: Plan, n: int) -> float:
    """Hands per second of the game's bare fold of ``n`` of its sample hands (one process)."""
    game = get_game(p.game)
    rng = random.Random(2)
    params = dict(p.params)
    if p.carries:
        params[game.key("carry_in")] = 0
    hands = [list(game.sample_hand(rng, players=p.players, params=params)) for _ in range(n)]
    started = time.perf_counter()
    for events in hands:
        fold(events)
    return n / (time.perf_counter() - started)


if __name__ == "__main__":
    main()

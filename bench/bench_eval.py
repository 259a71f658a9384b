"""Hand-evaluation benchmarks: ours against eval7, treys and pokerkit, measured in the same run.

    python bench/bench_eval.py [--hands N] [--repeat R]

Every evaluator ranks the same pre-generated hands, each given in its own library's card form
(built before the clock starts, as each library expects callers to do). Rates are the best of R
timed passes (the least disturbed by other work on the machine).

Lines:
  BENCH eval-7card        ours=strength(encode(cards)) -> int, against each peer's public call
  BENCH eval-7card-object ours=evaluate(cards) -> HandValue (checks the cards, builds the object)
  BENCH caro-best-hand    ours=best_hand(board, private, max_private=2) with our Card objects,
                          against eval7 over every allowed choice of private cards (1 + 5 + 10)
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable
from functools import partial
from itertools import combinations, pairwise, starmap
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dealer_assist.cards import Card, full_deck
from dealer_assist.evaluate import best_hand, encode, evaluate, strength

#: One contender: its own pre-built inputs, and the call that evaluates one input (``star``:
#: the input is an argument tuple).
Contender = tuple[list[Any], Callable[..., object], bool]
CHUNK = 500


def race(runs: dict[str, Contender], repeat: int) -> dict[str, float]:
    """Evaluations per second for each contender.

    The inputs are timed in chunks of CHUNK; each chunk is run ``repeat`` times, the contenders
    taking turns, and the fastest run of each chunk counts (as timeit keeps the best of its
    repeats). Short chunks find the moments the machine is not busy with other work, and turns
    make sure a busy spell hits every contender alike. Results are dropped as they come.
    """
    total = dict.fromkeys(runs, 0.0)
    chunks = {
        name: [items[i : i + CHUNK] for i in range(0, len(items), CHUNK)]
        for name, (items, _fn, _star) in runs.items()
    }
    gc.disable()  # as timeit does: no collector pauses inside a timed run
    try:
        for k in range(max(len(c) for c in chunks.values())):
            best = dict.fromkeys(runs, float("inf"))
            for _ in range(repeat):
                for name, (_items, fn, star) in runs.items():
                    if k >= len(chunks[name]):
                        continue
                    chunk = chunks[name][k]
                    start = time.perf_counter()
                    drain(starmap(fn, chunk) if star else map(fn, chunk))
                    best[name] = min(best[name], time.perf_counter() - start)
            for name in runs:
                if k < len(chunks[name]):
                    total[name] += best[name]
            gc.collect()
    finally:
        gc.enable()
    return {name: len(runs[name][0]) / total[name] for name in runs}


def drain(results: Iterable[object]) -> None:
    deque(results, maxlen=0)


def line(figure: str, ours: float, peer: str, theirs: float, unit: str) -> None:
    print(
        f"BENCH {figure} ours={ours:.0f} {peer}={theirs:.0f} ratio={ours / theirs:.2f} {unit}",
        flush=True,
    )


def peer_module(name: str) -> Any:
    try:
        return __import__(name)
    except ImportError:
        print(
            f"bench: {name} is not installed (pip install -e '.[bench]'); skipping it",
            file=sys.stderr,
        )
        return None


def bench_7card(hands: list[tuple[Card, ...]], repeat: int) -> None:
    n = len(hands)
    encoded = [encode(h) for h in hands]
    runs: dict[str, Contender] = {
        "ours": (encoded, strength, False),
        "ours-object": (hands, evaluate, False),
    }
    eval7 = peer_module("eval7")
    if eval7 is not None:
        e7 = [[eval7.Card(c.code) for c in h] for h in hands]
        ev = eval7.evaluate
        # Sanity: both rank a sample in the same order, so we time two evaluators that agree.
        if not _same_order(list(range(0, n, max(1, n // 2000))), encoded, e7, ev):
            raise SystemExit("bench: our order and eval7's differ; run the test suite")
        runs["eval7"] = (e7, ev, False)
    treys = peer_module("treys")
    if treys is not None:
        tr = [
            ([treys.Card.new(c.code) for c in h[:2]], [treys.Card.new(c.code) for c in h[2:]])
            for h in hands
        ]
        tev = treys.Evaluator().evaluate
        runs["treys"] = (tr, tev, True)
    pokerkit = peer_module("pokerkit")
    if pokerkit is not None:
        m = min(n, 2_000)  # pokerkit is slow; a rate is per hand either way
        pk = [
            (
                tuple(pokerkit.Card.parse("".join(c.code for c in h[:2]))),
                tuple(pokerkit.Card.parse("".join(c.code for c in h[2:]))),
            )
            for h in hands[:m]
        ]
        from_game = pokerkit.StandardHighHand.from_game
        runs["pokerkit"] = (pk, from_game, True)
    rates = race(runs, repeat)
    for peer in ("eval7", "treys", "pokerkit"):
        if peer in rates:
            line("eval-7card", rates["ours"], peer, rates[peer], "evals/s")
    if "eval7" in rates:
        line("eval-7card-object", rates["ours-object"], "eval7", rates["eval7"], "evals/s")


def _same_order(sample: list[int], encoded: list[Any], e7: list[Any], ev: Any) -> bool:
    pairs = sorted((strength(encoded[i]), ev(e7[i])) for i in sample)
    return all(
        (a[0] < b[0]) == (a[1] < b[1]) for a, b in pairwise(pairs)
    )


def bench_caro(deals: list[tuple[tuple[Card, ...], tuple[Card, ...]]], repeat: int) -> None:
    eval7 = peer_module("eval7")
    if eval7 is None:
        return
    ev = eval7.evaluate
    subsets = [s for k in range(3) for s in combinations(range(5), k)]  # 1 + 5 + 10
    e7 = [
        ([eval7.Card(c.code) for c in b], [eval7.Card(c.code) for c in p]) for b, p in deals
    ]

    def brute(b: list[Any], p: list[Any]) -> int:
        return max(ev(b + [p[i] for i in s]) for s in subsets)

    rates = race(
        {
            "ours": (deals, partial(best_hand, max_private=2), True),
            "eval7": (e7, brute, True),
        },
        repeat,
    )
    line("caro-best-hand", rates["ours"], "eval7-bruteforce", rates["eval7"], "hands/s")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=50_000, help="7-card hands (default 50000)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per chunk, best kept (default 5)")
    args = ap.parse_args()
    rng = random.Random(7462)
    deck = full_deck()
    hands = [tuple(rng.sample(deck, 7)) for _ in range(args.hands)]
    bench_7card(hands, args.repeat)
    deals = []
    for _ in range(max(1, args.hands // 5)):
        ten = rng.sample(deck, 10)
        deals.append((tuple(ten[:5]), tuple(ten[5:])))
    bench_caro(deals, args.repeat)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Hand-replay benchmark: how many whole hands per second ``engine.hand.replay`` folds, and how
many a second are re-derived as ``verify`` and the reports do it.

    python bench/bench_replay.py [--hands N] [--repeat R] [--seed S]

``verify`` and every report replay each stored hand from its event log, so replay speed bounds
them. The hands are sample hands of each installed game (from its fewest players to four more,
within its most: 3 to 7 for Champs and Cowards, 2 to 6 for Caro Hold 'em), built before the
clock starts. ``replay-*`` folds each hand with
``engine.hand.replay`` (a step, with its state, for every event, as the replay screen shows
them); ``rederive-*`` does what ``verify`` and the shift report do for each hand:
``engine.hand.fold`` (the game's ``start``, every event checked and applied, on the game's
working copy where it gives one) and the settlement.

The baseline, measured in the same run on the same hands, is decoding the hands' stored JSON
lines with the standard library (``json.loads`` of each line, no events built): the least any
reader of a stored hand pays, and a yardstick for the machine's speed that does not depend on
this project's code. ``ratio`` is replay's rate over it (below 1: a replay costs more than
decoding the hand's JSON). Rates are the best of R timed passes over chunks of hands, the two
contenders taking turns, so a busy spell on the machine hits both alike.

Lines, for each game (its name as in a hand log):
  BENCH replay-<game>   ours=replay(events) for the game's hands, baseline=json.loads
  BENCH rederive-<game> ours=fold(events), then settle,          baseline=json.loads
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dealer_assist.engine.base import Game, Settlement
from dealer_assist.engine.hand import Folded, fold, parse_lines, replay
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.events import Event, Start

CHUNK = 200
#: Players a benchmark hand is dealt to: from the game's fewest to this many more.
SPREAD = 4


def games() -> dict[str, tuple[str, int, int]]:
    """Each installed game with the players its benchmark hands are dealt to."""
    out = {}
    for name in game_names():
        low, high = get_game(name).players
        out[name] = (name, low, min(high, low + SPREAD))
    return out


def sample(game: str, low: int, high: int, hands: int, seed: int) -> list[list[Event]]:
    rng = random.Random(seed)
    g = get_game(game)
    return [g.sample_hand(rng, players=rng.randint(low, high)) for _ in range(hands)]


def race(runs: dict[str, tuple[Sequence[object], Callable[[object], object]]],
         repeat: int) -> dict[str, float]:
    """Items per second for each contender: the best of ``repeat`` runs of each chunk counts."""
    total = dict.fromkeys(runs, 0.0)
    count = min(len(items) for items, _fn in runs.values())
    gc.disable()
    try:
        for start in range(0, count, CHUNK):
            best = dict.fromkeys(runs, float("inf"))
            for _ in range(repeat):
                for name, (items, fn) in runs.items():
                    chunk = items[start : start + CHUNK]
                    t = time.perf_counter()
                    for item in chunk:
                        fn(item)
                    best[name] = min(best[name], time.perf_counter() - t)
            for name in runs:
                total[name] += best[name]
    finally:
        gc.enable()
    return {name: count / seconds for name, seconds in total.items()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # (500 hands a game: three chunks of 200, each timed three times, the contenders taking
    # turns; the ratios at 2,000 were the same within the machine's noise, at four times the
    # minutes, and `scripts/bench` must finish within 15 minutes on 2 cores)
    ap.add_argument("--hands", type=int, default=500, help="hands per game (default 500)")
    ap.add_argument("--repeat", type=int, default=3, help="timed passes per chunk (default 3)")
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args(argv)
    for short, (game, low, high) in games().items():
        g = get_game(game)
        hands = sample(game, low, high, args.hands, args.seed)
        texts = [[ev.to_line() for ev in hand] for hand in hands]
        for hand, text in zip(hands, texts, strict=True):  # the same hands, both ways
            assert parse_lines(text)[0] == hand
            assert replay(hand).settle() == rederive(g, hand)

        def replayed(hand: object) -> object:
            return replay(hand)  # type: ignore[arg-type]

        def rederived(hand: object, g: Game[Any] = g) -> object:
            return rederive(g, hand)  # type: ignore[arg-type]

        def baseline(text: object) -> object:
            return [json.loads(line) for line in text]  # type: ignore[attr-defined]

        rates = race(
            {"replay": (hands, replayed), "rederive": (hands, rederived),
             "baseline": (texts, baseline)},
            args.repeat,
        )
        base = rates["baseline"]
        for figure in ("replay", "rederive"):
            print(
                f"BENCH {figure}-{short} ours={rates[figure]:.0f} baseline={base:.0f} "
                f"ratio={rates[figure] / base:.2f} hands/s"
            )
        events = sum(len(h) for h in hands) / len(hands)
        print(f"# {game}: {events:.1f} events a hand, "
              f"{1e6 / (rates['replay'] * events):.1f} us an event replayed", file=sys.stderr)
    return 0


def rederive(game: Game[Any], hand: Sequence[Event]) -> Settlement:
    """A hand re-derived as ``verify`` and the reports do it: ``engine.hand.fold`` (start, every
    event checked and applied), then the settlement."""
    assert isinstance(hand[0], Start) and hand[0].game == game.name
    folded = fold(hand)
    assert isinstance(folded, Folded), folded
    return folded.settle()


if __name__ == "__main__":
    raise SystemExit(main())

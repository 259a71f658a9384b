"""Hand-replay benchmark: how many whole hands per second ``engine.hand.replay`` folds, and how
many a second are re-derived as ``verify`` and the reports do it.

    python bench/bench_replay.py [--hands N] [--repeat R] [--seed S] [--games a,b] [--phases]

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

``--phases`` prints instead, per game, where an event's time goes (processor time: reading
its line, checking it, the next state, the fold with and without steps, the prompt, and each
hand's settlement), the table docs/benchmarks.md gives.

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
    ap.add_argument("--games", default="", help="only these games (names, comma-separated)")
    ap.add_argument("--phases", action="store_true",
                    help="instead: where an event's time goes, per game (processor time)")
    args = ap.parse_args(argv)
    only = {g for g in args.games.split(",") if g}
    if args.phases:
        return phases(args.hands, args.seed, only)
    for short, (game, low, high) in games().items():
        if only and game not in only:
            continue
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


def phases(hands: int, seed: int, only: set[str] | frozenset[str] = frozenset()) -> int:
    """Where an event's time goes, per game: microseconds of processor time an event (the best
    of three passes over the same hands) reading its JSON line into the typed event (``read``;
    ``json``: ``json.loads`` alone), the game's ``check``, its ``apply`` (check and the next
    state), the fold without steps (``fold``: verify's), with a step each (``replay``), the
    dealer's ``prompt`` after it; and the settlement of a finished hand (``settle``, per hand).
    """
    print(f"# {'game':20s} {'ev/hand':>7s} {'read':>6s} {'json':>6s} {'check':>6s} "
          f"{'apply':>6s} {'fold':>6s} {'replay':>6s} {'prompt':>6s} {'settle/hand':>11s}")
    for short, (game, low, high) in games().items():
        if only and game not in only:
            continue
        dealt = sample(game, low, high, hands, seed)
        events, took = _phase_times(get_game(game), dealt)
        per = 1e6 / events
        cols = " ".join(f"{took[k] * per:6.1f}" for k in
                        ("read", "json", "check", "apply", "fold", "replay", "prompt"))
        print(f"# {short:20s} {events / hands:7.1f} {cols} "
              f"{took['settle'] * 1e6 / hands:11.0f}", flush=True)
    return 0


def _phase_times(g: Game[Any], dealt: list[list[Event]]) -> tuple[int, dict[str, float]]:
    """:func:`phases` for one game's hands: how many events after the starts, and the seconds
    of each part (the best of three passes)."""
    texts = [[ev.to_line() for ev in hand] for hand in dealt]
    before: list[tuple[Any, Event]] = []  # each event with the state it is applied to
    last: list[Any] = []
    for hand in dealt:
        assert isinstance(hand[0], Start)
        state = g.start(hand[0])
        for ev in hand[1:]:
            before.append((state, ev))
            state = g.apply(state, ev)
        last.append(state)
    check, apply, prompt, settle = g.check, g.apply, g.prompt, g.settle

    def best(fn: Callable[[], object]) -> float:
        times = []
        for _ in range(3):
            t = time.process_time()
            fn()
            times.append(time.process_time() - t)
        return min(times)

    gc.disable()
    try:
        return len(before), {
            "read": best(lambda: [parse_lines(t) for t in texts]),
            "json": best(lambda: [[json.loads(x) for x in t] for t in texts]),
            "check": best(lambda: [check(s, ev) for s, ev in before]),
            "apply": best(lambda: [apply(s, ev) for s, ev in before]),
            "fold": best(lambda: [fold(h) for h in dealt]),
            "replay": best(lambda: [replay(h) for h in dealt]),
            "prompt": best(lambda: [prompt(s) for s, _ in before]),
            "settle": best(lambda: [settle(s) for s in last]),
        }
    finally:
        gc.enable()


def rederive(game: Game[Any], hand: Sequence[Event]) -> Settlement:
    """A hand re-derived as ``verify`` and the reports do it: ``engine.hand.fold`` (start, every
    event checked and applied), then the settlement."""
    assert isinstance(hand[0], Start) and hand[0].game == game.name
    folded = fold(hand)
    assert isinstance(folded, Folded), folded
    return folded.settle()


if __name__ == "__main__":
    raise SystemExit(main())

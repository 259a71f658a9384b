"""Deal a table's hands by simulation, on every CPU, reproducibly from one seed.

Hands are dealt in sessions of ``chunk`` hands, each a run at one table from an empty carry-over
(what a hand carries goes into the next hand's start, as at the table). A game of many hands
(:attr:`GameDossier.played` ``"game"``) is played as whole games: the deal moves round, what the
game carries (a running total, a pot) goes into the next hand, each seat's stack runs down from
the table's buy-in (a seat left with nothing buys in again), and a game ends by its own rule
(:meth:`Game.game_over`); a session's last game is played to its end, so a session may deal a
few more hands than its share. Each session's dealing is seeded from the dossier's seed and the
session's number only, and every tally is whole numbers, so the result is the same whatever the
number of workers and whatever order they finish in.

Every hand is dealt at the table's settings (the stakes, the game's own settings and the fee
for its limit, as ``dealer-assist demo`` deals its tables) by the game's ``sample_deal`` (its
``sample_hand``, with the state the dealing reached when the game keeps it) and checked three
ways: its start matches the table (:func:`stakes_differences`, and every setting the plan
deals), its settlement conserves chips, and its log written as JSON Lines and read back as
``verify`` reads a stored hand settles the same. Every hand is checked; nothing is sampled.
"""

from __future__ import annotations

import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from dealer_assist.dossier.handcheck import LineWriter, SettingsCheck, replayed
from dealer_assist.dossier.plan import Pace, Plan, plan
from dealer_assist.dossier.recorder import Recorder
from dealer_assist.dossier.tally import NAMED_FAILURES, Tally
from dealer_assist.engine.base import Game, SampleDeal, Settlement
from dealer_assist.engine.declare import COMMON, PER_GAME, GameDossier
from dealer_assist.engine.hand import Folded, fold
from dealer_assist.engine.registry import get_game
from dealer_assist.events import Event, Start
from dealer_assist.fees.policy import fund_of
from dealer_assist.gc_pause import paused_gc
from dealer_assist.services.next_hand import next_button
from dealer_assist.workers import pool_options

__all__ = ["CHUNK", "COMMON", "PER_GAME", "Pace", "Plan", "Tally", "plan",
           "simulate"]

#: Hands in one session (one worker's job): the carry-over runs through a session.
CHUNK = 1000


def session_seed(seed: int, session: int) -> str:
    """A session's seed: from the dossier's seed and the session's number only."""
    return f"dossier:{seed}:{session}"


@dataclass(frozen=True, slots=True)
class Job:
    plan: Plan
    seed: int
    session: int
    hands: int
    replay: bool = True
    #: A folder to write every dealt hand's log to (``session-NNNNN.jsonl``), or None.
    logs: str | None = None


def common_values(events: Sequence[Event], s: Settlement, pace: Pace) -> dict[str, Any]:
    """The numbers every game has, for one hand."""
    house = sum(f.amount for f in s.fees if fund_of(f.kind) == "house")
    fund = sum(f.amount for f in s.fees if fund_of(f.kind) != "house")
    return {
        "inputs": len(events) - 1,
        "pot": s.total_in,
        "fee": house,
        "fee_taken": house > 0,
        "fund": fund,
        "carries": s.carry_out > 0,
        "carry": s.carry_out if s.carry_out > 0 else None,
        "carry_in": s.carry_in,
    }


def log_name(session: int) -> str:
    """The file a session's hand logs are written to, in the folder given."""
    return f"session-{session + 1:05d}.jsonl"


@dataclass(slots=True)
class _Game:
    """A game of many hands in progress: its hands, seconds and house fee so far, each seat's
    net, the rebuys, and what the next hand takes from the last (stacks, button, carried)."""

    hands: int = 0
    seconds: int = 0
    fee: int = 0
    net: Counter[int] = field(default_factory=Counter)
    rebuys: int = 0
    stacks: dict[int, int] | None = None
    button: int | None = None
    carried: dict[str, Any] = field(default_factory=dict)


def run_session(job: Job) -> Tally:
    """Deal, check and measure one session's hands (runs in a worker process).

    Each hand is dealt by the game's :meth:`~Game.sample_deal`; where the dealing kept the state
    it reached (each event applied as it was dealt), that state is settled, else the dealt
    events are folded once. Then its start is compared with the table, its settlement must
    conserve chips, and its log is written, read back and replayed (:func:`replayed`). What
    repeats from hand to hand is worked out once: the line of an event already written (equal
    events write equal lines), the comparison of a start already compared, the stored text
    already read (as ``verify`` reads it). A game of many hands is dealt game by game
    (:class:`_Game`), the session's last game to its end."""
    p = job.plan
    game = get_game(p.game)
    settings = p.settings()
    spec = game.dossier()
    whole = spec is not None and spec.played == "game"
    kinds = _kinds(spec)
    measure = spec.measure if spec is not None else None
    rng = random.Random(session_seed(job.seed, job.session))
    t = Tally()
    record = Recorder(t, kinds)
    lines_of = LineWriter()
    table = SettingsCheck(settings, p.params)
    deal = dealer(game)
    settle = game.settle
    carry = 0
    clock = time.perf_counter
    pace = p.pace
    carry_key = game.key("carry_in")  # (the game's name for it in its logs)
    button_key = game.key("button")
    stacks_key = game.key("stacks")
    seats = tuple(range(1, p.players + 1))
    stacked = whole and game.plays_with_stacks and p.buy_in is not None
    restack = spec is not None and spec.restack
    most = spec.most_hands if spec is not None else 1
    now: _Game | None = _Game() if whole else None
    log: IO[str] | None = None
    if job.logs is not None:
        log = open(Path(job.logs) / log_name(job.session), "w", encoding="utf-8")  # noqa: SIM115
    i = 0
    try:
        with paused_gc():
            while i < job.hands or (now is not None and now.hands > 0):
                started = clock()
                params = dict(p.params)
                if p.carries:
                    params[carry_key] = carry
                if now is not None:
                    _follow_on(now, params, seats, p.buy_in, stacked, button_key, stacks_key)
                t.hands += 1
                i += 1
                try:
                    dealt = deal(rng, players=p.players, params=params)
                    events = dealt.events
                    state = dealt.state
                    if state is None:  # the dealing kept no state: fold its events once
                        folded = fold(events)
                        if not isinstance(folded, Folded):
                            raise AssertionError("the game refused its own hand: "
                                                 f"{folded.reason}")
                        state = folded.state
                        s = folded.settle()
                    else:
                        s = settle(state)
                    lines = lines_of(events)
                except Exception as exc:  # a broken game is named, not a crash of the dossier
                    _fail(t, f"session {job.session + 1}, hand {i} could not be dealt and "
                             f"settled: {type(exc).__name__}: {exc}")
                    carry = 0
                    if now is not None:  # the game cannot go on: the next hand starts anew
                        now = _Game()
                    t.simulate_s += clock() - started
                    continue
                if log is not None:
                    log.write("\n".join(lines))
                    log.write("\n")
                carry = s.carry_out if p.carries else 0
                problems = table(lines[0], events[0])
                if not s.conserved:
                    problems.append(f"its settlement does not conserve chips (in {s.total_in}, "
                                    f"out {s.total_out})")
                values = common_values(events, s, pace)
                own = measure(game, state, s) if measure is not None else None
                seconds = pace.seconds(len(events) - 1)
                mid = clock()
                t.simulate_s += mid - started
                if job.replay:
                    problems += replayed(lines, s)
                    t.replay_s += clock() - mid
                if now is not None:
                    now = _after(now, game, events, state, s, seconds, int(values["fee"]),
                                 seats, t, record, stacked=stacked, restack=restack,
                                 button_key=button_key, most=most)
                if problems:
                    _fail(t, f"session {job.session + 1}, hand {i}: " + "; ".join(problems))
                    continue
                t.checked += 1
                record(values, own, seconds)
    finally:
        if log is not None:
            log.close()
    return t


def _follow_on(now: _Game, params: dict[str, Any], seats: tuple[int, ...],
               buy_in: int | None, stacked: bool, button_key: str, stacks_key: str) -> None:
    """The next hand of a game of many hands takes what the last one left: the button moved
    on, what the game carries, and each seat's stack (from the buy-in at a game's start)."""
    params.update(now.carried)
    if now.button is not None:
        params[button_key] = now.button
    if stacked:
        assert buy_in is not None
        if now.stacks is None:
            now.stacks = dict.fromkeys(seats, buy_in)
        for seat, chips in now.stacks.items():
            if chips <= 0:  # left with nothing: buys in again before this hand
                now.stacks[seat] = buy_in
                now.rebuys += 1
        params[stacks_key] = {str(seat): chips for seat, chips in sorted(now.stacks.items())}


def _after(now: _Game, game: Game[Any], events: Sequence[Event], state: Any, s: Settlement,
           seconds: int, fee: int, seats: tuple[int, ...], t: Tally, record: Recorder, *,
           stacked: bool, restack: bool, button_key: str, most: int) -> _Game:
    """A hand of a game of many hands is over: add it to its game; the game ended by its rule
    (or stopped at its ``most_hands``) is recorded and the next begins."""
    now.hands += 1
    now.seconds += seconds
    now.fee += fee
    now.net.update(s.net())
    start = events[0]
    assert isinstance(start, Start)
    ended = game.game_over(state)
    over = ended or now.hands >= most
    if over:
        if ended:
            t.games += 1
            record.game({"hands": now.hands, "seconds": now.seconds, "fee": now.fee,
                         "won": sum(v for v in now.net.values() if v > 0),
                         "rebuys": now.rebuys if stacked else None})
        else:
            t.stopped += 1
        left = _stacks_after(game, state, s) if stacked and not restack else None
        nxt = _Game(stacks=left)
    after = {} if over else game.next_hand(state)  # (the same seats: what carried_from gives)
    if not over:
        nxt = _Game(hands=now.hands, seconds=now.seconds, fee=now.fee, net=now.net,
                    rebuys=now.rebuys, stacks=_stacks_after(game, state, s) if stacked else None)
        nxt.carried = {k: v for k, v in after.items() if k in game.carries}
    last = start.params.get(button_key)
    if isinstance(after.get(button_key), int):  # the same dealer deals again
        nxt.button = after[button_key]
    elif game.rotates and isinstance(last, int):
        nxt.button = next_button(seats, last, redealt=False)
    return nxt


def followed_on(p: Plan, rng: random.Random, hands: int) -> list[list[Event]]:
    """``hands`` hands of a game of many hands dealt one after another at the plan's table as
    its games follow on (stacks from the buy-in, pots, what the game carries, the deal), as
    the simulation deals them: the sample hands the procedure and the refusals are taken from.
    A setting the game's sample hands do not deal is refused (:class:`ValueError`)."""
    game = get_game(p.game)
    spec = game.dossier()
    assert spec is not None and spec.played == "game"
    seats = tuple(range(1, p.players + 1))
    stacked = game.plays_with_stacks and p.buy_in is not None
    t = Tally()
    record = Recorder(t, {})
    keys = game.key("carry_in"), game.key("button"), game.key("stacks")
    now, carry, out = _Game(), 0, []
    for _ in range(hands):
        params = dict(p.params)
        if p.carries:
            params[keys[0]] = carry
        _follow_on(now, params, seats, p.buy_in, stacked, keys[1], keys[2])
        events = list(game.sample_hand(rng, players=p.players, params=params))
        folded = fold(events)
        if not isinstance(folded, Folded):
            raise AssertionError(f"the game refused its own hand: {folded.reason}")
        s = folded.settle()
        carry = s.carry_out if p.carries else 0
        now = _after(now, game, events, folded.state, s, 0, 0, seats, t, record,
                     stacked=stacked, restack=spec.restack, button_key=keys[1],
                     most=spec.most_hands)
        out.append(events)
    return out


def _stacks_after(game: Game[Any], state: Any, s: Settlement) -> dict[int, int]:
    """Each seat's chips after the hand: what it had left, and what was pushed to it."""
    left = game.stacks_left(state) or {}
    return {seat: chips + s.payouts.get(seat, 0) for seat, chips in left.items()}


def _kinds(spec: GameDossier | None) -> dict[str, str]:
    """Each measure's kind by its key (a game's own keys never take a common one)."""
    kinds: dict[str, str] = {m.key: m.kind for m in COMMON}
    if spec is not None:
        kinds.update({m.key: m.kind for m in spec.measures})
    return kinds


def dealer(game: Game[Any]) -> Callable[..., SampleDeal[Any]]:
    """How the simulation deals the game's hands: its :meth:`~Game.sample_deal`, unless a
    class below the one that gives it deals its own ``sample_hand`` (a variant of a game that
    deals differently), whose hands are then dealt and folded."""
    mro = type(game).__mro__
    hand_by = next(c for c in mro if "sample_hand" in vars(c))
    deal_by = next(c for c in mro if "sample_deal" in vars(c))
    if issubclass(deal_by, hand_by):
        return game.sample_deal

    def by_sample_hand(rng: random.Random, *, players: int,
                       params: Mapping[str, Any] | None = None) -> SampleDeal[Any]:
        return SampleDeal(list(game.sample_hand(rng, players=players, params=params)))

    return by_sample_hand


def _fail(t: Tally, text: str) -> None:
    t.failed += 1
    if len(t.failures) < NAMED_FAILURES:
        t.failures.append(text)


def jobs(p: Plan, hands: int, seed: int, chunk: int = CHUNK, replay: bool = True,
         logs: str | None = None) -> list[Job]:
    out = []
    for session, first in enumerate(range(0, hands, chunk)):
        out.append(Job(p, seed, session, min(chunk, hands - first), replay, logs))
    return out


def simulate(p: Plan, hands: int, seed: int, *, workers: int | None = None,
             chunk: int = CHUNK, replay: bool = True,
             progress: Callable[[int, int], None] | None = None,
             logs: str | Path | None = None) -> Tally:
    """Deal ``hands`` hands of the plan in sessions of ``chunk`` on ``workers`` processes
    (default: every CPU; 1: in this process); a game of many hands is played to its end, so a
    few more may be dealt. ``logs``: a folder to write every dealt hand's log to, one JSON
    Lines file per session (:func:`log_name`), each hand's lines from its start line."""
    todo = jobs(p, hands, seed, chunk, replay, None if logs is None else str(logs))
    n = workers if workers is not None else (os.cpu_count() or 1)
    total = Tally()
    results: Iterable[Tally]
    if n <= 1 or len(todo) <= 1:
        results = map(run_session, todo)
        return _merged(total, results, hands, progress)
    with ProcessPoolExecutor(max_workers=min(n, len(todo)), **pool_options()) as pool:
        results = pool.map(run_session, todo, chunksize=1)
        return _merged(total, results, hands, progress)


def _merged(total: Tally, results: Iterable[Tally], hands: int,
            progress: Callable[[int, int], None] | None) -> Tally:
    for part in results:  # (in session order: the failures named are the first ones)
        total.merge(part)
        if progress is not None:
            progress(total.hands, hands)
    return total

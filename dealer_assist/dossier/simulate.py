"""Deal a table's hands by simulation, on every CPU, reproducibly from one seed.

Hands are dealt in sessions of ``chunk`` hands, each a run at one table from an empty carry-over
(what a hand carries goes into the next hand's start, as at the table). Each session's dealing is
seeded from the dossier's seed and the session's number only, and every tally is whole numbers,
so the result is the same whatever the number of workers and whatever order they finish in.

Every hand is dealt at the table's settings (the stakes, the game's own settings and the fee
for its limit, as ``dealer-assist demo`` deals its tables) by the game's ``sample_deal`` (its
``sample_hand``, with the state the dealing reached when the game keeps it) and checked three
ways: its start matches the table (:func:`stakes_differences`), its settlement conserves chips,
and its log written as JSON Lines and read back as ``verify`` reads a stored hand settles the
same. Every hand is checked; nothing is sampled.
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
from typing import Any

from dealer_assist.dossier.declare import GameDossier, Measure
from dealer_assist.dossier.stats import Categories, Numbers, Ratio, Shares
from dealer_assist.engine.base import Game, SampleDeal, Settlement
from dealer_assist.engine.hand import Folded, fold
from dealer_assist.engine.registry import get_game
from dealer_assist.events import Event, Start
from dealer_assist.fees.policy import fund_of
from dealer_assist.gc_pause import paused_gc
from dealer_assist.services.handrules import stakes_differences
from dealer_assist.services.verify import fold as replay_fold
from dealer_assist.services.verify import parse_body, parser_of, settlement_keys
from dealer_assist.settings.table import TableSettings, parse_table_settings, start_params
from dealer_assist.workers import pool_options

#: Hands in one session (one worker's job): the carry-over runs through a session.
CHUNK = 1000
#: How many failed hands a tally names (all are counted).
NAMED_FAILURES = 20

#: The numbers every game has, as the dossier prints them.
COMMON: tuple[Measure, ...] = (
    Measure("inputs", "Inputs the dealer enters per hand", "count",
            "every card, action and discard typed or pressed"),
    Measure("pot", "Chips in play per hand (put in, with the carry-in)", "money"),
    Measure("fee", "House fee per hand", "money"),
    Measure("fee_taken", "Hands that pay a house fee", "share"),
    Measure("fund", "Jackpot or promotional drop per hand", "money"),
    Measure("carries", "Hands that carry money to the next hand", "share"),
    Measure("carry", "Carried to the next hand, when it carries", "money"),
    Measure("carry_in", "Carried fund as a hand starts", "money",
            "how large the fund carried from hand to hand grows"),
)


@dataclass(frozen=True, slots=True)
class Pace:
    """The stated pace the hands per hour are worked out at: seconds per dealer input, and
    seconds between hands (the push, gathering and shuffling)."""

    per_input: int = 5
    between: int = 45

    def seconds(self, inputs: int) -> int:
        return self.per_input * inputs + self.between


@dataclass(frozen=True, slots=True)
class Plan:
    """How the simulated table deals: the settings document (as read from its file), the
    start settings every hand takes, the players per hand and the pace."""

    document: Mapping[str, Any]
    base: str | None
    game: str
    params: Mapping[str, Any]
    players: int
    carries: bool
    pace: Pace = Pace()

    def settings(self) -> TableSettings:
        return parse_table_settings(self.document, base=Path(self.base) if self.base else None)


def plan(document: Mapping[str, Any], settings: TableSettings, *, players: int | None = None,
         pace: Pace | None = None, base: str | None = None) -> Plan:
    """The plan for a table: every hand starts with the table's ``start_params`` (without the
    per-hand keys), the fee for its limit, and a carry-in where the game carries."""
    game = get_game(settings.game)
    params = {k: v for k, v in start_params(settings).items()
              if k not in ("type", "game", "seats")}
    low, high = game.players
    most = min(high, len(settings.seats))
    n = most if players is None else players
    if not low <= n <= most:
        from dealer_assist.errors import BadInput

        raise BadInput(f"{game.title} is dealt to {low} to {high} players and the table has "
                       f"{len(settings.seats)} seats: give --players from {low} to {most}")
    return Plan(dict(document), base, settings.game, params, n,
                "carry_in" in game.start_keys, pace or Pace())


def dossier_of(game: Game[Any]) -> GameDossier | None:
    return game.dossier()


@dataclass(slots=True)
class Tally:
    """What a run of hands gave: its numbers, and how many hands were checked and failed."""

    hands: int = 0
    numbers: dict[str, Numbers] = field(default_factory=dict)
    shares: dict[str, Shares] = field(default_factory=dict)
    categories: dict[str, Categories] = field(default_factory=dict)
    fee_per_second: Ratio = field(default_factory=Ratio)
    checked: int = 0
    failed: int = 0
    failures: list[str] = field(default_factory=list)
    #: Time spent dealing and settling, and replaying the logs (for the benchmark only).
    simulate_s: float = 0.0
    replay_s: float = 0.0

    def merge(self, other: Tally) -> None:
        self.hands += other.hands
        for key, num in other.numbers.items():
            self.numbers.setdefault(key, Numbers(values=None)).merge(num)
        for key, sh in other.shares.items():
            self.shares.setdefault(key, Shares()).merge(sh)
        for key, cat in other.categories.items():
            self.categories.setdefault(key, Categories()).merge(cat)
        self.fee_per_second.merge(other.fee_per_second)
        self.checked += other.checked
        self.failed += other.failed
        room = NAMED_FAILURES - len(self.failures)
        self.failures.extend(other.failures[:max(0, room)])
        self.simulate_s += other.simulate_s
        self.replay_s += other.replay_s

    def same_figures(self, other: Tally) -> bool:
        """The same numbers and checks (the timings aside): what reproducibility asks."""
        return (self.hands, self.numbers, self.shares, self.categories, self.fee_per_second,
                self.checked, self.failed, self.failures) == (
            other.hands, other.numbers, other.shares, other.categories, other.fee_per_second,
            other.checked, other.failed, other.failures)


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


def _kinds(spec: GameDossier | None) -> dict[str, str]:
    kinds: dict[str, str] = {m.key: m.kind for m in COMMON}
    if spec is not None:
        kinds.update({m.key: m.kind for m in spec.measures})
    return kinds


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


def run_session(job: Job) -> Tally:
    """Deal, check and measure one session's hands (runs in a worker process).

    Each hand is dealt by the game's :meth:`~Game.sample_deal`; where the dealing kept the state
    it reached (each event applied as it was dealt), that state is settled, else the dealt
    events are folded once. Then its start is compared with the table, its settlement must
    conserve chips, and its log is written, read back and replayed (:func:`_replayed`). What
    repeats from hand to hand is worked out once: the line of an event already written (equal
    events write equal lines), the comparison of a start already compared, the stored text
    already read (as ``verify`` reads it)."""
    p = job.plan
    game = get_game(p.game)
    settings = p.settings()
    spec = game.dossier()
    kinds = _kinds(spec)
    measure = spec.measure if spec is not None else None
    rng = random.Random(session_seed(job.seed, job.session))
    t = Tally()
    record = _Recorder(t, kinds)
    lines_of = _LineWriter()
    table = _TableCheck(settings)
    deal = dealer(game)
    settle = game.settle
    carry = 0
    clock = time.perf_counter
    pace = p.pace
    carry_key = game.key("carry_in")  # (the game's name for it in its logs)
    with paused_gc():
        for i in range(job.hands):
            started = clock()
            params = dict(p.params)
            if p.carries:
                params[carry_key] = carry
            t.hands += 1
            try:
                dealt = deal(rng, players=p.players, params=params)
                events = dealt.events
                state = dealt.state
                if state is None:  # the dealing kept no state: fold its events once
                    folded = fold(events)
                    if not isinstance(folded, Folded):
                        raise AssertionError(f"the game refused its own hand: {folded.reason}")
                    state = folded.state
                    s = folded.settle()
                else:
                    s = settle(state)
                lines = lines_of(events)
            except Exception as exc:  # a broken game is named, not a crash of the dossier
                _fail(t, f"session {job.session + 1}, hand {i + 1} could not be dealt and "
                         f"settled: {type(exc).__name__}: {exc}")
                carry = 0
                t.simulate_s += clock() - started
                continue
            carry = s.carry_out if p.carries else 0
            problems = table(lines[0], events[0])
            if not s.conserved:
                problems.append(f"its settlement does not conserve chips (in {s.total_in}, "
                                f"out {s.total_out})")
            values = common_values(events, s, pace)
            if measure is not None:
                values.update(measure(game, state, s))
            seconds = pace.seconds(len(events) - 1)
            mid = clock()
            t.simulate_s += mid - started
            if job.replay:
                problems += _replayed(lines, s)
                t.replay_s += clock() - mid
            if problems:
                _fail(t, f"session {job.session + 1}, hand {i + 1}: " + "; ".join(problems))
                continue
            t.checked += 1
            record(values, seconds)
    return t


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


class _Recorder:
    """Adds one checked hand's values to a tally: each measure's tally found by its key once
    per session, not looked up by its kind for every hand."""

    def __init__(self, t: Tally, kinds: Mapping[str, str]) -> None:
        self.t = t
        self.kinds = kinds
        self.adders: dict[str, Callable[[Any], None] | None] = {}

    def adder(self, key: str) -> Callable[[Any], None] | None:
        t = self.t
        kind = self.kinds.get(key)
        add: Callable[[Any], None] | None = None
        if kind == "share":
            shares = t.shares.setdefault(key, Shares())
            add = lambda v: shares.add(bool(v))  # noqa: E731
        elif kind == "category":
            cats = t.categories.setdefault(key, Categories())
            add = lambda v: cats.add(str(v))  # noqa: E731
        elif kind in ("money", "count"):
            numbers = t.numbers
            money = kind == "money"

            def add(v: Any) -> None:
                if isinstance(v, int):
                    nums = numbers.get(key)
                    if nums is None:
                        nums = numbers[key] = Numbers(values=Counter() if money else None)
                    nums.add(int(v))
        self.adders[key] = add
        return add

    def __call__(self, values: Mapping[str, Any], seconds: int) -> None:
        adders = self.adders
        for key, v in values.items():
            if v is None:
                continue
            add = adders[key] if key in adders else self.adder(key)
            if add is not None:
                add(v)
        t = self.t
        t.fee_per_second.add(int(values["fee"]), seconds)
        sec = t.numbers.get("seconds")
        if sec is None:
            sec = t.numbers["seconds"] = Numbers(values=None)
        sec.add(seconds)


#: Lines (and starts) remembered per session before the memory is emptied.
MEMO = 65536


class _LineWriter:
    """Each event's line of the log (``Event.to_line``), an event equal to one already written
    taking that line again: ``to_line`` reads nothing but the event's fields, which equality
    compares. The very event object written before is found by its identity first (sample
    dealings reuse one object per event; the memory holds each object, so its identity is not
    reused), and a start (its settings a mapping, unhashable) by :func:`_start_key`."""

    def __init__(self) -> None:
        self.memo: dict[Event, str] = {}
        self.seen: dict[int, tuple[Event, str]] = {}
        self.starts: dict[Any, str] = {}

    def __call__(self, events: Sequence[Event]) -> list[str]:
        memo = self.memo
        seen = self.seen
        if len(memo) > MEMO or len(seen) > MEMO:
            memo.clear()
            seen.clear()
        out: list[str] = []
        append = out.append
        for ev in events:
            found = seen.get(id(ev))
            if found is not None and found[0] is ev:
                append(found[1])
                continue
            try:
                line = memo.get(ev)
            except TypeError:  # unhashable: a start's settings
                append(self.start_line(ev))
                continue
            if line is None:
                line = memo[ev] = ev.to_line()
            seen[id(ev)] = (ev, line)
            append(line)
        return out

    def start_line(self, ev: Event) -> str:
        key = _start_key(ev)
        if key is None:
            return ev.to_line()
        try:
            line = self.starts.get(key)
        except TypeError:  # (a setting of a type that does not hash)
            return ev.to_line()
        if line is None:
            if len(self.starts) > MEMO:
                self.starts.clear()
            line = self.starts[key] = ev.to_line()
        return line


def _start_key(ev: Event) -> Any:
    """What a start's line is made of, hashable (each value with its type, mappings in their
    order, as the line writes them), or None for any other event."""
    if ev.__class__ is not Start:
        return None
    assert isinstance(ev, Start)
    return (ev.game, _frozen(ev.seats), _frozen(ev.params))


def _frozen(value: Any) -> Any:
    if isinstance(value, Mapping):
        return (Mapping, tuple((k.__class__, k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (list, tuple(_frozen(v) for v in value))
    return (value.__class__, value)


class _TableCheck:
    """What a hand's start says differently from the table (:func:`stakes_differences`), worked
    out once per start line: the hands of a session start alike but for what they carry in."""

    def __init__(self, settings: TableSettings) -> None:
        self.settings = settings
        self.seen: dict[str, tuple[str, ...]] = {}

    def __call__(self, line: str, start: Event) -> list[str]:
        found = self.seen.get(line)
        if found is None:
            if len(self.seen) > MEMO:
                self.seen.clear()
            problems = stakes_differences(start.to_json(), self.settings)
            found = self.seen[line] = (
                (f"it is not dealt at the table's settings: {'; '.join(problems)}",)
                if problems else ())
        return list(found)


def _replayed(lines: Sequence[str], s: Settlement) -> list[str]:
    """The hand's log (its JSON Lines) read back line by line the way ``verify`` reads a stored
    hand (the start line names the game whose events the others are), folded and settled: the
    same settlement as the hand as dealt?"""
    try:
        first = parse_body(lines[0])
        parse = parser_of(first.game if isinstance(first, Start) else "")
        again = [first]
        again.extend(map(parse, lines[1:]))
        folded = replay_fold(again, start_text=lines[0])
        if not isinstance(folded, Folded):
            return [f"its log does not replay: event {folded.index + 1}: {folded.reason}"]
        replayed = folded.settle()
    except Exception as exc:  # a log that cannot be read back is named
        return [f"its log does not replay: {type(exc).__name__}: {exc}"]
    if settlement_keys(replayed) != settlement_keys(s):
        return ["the replay of its log settles differently from the hand as dealt"]
    return []


def _fail(t: Tally, text: str) -> None:
    t.failed += 1
    if len(t.failures) < NAMED_FAILURES:
        t.failures.append(text)


def jobs(p: Plan, hands: int, seed: int, chunk: int = CHUNK, replay: bool = True) -> list[Job]:
    out = []
    for session, first in enumerate(range(0, hands, chunk)):
        out.append(Job(p, seed, session, min(chunk, hands - first), replay))
    return out


def simulate(p: Plan, hands: int, seed: int, *, workers: int | None = None,
             chunk: int = CHUNK, replay: bool = True,
             progress: Callable[[int, int], None] | None = None) -> Tally:
    """Deal ``hands`` hands of the plan in sessions of ``chunk`` on ``workers`` processes
    (default: every CPU; 1: in this process)."""
    todo = jobs(p, hands, seed, chunk, replay)
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

"""Put a dossier together: the game's declaration, the table's settings, the procedure and
refusals from sample hands, and the numbers by simulation (:func:`build_dossier`)."""

from __future__ import annotations

import hashlib
import os
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dealer_assist.dossier.procedure import (
    REFUSAL_HANDS,
    ProcedureStep,
    Refusal,
    citation,
    procedure,
    refusals,
)
from dealer_assist.dossier.simulate import (
    CHUNK,
    COMMON,
    Pace,
    Plan,
    Tally,
    followed_on,
    plan,
    simulate,
)
from dealer_assist.dossier.stats import Numbers, wilson
from dealer_assist.dossier.tally import Figures
from dealer_assist.engine.base import Game
from dealer_assist.engine.declare import PER_GAME, GameDossier, Measure
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import BadInput, DealerAssistError
from dealer_assist.events import Event
from dealer_assist.services.handrules import stakes_differences
from dealer_assist.settings.table import TableSettings


@dataclass(frozen=True, slots=True)
class Figure:
    """A number with its 95% interval; money in cents. ``median``, ``p95`` and ``largest``
    for money figures; ``n`` the hands it was measured on."""

    label: str
    kind: str
    mean: float
    low: float
    high: float
    n: int
    note: str = ""
    median: int | None = None
    p95: int | None = None
    largest: int | None = None


@dataclass(frozen=True, slots=True)
class CategoryRow:
    name: str
    count: int
    share: float
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class CategoryTable:
    label: str
    n: int
    rows: tuple[CategoryRow, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class RulingLine:
    """A ruling as the dossier lists it: cited as the app cites it, our words, and how many
    kinds of refusal met in the sample hands cite it."""

    citation: str
    text: str
    refusals: int


@dataclass(frozen=True, slots=True)
class Dossier:
    """Everything the dossier prints (the report layer adds who generated it, and when)."""

    game: str
    title: str
    settings_file: str
    settings_sha256: str
    settings: tuple[tuple[str, str], ...]
    #: The settings file's text as read (printed in full in the appendix).
    settings_text: str
    fee: str
    preset: str
    preset_rules: tuple[str, ...]
    preset_findings: tuple[str, ...]
    rules: tuple[str, ...]
    rulings: tuple[RulingLine, ...]
    strategy: str
    players: int
    pace: Pace
    #: Hands dealt (``hands_asked`` and, for a game of many hands, each session's last game
    #: played to its end).
    hands: int
    hands_asked: int
    #: "hand" (each hand stands alone) or "game" (whole games: :class:`GameDossier`).
    played: str
    games: int
    stopped: int
    most_hands: int
    buy_in: int | None
    #: Whether each seat brings a stack to a hand (the game plays with stacks), and whether
    #: each new game starts every stack again from the buy-in.
    stacks: bool
    restack: bool
    #: The game's own settings the table leaves out, as the simulation deals them.
    defaults: tuple[tuple[str, str], ...]
    seed: int
    workers: int
    chunk: int
    procedure: tuple[ProcedureStep, ...]
    push_steps: tuple[str, ...]
    refusals: tuple[Refusal, ...]
    refusal_hands: int
    pace_figures: tuple[Figure, ...]
    figures: tuple[Figure, ...]
    game_figures: tuple[Figure, ...]
    per_game_figures: tuple[Figure, ...]
    categories: tuple[CategoryTable, ...]
    checked: int
    failed: int
    failures: tuple[str, ...]


def sha256_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


#: For a game of many hands, the sample hands are every this many hands of a run at the table
#: (its games followed on), so that they reach into a game (stacks run down, a pot carried).
SPREAD = 3


def sample_hands(game: Game[Any], p: Plan, seed: int, n: int) -> list[list[Event]]:
    """``n`` hands dealt at the plan's settings, for the procedure and the refusals; for a game
    of many hands, hands of a run at the table as the simulation deals it (a game's first hand,
    and hands further into its games)."""
    rng = random.Random(f"procedure:{seed}")
    spec = game.dossier()
    if spec is not None and spec.played == "game":
        return followed_on(p, rng, n * SPREAD)[::SPREAD]
    params = dict(p.params)
    if p.carries:
        params[game.key("carry_in")] = 0
    return [list(game.sample_hand(rng, players=p.players, params=params)) for _ in range(n)]


def _shown_hand(game: Game[Any], hands: list[list[Event]]) -> list[Event]:
    """The sample hand the procedure walks through: the one that passes through the most
    phases, of those the shortest."""
    def key(events: list[Event]) -> tuple[int, int]:
        state = game.start(events[0])  # type: ignore[arg-type]
        phases = {game.prompt(state).phase}
        for ev in events[1:]:
            state = game.apply(state, ev)
            phases.add(game.prompt(state).phase)
        return -len(phases), len(events)
    return min(hands, key=key)


def build_dossier(
    document: Mapping[str, Any], settings: TableSettings, *, source: str, sha256: str,
    hands: int, seed: int, workers: int | None = None, players: int | None = None,
    pace: Pace | None = None, chunk: int = CHUNK, base: str | None = None,
    progress: Callable[[int, int], None] | None = None, text: str = "",
    logs: str | None = None,
) -> Dossier:
    """The dossier of ``settings`` (read from ``document``, the file ``source`` whose sha256
    and ``text`` it prints): the procedure and refusals from sample hands at those settings,
    the numbers from ``hands`` simulated hands (``logs``: a folder to write their logs to)."""
    if hands < 1:
        raise BadInput(f"--hands must be 1 or more, not {hands}")
    pace = pace or Pace()
    game = get_game(settings.game)
    spec = game.dossier()
    p = plan(document, settings, players=players, pace=pace, base=base)
    try:
        samples = sample_hands(game, p, seed, REFUSAL_HANDS)
    except ValueError as exc:  # a setting the game's sample hands do not deal
        raise BadInput(f"{game.title} hands cannot be simulated at these settings: {exc}; "
                       "the dossier deals the game's own sample hands, which do not deal that "
                       "setting: leave it out of the settings given to the dossier") from exc
    for events in samples:
        differs = stakes_differences(events[0].to_json(), settings)
        if differs:
            raise DealerAssistError(f"{game.title} sample hands are not dealt at this table's "
                                    "settings: " + "; ".join(differs))
    shown = _shown_hand(game, samples)
    steps = procedure(game, shown)
    end = game.start(shown[0])  # type: ignore[arg-type]
    for ev in shown[1:]:
        end = game.apply(end, ev)
    push = tuple(s.text for s in game.settle(end).steps)
    met = refusals(game, samples, seed)
    n_workers = workers if workers is not None else (os.cpu_count() or 1)
    tally = simulate(p, hands, seed, workers=n_workers, chunk=chunk, progress=progress,
                     logs=logs)
    preset, preset_rules, findings = _preset(settings)
    counts: dict[str, int] = {}
    for r in met:
        if r.citation:
            counts[r.citation] = counts.get(r.citation, 0) + 1
    rulings = tuple(RulingLine(citation(r.tag) or r.tag, r.text, counts.get(citation(r.tag), 0))
                    for r in (spec.rulings if spec else ()))
    defaults = tuple((k, _shown(game, k, v)) for k, v in (spec.defaults if spec else {}).items()
                     if k not in settings.params)
    return Dossier(
        game=settings.game, title=game.title, settings_file=source, settings_sha256=sha256,
        settings=_settings_lines(settings), settings_text=text, fee=_fee(settings),
        preset=preset,
        preset_rules=preset_rules, preset_findings=findings,
        rules=spec.rules if spec else (), rulings=rulings,
        strategy=spec.strategy if spec else "each sample hand's own random choices",
        players=p.players, pace=pace, hands=tally.hands, hands_asked=hands,
        played=spec.played if spec else "hand", games=tally.games, stopped=tally.stopped,
        most_hands=spec.most_hands if spec else 1, buy_in=p.buy_in,
        stacks=game.plays_with_stacks, restack=bool(spec and spec.restack),
        defaults=defaults, seed=seed, workers=n_workers, chunk=chunk,
        procedure=tuple(steps), push_steps=push, refusals=tuple(met),
        refusal_hands=len(samples), pace_figures=_pace_figures(tally, pace),
        figures=_figures(tally.common, COMMON), game_figures=_figures(tally.own, _own(spec)),
        per_game_figures=_figures(tally.per_game, PER_GAME),
        categories=_categories(tally.own, _own(spec)), checked=tally.checked,
        failed=tally.failed,
        failures=tuple(tally.failures),
    )


def _shown(game: Game[Any], key: str, value: Any) -> str:
    described = game.setting(key)
    return f"{described.label if described else key}: " + (
        described.shown(value) if described else str(value))


def _own(spec: GameDossier | None) -> tuple[Measure, ...]:
    return spec.measures if spec is not None else ()


def _settings_lines(s: TableSettings) -> tuple[tuple[str, str], ...]:
    out = []
    for line in s.summary():
        key, _, value = line.partition(": ")
        if key.startswith(("fee", "preset")):
            continue  # (the fee policy and its preset have their own lines)
        out.append((key[:1].upper() + key[1:], value))
    return tuple(out)


def _fee(s: TableSettings) -> str:
    if s.fee is None:
        return "No house fee."
    policy = s.fee_policy
    text = s.fee.describe()
    if s.fee.by_limit and policy is not None:
        text += f" (at this table's limit: {policy.describe()})"
    return text


def _preset(s: TableSettings) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    if s.preset is None:
        return "none (no jurisdiction preset is set for this table)", (), ()
    try:
        preset = s.preset_rules()
    except DealerAssistError as exc:
        return s.preset, (), (f"the preset cannot be read: {exc}",)
    assert preset is not None
    title = f"{preset.name}: {preset.title}" if preset.title else preset.name
    rules = tuple(f"Rule {r.number}: {r.text}" for r in preset.rules)
    if preset.description:
        rules = (preset.description, *rules)
    return title, rules, tuple(preset.violations(s.fee))


def _pace_figures(t: Tally, pace: Pace) -> tuple[Figure, ...]:
    sec = t.numbers.get("seconds")
    if sec is None or sec.n == 0:
        return ()
    mean, low, high = sec.interval()
    hph = Figure("Hands per hour", "rate", 3600 / mean, 3600 / high if high > 0 else 0.0,
                 3600 / low if low > 0 else 0.0, sec.n,
                 f"at {pace.per_input} s per input and {pace.between} s between hands")
    fee, flow, fhigh = t.fee_per_second.interval(3600.0)
    per_hour = Figure("House fee per hour", "money", fee, flow, fhigh, t.fee_per_second.n,
                      "at the same pace")
    minutes = Figure("Minutes per hand", "minutes", mean / 60, low / 60, high / 60, sec.n)
    return hph, minutes, per_hour


def _figures(t: Figures, measures: tuple[Measure, ...]) -> tuple[Figure, ...]:
    """The figures of ``measures`` from one namespace of tallies (a measure never read from
    another's: a game's ``pot_played`` is not the common ``pot``)."""
    out = []
    for m in measures:
        if m.key == "seconds":  # (seconds per game, printed in minutes)
            num = t.numbers.get(m.key)
            if num is not None and num.n:
                mean, low, high = _bounded(num)
                out.append(Figure(m.label, "minutes", mean / 60, low / 60, high / 60, num.n,
                                  m.note))
            continue
        if m.kind == "share":
            sh = t.shares.get(m.key)
            if sh is None or sh.n == 0:
                continue
            p, low, high = sh.interval()
            out.append(Figure(m.label, "share", p, low, high, sh.n, m.note))
        elif m.kind in ("money", "count"):
            num = t.numbers.get(m.key)
            if num is None or num.n == 0:
                continue
            if m.kind == "money" and num.high == 0 and num.low == 0:
                continue  # (a fund the table does not have)
            mean, low, high = _bounded(num)
            out.append(Figure(m.label, m.kind, mean, low, high, num.n, m.note,
                              median=num.quantile(0.5) if m.kind == "money" else None,
                              p95=num.quantile(0.95) if m.kind == "money" else None,
                              largest=num.high))
    return tuple(out)


def _bounded(num: Numbers) -> tuple[float, float, float]:
    """A mean's interval, never outside what was seen."""
    mean, low, high = num.interval()
    if num.low is not None and num.high is not None:
        low, high = max(low, num.low), min(high, num.high)
    return mean, low, high


def _categories(t: Figures, measures: tuple[Measure, ...]) -> tuple[CategoryTable, ...]:
    out = []
    for m in measures:
        if m.kind != "category":
            continue
        cat = t.categories.get(m.key)
        if cat is None or cat.n == 0:
            continue
        rows = []
        for name, count in sorted(cat.counts.items(), key=lambda kv: (-kv[1], kv[0])):
            low, high = wilson(count, cat.n)
            rows.append(CategoryRow(name, count, count / cat.n, low, high))
        out.append(CategoryTable(m.label, cat.n, tuple(rows), m.note))
    return tuple(out)

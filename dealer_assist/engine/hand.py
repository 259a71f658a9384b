"""A hand is a fold of its game's ``apply`` over its events; voided events do not count.

This is the one way the app, ``dealer-assist replay``, ``verify`` and the reports derive a hand's
state, so they can never disagree.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer_assist.engine.base import Game, Settlement
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import BadInput, DealerAssistError, HandLogError, RuleViolation
from dealer_assist.events import Event, Start, Void, event_from_json


@dataclass(frozen=True, slots=True)
class Step:
    """One event of the hand and the state after it (``voided`` steps leave the state as it was)."""

    number: int
    line: int
    event: Event
    state: Any
    lines: tuple[str, ...]
    voided: bool = False


@dataclass(frozen=True, slots=True)
class HandReplay:
    game: Game[Any]
    start: Start
    steps: tuple[Step, ...]

    @property
    def state(self) -> Any:
        return self.steps[-1].state

    @property
    def over(self) -> bool:
        return self.game.is_over(self.state)

    def settle(self) -> Settlement:
        return self.game.settle(self.state)


def voided_targets(events: Sequence[Event]) -> dict[int, Void]:
    """Event numbers (1-based) voided by the hand's void events, checked for sense."""
    targets: dict[int, Void] = {}
    for i, ev in enumerate(events, start=1):
        if isinstance(ev, Void):
            t = ev.target
            if not 1 <= t < i:
                raise RuleViolation(f"void names event {t}, which is not an earlier event")
            if t == 1:
                raise RuleViolation("the start of a hand cannot be voided; void the hand instead")
            if isinstance(events[t - 1], Void):
                raise RuleViolation(f"event {t} is itself a void")
            if t in targets:
                raise RuleViolation(f"event {t} is already void")
            targets[t] = ev
    return targets


def replay(events: Sequence[Event], *, lines: Sequence[int] | None = None) -> HandReplay:
    """Fold ``events`` through their game; errors become :class:`HandLogError` naming the line."""
    line_of = list(lines) if lines is not None else list(range(1, len(events) + 1))
    if not events:
        raise HandLogError(1, "the hand log is empty: it must begin with a start event")
    first = events[0]
    if not isinstance(first, Start):
        raise HandLogError(line_of[0], "a hand log must begin with a start event")
    try:
        game = get_game(first.game)
        state = game.start(first)
    except DealerAssistError as exc:
        raise HandLogError(line_of[0], str(exc)) from exc
    try:
        voided = voided_targets(events)
    except RuleViolation as exc:
        bad = next(i for i, e in enumerate(events) if isinstance(e, Void))
        raise HandLogError(line_of[bad], str(exc)) from exc
    steps = [Step(1, line_of[0], first, state, (f"start: {game.title}",))]
    for i, ev in enumerate(events[1:], start=2):
        line = line_of[i - 1]
        if isinstance(ev, Start):
            raise HandLogError(line, "a second start event: one hand per log")
        if isinstance(ev, Void):
            steps.append(Step(i, line, ev, state, (f"void of event {ev.target}: {ev.reason}",)))
            continue
        if i in voided:
            steps.append(Step(i, line, ev, state, ("(voided)",), voided=True))
            continue
        try:
            after = game.apply(state, ev)
        except DealerAssistError as exc:
            raise HandLogError(line, cite(exc)) from exc
        steps.append(Step(i, line, ev, after, tuple(game.narrate(state, ev, after))))
        state = after
    return HandReplay(game=game, start=first, steps=tuple(steps))


def cite(exc: DealerAssistError) -> str:
    """The error's message, naming the ruling it enforces where it has one ("ruling cc-8")."""
    rule = getattr(exc, "rule", None)
    if rule and any(ch.isdigit() for ch in rule):
        return f"{exc} (ruling {rule})"
    return str(exc)


def parse_lines(text_lines: Iterable[str]) -> tuple[list[Event], list[int]]:
    """Read JSON Lines; blank lines are skipped; a bad line raises :class:`HandLogError`."""
    events: list[Event] = []
    numbers: list[int] = []
    for n, raw in enumerate(text_lines, start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise HandLogError(n, f"not valid JSON ({exc.msg}, column {exc.colno})") from exc
        try:
            events.append(event_from_json(obj))
        except BadInput as exc:
            raise HandLogError(n, str(exc)) from exc
        numbers.append(n)
    return events, numbers


def read_log(path: str | Path) -> tuple[list[Event], list[int]]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise BadInput(f"no such file: {p}") from exc
    except UnicodeDecodeError as exc:
        raise BadInput(f"{p} is not a text hand log (not UTF-8)") from exc
    except OSError as exc:
        raise BadInput(f"cannot read {p}: {exc.strerror}") from exc
    return parse_lines(text.splitlines())


def to_lines(events: Iterable[Event]) -> str:
    return "".join(ev.to_line() + "\n" for ev in events)

"""The dealer's procedure and the game's refusals, gathered by the program from sample hands.

The procedure is one sample hand step by step: what the screen says before each input (the
prompt's message and instructions) and what the dealer does (the narration of the input), then
the push steps. The refusals are what the game says when an input does not belong: every
disabled button's reason met in the sample hands, and every refusal met when each input seen in
them is tried at every other moment of them (out of turn, at the wrong phase, a card already
out, after the end). They are grouped by the ruling they cite and their wording with numbers,
cards and amounts made general, each group shown with one refusal as it was met.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.engine.base import Game
from dealer_assist.engine.hand import cite
from dealer_assist.errors import DealerAssistError, RuleViolation
from dealer_assist.events import Event, Start, event_from_json

#: Sample hands the refusals are gathered from, moments tried in them, inputs tried at each.
REFUSAL_HANDS = 12
REFUSAL_STATES = 240
REFUSAL_INPUTS = 60


@dataclass(frozen=True, slots=True)
class ProcedureStep:
    """One input of the sample hand: ``phase`` and what the screen says before it, what the
    dealer does."""

    n: int
    phase: str
    screen: str
    dealer: str


@dataclass(frozen=True, slots=True)
class Refusal:
    """A kind of refusal: the ruling cited ("ruling cc-8", "betting rule: act in turn", or ""
    when the refusal cites none), the wording made general, one refusal as met, how many times
    it was met, and whether a disabled button showed it."""

    citation: str
    pattern: str
    example: str
    times: int
    on_screen: bool


def citation(tag: str | None) -> str:
    """How the app cites a rule tag: "ruling cc-8", "betting rule: minimum raise", or ""
    for a tag that names no ruling ("settings", "input")."""
    if not tag:
        return ""
    cited = cite(RuleViolation("", rule=tag))
    m = re.fullmatch(r"\s*\((.*)\)", cited)
    return m.group(1) if m else ""


_MONEY = re.compile(r"[$€£][0-9][0-9,]*(?:\.[0-9]+)?")
_CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[shdc♠♥♦♣](?![A-Za-z0-9])")
_NUMBER = re.compile(r"(?<![A-Za-z])[0-9]+(?:st|nd|rd|th)?(?![0-9])")
_LIST = re.compile(r"N(?:(?:, | and )N)+")


def general(text: str) -> str:
    """The wording with amounts, cards and numbers made general: "$N", "<card>", "N", and a
    list of numbers (seats, an order) "N, …"."""
    text = _MONEY.sub("$N", text)
    text = _CARD.sub("<card>", text)
    text = _NUMBER.sub("N", text)
    return _LIST.sub("N, …", text)


def procedure(game: Game[Any], events: Sequence[Event]) -> list[ProcedureStep]:
    """The sample hand ``events`` step by step, as the dealer runs it."""
    first = events[0]
    assert isinstance(first, Start)
    state = game.start(first)
    steps: list[ProcedureStep] = []
    for n, ev in enumerate(events[1:], start=1):
        p = game.prompt(state)
        after = game.apply(state, ev)
        screen = "\n".join(x for x in (p.message, *p.instructions) if x)
        told = "; ".join(game.narrate(state, ev, after)) or ev.TYPE
        steps.append(ProcedureStep(n, p.phase, screen, told))
        state = after
    return steps


def _met(found: dict[tuple[str, str], list[Any]], tag: str | None, message: str,
         on_screen: bool) -> None:
    key = (citation(tag), general(message))
    got = found.get(key)
    if got is None:
        found[key] = [message, 1, on_screen]
    else:
        got[1] += 1
        got[2] = got[2] or on_screen


def _pressed(game: Game[Any], state: Any, kind: str, seat: int | None,
             found: dict[tuple[str, str], list[Any]]) -> None:
    """A disabled button pressed anyway (its input as a log would hold it): the refusal,
    with the ruling it cites."""
    obj: dict[str, Any] = {"type": kind} if seat is None else {"type": kind, "seat": seat}
    try:
        ev = event_from_json(obj, game.events)
    except DealerAssistError:
        return  # (an input that takes more than the press: its reason stands alone)
    try:
        game.check(state, ev)
    except DealerAssistError as exc:
        _met(found, getattr(exc, "rule", None), str(exc), False)


def refusals(game: Game[Any], hands: Sequence[Sequence[Event]], seed: int) -> list[Refusal]:
    """Every refusal met in ``hands``: disabled buttons, and each input tried elsewhere. Only
    inputs the screen offers at the hands' settings are tried (a table that records a game by
    its score sheet never offers an input of the turn-by-turn record)."""
    rng = random.Random(f"refusals:{seed}")
    states: list[Any] = []
    pool: dict[str, Event] = {}
    for events in hands:
        first = events[0]
        assert isinstance(first, Start)
        state = game.start(first)
        states.append(state)
        for ev in events[1:]:
            pool.setdefault(ev.to_line(), ev)
            state = game.apply(state, ev)
            states.append(state)
    found: dict[tuple[str, str], list[Any]] = {}
    screen: dict[str, list[Any]] = {}  # disabled reasons, matched to a cited refusal below
    offered: set[str] = set()  # the inputs the screen offers at these settings
    for state in states:
        for a in game.prompt(state).actions:
            offered.add(a.event_type)
            if not a.enabled and a.reason:
                seen = screen.setdefault(general(a.reason), [a.reason, 0])
                seen[1] += 1
                _pressed(game, state, a.kind, a.seat, found)
    # an input the screen never offers at these settings is not one a dealer could give
    inputs = [ev for ev in pool.values() if ev.TYPE in offered]
    if len(inputs) > REFUSAL_INPUTS:
        inputs = rng.sample(inputs, REFUSAL_INPUTS)
    tried = states if len(states) <= REFUSAL_STATES else rng.sample(states, REFUSAL_STATES)
    for state in tried:
        for ev in inputs:
            try:
                game.check(state, ev)
            except DealerAssistError as exc:
                _met(found, getattr(exc, "rule", None), str(exc), False)
    cited = {pattern: c for (c, pattern) in found}
    for pattern, (reason, times) in screen.items():
        key = (cited.get(pattern, ""), pattern)
        if key in found:
            found[key][2] = True
        else:
            found[key] = [reason, times, True]
    out = [Refusal(c, pattern, v[0], v[1], v[2]) for (c, pattern), v in found.items()]
    out.sort(key=lambda r: (_order(r.citation), r.pattern))
    return out


def _order(c: str) -> tuple[int, str, int]:
    """Rulings first in their number order, then the betting rules, then the rest."""
    if c.startswith("ruling "):
        m = re.search(r"([0-9]+)", c)
        return 0, re.sub(r"[0-9].*", "", c), int(m.group(1)) if m else 0
    return (1 if c else 2), c, 0


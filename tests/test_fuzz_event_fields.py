"""Every game's every event field, fuzzed with every kind of card token and value a station or a
file could carry (jokers in both spellings, a second deck's card, unknown tokens, numbers,
nested lists, huge strings): each input is read by the game's reader and checked as the
services check it before writing, applied where the game's own sample hand has that kind of
event (or at the start, or the end), and the rest of the hand played after it; every input is
either taken or refused with the project's refusal (:class:`DealerAssistError`), never another
exception, and whatever is taken the screens, the narration and the settlement still work.

Regression (issue 40, item 5): a Mille meld of "Jk", a Paiute wild of "Jk" and a Commerce show
holding "Jk" were taken and failed later with KeyError (replay and import exited 70, the
services raised instead of refusing). Fixed seeds; about a second a game.
"""

from __future__ import annotations

import contextlib
import random
import typing
from collections.abc import Iterator, Mapping
from dataclasses import fields
from typing import Any

import anygame  # noqa: F401  (registers Tally, which is played with jokers)
import pytest

from dealer_assist.cards import Card
from dealer_assist.engine.base import Game
from dealer_assist.engine.bodies import check_written, read_event
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.errors import DealerAssistError
from dealer_assist.events import Event, Start, event_from_json, json_name

SEED = 40
#: What a field may be given in place of its value.
TOKENS: tuple[Any, ...] = (
    "Jk", "JK", "jk", "joker", "Joker", "*", "🃏",  # jokers, in every spelling the cards take
    "Zz", "1x", "", " ", "A", "AA", "11s", "10", "As Kd", "AsKd", "♠", "0s", "As\x00",  # unknown
    0, -1, 7, 2**63, 10**13, 10**15, 1.5, True, None,  # numbers and the like
    [], [None], [1, 2], [["As"]], [[[[[]]]]], {"As": 1}, ["Jk"], ["JK", "As"],  # nested
    "Q" * 40_000, ["As"] * 3000, ["x" * 20_000],  # huge
)


def _games() -> list[str]:
    return [n for n in game_names()
            if type(get_game(n)).__module__.startswith(("dealer_assist.", "anygame"))]


def _plain(cls: type[Event], seat: int) -> dict[str, Any]:
    """A body of ``cls`` with a plausible value in every field (for event types the sample
    hand does not hold): the fuzz then replaces each field in turn."""
    hints = typing.get_type_hints(cls)
    out: dict[str, Any] = {"type": cls.TYPE}
    for f in fields(cls):
        if f.name == "params":
            continue
        hint = hints[f.name]
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        base = args[0] if args and typing.get_origin(hint) is not tuple else hint
        if base is int:
            out[json_name(f)] = seat if "seat" in f.name else 1
        elif base is Card:
            out[json_name(f)] = "As"
        elif typing.get_origin(base) is tuple:
            out[json_name(f)] = ["As", "Kd"]
        elif base is bool:
            out[json_name(f)] = False
        elif base is str:
            out[json_name(f)] = "stock"
    return out


def _variants(body: Mapping[str, Any], second_deck: str) -> Iterator[dict[str, Any]]:
    """``body`` with each field in turn given each token (a list's each item too)."""
    for key, value in body.items():
        if key == "type":
            continue
        for token in (*TOKENS, second_deck):
            yield {**body, key: token}
            if isinstance(value, list):
                for i in range(len(value)):
                    yield {**body, key: [*value[:i], token, *value[i + 1:]]}
                yield {**body, key: [*value, token]}
        yield {k: v for k, v in body.items() if k != key}  # left out


def _exercise(game: Game[Any], state: Any, rest: list[Event]) -> None:
    """The hand played on from ``state`` (each event taken or refused), then everything the
    screens, reports and settlement ask of the state."""
    for ev in rest:
        try:
            after = game.apply(state, ev)
        except DealerAssistError:
            continue
        game.narrate(state, ev, after)
        state = after
    game.prompt(state)
    game.view(state)
    game.view(state, reveal=True)
    game.report(state)
    game.secret_seats(state)
    game.stacks_left(state)
    if game.is_over(state):
        game.settle(state).require_conserved()
        game.next_hand(state)
        game.score_sheet([state])
    else:
        with contextlib.suppress(DealerAssistError):  # (a game that takes no misdeal)
            game.refund(state, "fuzz")


def _try(game: Game[Any], body: dict[str, Any], before: Any, rest: list[Event]) -> str:
    """One fuzzed input as the services take it: "taken", or "refused"; any other exception
    fails the test with the input that raised it."""
    try:
        check_written(body, None if before is None else game)  # bounds and the game's reader
        if before is None:  # the start
            start = event_from_json(body)
            assert isinstance(start, Start)
            if start.game != game.name:
                return "refused"  # (another game's start: that game's own fuzz)
            state = game.start(start)
        else:
            ev = read_event(body, game)
            state = game.apply(before, ev)
            game.narrate(before, ev, state)
        _exercise(game, state, rest)
    except DealerAssistError:
        return "refused"
    except Exception as exc:
        pytest.fail(f"{game.name}: {str(body)[:300]} raised {type(exc).__name__}: {exc}")
    return "taken"


@pytest.mark.parametrize("name", _games())
def test_regression_every_event_field_fuzzed_is_taken_or_refused(name: str) -> None:
    game = get_game(name)
    rng = random.Random(SEED)
    low, high = game.players
    events = game.sample_hand(rng, players=min(high, max(low, 3)))
    states: list[Any] = [game.start(events[0])]  # the state after each event
    for ev in events[1:]:
        states.append(game.apply(states[-1], ev))
    bodies = [ev.to_json() for ev in events]
    cards = [c for ev in events for c in ev.carried_cards()]
    second_deck = cards[0].code if cards else "As"  # the same card again
    seat = events[0].seats[0] if isinstance(events[0], Start) else 1
    outcomes: dict[str, int] = {"taken": 0, "refused": 0}
    # every event type of the game: where the sample hand has one, there (each place); the
    # others at the start and at the end of the hand
    where: dict[str, list[int]] = {}
    for i, body in enumerate(bodies):
        where.setdefault(body["type"], []).append(i)
    for tag, cls in game.events.items():
        places = [0] if tag == "start" else where.get(tag, [])[:3] or [1, len(events)]
        for i in places:
            body = bodies[i] if i < len(bodies) and bodies[i]["type"] == tag else _plain(cls, seat)
            before = None if tag == "start" else states[i - 1]
            rest = events[i + 1:] if tag != "start" or i else events[1:]
            for fuzzed in _variants(body, second_deck):
                outcomes[_try(game, fuzzed, before, rest)] += 1
    assert outcomes["refused"] > 0 and outcomes["taken"] >= 0


@pytest.mark.parametrize(("game", "body", "refusal"), [
    ("mille", {"type": "meld", "seat": 1, "cards": ["Jk", "Kd", "2c"]}, "without jokers"),
    ("mille", {"type": "meld", "seat": 1, "cards": ["JK", "Kd", "Kh"]}, "without jokers"),
    ("paiute", {"type": "wild", "card": "Jk"}, "without jokers"),
    ("commerce", {"type": "show", "seat": 1, "cards": ["Jk", "Kd", "Qh"]}, "without jokers"),
])
def test_regression_issue_40_5_a_joker_is_refused_by_the_games_reader(
    game: str, body: dict[str, Any], refusal: str
) -> None:
    from dealer_assist.errors import BadInput

    with pytest.raises(BadInput, match=refusal):
        read_event(body, get_game(game))

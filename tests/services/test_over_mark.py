"""The end mark (``events.over_mark``, schema 0018) says in the next start's own JSON what the
next hand at the same seats takes of what the game carries: the database compares the two key
by key (a start that differs is a new game the floor approves), so for every game that carries
something, the app's own next start must equal its last hand's mark, or PostgreSQL would
refuse the app's own path."""

from __future__ import annotations

import json
import random
from typing import Any

import anygame
import pytest

from dealer_assist.engine.hand import Folded, fold
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.events import Start
from dealer_assist.services.chain import canonical
from dealer_assist.services.next_hand import carried_from
from dealer_assist.services.overmark import over_mark

CARRYING = [g for g in [*game_names(), anygame.NAME] if get_game(g).carries]


def test_the_games_that_carry_are_all_checked() -> None:
    assert {"mille", "markets", "ofc", "dicey-poker", anygame.NAME} <= set(CARRYING)


@pytest.mark.parametrize("name", CARRYING)
def test_each_finished_sample_hands_mark_is_what_the_next_start_writes(name: str) -> None:
    game = get_game(name)
    rng = random.Random(11)
    low, high = game.players
    marked = 0
    for _ in range(12):
        events = game.sample_hand(rng, players=rng.randint(low, min(high, 6)))
        result = fold(list(events))
        assert isinstance(result, Folded)
        start = events[0]
        assert isinstance(start, Start)
        mark = over_mark(game, start, result.state, over=result.over, misdealt=False)
        if not result.over:
            assert mark is None
            continue
        assert mark is not None
        carried = carried_from(game, start, result.state, start.seats, misdealt=False)
        carried.pop(game.key("button"), None)
        written = json.loads(canonical(Start(game=start.game, seats=start.seats,
                                             params=carried).to_json()))
        said: dict[str, Any] = json.loads(mark)
        assert set(said) == set(game.carries)
        for key, value in said.items():
            assert written.get(key) == value, (key, written.get(key), value)
        marked += 1
    assert marked > 0

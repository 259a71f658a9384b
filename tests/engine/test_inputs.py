"""Typed inputs: what an action takes beyond its press, and the older ``needs`` text."""

from __future__ import annotations

import random

from dealer_assist.engine.base import Action
from dealer_assist.engine.hand import replay
from dealer_assist.engine.inputs import Amount, Cards, Choice, Dice, Rows, from_needs, to_needs
from dealer_assist.engine.registry import game_names, get_game


def test_needs_text_and_typed_input_follow_each_other() -> None:
    assert Action("card", "Card", seat=1, needs="card").input == Cards(1, 1, field="card")
    assert Action("board", "Flop", needs="board:2").input == Cards(2, 2)
    assert Action("set", "Rows", seat=1, needs="rows").input == Rows()
    assert Action("discard", "Discard", seat=1, needs="discard").input == Cards(1, 52,
                                                                                 unseen=True)
    typed = Action("natural", "Natural", seat=1, input=Choice("kind", ("dragon",)))
    assert typed.needs == "kind"
    assert Action("raise", "Raise", seat=2, input=Amount("to", 400, 1400)).needs == "amount"
    assert to_needs(Dice(5)) == "dice" and from_needs(None) is None


def test_amount_allows_its_range_in_its_steps() -> None:
    a = Amount("to", 400, 1400, step=100)
    assert a.allows(400) and a.allows(1400) and a.allows(900)
    assert not a.allows(350) and not a.allows(1450) and not a.allows(950)


def test_every_prompt_of_every_game_has_typed_inputs() -> None:
    """A screen maps each input kind to one widget: no game's action may need an input the core
    does not type."""
    for name in game_names():
        game = get_game(name)
        low, high = game.players
        events = game.sample_hand(random.Random(3), players=min(low + 1, high))
        for step in replay(events).steps:
            for action in game.prompt(step.state).actions:
                assert (action.needs is None) == (action.input is None), (name, action)
                assert action.input is None or isinstance(
                    action.input, Cards | Choice | Amount | Rows | Dice)

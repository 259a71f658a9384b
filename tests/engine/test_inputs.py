"""Typed inputs and the event the engine builds from an action: each input fills the field it
names, an action fixes fields of its own, values are checked against their input, and a value
the app draws is recorded in the event."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest
from anygame.events import EVENTS, Call, Draw, Meld, Roll, Swap

from dealer_assist.cards import Card, parse_cards
from dealer_assist.engine.base import Action
from dealer_assist.engine.build import build_event
from dealer_assist.engine.hand import replay
from dealer_assist.engine.inputs import (
    ONE_CARD,
    Amount,
    Cards,
    Choice,
    Dice,
    Drawn,
    Rows,
)
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.errors import BadInput
from dealer_assist.events import CardDealt, Discard, event_from_json


def test_an_action_has_one_truth_its_typed_inputs() -> None:
    """The older text form of an input is gone: an action's inputs are its typed ones only."""
    assert "needs" not in {f.name for f in fields(Action)}
    typed = Action("natural", "Natural", seat=1, input=Choice("kind", ("dragon",)))
    assert typed.inputs == (Choice("kind", ("dragon",)),)


def test_amount_allows_its_range_in_its_steps() -> None:
    a = Amount("to", 400, 1400, step=100)
    assert a.allows(400) and a.allows(1400) and a.allows(900)
    assert not a.allows(350) and not a.allows(1450) and not a.allows(950)


def test_a_percentile_die_reads_0_to_90_by_tens() -> None:
    d = Dice(1, faces=10, low=0, step=10)
    assert d.allows(0) and d.allows(90) and not d.allows(100) and not d.allows(15)


def test_one_card_fills_the_card_field_and_a_discard_its_count() -> None:
    card = parse_cards("9h")[0]
    assert build_event(Action("card", "Card", seat=3, input=ONE_CARD), {"card": (card,)}) == \
        CardDealt(seat=3, card=card)
    unseen = Action("discard", "Discard", seat=2, input=Cards(1, 1, unseen=True))
    assert build_event(unseen, {"count": 1}) == Discard(seat=2, count=1)
    with pytest.raises(BadInput, match="give the cards or how many"):
        build_event(unseen, {})


def test_two_inputs_in_one_action_fill_two_fields() -> None:
    call = Action("call", "Call", seat=1, input=Cards(2, 3),
                  more=(Choice("combination", ("pair", "trips")),))
    cards = parse_cards("8h 8c")
    assert build_event(call, {"cards": cards, "combination": "pair"}, vocab=EVENTS) == \
        Call(seat=1, cards=cards, combination="pair")
    with pytest.raises(BadInput, match='"Call" needs combination'):
        build_event(call, {"cards": cards}, vocab=EVENTS)
    with pytest.raises(BadInput, match="choose one of pair, trips"):
        build_event(call, {"cards": cards, "combination": "flush"}, vocab=EVENTS)


def test_two_named_single_cards_fill_one_card_each() -> None:
    swap = Action("swap", "Swap", seat=2, input=Cards(1, 1, field="up"),
                  more=(Cards(1, 1, field="hole"),))
    up, hole = parse_cards("7h 7d")
    assert build_event(swap, {"up": (up,), "hole": hole}, vocab=EVENTS) == \
        Swap(seat=2, up=up, hole=hole)
    with pytest.raises(BadInput, match='"Swap" takes 1 cards, not 2'):
        build_event(swap, {"up": (up, hole), "hole": hole}, vocab=EVENTS)


def test_a_range_of_cards_with_two_decks_and_jokers() -> None:
    meld = Action("meld", "Meld", seat=1, input=Cards(3, 5, repeats=True, jokers=True))
    cards = (*parse_cards("Qs Qs"), Card.joker())
    assert build_event(meld, {"cards": cards}, vocab=EVENTS) == Meld(seat=1, cards=cards)
    with pytest.raises(BadInput, match='"Meld" takes 3 to 5 cards, not 2'):
        build_event(meld, {"cards": cards[:2]}, vocab=EVENTS)
    one_deck = Action("meld", "Meld", seat=1, input=Cards(3, 5))
    with pytest.raises(BadInput, match="Q♠ is entered twice"):
        build_event(one_deck, {"cards": (*parse_cards("Qs Qs Qh"),)}, vocab=EVENTS)
    with pytest.raises(BadInput, match="takes no joker"):
        build_event(one_deck, {"cards": cards[1:] + parse_cards("Qh")}, vocab=EVENTS)


def test_a_die_named_with_its_value_drawn_by_the_app_and_recorded() -> None:
    roll = Action("roll", "Roll", seat=4, fields={"die": "d6"}, input=Drawn("value", faces=6))
    first = build_event(roll, vocab=EVENTS, rng=random.Random(5))
    again = build_event(roll, vocab=EVENTS, rng=random.Random(5))
    assert isinstance(first, Roll) and first == again and first.die == "d6"
    assert 1 <= first.value <= 6
    # the value is in the event: what a replay reads back, never drawn again
    assert event_from_json(first.to_json(), EVENTS) == first
    # a value drawn and shown first is recorded as shown, and checked
    assert build_event(roll, {"value": 3}, vocab=EVENTS) == Roll(seat=4, die="d6", value=3)
    with pytest.raises(BadInput, match="give 1 die of 1 to 6, not 7"):
        build_event(roll, {"value": 7}, vocab=EVENTS)


def test_an_order_drawn_by_the_app_is_a_shuffle_of_its_seats() -> None:
    order = Drawn("order", among=(4, 1, 3)).draw(random.Random(2), single=False)
    assert sorted(order) == [1, 3, 4]


def test_a_field_named_in_the_log_differently_fills_from_its_log_name() -> None:
    draw = Action("draw", "Draw", seat=1, input=Choice("from", ("stock", "pile")),
                  more=(Cards(1, 1, field="card", repeats=True, jokers=True),))
    card = parse_cards("9d")[0]
    ev = build_event(draw, {"from": "pile", "card": (card,)}, vocab=EVENTS)
    assert ev == Draw(seat=1, source="pile", card=card)
    assert ev.to_json() == {"type": "draw", "seat": 1, "from": "pile", "card": "9d"}
    assert event_from_json({"type": "draw", "seat": 1, "from": "pile", "card": "9d"},
                           EVENTS) == ev
    with pytest.raises(BadInput, match='"draw" needs from'):
        event_from_json({"type": "draw", "seat": 1, "card": "9d"}, EVENTS)
    with pytest.raises(BadInput, match='"draw" does not take source'):
        event_from_json({"type": "draw", "seat": 1, "source": "pile", "card": "9d"}, EVENTS)


def test_every_prompt_of_every_game_has_typed_inputs() -> None:
    """A screen maps each input kind to one widget: no game's action may need an input the core
    does not type."""
    for name in game_names():
        game = get_game(name)
        low, high = game.players
        events = game.sample_hand(random.Random(3), players=min(low + 1, high))
        for step in replay(events).steps:
            for action in game.prompt(step.state).actions:
                assert all(isinstance(i, Cards | Choice | Amount | Rows | Dice | Drawn)
                           for i in action.inputs), (name, action)

"""The replay shortcuts change nothing a caller sees: copies equal ``dataclasses.replace``,
lazily narrated steps read as eagerly narrated ones, and the shoe refuses cards as before."""

from __future__ import annotations

import dataclasses
import random

import pytest

from dealer_assist.cards import Card, parse_card
from dealer_assist.deck import DeckSpec, Shoe
from dealer_assist.engine.evolve import evolver
from dealer_assist.engine.hand import Step, replay
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Check
from dealer_assist.games.caro_holdem.state import SeatState
from dealer_assist.games.champs_and_cowards.state import CCState, SeatHand


@dataclasses.dataclass(frozen=True, slots=True)
class _Pair:
    left: int
    right: tuple[int, ...] = ()


def test_evolver_equals_replace_for_every_field() -> None:
    evolve = evolver(SeatHand)
    hand = SeatHand(seat=4, cards=(parse_card("7h"),), champs=1)
    assert evolve(hand) == hand
    assert evolve(hand) is not hand
    changed = evolve(hand, status="destroyed", reason="pairs 7h", returned=1)
    assert changed == dataclasses.replace(hand, status="destroyed", reason="pairs 7h", returned=1)
    assert hand.status == "live"  # the original is untouched
    with pytest.raises(dataclasses.FrozenInstanceError):
        changed.seat = 5  # type: ignore[misc]


def test_evolver_refuses_unknown_fields_like_replace() -> None:
    with pytest.raises(TypeError):
        evolver(_Pair)(_Pair(1), middle=2)
    with pytest.raises(TypeError):
        dataclasses.replace(_Pair(1), middle=2)  # type: ignore[call-arg]


def test_evolver_refuses_records_whose_constructor_checks() -> None:
    with pytest.raises(TypeError, match="plain dataclass"):
        evolver(DeckSpec)  # __post_init__ checks the deck count
    with pytest.raises(TypeError, match="plain dataclass"):
        evolver(Card)

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        x: int

    with pytest.raises(TypeError, match="slotted"):
        evolver(NoSlots)


def test_evolver_covers_every_state_field() -> None:
    for cls in (CCState, SeatHand, SeatState):
        names = [f.name for f in dataclasses.fields(cls)]
        assert evolver(cls).__code__.co_kwonlyargcount == len(names)


def test_step_lines_are_narrated_once_when_first_read() -> None:
    calls: list[str] = []
    game = get_game("caro-holdem")

    class Counting(type(game)):  # type: ignore[misc]
        def narrate(self, before: object, event: object, after: object) -> list[str]:
            calls.append("narrate")
            return ["Seat 2 checks"]

    ev = Check(seat=2)
    step = Step.narrated(5, 7, ev, "before", "after", Counting())
    assert calls == []
    assert step.lines == ("Seat 2 checks",)
    assert step.lines == ("Seat 2 checks",)
    assert calls == ["narrate"]
    eager = Step(5, 7, ev, "after", ("Seat 2 checks",))
    assert step == eager and hash(step) == hash(eager)
    assert repr(step) == repr(eager)
    assert (step.number, step.line, step.state, step.voided) == (5, 7, "after", False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        step.number = 6  # type: ignore[misc]


@pytest.mark.parametrize(("name", "players"), [("champs-and-cowards", 5), ("caro-holdem", 4)])
def test_regression_replay_lines_match_narrate(name: str, players: int) -> None:
    game = get_game(name)
    rng = random.Random(41)
    for _ in range(5):
        events = game.sample_hand(rng, players=players)
        rep = replay(events)
        state = game.start(events[0])
        assert rep.steps[0].lines == (f"start: {game.title}",)
        for step in rep.steps[1:]:
            after = dataclasses.replace(step.state)
            assert after == step.state
            assert step.lines == tuple(game.narrate(state, step.event, step.state))
            state = step.state


def test_shoe_refuses_cards_with_the_same_messages() -> None:
    shoe = Shoe.new(DeckSpec())
    ace = parse_card("As")
    once = shoe.deal(ace)
    assert (once.left, once.out[ace], shoe.out.get(ace)) == (51, 1, None)
    with pytest.raises(RuleViolation, match="already out of the stub"):
        once.deal(ace)
    with pytest.raises(RuleViolation, match="Joker is not in this deck"):
        shoe.deal(Card.joker())
    empty = shoe.deal_unseen(52)
    with pytest.raises(RuleViolation, match="the stub is empty: reshuffle first"):
        empty.deal(ace)
    two = Shoe.new(DeckSpec(decks=2)).deal(ace).deal(ace)
    with pytest.raises(RuleViolation, match="all 2 copies of A♠ are already out"):
        two.deal(ace)
    assert two.burn() == dataclasses.replace(two, left=two.left - 1, burned=1)

"""The replay shortcuts change nothing a caller sees: copies equal ``dataclasses.replace``,
lazily narrated steps read as eagerly narrated ones, and the shoe refuses cards as before."""

from __future__ import annotations

import dataclasses
import random

import pytest

from dealer_assist.cards import Card, parse_card
from dealer_assist.deck import DeckSpec, Shoe
from dealer_assist.engine.evolve import builder, evolver, replace, setter
from dealer_assist.engine.hand import Step, replay
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.events import Check, Start
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
    start = get_game("champs-and-cowards").sample_hand(random.Random(3), players=4)[0]
    assert isinstance(start, Start)
    cc = get_game("champs-and-cowards").start(start)
    assert isinstance(cc, CCState)
    records: tuple[object, ...] = (cc, cc.hands[0], SeatState(seat=2, stack=5000))
    for record in records:
        evolve = evolver(type(record))
        for f in dataclasses.fields(record):  # type: ignore[arg-type]
            marker = object()
            changed = evolve(record, **{f.name: marker})
            assert changed == dataclasses.replace(record, **{f.name: marker})  # type: ignore[type-var]
            assert getattr(changed, f.name) is marker
            assert type(changed) is type(record)


def test_replace_equals_dataclasses_replace_for_every_game_state_it_copies() -> None:
    # the records the games copy per event (OFC, Markets, Paiute, Mille, Commerce, Chinese
    # Poker): each field changed alone gives what dataclasses.replace gives, as a new object
    for name in ("ofc", "markets", "paiute", "mille", "commerce", "chinese-poker"):
        game = get_game(name)
        start = game.sample_hand(random.Random(5), players=game.players[0])[0]
        assert isinstance(start, Start)
        state = game.start(start)
        for f in dataclasses.fields(state):
            marker = object()
            changed = replace(state, **{f.name: marker})
            assert changed == dataclasses.replace(state, **{f.name: marker})
            assert getattr(changed, f.name) is marker
            assert type(changed) is type(state)
        assert replace(state) == state and replace(state) is not state


def test_replace_of_a_record_that_checks_runs_its_constructor() -> None:
    # a record whose constructor checks (or a field outside __init__) is replaced the slow way,
    # so its check still refuses and its derived field is still derived
    with pytest.raises(BadInput, match="decks must be"):
        replace(DeckSpec(), decks=0)

    @dataclasses.dataclass(frozen=True, slots=True)
    class Derived:
        x: int
        twice: int = dataclasses.field(init=False, default=0)

        def __post_init__(self) -> None:
            object.__setattr__(self, "twice", 2 * self.x)

    assert replace(Derived(2), x=5).twice == 10
    with pytest.raises(TypeError):
        replace(_Pair(1), middle=2)


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


def test_builder_equals_the_constructor_with_defaults() -> None:
    build = builder(SeatState)
    made = build(3, 12_500)
    assert made == SeatState(seat=3, stack=12_500)
    assert type(made) is SeatState
    assert build(3, 100, held=2, folded=True) == SeatState(seat=3, stack=100, held=2, folded=True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.stack = 5  # type: ignore[misc]
    with pytest.raises(TypeError, match="plain dataclass"):
        builder(DeckSpec)


def test_setter_equals_replace_of_its_fields() -> None:
    put = setter(SeatState, "stack", "all_in")
    seat = SeatState(seat=2, stack=900, round_in=100)
    assert put(seat, 0, True) == dataclasses.replace(seat, stack=0, all_in=True)
    assert seat.stack == 900  # the original is untouched
    with pytest.raises(TypeError, match="cannot set"):
        setter(SeatState, "pocket")


def test_front_row_cards_are_in_display_order_when_read() -> None:
    # a front row's cards are sorted when first read, as they were when its value was made:
    # the pair first, then the kicker
    from dealer_assist.evaluate import front_value

    value = front_value([parse_card("4c"), parse_card("Kd"), parse_card("4h")])
    assert [c.code for c in value.cards] == ["4h", "4c", "Kd"]
    assert value.description == front_value([parse_card("4s"), parse_card("4d"),
                                             parse_card("Kh")]).description


def test_rows_values_and_fouls_kept_for_the_last_rows_answer_as_fresh() -> None:
    # the rows' values and foul kept for the last rows asked answer for any rows exactly what
    # working them out afresh does, however many rows come between
    from dealer_assist.games.open_face import rows as of

    rng = random.Random(11)
    deck = [Card(rank, suit) for rank in range(2, 15) for suit in "shdc"]
    hands = []
    for _ in range(60):
        cards = rng.sample(deck, 13)
        hands.append(of.Rows(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:])))
    kept = [(of.values(r), of.foul_reason(r)) for r in hands + hands[::-1] + hands]
    of._VALUES.clear()
    of._FOULS.clear()
    fresh = []
    for r in hands + hands[::-1] + hands:
        fresh.append((of.values(r), of.foul_reason(r)))
        of._VALUES.clear()
        of._FOULS.clear()
    assert [(v.front.strength, v.middle.strength, v.back.strength, f) for v, f in kept] == [
        (v.front.strength, v.middle.strength, v.back.strength, f) for v, f in fresh]
    assert any(f is not None for _, f in fresh) and any(f is None for _, f in fresh)

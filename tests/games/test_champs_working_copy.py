"""Champs and Cowards applies its rules to a working copy of the hand (``CCWork``): a fold, a
replay and the sample dealing put every input to one copy, ``apply`` puts one input to a fresh
copy. Whichever way a hand is folded it reaches the same states and refuses the same input with
the same words, and the sample dealing's inputs go through those rules (an input they refuse
still fails)."""

from __future__ import annotations

import random
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import Card
from dealer_assist.engine.hand import Folded, Refused, fold, replay
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import DealerAssistError, RuleViolation
from dealer_assist.events import CardDealt, Event, Misdeal, Reshuffle, Start, Void
from dealer_assist.games.champs_and_cowards import sample as cc_sample
from dealer_assist.games.champs_and_cowards.events import Champ, Coward
from dealer_assist.games.champs_and_cowards.play import CCWork

GAME = get_game("champs-and-cowards")
ALL_CARDS = [Card(rank, suit) for rank in range(2, 15) for suit in "shdc"]


def _applied(events: list[Event]) -> tuple[list[object], tuple[int, str] | None]:
    """Each state ``apply`` gives, one input at a time, and the first input refused (its place
    and words)."""
    first = events[0]
    assert isinstance(first, Start)
    state = GAME.start(first)
    states: list[object] = [state]
    for i, ev in enumerate(events[1:], start=1):
        try:
            state = GAME.apply(state, ev)
        except DealerAssistError as exc:
            return states, (i, str(exc))
        states.append(state)
    return states, None


def _with_noise(events: list[Event], rng: random.Random) -> list[Event]:
    """The hand with a random input put in somewhere (often one the rules refuse)."""
    start = events[0]
    assert isinstance(start, Start)
    seat = rng.choice([*start.seats, 99])
    noise: Event = rng.choice([
        Champ(seat=seat), Coward(seat=seat), Reshuffle(),
        CardDealt(seat=seat, card=rng.choice(ALL_CARDS)),
    ])
    at = rng.randint(1, len(events))
    return [*events[:at], noise, *events[at:]]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), decks=st.integers(1, 2))
def test_rule_a_fold_a_replay_and_apply_reach_the_same_states_and_refuse_alike(
    seed: int, decks: int
) -> None:
    rng = random.Random(seed)
    events = list(GAME.sample_hand(rng, players=rng.randint(3, 9), params={"decks": decks}))
    if rng.random() < 0.7:
        events = _with_noise(events, rng)
    states, refused = _applied(events)
    folded = fold(events)
    if refused is None:
        assert isinstance(folded, Folded) and folded.state == states[-1]
        steps = replay(events).steps
        assert [s.state for s in steps] == states
        return
    assert isinstance(folded, Refused)
    assert (folded.index, folded.reason) == refused
    with pytest.raises(DealerAssistError):
        replay(events)


def test_regression_a_working_copy_leaves_the_state_it_came_from_as_it_was() -> None:
    events = GAME.sample_hand(random.Random(7), players=6)
    first = events[0]
    assert isinstance(first, Start)
    before = GAME.start(first)
    for ev in events[1:12]:
        before = GAME.apply(before, ev)
    kept = (before.shoe.out.copy(), before.hands, before.shoe.left, before.turn, before.news)
    work = CCWork(before)
    for ev in events[12:]:
        work.put(ev)
    assert (before.shoe.out, before.hands, before.shoe.left, before.turn, before.news) == kept
    folded = fold(events)
    assert isinstance(folded, Folded) and work.freeze() == folded.state


def test_regression_a_misdeal_reads_the_state_the_inputs_before_it_reached() -> None:
    events = list(GAME.sample_hand(random.Random(3), players=5))
    at = 9
    called = [*events[:at], Misdeal(reason="cards exposed")]
    folded = fold(called)
    states, refused = _applied(events[:at])
    assert refused is None and isinstance(folded, Folded)
    assert folded.state == states[-1] and folded.misdeal is not None
    refunds = folded.settle()
    assert refunds.payouts == dict(GAME.contributions(states[-1]))
    voided = [*called, Void(target=at + 1, reason="misdeal called by mistake"), *events[at:]]
    again = fold(voided)
    assert isinstance(again, Folded) and again.misdeal is None
    assert again.state == _applied(events)[0][-1]


def test_ruling_cc_8_the_sample_dealing_puts_its_inputs_to_the_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a strategy that never sees ruling 8's block stops where the rules forbid it: refused
    monkeypatch.setattr(cc_sample, "coward_block", lambda state, seat: None)
    monkeypatch.setattr(cc_sample, "_champ_odds", lambda points: 0.0)
    params = {"chip": 200, "decks": 1}
    with pytest.raises(RuleViolation, match="as the last to act it must take a card") as caught:
        for seed in range(200):
            GAME.sample_deal(random.Random(seed), players=5, params=params)
    assert caught.value.rule == "cc-8"


def test_regression_the_sample_dealing_keeps_the_state_a_fold_of_its_inputs_reaches() -> None:
    rng = random.Random(12)
    for _ in range(60):
        dealt = GAME.sample_deal(rng, players=rng.randint(3, 12),
                                 params={"decks": rng.randint(1, 3), "carry_in": 400})
        folded = fold(dealt.events)
        assert isinstance(folded, Folded) and dealt.state == folded.state
        assert GAME.settle(dealt.state) == folded.settle()
    start = Start(game="champs-and-cowards", seats=(1, 2, 3),
                  params=types.MappingProxyType({"chip": 100}))
    assert isinstance(fold([start]), Folded)

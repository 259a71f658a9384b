"""The betting engine plays a game's wager lines (``betting.wager``) and draws a sample hand's
wager (``betting.random_wager``) once for every game that records its wagers as the shared
lines (Anaconda, the Pineapple games)."""

from __future__ import annotations

import random

import pytest

from dealer_assist.engine import betting as b
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Bet, Call, Check, Fold, Raise, Start, vocabulary

VOCAB = vocabulary(b.AllIn)


def _no_limit() -> b.BettingState:
    rules = b.BettingRules(structure=b.Structure.NO_LIMIT, small_blind=100, big_blind=200)
    return b.start(rules, seats=[1, 2, 3], button=3, stacks={1: 5000, 2: 5000, 3: 5000})


def test_wager_plays_each_line_as_the_engine_does() -> None:
    s = _no_limit()
    via_lines = s
    for ev in (Raise(seat=3, to=600), Call(seat=1), b.AllIn(seat=2), Fold(seat=3)):
        assert b.is_wager(ev)
        via_lines = b.wager(via_lines, ev)
    direct = b.fold(b.all_in(b.call(b.raise_to(s, 3, to=600), 1), 2), 3)
    assert via_lines == direct
    assert via_lines.pot == 600 + 600 + 5000  # seat 1 still to answer the all-in
    assert not b.is_wager(Start(game="x", seats=(1, 2), params={}))


def test_wager_refuses_what_the_engine_refuses_and_a_fixed_limit_total() -> None:
    with pytest.raises(RuleViolation, match="seat 1 is not to act: it is seat 3's turn"):
        b.wager(_no_limit(), Check(seat=1))
    rules = b.BettingRules(structure=b.Structure.LIMIT, small_blind=100, big_blind=200,
                           small_bet=200, big_bet=400)
    limit = b.start(rules, seats=[1, 2, 3], button=3, stacks={1: 5000, 2: 5000, 3: 5000})
    with pytest.raises(RuleViolation) as info:
        b.wager(limit, Raise(seat=3, to=400))
    assert info.value.message == ('in limit every raise is one fixed size: a raise takes no '
                                  '"to" (an all-in short of it is "all-in")')
    assert b.wager(limit, Raise(seat=3)).bet == 400


def test_random_wager_draws_by_the_games_weights_and_builds_its_event() -> None:
    s = _no_limit()
    opts = b.options(s)
    assert opts is not None and opts.seat == 3
    only = {"check": 0, "call": 0, "fold": 0, "bet": 0, "raise": 0, "all-in": 0}
    rng = random.Random(7)
    assert b.random_wager(rng, opts, {**only, "fold": 1}, VOCAB, typed=True) == Fold(seat=3)
    assert b.random_wager(rng, opts, {**only, "call": 1}, VOCAB, typed=True) == Call(seat=3)
    assert b.random_wager(rng, opts, {**only, "all-in": 1}, VOCAB,
                          typed=True) == b.AllIn(seat=3)
    raised = b.random_wager(rng, opts, {**only, "raise": 1}, VOCAB, typed=True)
    assert isinstance(raised, Raise) and raised.to is not None and 400 <= raised.to <= 5000
    fixed = b.random_wager(rng, opts, {**only, "raise": 1}, VOCAB, typed=False)
    assert fixed == Raise(seat=3)
    b.wager(s, raised)  # a legal total
    assert not isinstance(raised, Bet)

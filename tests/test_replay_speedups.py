"""The shortcuts a replay and a re-derived hand take give what the plain definitions give.

A front row's value read from a table of rank triples, the betting engine's next to act worked
out in one walk, ``evolve.replace`` calling the setter it made before, Guts' phase asked with the
players in already known, and a Chinese Poker pair's words written when first read: each is held
here to the definition it stands for, over every case or over sample hands of each game.
"""

from __future__ import annotations

import dataclasses
import pickle
import random
from itertools import product
from typing import Any

import pytest

from dealer_assist.cards import Card
from dealer_assist.engine.betting.state import BettingState
from dealer_assist.engine.evolve import replace
from dealer_assist.engine.hand import replay
from dealer_assist.engine.registry import get_game
from dealer_assist.evaluate import front_value
from dealer_assist.evaluate.classes import classify, pack_key
from dealer_assist.games.chinese_poker.settle import PairDetail, outcome
from dealer_assist.games.guts.state import DECLARING, OVER, SHOWDOWN
from dealer_assist.games.open_face.rows import compare_rows, row_verdict, values


def _states(game: str, hands: int, seed: int = 7) -> list[Any]:
    """The state after every event of ``hands`` sample hands of ``game``."""
    rng = random.Random(seed)
    g = get_game(game)
    low, high = g.players
    out: list[Any] = []
    for _ in range(hands):
        hand = g.sample_hand(rng, players=rng.randint(low, min(high, low + 4)))
        out.extend(step.state for step in replay(hand).steps)
    return out


def test_regression_front_row_value_is_its_ranks_classified_for_every_triple() -> None:
    for ranks in product(range(2, 15), repeat=3):
        cards = [Card(r, s) for r, s in zip(ranks, "cdh", strict=True)]
        category, sig = classify(list(ranks), False)
        assert front_value(cards).strength == pack_key(category, sig), ranks


def _next_by_definition(b: BettingState, after: int) -> int | None:
    """The first position after ``after`` that :meth:`BettingState.needs_to_act`."""
    if b.hand_over:
        return None
    n = len(b.seats)
    for k in range(1, n + 1):
        i = (after + k) % n
        if b.needs_to_act(i):
            return i
    return None


@pytest.mark.parametrize("game", ["pineapple", "anaconda", "markets"])
def test_rule_betting_next_to_act_is_the_first_seat_with_a_decision(game: str) -> None:
    seen = 0
    for state in _states(game, 40):
        for name in getattr(type(state), "__slots__", ()):
            b = getattr(state, name, None)
            if not isinstance(b, BettingState):
                continue
            for after in range(len(b.seats)):
                assert b.next_to_act(after) == _next_by_definition(b, after)
                seen += 1
    assert seen > 500  # (the sample hands bet: the walk was asked of many states)


def test_rule_betting_next_to_act_skips_a_seat_with_nobody_left_to_bet_against_it() -> None:
    b = next(s.bet for s in _states("pineapple", 5) if isinstance(s.bet, BettingState))
    n = len(b.seats)
    # every other seat all-in: the one with chips, owing nothing, has no decision
    lone = replace(b, stacks=(500, *(0,) * (n - 1)), in_round=(0,) * n, bet=0,
                   folded=(False,) * n, acted_at=(None,) * n)
    assert lone.next_to_act(n - 1) is None
    assert _next_by_definition(lone, n - 1) is None
    owing = replace(lone, bet=200)  # it owes: it still decides
    assert owing.next_to_act(n - 1) == 0 == _next_by_definition(owing, n - 1)


@dataclasses.dataclass(frozen=True, slots=True)
class _Rec:
    a: int
    b: str
    c: tuple[int, ...] = ()


def test_regression_replace_gives_what_dataclasses_replace_gives_each_time_in_any_order() -> None:
    rec = _Rec(1, "x", (2,))
    for _ in range(3):  # (the first call makes the setter, the later ones call it directly)
        assert replace(rec, a=5, c=(9,)) == dataclasses.replace(rec, a=5, c=(9,))
        assert replace(rec, c=(9,), a=5) == _Rec(5, "x", (9,))
        assert replace(rec, b="y") == _Rec(1, "y", (2,))
        assert replace(rec) == rec and replace(rec) is not rec
        with pytest.raises(TypeError, match="'d'"):
            replace(rec, d=1)
    assert rec == _Rec(1, "x", (2,))  # (the original is never written)


def test_rule_guts_phase_with_the_players_in_matches_its_definition() -> None:
    seen = set()
    for state in _states("guts", 60):
        if state.to_declare:
            want = DECLARING
        elif len(state.ins) >= 2 and state.to_show:
            want = SHOWDOWN
        else:
            want = OVER
        assert state.phase == want == state.phase_of(state.ins) == state.phase_of()
        seen.add(want)
    assert seen == {DECLARING, SHOWDOWN, OVER}


def test_regression_chinese_poker_pair_words_read_as_their_definition() -> None:
    compared = 0
    for state in _states("chinese-poker", 60):
        if not state.over:
            continue
        out = outcome(state)
        for pair in out.pairs:
            if pickle.loads(pickle.dumps(pair)) != pair:
                raise AssertionError(pair)
            if not isinstance(pair.detail, PairDetail):
                continue
            a, b = pair.a, pair.b
            va, vb = values(state.sets[a]), values(state.sets[b])
            wins = compare_rows(state.sets[a], state.sets[b])
            detail = dict(pair.detail)
            assert list(detail)[-4:] == ["rows_points", "rows", "winners", "scoop"]
            assert detail["rows"] == {r: row_verdict(a, va.of(r), b, vb.of(r)) for r in wins}
            assert detail["winners"] == {r: a if w > 0 else b if w < 0 else None
                                         for r, w in wins.items()}
            assert pair.to_json() == {"seats": [a, b], "points": pair.points, **detail}
            assert isinstance(pickle.loads(pickle.dumps(pair.detail)), dict)
            compared += 1
    assert compared > 20

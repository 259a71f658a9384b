"""Mille over random legal games: the totals carried from hand to hand are the sum of the hand
scores, the naturals and chapeaux carried are their counts, the game ends exactly when a total
reaches 1,200 with the totals apart, and every settlement conserves chips."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.engine.hand import replay
from dealer_assist.engine.registry import get_game
from dealer_assist.games.mille.rules import TARGET

GAME = get_game("mille")


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), turns=st.booleans())
def test_carried_totals_are_the_sum_of_hand_scores_and_chips_are_conserved(
    seed: int, turns: bool
) -> None:
    rng = random.Random(seed)
    carried: dict[str, Any] = {}
    scores: dict[int, list[int]] = {1: [], 2: []}
    naturals = {1: 0, 2: 0}
    chapeaux = {1: 0, 2: 0}
    dealer = 1
    for _ in range(30):
        events = GAME.sample_hand(rng, players=2,
                                  params={"turns": turns, "dealer": dealer, **carried})
        hand = replay(events)
        assert hand.over
        state = hand.state
        settlement = hand.settle()
        assert settlement.conserved
        for s in (1, 2):
            sc = state.score(s)
            scores[s].append(sc.score)
            naturals[s] += sc.naturals
            chapeaux[s] += sc.chapeau
        totals = {s: sum(scores[s]) for s in (1, 2)}
        assert state.totals() == totals
        assert state.naturals() == naturals and state.chapeaux() == chapeaux
        over = max(totals.values()) >= TARGET and totals[1] != totals[2]
        assert GAME.game_over(state) is over
        if over:
            winner = max(totals, key=lambda s: totals[s])
            paid = settlement.payouts[winner]
            assert paid > 0 and settlement.put_in[3 - winner] == paid
            assert GAME.next_hand(state) == {}
            return
        assert sum(settlement.payouts.values()) == 0  # no money moves before the game ends
        carried = GAME.next_hand(state)
        assert carried["totals_in"] == {str(s): v for s, v in totals.items()}
        dealer = 3 - dealer
    raise AssertionError("a game of thirty hands did not end")

"""Markets poker over whole sessions of random legal hands: chips are conserved hand by hand and
across the session, auction shares included; each hand starts with the stacks the last one left
and the advantage cards it carries; a game ends exactly when someone ends a hand below 12
chips, and the next hand starts a new one."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.engine.hand import replay
from dealer_assist.games.markets import GAME
from dealer_assist.games.markets.settle import auction_split, stacks_after


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 5), chip=st.sampled_from([25, 100]))
def test_chips_are_conserved_across_a_session_auction_shares_included(
    seed: int, players: int, chip: int
) -> None:
    rng = random.Random(seed)
    seats = tuple(range(1, players + 1))
    stacks = {s: rng.randint(12, 30) * chip for s in seats}
    total = sum(stacks.values())
    dealer = seats[-1]
    carried: dict[str, Any] = {}
    games = 1
    for _ in range(8):
        params = {"chip": chip, "dealer": dealer,
                  "stacks": {str(s): c for s, c in stacks.items()}, **carried}
        events = GAME.sample_hand(rng, players=players, params=params)
        assert ("advantage" in events[0].params) == bool(carried)  # type: ignore[attr-defined]
        hand = replay(events)
        state = hand.state
        s = hand.settle()
        assert s.conserved and not s.fees and s.carry_out == 0
        shares, rest = auction_split(state)
        assert sum(shares.values()) + rest == state.price
        if state.buyer is not None:
            assert s.put_in[state.buyer] >= state.price * chip
        after = stacks_after(state)
        assert sum(after.values()) == total
        assert all(c % chip == 0 and c >= 0 for c in after.values())
        assert GAME.game_over(state) == any(c < 12 * chip for c in after.values())
        if GAME.game_over(state):  # a new game: everyone is topped up to 20 chips
            games += 1
            assert GAME.next_hand(state) == {}
            top = {seat: 20 * chip - c for seat, c in after.items() if c < 20 * chip}
            after = {seat: c + top.get(seat, 0) for seat, c in after.items()}
            total += sum(top.values())
            carried = {}
        else:
            carried = GAME.next_hand(state)
            assert set(carried["advantage"]) == {str(x) for x in state.folded}
        stacks = after
        dealer = seats[(seats.index(dealer) + 1) % len(seats)]
    assert games >= 1

"""Pineapple property tests over random legal hands (every variant and structure, blinds or
antes, short stacks, discards face down or shown, kills, mucks): chips are conserved, and nobody
wins more from an opponent than that opponent put in."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.engine.hand import replay
from dealer_assist.games.pineapple import GAME
from dealer_assist.games.pineapple.settings import STRUCTURES, VARIANTS


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10),
       variant=st.sampled_from(VARIANTS), structure=st.sampled_from(STRUCTURES),
       rake=st.booleans())
def test_random_hands_conserve_chips_and_nobody_wins_more_than_an_opponent_put_in(
    seed: int, players: int, variant: str, structure: str, rake: bool
) -> None:
    params: dict[str, object] = {"variant": variant, "structure": structure}
    if rake:
        params["fee"] = {"kind": "rake", "percent": "5", "cap": 300}
    events = GAME.sample_hand(random.Random(seed), players=players, params=params)
    hand = replay(events)
    assert hand.over
    s = hand.settle()
    assert s.conserved
    state = hand.state
    bet = state.bet
    stake = {seat: bet.put_in[i] - bet.returned[i] for i, seat in enumerate(bet.seats)}
    for seat, net in s.net().items():
        if net > 0:
            most = sum(min(stake[o], stake[seat]) for o in stake if o != seat)
            assert net <= most, (seat, net, stake)
    # what each seat takes to the next hand: its chips behind and what is pushed to it
    after = {seat: GAME.stacks_left(state)[seat] + s.payouts.get(seat, 0) for seat in stake}
    before = {int(k): v for k, v in events[0].params["stacks"].items()}  # type: ignore[union-attr]
    fees = sum(f.amount for f in s.fees)
    assert sum(after.values()) + fees == sum(before.values())

"""Anaconda over random sequences of legal hands: chips are conserved hand by hand and across
the sequence (what the players had plus the pot at the start = what they have plus the pot
left at the end plus the fees), and what a hand leaves in the pot is the next hand's pot_in."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.engine.hand import parse_lines, replay, to_lines
from dealer_assist.games.anaconda import GAME

FEES = st.sampled_from([
    None,
    {"kind": "per-player", "amount": 100},
    {"kind": "rake", "percent": "10", "cap": 500},
])


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 7),
    hands=st.integers(1, 5),
    structure=st.sampled_from(["limit", "pot-limit", "no-limit"]),
    each_roll=st.booleans(),
    chip=st.sampled_from([25, 100, 500]),
    fee=FEES,
)
def test_rule_chips_are_conserved_across_a_sequence_of_hands(
    seed: int, players: int, hands: int, structure: str, each_roll: bool, chip: int,
    fee: dict[str, Any] | None,
) -> None:
    rng = random.Random(seed)
    ante = max(100, chip)  # every amount a whole number of the table's chips
    if fee is not None and fee["kind"] == "per-player":
        fee = {**fee, "amount": ante}
    stacks = {s: rng.randrange(5, 100) * ante for s in range(1, players + 1)}
    pot = 0
    before = sum(stacks.values())
    fees = 0
    button = players
    for _ in range(hands):
        seats = [s for s in sorted(stacks) if stacks[s] > 3 * ante]
        if len(seats) < 2:
            break
        later = [s for s in seats if s > button]
        button = later[0] if later else seats[0]
        renumber = dict(zip(range(1, len(seats) + 1), seats, strict=True))
        params: dict[str, Any] = {
            "structure": structure, "ante": ante, "pot_in": pot, "bet_each_roll": each_roll,
            "smallest_chip": chip, "fee": fee, "button": seats.index(button) + 1,
            "stacks": {str(k): stacks[s] for k, s in renumber.items()}}
        events = GAME.sample_hand(rng, players=len(seats), params=params)
        parsed, numbers = parse_lines(to_lines(events).splitlines())
        hand = replay(parsed, lines=numbers)
        s = hand.settle()
        assert s.conserved and s.carry_in == pot
        fees += sum(f.amount for f in s.fees)
        for k, v in GAME.stacks_left(hand.state).items():
            assert v >= 0
            stacks[renumber[k]] = v + s.payouts.get(k, 0)
        pot = s.carry_out
        assert pot < chip * 2 * len(seats) ** 2  # only odd chips ever stay, a few a pot
    assert sum(stacks.values()) + pot + fees == before

"""Guts over random sequences of legal hands: chips are conserved hand by hand and across the
sequence (what the players had plus the pot at the start = what they have plus the pot left
at the end plus the fees), and each hand's start is the last hand's carry and stacks."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.engine.hand import parse_lines, replay, to_lines
from dealer_assist.events import Start
from dealer_assist.games.guts import GAME

FEES = st.sampled_from([
    None,
    {"kind": "per-player", "amount": 100},
    {"kind": "rake", "percent": "10", "cap": 500},
    {"kind": "fixed", "amount": 300, "from": "pot"},
])


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 7),
    hands=st.integers(1, 12),
    cap=st.sampled_from([None, 500, 2000]),
    declare=st.sampled_from(["in-turn", "together"]),
    short=st.sampled_from(["pay-what-they-have", "barred"]),
    chip=st.sampled_from([25, 100]),
    fee=FEES,
)
def test_rule_chips_are_conserved_across_a_sequence_of_hands(
    seed: int, players: int, hands: int, cap: int | None, declare: str, short: str,
    chip: int, fee: dict[str, Any] | None,
) -> None:
    rng = random.Random(seed)
    stacks = {s: rng.randrange(3, 60) * 100 for s in range(1, players + 1)}
    pot = 0
    before = sum(stacks.values()) + pot
    fees = 0
    button = players
    for _ in range(hands):
        seats = [s for s in sorted(stacks) if stacks[s] > 300]  # enough for any fee and ante
        if len(seats) < 2:
            break
        later = [s for s in seats if s > button]
        button = later[0] if later else seats[0]
        # the sample deals seats 1..n: the table's seats in order
        renumber = dict(zip(range(1, len(seats) + 1), seats, strict=True))
        params = {"ante": 100, "pot_in": pot, "max": cap, "declare": declare, "short": short,
                  "smallest_chip": chip, "fee": fee, "button": seats.index(button) + 1,
                  "stacks": {str(k): stacks[s] for k, s in renumber.items()}}
        events = GAME.sample_hand(rng, players=len(seats), params=params)
        assert isinstance(events[0], Start)
        lines = to_lines(events).splitlines()
        events2, numbers = parse_lines(lines)
        hand = replay(events2, lines=numbers)
        s = hand.settle()
        assert s.conserved
        assert s.carry_in == pot
        fees += sum(f.amount for f in s.fees)
        left = GAME.stacks_left(hand.state)
        for k, v in left.items():
            assert v >= 0
            stacks[renumber[k]] = v + s.payouts.get(k, 0)
        pot = s.carry_out
    assert sum(stacks.values()) + pot + fees == before

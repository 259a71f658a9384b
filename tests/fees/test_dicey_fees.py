"""The fees ruling in Dicey Poker, whose prize (the entries, put in on a game's first hand)
carries from hand to hand until the game ends: a fee before the deal is paid on top of the
entries; a rake, a collection or a drop is worked out on the entries put in during the hand,
never on the prize carried in, and taken when the hand settles. Chips are conserved."""

from __future__ import annotations

import random
from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.hand import replay
from dealer_assist.engine.registry import get_game

GAME = get_game("dicey-poker")


def hand(seed: int, **params: Any) -> Settlement:
    events = GAME.sample_hand(random.Random(seed), players=3, params=params)
    return replay(events).settle().require_conserved()


def test_ruling_fees_dicey_rake_on_the_entries_put_in_this_hand() -> None:
    plain = hand(1, entry=500)
    assert sum(plain.put_in.values()) == 1500
    s = hand(1, entry=500, fee={"kind": "rake", "percent": "10"})
    # 10% of the $15 of entries is $1.50, down to the $1 chip
    assert [(f.kind, f.amount, f.base) for f in s.fees] == [("rake", 100, 1500)]
    assert s.put_in == plain.put_in
    assert sum(s.payouts.values()) + s.carry_out == 1500 - 100


def test_ruling_fees_dicey_the_prize_carried_in_is_never_raked() -> None:
    s = hand(2, entry=500, carry_in=1500, totals_in={"1": 40, "2": 30, "3": 20},
             fee={"kind": "rake", "percent": "10", "jackpot": {"amount": 100}})
    assert s.put_in == {} and s.fees == ()
    assert sum(s.payouts.values()) + s.carry_out == 1500


def test_ruling_fees_dicey_fee_per_player_before_the_deal() -> None:
    s = hand(3, entry=500, fee={"kind": "per-player", "amount": 100})
    assert [(f.kind, f.amount, f.from_seat) for f in s.fees] == [
        ("player-fee", 100, 1), ("player-fee", 100, 2), ("player-fee", 100, 3)]
    assert s.put_in == {1: 600, 2: 600, 3: 600}

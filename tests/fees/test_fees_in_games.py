"""Fees inside the games: hand logs replayed with a "fee" in the start event conserve chips,
take the worked amounts, round to the chip, honour the cap and "no flip, no drop", and (Champs
and Cowards) never touch the prize stacks."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cli.replay import outcome_json
from dealer_assist.engine.base import Settlement
from dealer_assist.engine.hand import HandReplay, parse_lines, replay
from dealer_assist.engine.registry import get_game
from dealer_assist.events import Start

EXAMPLES = Path(__file__).resolve().parents[1] / "data" / "examples"
CARO_8 = EXAMPLES / "caro-holdem-rulings-8.jsonl"
CARO_9 = EXAMPLES / "caro-holdem-rulings-9.jsonl"
CC_10 = EXAMPLES / "champs-and-cowards-rulings-10.jsonl"

CARO_NO_FLIP = [
    {"type": "start", "game": "caro-holdem", "seats": [1, 2, 3], "button": 3, "unit": 1000,
     "stacks": {"1": 100000, "2": 100000, "3": 100000}, "cap": 4, "ante": 100},
    {"type": "bet", "seat": 1},
    {"type": "fold", "seat": 2},
    {"type": "fold", "seat": 3},
]


def with_fee(lines: list[str], fee: dict[str, Any], **extra: Any) -> HandReplay:
    start = json.loads(lines[0])
    start["fee"] = fee
    start.update(extra)
    events, numbers = parse_lines([json.dumps(start), *lines[1:]])
    return replay(events, lines=numbers)


def log(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def money(s: Settlement) -> tuple[dict[int, int], dict[int, int], list[tuple[str, int, Any]]]:
    return (
        dict(s.put_in),
        {k: v for k, v in s.payouts.items() if v},
        [(f.kind, f.amount, f.from_seat) for f in s.fees],
    )


def test_caro_rake_capped_with_jackpot_drop_conserves_and_nets_the_payout() -> None:
    hand = with_fee(log(CARO_8), {"kind": "rake", "percent": "5", "cap": 500, "min_pot": 1000,
                                  "no_flop_no_drop": True,
                                  "jackpot": {"amount": 100, "min_pot": 2000}})
    s = hand.settle().require_conserved()
    put_in, payouts, fees = money(s)
    assert sum(put_in.values()) == 40300
    assert payouts == {2: 40300 - 500 - 100}
    assert fees == [("rake", 500, None), ("jackpot", 100, None)]
    out = outcome_json(hand)
    assert out["fees"] == [{"kind": "rake", "amount": 500, "from": None},
                           {"kind": "jackpot", "amount": 100, "from": None}]
    assert out["payouts"] == {"2": 39700} and out["conserved"] is True


def test_caro_rake_rounds_down_to_the_smallest_chip() -> None:
    # 5% of $403 is $20.15: $20 with $1 chips, $20.15 with 5-cent chips, $20 with 25-cent
    # chips. (Every wager of the hand is a whole number of each of these chips.)
    for chip, rake in ((100, 2000), (5, 2015), (25, 2000)):
        s = with_fee(log(CARO_8), {"kind": "rake", "percent": "5"}, smallest_chip=chip).settle()
        assert s.conserved
        assert money(s)[2] == [("rake", rake, None)]
        assert money(s)[1] == {2: 40300 - rake}


def test_caro_before_deal_fees_are_added_to_put_in() -> None:
    s = with_fee(log(CARO_8), {"kind": "per-player", "amount": 100}).settle()
    assert s.conserved
    assert money(s) == (
        {1: 24200, 2: 16200, 3: 200},
        {2: 40300},
        [("player-fee", 100, 1), ("player-fee", 100, 2), ("player-fee", 100, 3)],
    )
    b = with_fee(log(CARO_8), {"kind": "fixed", "amount": 300, "from": "button"}).settle()
    assert b.conserved and money(b)[0][3] == 100 + 300
    assert money(b)[2] == [("button-fee", 300, 3)]


def test_caro_fixed_collection_from_the_pot() -> None:
    s = with_fee(log(CARO_8), {"kind": "fixed", "amount": 300}).settle()
    assert s.conserved and money(s)[1:] == ({2: 40000}, [("collection", 300, None)])


def test_ruling_fees_caro_hand_over_before_the_flip_takes_no_drop() -> None:
    lines = [json.dumps(e) for e in CARO_NO_FLIP]
    hand = with_fee(lines, {"kind": "rake", "percent": "5", "cap": 500,
                            "jackpot": {"amount": 100}})
    s = hand.settle().require_conserved()
    pot = sum(s.put_in.values())
    assert s.fees == ()
    assert money(s)[1] == {1: pot}
    drop = with_fee(lines, {"kind": "rake", "percent": "10", "no_flop_no_drop": False}).settle()
    # The fees ruling: seat 1's $50 bet was never called, so it goes back unraked and only the
    # $3 of antes is raked: 30 cents, below the $1 chip (this used to rake $5 of $53).
    assert drop.conserved and money(drop)[2] == []
    assert drop.steps[-1].text == "Return $50 uncalled to seat 1: the part of its bet nobody called"


def test_caro_small_pot_rounds_to_no_rake() -> None:
    # The $2 pot of antes: 10% is 20 cents, which rounds down to nothing with $1 chips.
    s = with_fee(log(CARO_9), {"kind": "rake", "percent": "10"}).settle()
    assert s.conserved and s.fees == () and money(s)[1] == {1: 200}


def test_ruling_cc_rake_comes_from_the_bonus_pool_never_the_prize_stacks() -> None:
    events, numbers = parse_lines(log(CC_10))
    base = replay(events, lines=numbers).settle()
    assert money(base)[1] == {1: 9000, 4: 3000, 8: 1200}
    # Nine champ cards at $4: a $36 bonus pool; 10% is $3.60, down to the $1 chip: $3.
    s = with_fee(log(CC_10), {"kind": "rake", "percent": "10"}, smallest_chip=100).settle()
    assert s.conserved
    assert money(s)[1:] == ({1: 8700, 4: 3000, 8: 1200}, [("rake", 300, None)])
    # With the game's own $2 chip as the smallest: $2.
    two = with_fee(log(CC_10), {"kind": "rake", "percent": "10"}).settle()
    assert two.conserved and money(two)[2] == [("rake", 200, None)]


def test_ruling_cc_rake_cap() -> None:
    s = with_fee(log(CC_10), {"kind": "rake", "percent": "25", "cap": 500},
                 smallest_chip=100).settle()
    assert s.conserved
    assert money(s)[1:] == ({1: 8500, 4: 3000, 8: 1200}, [("rake", 500, None)])


def test_ruling_cc_per_player_fee_before_the_deal() -> None:
    s = with_fee(log(CC_10), {"kind": "per-player", "amount": 100}).settle()
    assert s.conserved
    put_in, payouts, fees = money(s)
    assert payouts == {1: 9000, 4: 3000, 8: 1200}
    assert put_in[3] == 1200 + 100 and len(fees) == 8
    assert all(kind == "player-fee" and amount == 100 for kind, amount, _ in fees)


def test_cc_jackpot_drop_from_the_bonus_pool() -> None:
    s = with_fee(log(CC_10), {"kind": "none", "jackpot": {"amount": 200}},
                 smallest_chip=100).settle()
    assert s.conserved
    assert money(s)[1:] == ({1: 8800, 4: 3000, 8: 1200}, [("jackpot", 200, None)])


FEES = [
    {"kind": "rake", "percent": "5", "cap": 300},
    {"kind": "rake", "bps": 1000, "no_flop_no_drop": False, "jackpot": {"amount": 100}},
    {"kind": "fixed", "amount": 200},
    {"kind": "per-player", "amount": 100},
    {"kind": "time", "amount": 500},
    {"kind": "none", "jackpot": {"amount": 100, "fund": "promo"}},
]


@pytest.mark.parametrize("game_name", ["caro-holdem", "champs-and-cowards"])
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), fee=st.sampled_from(FEES), chip=st.sampled_from([25, 100]),
       players=st.integers(3, 6))
def test_fees_conserve_chips_in_random_hands(
    game_name: str, seed: int, fee: dict[str, Any], chip: int, players: int
) -> None:
    """Each game plays a random legal hand with the fee in its start ("chip": the fee's chip)."""
    game = get_game(game_name)
    events = game.sample_hand(random.Random(seed), players=players,
                             params={"fee": dict(fee, chip=chip)})
    start = events[0]
    assert isinstance(start, Start) and start.get("fee")["chip"] == chip
    hand = replay(events)
    s = hand.settle()
    assert s.conserved, (s.total_in, s.total_out)
    assert all(f.amount > 0 and f.amount % chip == 0 for f in s.fees)
    if fee["kind"] == "per-player":
        assert len([f for f in s.fees if f.kind == "player-fee"]) == players
    if fee["kind"] == "time":
        assert s.fees == ()

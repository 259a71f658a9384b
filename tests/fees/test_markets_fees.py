"""The fees ruling in Markets poker: every policy is taken. A rake, a collection from the pot and
a jackpot drop come out of the pot (antes, called bets and the auction's remainder) before it is
halved, in whole chips (the fee in cents rounded down to the chip); "no flop, no drop" reads as
no fee from a hand that ended in the first betting round. A fee per player or from the button
is paid from the stack before the deal, in whole chips. Chips are conserved."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.hand import parse_lines, replay
from dealer_assist.games.markets import GAME

EXAMPLE = "markets-auction-three-players"
#: The first hand of a game: seat 1 bets, the others fold in the first betting round.
FOLDS = [
    {"type": "start", "game": "markets", "seats": [1, 2, 3], "dealer": 3, "chip": 100,
     "stacks": {"1": 2000, "2": 2000, "3": 2000}, "advantage": {"3": "Qd"}},
    {"type": "disclose", "seat": 1, "card": "Ah"}, {"type": "disclose", "seat": 2, "card": "7d"},
    {"type": "disclose", "seat": 3, "card": "Qc"}, {"type": "supplier", "card": "9c"},
    {"type": "externality", "card": "3c"}, {"type": "bet", "seat": 1, "to": 3},
    {"type": "fold", "seat": 2}, {"type": "fold", "seat": 3},
    {"type": "choose", "seat": 2, "card": "7d"}, {"type": "choose", "seat": 3, "card": "5s"},
]


def example(examples_dir: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (examples_dir / f"{EXAMPLE}.jsonl").read_text().splitlines()]


def settle(lines: list[dict[str, Any]], fee: dict[str, Any] | None) -> Settlement:
    first = dict(lines[0])
    if fee is not None:
        first["fee"] = fee
    events, numbers = parse_lines([json.dumps(x) for x in [first, *lines[1:]]])
    return replay(events, lines=numbers).settle().require_conserved()


def house(s: Settlement) -> list[tuple[str, int, int | None]]:
    return [(f.kind, f.amount, f.base) for f in s.fees if f.from_seat is None]


def test_ruling_fees_markets_rake_rounds_down_to_whole_chips_before_the_halves(
    examples_dir: Path,
) -> None:
    plain = settle(example(examples_dir), None)
    assert plain.payouts == {1: 1200, 2: 1100, 3: 100}
    # the 21-chip pot ($21): 10% is $2.10, down to 2 chips; 19 chips halved: the leader 10
    # (the odd chip), the niche 9; the auction's shares are not the pot's and are untouched
    s = settle(example(examples_dir), {"kind": "rake", "percent": "10"})
    assert house(s) == [("rake", 200, 2100)]
    assert s.payouts == {1: 100 + 1000, 2: 100 + 900, 3: 100}
    assert s.put_in == plain.put_in
    assert any(step.kind == "fee" and step.text.startswith("Drop 2 chips ($2) rake")
               for step in s.steps)
    # a cap, a minimum pot
    capped = settle(example(examples_dir), {"kind": "rake", "percent": "10", "cap": 100})
    assert house(capped) == [("rake", 100, 2100)]
    assert settle(example(examples_dir), {"kind": "rake", "percent": "10",
                                          "min_pot": 2200}).fees == ()


def test_ruling_fees_markets_fixed_collection_and_jackpot_drop(examples_dir: Path) -> None:
    s = settle(example(examples_dir), {"kind": "fixed", "amount": 300,
                                       "jackpot": {"amount": 100, "fund": "promo"}})
    # 21 - 3 - 1 = 17 chips: the leader 9, the niche 8
    assert house(s) == [("collection", 300, 2100), ("promo", 100, 2100)]
    assert s.payouts == {1: 100 + 900, 2: 100 + 800, 3: 100}


def test_ruling_fees_markets_no_flop_no_drop_a_hand_over_in_the_first_round() -> None:
    assert settle(FOLDS, {"kind": "rake", "percent": "20"}).fees == ()
    # without it: 20% of the 5 chips of antes (seat 1's 3-chip bet goes back uncalled, unraked)
    s = settle(FOLDS, {"kind": "rake", "percent": "20", "no_flop_no_drop": False})
    assert house(s) == [("rake", 100, 500)]
    assert s.payouts == {1: 300 + 400, 2: 0, 3: 0}


def test_ruling_fees_markets_fees_before_the_deal_come_from_the_stack(
    examples_dir: Path,
) -> None:
    plain = settle(example(examples_dir), None)
    s = settle(example(examples_dir), {"kind": "per-player", "amount": 100})
    assert [(f.kind, f.amount, f.from_seat) for f in s.fees] == [
        ("player-fee", 100, 1), ("player-fee", 100, 2), ("player-fee", 100, 3)]
    assert s.payouts == plain.payouts
    assert s.put_in == {k: v + 100 for k, v in plain.put_in.items()}
    b = settle(example(examples_dir), {"kind": "fixed", "amount": 200, "from": "button"})
    assert [(f.kind, f.amount, f.from_seat) for f in b.fees] == [("button-fee", 200, 3)]
    events, _ = parse_lines([json.dumps({**example(examples_dir)[0],
                                         "fee": {"kind": "per-player", "amount": 100}})])
    hand = replay(events)
    assert GAME.contributions(hand.state) == {1: 200 + 100, 2: 100 + 100, 3: 200 + 100}

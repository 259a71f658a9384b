"""Fee policies with worked numbers: rake, cap, chip rounding, minimum pot, no flop no drop,
fixed collections, per-player fees and the jackpot drop."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.fees import (
    FeeContext,
    FeeLine,
    fund_of,
    parse_fee_policy,
    pot_fees,
    pre_deal_fees,
)

CTX = FeeContext(seats=(1, 2, 3), button=3, pot=40300, saw_flop=True, smallest_chip=100)


def test_ruling_fees_rake_capped_at_five_dollars() -> None:
    p = parse_fee_policy({"kind": "rake", "percent": "5", "cap": 500})
    assert pot_fees(p, CTX) == [FeeLine("rake", 500, None, "5% of $403, capped at $5")]
    assert pre_deal_fees(p, CTX) == []


def test_ruling_fees_rake_rounds_down_to_the_smallest_chip() -> None:
    p = parse_fee_policy({"kind": "rake", "percent": "10"})
    lines = pot_fees(p, FeeContext(seats=(1, 2), pot=3750, smallest_chip=100))
    assert [(f.kind, f.amount) for f in lines] == [("rake", 300)]
    assert "rounded down to the $1 chip" in lines[0].note
    quarter = pot_fees(p, FeeContext(seats=(1, 2), pot=3750, smallest_chip=25))
    assert quarter[0].amount == 375


def test_ruling_fees_rake_cap_is_rounded_to_the_chip_too() -> None:
    p = parse_fee_policy({"kind": "rake", "percent": "10", "cap": 450})
    lines = pot_fees(p, FeeContext(seats=(1, 2), pot=100000, smallest_chip=100))
    assert lines[0].amount == 400


def test_ruling_fees_percent_text_and_basis_points_agree() -> None:
    by_text = parse_fee_policy({"kind": "rake", "percent": "2.5"})
    by_bps = parse_fee_policy({"kind": "rake", "bps": 250})
    assert by_text == by_bps
    assert by_text is not None and by_text.rate == Fraction(1, 40)
    assert by_text.percent == "2.5"
    # 2.5% of $123.45 is $3.08625: down to the cent $3.08, to the $1 chip $3.
    ctx = FeeContext(seats=(1, 2), pot=12345, smallest_chip=1)
    assert pot_fees(by_text, ctx)[0].amount == 308


def test_ruling_fees_rake_below_the_minimum_pot_takes_nothing() -> None:
    p = parse_fee_policy({"kind": "rake", "bps": 500, "min_pot": 1000})
    assert pot_fees(p, FeeContext(seats=(1, 2), pot=999, smallest_chip=1)) == []
    assert pot_fees(p, FeeContext(seats=(1, 2), pot=1000, smallest_chip=1))[0].amount == 50


def test_ruling_fees_no_flop_no_drop() -> None:
    p = parse_fee_policy({"kind": "rake", "percent": "5", "jackpot": {"amount": 100}})
    before_flop = FeeContext(seats=(1, 2), pot=40000, saw_flop=False, smallest_chip=100)
    assert pot_fees(p, before_flop) == []
    off = parse_fee_policy({"kind": "rake", "percent": "5", "no_flop_no_drop": False})
    assert pot_fees(off, before_flop)[0].amount == 2000


def test_ruling_fees_fixed_collection_from_the_pot() -> None:
    p = parse_fee_policy({"kind": "fixed", "amount": 300})
    assert pot_fees(p, CTX) == [FeeLine("collection", 300, None, "fixed collection from the pot")]
    assert pre_deal_fees(p, CTX) == []
    small = pot_fees(p, FeeContext(seats=(1, 2), pot=250, smallest_chip=100))
    assert [f.amount for f in small] == [200]


def test_ruling_fees_fixed_collection_from_the_button_before_the_deal() -> None:
    p = parse_fee_policy({"kind": "fixed", "amount": 300, "from": "button"})
    assert pre_deal_fees(p, CTX) == [FeeLine("button-fee", 300, 3, "fixed fee from the button")]
    assert pot_fees(p, CTX) == []


def test_ruling_fees_button_fee_without_a_button_is_refused() -> None:
    p = parse_fee_policy({"kind": "fixed", "amount": 300, "from": "button"})
    with pytest.raises(RuleViolation, match="paid by the button seat, but this hand has no button"):
        pre_deal_fees(p, FeeContext(seats=(1, 2, 3), pot=0))


def test_ruling_fees_per_player_fee_from_every_seat_before_the_deal() -> None:
    p = parse_fee_policy({"kind": "per-player", "amount": 100})
    lines = pre_deal_fees(p, CTX)
    assert [(f.kind, f.amount, f.from_seat) for f in lines] == [
        ("player-fee", 100, 1), ("player-fee", 100, 2), ("player-fee", 100, 3),
    ]
    assert pot_fees(p, CTX) == []


def test_ruling_fees_jackpot_drop_is_its_own_line_and_fund() -> None:
    p = parse_fee_policy({
        "kind": "rake", "percent": "5", "cap": 500, "min_pot": 1000, "no_flop_no_drop": True,
        "jackpot": {"amount": 100, "min_pot": 2000},
    })
    lines = pot_fees(p, CTX)
    assert [(f.kind, f.amount, f.from_seat) for f in lines] == [
        ("rake", 500, None), ("jackpot", 100, None),
    ]
    assert [fund_of(f.kind) for f in lines] == ["house", "jackpot"]
    small = pot_fees(p, FeeContext(seats=(1, 2), pot=1500, smallest_chip=1))
    assert [(f.kind, f.amount) for f in small] == [("rake", 75)]


def test_ruling_fees_promotional_drop_alone() -> None:
    p = parse_fee_policy({"kind": "none", "jackpot": {"amount": 200, "fund": "promo"}})
    assert pot_fees(p, CTX) == [FeeLine("promo", 200, None, "promo drop")]
    assert fund_of("promo") == "promo"


def test_ruling_fees_policy_chip_overrides_the_context_chip() -> None:
    p = parse_fee_policy({"kind": "rake", "percent": "5", "chip": 500})
    assert pot_fees(p, FeeContext(seats=(1, 2), pot=40300, smallest_chip=1))[0].amount == 2000


def test_fee_json_round_trips() -> None:
    obj = {"kind": "rake", "percent": "5", "cap": 500, "min_pot": 1000,
           "no_flop_no_drop": True, "jackpot": {"amount": 100, "min_pot": 2000}}
    p = parse_fee_policy(obj)
    assert p is not None
    assert parse_fee_policy(p.to_json()) == p
    assert p.to_json()["percent"] == "5"
    assert p.describe() == (
        "5% rake, capped at $5, from pots of $10 or more, no flop no drop; "
        "jackpot drop $1 from pots of $20 or more"
    )


def test_no_fee_object_means_no_fee() -> None:
    assert parse_fee_policy(None) is None
    assert pre_deal_fees(None, CTX) == [] and pot_fees(None, CTX) == []


@pytest.mark.parametrize(
    ("obj", "error", "message"),
    [
        ({"kind": "rake", "percent": 5.0}, BadInput, 'must be exact: write it as text like "5"'),
        ({"kind": "rake", "percent": "120"}, RuleViolation, "between 0 and 100"),
        ({"kind": "rake", "percent": "five"}, BadInput, "not a number"),
        ({"kind": "rake"}, BadInput, 'exactly one of "percent"'),
        ({"kind": "rake", "percent": "5", "bps": 500}, BadInput, 'exactly one of "percent"'),
        ({"kind": "rake", "percent": "5", "cap": -1}, RuleViolation, '"cap" cannot be negative'),
        ({"kind": "rake", "percent": "5", "cap": 5.5}, BadInput, '"cap" must be whole cents'),
        ({"kind": "fixed", "amount": 100, "from": "dealer"}, BadInput, '"from" must be one of'),
        ({"kind": "per-player"}, BadInput, 'needs "amount"'),
        ({"kind": "time", "amount": 500, "period_minutes": 0}, BadInput, "above 0"),
        ({"kind": "tip"}, BadInput, 'fee "kind" must be one of'),
        ({"kind": "rake", "percent": "5", "rate": 1}, BadInput, "does not take rate"),
        ({"kind": "none", "jackpot": {"amount": 0}}, RuleViolation, "more than 0"),
        ("5%", BadInput, 'the "fee" must be an object'),
        ({"kind": "by-limit"}, BadInput, "resolved with the table's limit"),
    ],
)
def test_bad_fee_objects_are_refused_naming_the_key(
    obj: object, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=None) as info:
        parse_fee_policy(obj)
    assert message in str(info.value)


@settings(max_examples=60, deadline=None)
@given(
    pot=st.integers(0, 10_000_000),
    bps=st.integers(0, 10000),
    cap=st.one_of(st.none(), st.integers(0, 100_000)),
    chip=st.sampled_from([1, 25, 100, 500]),
    drop=st.integers(1, 100_000),
)
def test_pot_fees_never_exceed_the_pot_and_are_whole_chips(
    pot: int, bps: int, cap: int | None, chip: int, drop: int
) -> None:
    p = parse_fee_policy({"kind": "rake", "bps": bps, "cap": cap, "jackpot": {"amount": drop}})
    lines = pot_fees(p, FeeContext(seats=(1, 2), pot=pot, smallest_chip=chip))
    assert sum(f.amount for f in lines) <= pot
    assert all(f.amount % chip == 0 and f.amount > 0 for f in lines)
    rake = sum(f.amount for f in lines if f.kind == "rake")
    assert rake <= pot * bps // 10000
    if cap is not None:
        assert rake <= cap

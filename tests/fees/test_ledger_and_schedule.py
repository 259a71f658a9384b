"""Ledger lines (what the store persists) and fee rates chosen by the table's limit."""

from __future__ import annotations

from datetime import datetime

import pytest

from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.fees import (
    FeeContext,
    FeeLine,
    LedgerLine,
    fund_totals,
    hand_ledger,
    kind_totals,
    parse_fee_policy,
    pot_fees,
)
from dealer_assist.fees.schedule import parse_fee_schedule


def test_ruling_fees_every_collection_is_a_ledger_line_with_its_fund_and_hand() -> None:
    p = parse_fee_policy({"kind": "rake", "percent": "5", "cap": 500,
                          "jackpot": {"amount": 100}})
    lines = pot_fees(p, FeeContext(seats=(1, 2, 3), pot=40300, smallest_chip=100))
    lines.append(FeeLine("player-fee", 100, 2, "$1 a player"))
    at = datetime(2026, 1, 31, 21, 5)
    ledger = hand_ledger(lines, hand="T4-0012", table="T4", at=at)
    assert [(x.kind, x.amount, x.from_seat, x.fund, x.hand) for x in ledger] == [
        ("rake", 500, None, "house", "T4-0012"),
        ("jackpot", 100, None, "jackpot", "T4-0012"),
        ("player-fee", 100, 2, "house", "T4-0012"),
    ]
    assert fund_totals(ledger) == {"house": 600, "jackpot": 100}
    assert kind_totals(ledger) == {"rake": 500, "jackpot": 100, "player-fee": 100}
    assert [LedgerLine.from_json(x.to_json()) for x in ledger] == ledger
    assert ledger[0].to_json()["at"] == "2026-01-31T21:05:00"
    assert ledger[2].fee_line() == lines[2]


def test_a_bad_ledger_line_is_refused() -> None:
    with pytest.raises(BadInput, match="needs 'fund'"):
        LedgerLine.from_json({"kind": "rake", "amount": 5})
    with pytest.raises(BadInput, match="whole cents"):
        LedgerLine.from_json({"kind": "rake", "amount": 5.5, "fund": "house"})


BY_LIMIT = {"kind": "by-limit", "rates": [
    {"up_to": 400, "kind": "time", "amount": 300},
    {"up_to": 1000, "kind": "time", "amount": 400},
    {"kind": "time", "amount": 500},
]}


def test_ruling_fees_rates_by_limit() -> None:
    s = parse_fee_schedule(BY_LIMIT)
    assert s is not None and s.by_limit
    assert [s.for_limit(x).amount for x in (200, 400, 401, 1000, 5000)] == [
        300, 300, 400, 400, 500,
    ]
    assert parse_fee_schedule(s.to_json()) == s


def test_rates_by_limit_without_an_open_top_rate() -> None:
    s = parse_fee_schedule({"kind": "by-limit", "rates": [{"up_to": 400, "kind": "rake",
                                                           "percent": "5"}]})
    assert s is not None
    with pytest.raises(RuleViolation, match=r"no fee rate covers a \$20 limit"):
        s.for_limit(2000)
    with pytest.raises(RuleViolation, match="give the table's \"limit\""):
        s.for_limit(None)


@pytest.mark.parametrize(
    ("obj", "message"),
    [
        ({"kind": "by-limit", "rates": []}, 'needs "rates"'),
        ({"kind": "by-limit", "rates": [{"kind": "time", "amount": 1}, {"up_to": 5,
          "kind": "time", "amount": 1}]}, 'only the last fee rate may leave out "up_to"'),
        ({"kind": "by-limit", "rates": [{"up_to": 9, "kind": "time", "amount": 1},
          {"up_to": 5, "kind": "time", "amount": 1}]}, "rising"),
        ({"kind": "by-limit", "rates": [{"up_to": 9, "kind": "rake"}]}, "fee rate 1: rake fee"),
        ({"kind": "by-limit", "rates": [], "default": 1}, 'takes only "rates"'),
    ],
)
def test_bad_rates_are_refused(obj: dict[str, object], message: str) -> None:
    with pytest.raises(BadInput) as info:
        parse_fee_schedule(obj)
    assert message in str(info.value)

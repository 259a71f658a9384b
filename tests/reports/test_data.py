"""The report-data objects on their own: totals derive from the lines, fees sort by fund."""

from __future__ import annotations

from datetime import timedelta

from dealer_assist.reports.data.lines import fees_by_kind, fees_per_hour
from dealer_assist.reports.data.records import FeeTotal, is_fund_kind

from .samples import T0, hand_line, shift_report


def test_hand_line_pot_is_put_in_plus_carry_in_and_it_conserves() -> None:
    h = hand_line(1)  # carry-in 1,200 on hand 1
    assert h.carry_in == 1200
    assert h.pot == h.put_in + 1200 == 14400
    assert h.fee == 300 and h.house_fee == 200 and h.fund_drop == 100
    assert h.conserved
    assert h.pot == h.pushed + h.carry_out + h.fee


def test_shift_totals_are_sums_of_the_hand_lines() -> None:
    r = shift_report(10)
    assert r.hands_dealt == 10
    assert r.put_in == sum(8 * 1600 + (i % 5) * 400 for i in range(1, 11)) == 136000
    assert r.carried_in == 2 * 1200 and r.carried_out == 1 * 1200
    assert r.house_fees == 2000 and r.jackpot_drop == 1000 and r.fees_total == 3000
    assert r.conserved


def test_fees_by_kind_puts_house_kinds_first_then_funds() -> None:
    lines = [FeeTotal("jackpot", 100, 1), FeeTotal("rake", 500, 1), FeeTotal("rake", 300, 1),
             FeeTotal("player-fee", 600, 6), FeeTotal("promo", 50, 1)]
    out = fees_by_kind(lines)
    assert [(f.kind, f.amount, f.count) for f in out] == [
        ("player-fee", 600, 6), ("rake", 800, 2), ("jackpot", 100, 1), ("promo", 50, 1)]
    assert is_fund_kind("jackpot") and is_fund_kind("promo") and not is_fund_kind("rake")


def test_fees_per_hour_has_every_clock_hour_of_the_shift_even_empty_ones() -> None:
    a = hand_line(1)  # ends 18:05
    b = hand_line(50)  # ends 20:32 (nothing in the 19:00 hour? hands are every 3 minutes)
    hours = fees_per_hour((a, b), T0, T0 + timedelta(hours=3, minutes=10))
    assert [t.hour for t, _ in hours] == [18, 19, 20, 21]
    assert dict((t.hour, v) for t, v in hours) == {18: 300, 19: 0, 20: 300, 21: 0}


def test_the_sample_report_fees_per_hour_add_up_to_its_fees() -> None:
    r = shift_report(120)
    assert sum(v for _, v in r.fees_per_hour()) == r.fees_total == 120 * 300

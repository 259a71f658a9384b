"""The dossier's statistics: intervals a board can check by hand."""

from __future__ import annotations

import math

import pytest

from dealer_assist.dossier.stats import Numbers, Ratio, Shares, mean_interval, wilson


def test_wilson_interval_of_a_known_proportion() -> None:
    # 50 of 100: the Wilson 95% interval is 0.4038 to 0.5962 (textbook value)
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.40383, abs=1e-4)
    assert high == pytest.approx(0.59617, abs=1e-4)


def test_wilson_interval_of_none_and_all_stays_inside_zero_and_one() -> None:
    assert wilson(0, 200) == (0.0, pytest.approx(0.018845, abs=1e-5))
    low, high = wilson(200, 200)
    assert high == 1.0 and low == pytest.approx(1 - 0.018845, abs=1e-5)


def test_mean_interval_is_the_normal_interval() -> None:
    values = [2, 4, 4, 4, 5, 5, 7, 9]  # mean 5, sample sd sqrt(32/7)
    mean, low, high = mean_interval(len(values), sum(values), sum(v * v for v in values))
    half = 1.959964 * math.sqrt(32 / 7 / 8)
    assert (mean, low, high) == pytest.approx((5, 5 - half, 5 + half))


def test_tallies_merge_to_the_same_as_one_tally() -> None:
    whole, a, b = Numbers(values=None), Numbers(values=None), Numbers(values=None)
    for i, v in enumerate([3, 1, 4, 1, 5, 9, 2, 6]):
        whole.add(v)
        (a if i % 2 else b).add(v)
    a.merge(b)
    assert (a.n, a.total, a.squares, a.low, a.high) == (8, 31, 173, 1, 9)
    assert a.interval() == whole.interval()
    s = Shares()
    for yes in (True, False, True, True):
        s.add(yes)
    assert s.interval()[0] == 0.75


def test_fee_per_hour_is_the_ratio_of_means() -> None:
    r = Ratio()
    for fee, seconds in ((100, 300), (300, 300), (200, 600)):
        r.add(fee, seconds)
    rate, low, high = r.interval(3600.0)
    assert rate == pytest.approx(3600 * 600 / 1200)  # $6 of fees in 20 minutes: $18 an hour
    assert low < rate < high

"""Pots and chip splits shared by the betting games (Caro Hold 'em now; Pineapple, Anaconda)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.engine.pots import (
    Pot,
    build_pots,
    clockwise_from_button,
    odd_chip_seats,
    split_pot,
)


def test_rule_no_all_in_one_pot_everyone_still_in_contests_it() -> None:
    """Caro: different amounts from players still in are the price of cards, not uncalled bets."""
    pots = build_pots({1: 24100, 2: 16100, 3: 100}, live=[1, 2], capped=[])
    assert pots == [Pot(40300, (1, 2), None)]


def test_rule_caro_side_pot_only_from_the_all_in_level() -> None:
    pots = build_pots({1: 3100, 2: 1100, 3: 5100}, live=[1, 2, 3], capped=[1])
    assert pots == [Pot(7300, (1, 2, 3), 3100), Pot(2000, (2, 3), None)]


def test_rule_holdem_style_caps_every_live_seat_and_returns_the_uncalled_bet() -> None:
    pots = build_pots({1: 3100, 2: 1100, 3: 5100}, live=[1, 2, 3], capped=[1, 2, 3])
    assert pots == [
        Pot(3300, (1, 2, 3), 1100),
        Pot(4000, (1, 3), 3100),
        Pot(2000, (3,), 5100),
    ]


def test_rule_two_all_in_levels_make_two_side_pots_and_folded_money_counts() -> None:
    contributions = {1: 500, 2: 2000, 3: 5000, 4: 5000, 5: 800}
    pots = build_pots(contributions, live=[1, 2, 3, 4], capped=[1, 2])
    assert [(p.amount, p.eligible) for p in pots] == [
        (2500, (1, 2, 3, 4)),
        (4800, (2, 3, 4)),
        (6000, (3, 4)),
    ]
    assert sum(p.amount for p in pots) == sum(contributions.values())


def test_rule_money_above_every_all_in_with_nobody_left_joins_the_last_pot() -> None:
    """A folded player's chips above the biggest all-in still go to someone who can win."""
    pots = build_pots({1: 1000, 2: 3000, 3: 4000}, live=[1, 2], capped=[1, 2])
    assert [(p.amount, p.eligible) for p in pots] == [(3000, (1, 2)), (5000, (2,))]


def test_rule_pot_eligible_seats_follow_the_given_order() -> None:
    pots = build_pots({7: 100, 2: 100, 5: 100}, live=[2, 5, 7], capped=[], order=[5, 7, 2])
    assert pots[0].eligible == (5, 7, 2)


def test_rule_odd_chips_one_at_a_time_clockwise_from_the_button() -> None:
    seats = [1, 2, 3, 4]
    assert clockwise_from_button(seats, 2) == [3, 4, 1, 2]
    assert split_pot(700, [1, 2, 4], seats=seats, button=2, smallest_chip=100) == {
        4: 300, 1: 200, 2: 200
    }
    assert split_pot(800, [1, 2, 4], seats=seats, button=2, smallest_chip=100) == {
        4: 300, 1: 300, 2: 200
    }
    assert odd_chip_seats(800, [1, 2, 4], seats=seats, button=2, smallest_chip=100) == [4, 1]


def test_rule_split_in_the_smallest_chip_never_a_fraction() -> None:
    parts = split_pot(1050, [1, 3], seats=[1, 2, 3], button=1, smallest_chip=100)
    assert parts == {3: 550, 1: 500}
    quarters = split_pot(1050, [1, 3], seats=[1, 2, 3], button=1, smallest_chip=25)
    assert quarters == {3: 525, 1: 525}


def test_rule_bad_pot_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        build_pots({1: -5}, live=[1], capped=[])
    with pytest.raises(ValueError, match="winner"):
        split_pot(100, [], seats=[1, 2], button=1)
    with pytest.raises(ValueError, match="button"):
        clockwise_from_button([1, 2], 9)


@settings(max_examples=100, deadline=None)
@given(
    st.dictionaries(st.integers(1, 9), st.integers(0, 50_000), min_size=2, max_size=9),
    st.data(),
)
def test_rule_pots_add_up_and_all_in_seats_win_at_most_their_level(
    contributions: dict[int, int], data: st.DataObject
) -> None:
    seats = sorted(contributions)
    live = data.draw(st.lists(st.sampled_from(seats), min_size=1, unique=True))
    paying = [s for s in live if contributions[s] > 0]
    capped = data.draw(st.lists(st.sampled_from(paying), unique=True)) if paying else []
    pots = build_pots(contributions, live=live, capped=capped)
    assert sum(p.amount for p in pots) == sum(contributions.values())
    uncapped = set(live) - set(capped)
    for seat in capped if uncapped else []:
        can_win = sum(p.amount for p in pots if seat in p.eligible)
        limit = sum(min(c, contributions[seat]) for c in contributions.values())
        assert can_win <= limit
    for seat in uncapped:
        assert all(seat in p.eligible for p in pots)
    chip = data.draw(st.sampled_from([1, 25, 100]))
    button = data.draw(st.sampled_from(seats))
    for p in pots:
        parts = split_pot(p.amount, p.eligible, seats=seats, button=button, smallest_chip=chip)
        assert sum(parts.values()) == p.amount
        assert max(parts.values()) - min(parts.values()) <= chip

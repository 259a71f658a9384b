"""Ace-to-five low: the eight-or-better qualifier, pairs, straights and flushes, and the words."""

from __future__ import annotations

import pytest

from dealer_assist.cards import parse_cards
from dealer_assist.errors import BadInput
from dealer_assist.evaluate import LowValue, low_hand


def low(text: str, qualifier: int | None = 8) -> LowValue | None:
    return low_hand(parse_cards(text), qualifier=qualifier)


def test_rule_eight_or_better_best_low_of_seven_cards() -> None:
    v = low("8s 6h 4c 2d Ad Kc 8c")
    assert v is not None
    assert v.description == "eight-six low"
    assert v.ranks_text == "8-6-4-2-A"
    assert len(v.cards) == 5


def test_rule_qualifier_nine_high_is_no_low() -> None:
    assert low("9s 6h 4c 2d Ad Kc Qc") is None
    free = low("9s 6h 4c 2d Ad Kc Qc", qualifier=None)
    assert free is not None and free.description == "nine-six low"


def test_rule_pairs_do_not_count_toward_the_low() -> None:
    v = low("Ad Ac 2h 2s 3c 4d 5h")
    assert v is not None and v.description == "wheel, five-four low"
    # Only four different low ranks: no qualifying low.
    assert low("Ad Ac 2h 3s 3c 4d Kh") is None


def test_rule_straights_and_flushes_are_ignored() -> None:
    wheel = low("5s 4s 3s 2s As")
    assert wheel is not None and wheel.description == "wheel, five-four low"
    run = low("8h 7h 6h 5h 4h Kd Kc")
    assert run is not None and run.description == "eight-seven low"


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("5s 4d 3c 2h Ah", "6s 4d 3c 2h Ah"),
        ("7s 6d 5c 4h 3h", "8s 4d 3c 2h Ah"),  # highest card first
        ("8s 6d 4c 2h Ah", "8s 6d 5c 2h Ah"),  # then the next
        ("8s 6d 4c 3h Ah", "8s 6d 4c 3h 2h"),  # down to the last card
    ],
)
def test_rule_lower_is_better(better: str, worse: str) -> None:
    b, w = low(better), low(worse)
    assert b is not None and w is not None
    assert b > w and w < b and b != w


def test_rule_same_low_ranks_tie_exactly() -> None:
    a, b = low("8s 6d 4c 3h 2h"), low("8d 6c 4s 3d 2s Kc")
    assert a is not None and a == b and hash(a) == hash(b)


def test_rule_no_qualifier_paired_hands_rank_below_unpaired() -> None:
    unpaired = low("Ks Qd Jc Th 9h", qualifier=None)
    aces = low("As Ad 2c 3h 4h", qualifier=None)
    twos = low("2s 2d 3c 4h 5h", qualifier=None)
    assert unpaired is not None and aces is not None and twos is not None
    assert unpaired > aces  # any five different ranks beat any pair
    assert aces > twos  # aces are the lowest pair
    assert aces.description == "pair of aces, four-three-two low"
    assert unpaired.description == "king-queen low"


def test_low_needs_five_cards_and_no_duplicates() -> None:
    with pytest.raises(BadInput, match="five cards, got 4"):
        low("As 2d 3c 4h")
    with pytest.raises(BadInput, match="2d is given twice"):
        low("As 2d 3c 4h 2d")

"""Best hand under card constraints: Caro Hold 'em (at most two private), Omaha style (exactly
two), any five (Pineapple)."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import Card, full_deck, parse_cards
from dealer_assist.errors import BadInput
from dealer_assist.evaluate import best_hand, evaluate

DECK = full_deck()


def codes(cards: tuple[Card, ...]) -> str:
    return " ".join(c.code for c in cards)


def test_ruling_caro_9_only_two_private_cards_play() -> None:
    board = parse_cards("As 4h 5h 9c 9d")
    private = parse_cards("3h 6h 7h 4c Td")
    v = best_hand(board, private, max_private=2)
    assert v.category == "two pair"
    assert v.description == "two pair, nines and fours, ace kicker"
    assert codes(v.cards) == "9d 9c 4h 4c As"
    # Without the limit the three private hearts would make a straight flush.
    free = best_hand(board, private)
    assert free.description == "straight flush, seven high"
    assert free > v


def test_rule_exactly_two_private_omaha_style() -> None:
    board = parse_cards("Ah Kh Qh Jh 2c")
    private = parse_cards("Th 3s 4d 5c")
    exact = best_hand(board, private, exact_private=2)
    assert exact.description == "high card, ace-king-queen-ten-five"
    used = set(exact.cards)
    assert len(used & set(private)) == 2
    assert len(used & set(board)) == 3
    assert best_hand(board, private, max_private=1).description == "royal flush"
    assert best_hand(board, private).description == "royal flush"


def test_rule_exactly_two_four_suited_board_is_no_flush_with_one_suited_card() -> None:
    board = parse_cards("2s 7s 9s Ks 3d")
    v = best_hand(board, parse_cards("As Qd Jc 4h"), exact_private=2)
    assert v.category != "flush"
    assert v.description == "high card, ace-king-queen-nine-seven"


def test_rule_board_plays_when_no_private_card_helps() -> None:
    board = parse_cards("As Ks Qs Js Ts")
    v = best_hand(board, parse_cards("2c 3d 4h 8c 9d"), max_private=2)
    assert v.description == "royal flush"
    assert set(v.cards) == set(board)
    zero = best_hand(parse_cards("9s 9h 4c 4d As"), parse_cards("Ac Ad"), max_private=0)
    assert zero.description == "two pair, nines and fours, ace kicker"


def test_rule_any_five_of_seven_pineapple() -> None:
    v = best_hand(parse_cards("Kh Kd 7s 2c 2d"), parse_cards("Ks 9c"))
    assert v.description == "full house, kings full of twos"


@pytest.mark.parametrize(
    ("board", "private", "kwargs", "message"),
    [
        ("As 4h 5h", "3h 6h 7h", {"max_private": 1}, "cannot make five"),
        ("As 4h 5h 9c", "3h", {"exact_private": 2}, "2 private cards must play, only 1"),
        ("As 4h", "3h 6h 7h", {"exact_private": 2}, "3 board cards must play, only 2"),
        ("As 4h 5h 9c 9d", "As 6h", {"max_private": 2}, "As is given twice"),
        ("As 4h 5h 9c 9d", "3h 6h", {"max_private": 2, "exact_private": 2}, "either"),
    ],
)
def test_impossible_constraints_are_refused(
    board: str, private: str, kwargs: dict[str, int], message: str
) -> None:
    with pytest.raises(BadInput, match=message):
        best_hand(parse_cards(board), parse_cards(private), **kwargs)  # type: ignore[arg-type]


def _brute(
    board: tuple[Card, ...], private: tuple[Card, ...], lo: int, hi: int
) -> int:
    best = -1
    for k in range(lo, hi + 1):
        for p in combinations(private, k):
            for b in combinations(board, 5 - k):
                best = max(best, evaluate((*b, *p)).strength)
    return best


@settings(max_examples=80, deadline=None)
@given(
    st.permutations(DECK),
    st.integers(min_value=3, max_value=5),
    st.integers(min_value=1, max_value=5),
)
def test_rule_constrained_best_equals_brute_force_over_allowed_subsets(
    deck: list[Card], n_board: int, n_private: int
) -> None:
    """Any board of 3 to 5 cards and 1 to 5 private cards (Caro players discard down to one)."""
    board, private = tuple(deck[:n_board]), tuple(deck[n_board : n_board + n_private])
    for kwargs, lo, hi in (
        ({"max_private": 2}, 0, 2),
        ({"exact_private": 2}, 2, 2),
        ({"max_private": 1}, 0, 1),
        ({}, 0, 5),
    ):
        lo_ok = max(lo, 5 - n_board)
        hi_ok = min(hi, n_private)
        if lo_ok > hi_ok:
            with pytest.raises(BadInput):
                best_hand(board, private, **kwargs)  # type: ignore[arg-type]
            continue
        v = best_hand(board, private, **kwargs)  # type: ignore[arg-type]
        assert v.strength == _brute(board, private, lo_ok, hi_ok)
        used = v.cards
        assert len(set(used)) == 5 and set(used) <= set(board) | set(private)
        assert lo_ok <= len(set(used) & set(private)) <= hi_ok
        assert evaluate(used) == v

"""Three-card front rows and the foul check (Open-Face and Chinese Poker)."""

from __future__ import annotations

import pytest

from dealer_assist.cards import parse_cards
from dealer_assist.errors import BadInput
from dealer_assist.evaluate import evaluate, front_fouls, front_value


def fouls(front: str, middle: str) -> bool:
    return front_fouls(parse_cards(front), parse_cards(middle))


def test_ruling_ofc_2_front_queens_ace_over_middle_queens_jack_fouls() -> None:
    assert fouls("Qs Qh Ac", "Qd Qc Jc 9h 3s") is True


def test_ruling_ofc_2_front_queens_jack_under_queens_jack_nine_three_does_not_foul() -> None:
    assert fouls("Qs Qh Jh", "Qd Qc Jc 9h 3s") is False


@pytest.mark.parametrize(
    ("front", "middle", "fouled"),
    [
        ("6s 6h 6c", "Ks Kh 2c 2d 3s", True),  # trips over two pair
        ("6s 6h 6c", "5s 6d 7c 8d 9s", False),  # a straight beats any front
        ("6s 6h 6c", "7s 7h 7d 2d 3s", False),  # higher trips in the middle
        ("Ks Kh 2c", "Qs Qh Ac Jd 9s", True),  # higher pair in front
        ("2s 2h 3c", "As Kd Jc 9h 7s", True),  # a pair over high card
        ("As Kh Qc", "2s 2h 3c 4d 5s", False),  # high card under a pair
        ("As Kh Qc", "Ad Kc Jc 9h 7s", True),  # third card decides
        ("As Kh Jc", "Ad Kc Qd 3h 2s", False),
        ("As Kh Qc", "Ad Kc Qd Jh 9s", False),  # equal as far as the front goes: not higher
    ],
)
def test_rule_front_against_middle(front: str, middle: str, fouled: bool) -> None:
    assert fouls(front, middle) is fouled


def test_front_values_order_among_themselves_and_describe() -> None:
    qqa = front_value(parse_cards("Qs Qh Ac"))
    qqj = front_value(parse_cards("Qd Qc Jh"))
    trips = front_value(parse_cards("2s 2h 2c"))
    high = front_value(parse_cards("As Kh 9c"))
    assert trips > qqa > qqj > high
    assert front_value(parse_cards("Qd Qc Ah")) == qqa
    assert qqa.description == "pair of queens, ace kicker"
    assert trips.description == "three of a kind, twos"
    assert high.description == "high card, ace-king-nine"
    assert qqa.category == "pair"
    assert [c.code for c in qqa.cards] == ["Qs", "Qh", "Ac"]
    # No straights or flushes in front.
    assert front_value(parse_cards("Qh Kh Ah")).category == "high card"
    # Comparable with a middle row the way the foul check compares them.
    assert qqa > evaluate(parse_cards("Qd Qc Jc 9h 3s"))


def test_front_row_needs_three_cards() -> None:
    with pytest.raises(BadInput, match="three cards, got 4"):
        front_value(parse_cards("Qs Qh Ac 2d"))
    with pytest.raises(BadInput, match="middle row has five cards, got 4"):
        fouls("Qs Qh Ac", "Qd Qc Jc 9h")
    with pytest.raises(BadInput, match="Qs is given twice"):
        fouls("Qs Qh Ac", "Qs Qc Jc 9h 3s")

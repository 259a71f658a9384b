"""Standard high hands: order, categories, the words a dealer reads, and the class table."""

from __future__ import annotations

import pytest

from dealer_assist.cards import Card, parse_cards
from dealer_assist.errors import BadInput
from dealer_assist.evaluate import CATEGORIES, encode, evaluate, strength
from dealer_assist.evaluate.classes import classify, key_category, pack_key
from dealer_assist.evaluate.high import class_keys, sample_ids


def ev(text: str):  # type: ignore[no-untyped-def]
    return evaluate(parse_cards(text))


def codes(cards: tuple[Card, ...]) -> str:
    return " ".join(c.code for c in cards)


@pytest.mark.parametrize(
    ("hand", "category", "description"),
    [
        ("As Ks Qs Js Ts", "royal flush", "royal flush"),
        ("9h 8h 7h 6h 5h", "straight flush", "straight flush, nine high"),
        ("5d 4d 3d 2d Ad", "straight flush", "straight flush, five high"),
        ("9s 9h 9d 9c Ah", "four of a kind", "four of a kind, nines, ace kicker"),
        ("Kh Kd Ks 3c 3d", "full house", "full house, kings full of threes"),
        ("Ah Qh 9h 5h 2h", "flush", "flush, ace-queen-nine-five-two"),
        ("Ts Jh Qd Kc As", "straight", "straight, ace high"),
        ("5s 4h 3c 2d Ad", "straight", "straight, five high"),
        ("7s 7h 7d Kc 2h", "three of a kind", "three of a kind, sevens, king-two kickers"),
        ("9s 9h 4c 4d As", "two pair", "two pair, nines and fours, ace kicker"),
        ("6s 6h Ac 9d 3s", "pair", "pair of sixes, ace-nine-three kickers"),
        ("Kd Jc 8h 4s 2c", "high card", "high card, king-jack-eight-four-two"),
    ],
)
def test_rule_category_and_spoken_description(hand: str, category: str, description: str) -> None:
    v = ev(hand)
    assert v.category == category
    assert v.description == description
    assert str(v) == description


def test_rule_best_five_of_seven_and_the_cards_shown_in_dealer_order() -> None:
    v = ev("Ah Ad 7c 5c 3s 2d Kc")
    assert v.description == "pair of aces, king-seven-five kickers"
    assert codes(v.cards) == "Ah Ad Kc 7c 5c"
    wheel = ev("Ad 2c 3h 4s 5d Kc Kh")
    assert wheel.description == "straight, five high"
    assert codes(wheel.cards) == "5d 4s 3h 2c Ad"  # the ace plays low, so it is shown last
    house = ev("Kh Kd Ks 3c 3d 3h 2c")
    assert house.description == "full house, kings full of threes"
    assert len(house.cards) == 5


def test_rule_six_card_hand_uses_the_best_five() -> None:
    v = ev("Qs Qh 8d 8c 4s 4h")
    assert v.description == "two pair, queens and eights, four kicker"


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        ("As Ks Qs Js Ts", "Ks Qs Js Ts 9s"),  # royal over king-high straight flush
        ("6h 5h 4h 3h 2h", "5d 4d 3d 2d Ad"),  # six-high straight flush over the steel wheel
        ("2s 2h 2d 2c 3s", "Ah Ad Ac Kh Kd"),  # any quads over any full house
        ("Ts Jh Qd Kc As", "Ks Qh Jd Tc 9s"),
        ("6s 5h 4d 3c 2s", "5d 4c 3h 2s As"),  # the wheel is the lowest straight
        ("9s 9h 4c 4d As", "9d 9c 4h 4s Kh"),  # kicker decides two pair
        ("Ts Th 3c 3d 2s", "9s 9h 8c 8d As"),  # higher top pair beats any kicker
        ("Ah Qh 9h 5h 3h", "Ad Qd 9d 5d 2d"),  # fifth card of a flush counts
        ("As Kd Qh Jc 9s", "As Kd Qh Jc 8s"),
    ],
)
def test_rule_total_order(better: str, worse: str) -> None:
    assert ev(better) > ev(worse)
    assert ev(worse) < ev(better)
    assert ev(better) != ev(worse)


def test_rule_equal_hands_tie_exactly_whatever_the_suits() -> None:
    a = ev("9s 9h 4c 4d As")
    b = ev("9d 9c 4h 4s Ah")
    assert a == b
    assert not a < b and not a > b
    assert hash(a) == hash(b)
    assert a.strength == b.strength
    # The sixth and seventh cards do not play.
    assert ev("As Ks Qd Jc 9h 3s 2s") == ev("Ah Kh Qc Jd 9s 4c 3d")


def test_encoded_strength_matches_the_hand_value() -> None:
    cards = parse_cards("Ah Ad 7c 5c 3s 2d Kc")
    assert strength(encode(cards)) == evaluate(cards).strength
    assert strength(encode(cards[:5])) == evaluate(cards[:5]).strength
    assert strength(encode(cards[:6])) == evaluate(cards[:6]).strength


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("As As Kd Qd Jd", "As is given twice"),
        ("As Kd Qd Jd", "at least five cards, got 4"),
    ],
)
def test_bad_input_is_refused_with_a_reason(hand: str, message: str) -> None:
    with pytest.raises(BadInput, match=message):
        ev(hand)


def test_a_joker_cannot_be_ranked() -> None:
    with pytest.raises(BadInput, match="Jk cannot be ranked"):
        evaluate((*parse_cards("As Kd Qd Jd"), Card.joker()))
    with pytest.raises(BadInput, match="Jk"):
        encode((*parse_cards("As Kd Qd Jd"), Card.joker()))


def test_more_than_seven_cards_take_the_best_five() -> None:
    v = ev("2c 7d 9h Jc Ks As Qs Js Ts 3d")
    assert v.category == "royal flush"
    assert codes(v.cards) == "As Ks Qs Js Ts"


def test_class_table_agrees_with_phevaluator_and_an_independent_classifier() -> None:
    """7,462 classes, ordered as phevaluator orders them, each keyed as ``classify`` keys it."""
    keys = class_keys()
    assert len(keys) == 7463
    assert len(set(keys[1:])) == 7462
    from dealer_assist.evaluate.high import evaluator_5

    five = evaluator_5()
    for n in range(1, 7463):
        ids = sample_ids(keys[n])
        assert five(*ids) == n
        ranks = [i // 4 + 2 for i in ids]
        flush = len({i % 4 for i in ids}) == 1
        assert pack_key(*classify(ranks, flush)) == keys[n]
        if n > 1:
            assert keys[n] < keys[n - 1]
    assert [CATEGORIES[key_category(keys[n])] for n in (1, 2, 11, 7462)] == [
        "royal flush", "straight flush", "four of a kind", "high card",
    ]


def test_descriptions_name_every_deciding_card() -> None:
    """Two hands tie exactly when their descriptions are the same: 7,462 values, 7,462 phrases."""
    from dealer_assist.evaluate.classes import describe, key_ranks

    phrases = {describe(key_category(k), key_ranks(k)) for k in class_keys()[1:]}
    assert len(phrases) == 7462

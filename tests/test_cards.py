"""Cards, shoes and money: the foundation every game stands on."""

from __future__ import annotations

import pytest

from dealer_assist.cards import Card, full_deck, parse_card, parse_cards
from dealer_assist.deck import DeckSpec, Shoe
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.money import format_cents, parse_cents


@pytest.mark.parametrize(
    ("text", "code"),
    [("7h", "7h"), ("Td", "Td"), ("10d", "Td"), ("7♥", "7h"), ("as", "As"), ("KC", "Kc"),
     ("q♠", "Qs"), (" 9 d ", "9d"), ("1c", "Ac"), ("jk", "Jk")],
)
def test_parse_card_accepts_every_form_a_dealer_types(text: str, code: str) -> None:
    assert parse_card(text).code == code


@pytest.mark.parametrize("text", ["", "1", "11h", "7x", "Zz", "hh", "10"])
def test_parse_card_refuses_impossible_cards_with_the_accepted_forms(text: str) -> None:
    with pytest.raises(BadInput, match="not a card"):
        parse_card(text)


def test_cards_print_both_ways() -> None:
    assert parse_card("td").pretty == "10♦"
    assert parse_card("As").pretty == "A♠"
    assert parse_card("Kh").name == "king of hearts"
    assert parse_cards("AsKd10h") == (Card(14, "s"), Card(13, "d"), Card(10, "h"))


def test_rank_then_suit_order_spades_hearts_diamonds_clubs() -> None:
    assert sorted(parse_cards("9c 9d 9h 9s 2s")) == list(parse_cards("2s 9c 9d 9h 9s"))
    assert len(set(full_deck())) == 52


def test_deck_specs_single_shoe_stripped_and_jokers() -> None:
    assert DeckSpec().size == 52
    assert DeckSpec(decks=8).size == 416
    assert DeckSpec(stripped=True).size == 32
    assert DeckSpec(jokers=2).size == 54
    with pytest.raises(BadInput):
        DeckSpec(decks=9)


def test_ruling_cc_12_single_deck_refuses_a_card_already_out() -> None:
    shoe = Shoe.new(DeckSpec()).deal(parse_card("9d"))
    with pytest.raises(RuleViolation, match="already out"):
        shoe.deal(parse_card("9d"))
    two = Shoe.new(DeckSpec(decks=2)).deal(parse_card("9d")).deal(parse_card("9d"))
    assert two.why_not(parse_card("9d")) == "all 2 copies of 9♦ are already out of the stub"


def test_ruling_cc_11_reshuffle_returns_cards_and_burns() -> None:
    shoe = Shoe.new(DeckSpec()).deal(parse_card("9d")).burn().burn()
    assert shoe.left == 49
    after = shoe.reshuffle([parse_card("9d")])
    assert after.left == 52 and after.can_deal(parse_card("9d")) and after.burned == 0


def test_money_formats_only_at_the_edge() -> None:
    assert format_cents(9000) == "$90"
    assert format_cents(9050) == "$90.50"
    assert format_cents(-600) == "-$6"
    assert format_cents(123456789) == "$1,234,567.89"
    assert parse_cents("$1,234.5") == 123450
    with pytest.raises(TypeError):
        format_cents(1.5)  # type: ignore[arg-type]

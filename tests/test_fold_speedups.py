"""The replay shortcuts of Champs and Cowards and Caro Hold 'em change nothing a caller sees.

Each pure parse that is now remembered (fee policies, pre-deal fees, money text) answers as a
fresh parse would, keeps refusing what it refused, and hands out nothing a caller could change;
each fast path (a shoe of whole decks, one pot, one winner, a round of cards dealt at once)
answers as the general path does; and checking an input is the same pass as applying it, so
check, transition and apply accept, refuse and build alike.
"""

from __future__ import annotations

import dataclasses
import random
import types

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import Card, parse_card
from dealer_assist.deck import DeckSpec, Shoe
from dealer_assist.engine.base import Settlement
from dealer_assist.engine.evolve import builder, replaced
from dealer_assist.engine.pots import Pot, build_pots, split_pot
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import BadInput, DealerAssistError, RuleViolation
from dealer_assist.events import (
    Bet,
    BoardDealt,
    Call,
    CardDealt,
    Check,
    Discard,
    Event,
    Fold,
    Raise,
    Reshuffle,
    Show,
    Start,
)
from dealer_assist.fees import FeeContext, FeeLine, parse_fee_policy, pot_fees, pre_deal_fees
from dealer_assist.fees import parse as parse_module
from dealer_assist.games.caro_holdem.play import start_state as caro_start
from dealer_assist.games.champs_and_cowards import play as cc_play
from dealer_assist.games.champs_and_cowards.events import Champ, Coward
from dealer_assist.money import format_cents

ALL_CARDS = [Card(rank, suit) for rank in range(2, 15) for suit in "shdc"] + [Card.joker()]


# --- remembered parses -----------------------------------------------------------------------


def test_regression_fee_policy_is_read_once_per_object_and_stays_equal() -> None:
    first = parse_fee_policy({"kind": "rake", "percent": "5", "cap": 500, "min_pot": 1000})
    again = parse_fee_policy({"kind": "rake", "percent": "5", "cap": 500, "min_pot": 1000})
    assert again is first
    assert first == parse_module._parse_fee_policy(
        {"kind": "rake", "percent": "5", "cap": 500, "min_pot": 1000}
    )
    assert first is not None and (first.percent, first.cap, first.min_pot) == ("5", 500, 1000)
    with pytest.raises(dataclasses.FrozenInstanceError):
        first.cap = 100  # type: ignore[misc]


@pytest.mark.parametrize(
    ("good", "bad", "message"),
    [
        ({"kind": "per-player", "amount": 1}, {"kind": "per-player", "amount": True},
         'per-player fee "amount" must be whole cents (e.g. 100 for $1), not True'),
        ({"kind": "per-player", "amount": 1}, {"kind": "per-player", "amount": 1.0},
         'per-player fee "amount" must be whole cents (e.g. 100 for $1), not 1.0'),
        ({"kind": "rake", "percent": 5}, {"kind": "rake", "percent": 5.0},
         'fee "percent" must be exact: write it as text like "5" or "2.5", '
         'or use "bps" (basis points, 500 = 5%)'),
        ({"kind": "none", "jackpot": {"amount": 1}}, {"kind": "none", "jackpot": {"amount": True}},
         'fee "jackpot" "amount" must be whole cents (e.g. 100 for $1), not True'),
    ],
)
def test_regression_a_remembered_fee_never_stands_for_an_equal_value_of_another_type(
    good: dict[str, object], bad: dict[str, object], message: str
) -> None:
    assert parse_fee_policy(good) is not None  # remembered first
    for _ in range(2):  # refused, and refused again: a refusal is never remembered
        with pytest.raises(BadInput) as err:
            parse_fee_policy(bad)
        assert str(err.value) == message


def test_regression_fee_objects_that_cannot_be_remembered_are_still_read() -> None:
    takes = r"none fee does not take x \(it takes chip, jackpot, kind\)"
    with pytest.raises(BadInput, match=takes):
        parse_fee_policy({"kind": "none", "x": [1, 2]})
    proxy = types.MappingProxyType({"kind": "per-player", "amount": 75})
    policy = parse_fee_policy(proxy)
    assert policy is not None and (policy.kind, policy.amount) == ("per-player", 75)


def test_regression_pre_deal_fees_are_fresh_lists_equal_to_a_fresh_reading() -> None:
    policy = parse_fee_policy({"kind": "per-player", "amount": 100})
    ctx = FeeContext(seats=(1, 2, 3), smallest_chip=25)
    first = pre_deal_fees(policy, ctx)
    assert first == [FeeLine("player-fee", 100, s, "$1 a player") for s in (1, 2, 3)]
    first.clear()  # a caller's list is its own
    again = pre_deal_fees(policy, FeeContext(seats=(1, 2, 3), smallest_chip=25))
    assert again == [FeeLine("player-fee", 100, s, "$1 a player") for s in (1, 2, 3)]
    assert [f.from_seat for f in pre_deal_fees(policy, FeeContext(seats=(4, 7)))] == [4, 7]
    button = parse_fee_policy({"kind": "fixed", "amount": 300, "from": "button"})
    for _ in range(2):  # a refusal is worked out, and raised, every time
        with pytest.raises(RuleViolation, match="the button, seat 9, is not in this hand"):
            pre_deal_fees(button, FeeContext(seats=(1, 2), button=9))


def test_rule_rake_is_the_exact_share_rounded_down_with_its_percent_text() -> None:
    policy = parse_fee_policy({"kind": "rake", "percent": "2.5", "cap": 1000})
    lines = pot_fees(policy, FeeContext(seats=(1, 2), pot=12_345, smallest_chip=1))
    assert lines == [FeeLine("rake", 308, None, "2.5% of $123.45")]  # 308.625 rounded down
    lines = pot_fees(policy, FeeContext(seats=(1, 2), pot=12_345, smallest_chip=25))
    assert lines == [FeeLine("rake", 300, None,
                             "2.5% of $123.45, rounded down to the $0.25 chip")]


@settings(max_examples=200, deadline=None)
@given(cents=st.integers(-10**9, 10**9))
def test_regression_money_text_is_the_same_every_time_it_is_asked(cents: int) -> None:
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    plain = f"{sign}${dollars:,}" + (f".{rest:02d}" if rest else "")
    assert format_cents(cents) == plain
    assert format_cents(cents) == plain  # remembered
    assert format_cents(cents, always_cents=True) == f"{sign}${dollars:,}.{rest:02d}"
    assert format_cents(cents, symbol="€") == plain.replace("$", "€")


def test_regression_money_text_refuses_what_is_not_int_cents_after_remembering() -> None:
    assert format_cents(1) == "$0.01"
    assert format_cents(100) == "$1"
    for bad in (True, 1.0, 100.0):
        with pytest.raises(TypeError, match="money must be int cents"):
            format_cents(bad)  # type: ignore[arg-type]


# --- fast paths ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "spec",
    [DeckSpec(), DeckSpec(decks=3), DeckSpec(jokers=2), DeckSpec(stripped=True),
     DeckSpec(extra=(Card(14, "s"),)), DeckSpec(decks=2, jokers=1, stripped=True)],
)
def test_regression_copies_in_a_shoe_match_its_composition(spec: DeckSpec) -> None:
    shoe = Shoe.new(spec)
    comp = spec.composition()
    assert [shoe.copies(c) for c in ALL_CARDS] == [comp.get(c, 0) for c in ALL_CARDS]
    assert spec.size == sum(comp.values()) == shoe.left


def test_regression_dealing_cards_at_once_equals_dealing_them_one_by_one() -> None:
    cards = tuple(parse_card(c) for c in ("As", "Kd", "7h"))
    shoe = Shoe.new(DeckSpec(decks=2)).burn()
    one_by_one = shoe
    for card in cards:
        one_by_one = one_by_one.deal(card)
    assert shoe.deal_all(cards) == one_by_one
    assert shoe.deal_all(cards, burn=True) == shoe.burn().deal_all(cards)
    assert shoe.deal_all(cards, burn=True).burned == 2
    with pytest.raises(RuleViolation, match="no card left to burn: reshuffle first"):
        Shoe.new(DeckSpec()).deal_unseen(52).deal_all((), burn=True)
    assert shoe.deal_all(()) == shoe
    twice = shoe.deal_all(cards[:1] * 2)
    with pytest.raises(RuleViolation, match="all 2 copies of A♠ are already out of the stub"):
        twice.deal_all(cards)  # the third ace, refused as deal refuses it
    with pytest.raises(RuleViolation, match="Joker is not in this deck"):
        shoe.deal_all((cards[0], Card.joker()))
    with pytest.raises(RuleViolation, match="the stub is empty: reshuffle first"):
        Shoe.new(DeckSpec()).deal_unseen(51).deal_all(cards[:2])


def test_regression_dealt_card_matches_a_checked_deal() -> None:
    ace = parse_card("As")
    shoe = Shoe.new(DeckSpec(decks=2)).deal(ace)
    assert shoe.dealt(ace, 1) == shoe.deal(ace) == shoe.deal_checked(ace)
    assert shoe.out == {ace: 1}  # the shoe dealt from is untouched


def test_regression_one_pot_when_nobody_is_all_in() -> None:
    pots = build_pots({3: 400, 1: 400, 7: 150, 5: 0}, live=[7, 3, 1], capped=[], order=[7, 1, 3])
    assert pots == [Pot(950, (7, 1, 3), None)]
    by_number = build_pots({2: 100, 1: 100}, live={2, 1}, capped=set())
    assert by_number == [Pot(200, (1, 2), None)]
    with pytest.raises(ValueError, match="seat 2 has a negative contribution"):
        build_pots({2: -1}, live=[2], capped=[])
    with pytest.raises(ValueError, match="a pot needs at least one seat still in the hand"):
        build_pots({2: 10}, live=[], capped=[])


def test_regression_one_winner_takes_the_whole_pot_odd_cents_and_all() -> None:
    assert split_pot(1_075, [4], seats=[1, 4, 6], button=6, smallest_chip=100) == {4: 1_075}
    assert split_pot(1_075, [4, 1], seats=[1, 4, 6], button=6, smallest_chip=100) == {
        1: 575, 4: 500}
    with pytest.raises(ValueError, match="button seat 9 is not at the table"):
        split_pot(100, [4], seats=[1, 4], button=9)
    with pytest.raises(ValueError, match="every winner must sit at the table"):
        split_pot(100, [5], seats=[1, 4], button=1)


def test_regression_builder_gives_each_default_factory_field_a_fresh_value() -> None:
    build = builder(Settlement)
    a = build(put_in={1: 5}, payouts={1: 5})
    b = build({1: 5}, {1: 5})
    assert a == b == Settlement(put_in={1: 5}, payouts={1: 5})
    assert a.extra == {} and a.extra is not b.extra
    given_extra = {"places": {1: 1}}
    assert build({}, {}, extra=given_extra).extra is given_extra


def test_regression_replaced_swaps_one_item_and_leaves_the_rest() -> None:
    items = (1, 2, 3)
    assert replaced(items, 0, 9) == (9, 2, 3)
    assert replaced(items, 2, 9) == (1, 2, 9)
    assert items == (1, 2, 3)


# --- checking is applying ----------------------------------------------------------------------


def _cc_probes(seats: tuple[int, ...], rng: random.Random) -> list[Event]:
    probes: list[Event] = [Reshuffle(), Check(seat=seats[0])]
    for seat in (*seats[:3], 99):
        probes += [Champ(seat=seat), Coward(seat=seat),
                   CardDealt(seat=seat, card=rng.choice(ALL_CARDS))]
    return probes


def _caro_probes(seats: tuple[int, ...], rng: random.Random) -> list[Event]:
    real = ALL_CARDS[:-1]
    probes: list[Event] = [BoardDealt(cards=tuple(rng.sample(real, rng.randint(1, 2))))]
    for seat in (*seats[:3], 99):
        probes += [Check(seat=seat), Bet(seat=seat), Call(seat=seat), Raise(seat=seat),
                   Fold(seat=seat), Discard(seat=seat, count=rng.randint(0, 5)),
                   Discard(seat=seat, cards=tuple(rng.sample(real, 2))),
                   Show(seat=seat, cards=tuple(rng.sample(real, rng.randint(1, 5))))]
    return probes


def _outcome(fn: object, *args: object) -> tuple[str, object]:
    try:
        return "ok", fn(*args)  # type: ignore[operator]
    except DealerAssistError as exc:
        return type(exc).__name__, (str(exc), getattr(exc, "rule", None))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), game=st.sampled_from(["champs-and-cowards", "caro-holdem"]))
def test_rule_check_transition_and_apply_accept_refuse_and_build_alike(
    seed: int, game: str
) -> None:
    g = get_game(game)
    rng = random.Random(seed)
    players = rng.randint(3, 7) if game == "champs-and-cowards" else rng.randint(2, 6)
    events = g.sample_hand(rng, players=players)
    start = events[0]
    assert isinstance(start, Start)
    probe = _cc_probes if game == "champs-and-cowards" else _caro_probes
    state = g.start(start)
    for event in events[1:]:
        for trial in [*probe(start.seats, rng), event]:
            applied = _outcome(g.apply, state, trial)
            checked = _outcome(g.check, state, trial)
            assert checked[0] == applied[0]
            if applied[0] == "ok":
                assert g.can(state, trial)
                assert g.transition(state, trial) == applied[1]
            else:
                assert checked[1] == applied[1]
                assert not g.can(state, trial)
        state = g.apply(state, event)
    assert g.is_over(state) and g.settle(state).conserved


def test_ruling_cc_1_a_card_for_a_seat_not_in_the_hand_says_so_in_every_entry() -> None:
    g = get_game("champs-and-cowards")
    state = g.start(Start(game="champs-and-cowards", seats=(1, 2, 3),
                          params=types.MappingProxyType({"chip": 200})))
    stranger = CardDealt(seat=8, card=parse_card("9d"))
    for entry in (cc_play.step, cc_play.check, cc_play.transition, g.apply):
        with pytest.raises(RuleViolation, match=r"^seat 8 is not in this hand \(seats 1, 2, 3\)$"):
            entry(state, stranger)


def test_regression_caro_settings_carry_the_fee_policy_read_once() -> None:
    fee = {"kind": "rake", "percent": "5", "cap": 500, "min_pot": 1000}
    state = caro_start(Start(game="caro-holdem", seats=(1, 2), params=types.MappingProxyType({
        "button": 1, "unit": 200, "blinds": [100, 200], "stacks": {"1": 5000, "2": 5000},
        "fee": fee,
    })))
    assert state.settings.fee == fee
    assert state.settings.policy == parse_fee_policy(fee)
    assert state.settings.policy is not None and state.settings.policy.cap == 500

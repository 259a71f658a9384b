"""Chinese Poker: naturals, surrender, rows with bonus rates, scoops, fouls, pair settlement."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import full_deck, parse_cards
from dealer_assist.engine.hand import replay
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Start
from dealer_assist.games import chinese_poker as cp
from dealer_assist.games.chinese_poker.events import Natural, Surrender
from dealer_assist.games.ofc.events import SetHand
from dealer_assist.games.open_face.rows import Rows

GAME = cp.GAME


def hand(seat: int, front: str, middle: str, back: str) -> SetHand:
    return SetHand(seat=seat, front=parse_cards(front), middle=parse_cards(middle),
                   back=parse_cards(back))


def rows_of(ev: SetHand) -> Rows:
    return Rows(ev.front, ev.middle, ev.back)


def start(seats: tuple[int, ...] = (1, 2), **params: Any) -> Start:
    return Start(game="chinese-poker", seats=seats, params=params)


def leftover(seat: int, *taken: SetHand) -> SetHand:
    """Thirteen cards nobody else holds, in deck order (for a seat whose rows do not matter)."""
    used = {c for ev in taken for c in ev.front + ev.middle + ev.back}
    rest = [c for c in full_deck() if c not in used][:13]
    return SetHand(seat=seat, front=tuple(rest[:3]), middle=tuple(rest[3:8]),
                   back=tuple(rest[8:]))


def report(events: list[Event]) -> dict[str, Any]:
    hand_ = replay(events)
    assert hand_.over and hand_.settle().conserved
    return GAME.report(hand_.state)


def points(rep: dict[str, Any]) -> list[tuple[list[int], int]]:
    return [(p["seats"], p["points"]) for p in rep["pairs"]]


# Bonus-rate hand: front trips (3), middle full house (2), back quads (4).
R = "Qh Qd Qc", "8c 8d 8h 4c 4d", "Th Tc Td Ts 2d"
# Fouled: a pair of aces in front over an ace-less high-card middle.
F = "Ad As 2c", "3d 4h 6h 7c 9s", "Kc Ks Kd Jd Js"
# Wins the middle (nines full, 2) and the back (seven-high straight flush, 5) against R.
N = "Ah Kh Qs", "9h 9d 9c 5h 5d", "7s 6s 5s 4s 3s"
# Plain hands for the one-unit rows.
P1 = "As Kd 2c", "9c 9d 5h 5c 2d", "Th Jh Qh Kh 4h"
P2 = "Qs Qd 3c", "7c 7d 3h 3d 4s", "2s 3s 6s 9s Js"

DRAGON = "2c 3d 4h", "5s 6c 7d 8h 9s", "Tc Jd Qh Ks Ac"
FLUSHES = "2h 5h 9h", "3c 5c 8c Jc Kc", "4s 7s Js Qs As"


# --- Chinese 3: rows, bonus rates and the scoop ----------------------------------------------


def test_ruling_chinese_3_one_unit_per_row() -> None:
    rep = report([start(), hand(1, *P1), hand(2, *P2)])
    assert rep["pairs"][0]["winners"] == {"front": 2, "middle": 1, "back": 1}
    assert points(rep) == [([1, 2], 1)]
    assert rep["net"] == {"1": 100, "2": -100}


def test_ruling_chinese_3_bonus_rates_go_to_the_winning_row() -> None:
    rep = report([start(), hand(1, *R), hand(2, *N)])
    # R: front trips +3; N: middle full house +2, back straight flush +5.
    assert rep["pairs"][0]["winners"] == {"front": 1, "middle": 2, "back": 2}
    assert points(rep) == [([1, 2], 3 - 2 - 5)]
    assert rep["royalties"] == {"1": {"front": 3, "middle": 2, "back": 4},
                                "2": {"middle": 2, "back": 5}}


def test_ruling_chinese_3_scoop_pays_three_more() -> None:
    rep = report([start(unit=500), hand(1, *R), hand(2, "2s 3s 5c", "6c 7c 9c Jc Kd",
                                                     "Ac Ah Kc Kh 3h")])
    assert rep["pairs"][0]["scoop"] == 1
    assert points(rep) == [([1, 2], 3 + 2 + 4 + 3)]
    assert rep["net"] == {"1": 6000, "2": -6000}


def test_rule_tied_rows_pay_nothing() -> None:
    a = hand(1, "Ks Qs 2c", "9c 9d 5h 5c 3d", "Th Jh Qh Kh 4h")
    b = hand(2, "Kd Qd 2h", "9h 9s 5d 5s 3c", "2s 3s 6s 8s Js")
    rep = report([start(), a, b])
    assert rep["pairs"][0]["winners"] == {"front": None, "middle": None, "back": 1}
    assert points(rep) == [([1, 2], 1)]


# --- Chinese 4: fouls -------------------------------------------------------------------------


def test_ruling_chinese_4_a_foul_is_scooped_at_the_opponents_rates() -> None:
    rep = report([start(), hand(1, *R), hand(2, *F)])
    assert rep["fouled"] == [2]
    assert points(rep) == [([1, 2], 3 + 2 + 4 + 3)]


def test_ruling_chinese_4_two_fouled_hands_exchange_nothing() -> None:
    g = hand(2, "4s 3s 2s", "Qd Qc 7h 7d 2h", "Ac Ts Th 8s 6s")
    rep = report([start(), hand(1, *F), g])
    assert rep["fouled"] == [1, 2]
    assert points(rep) == [([1, 2], 0)]
    assert replay([start(), hand(1, *F), g]).settle().steps == ()


def test_rule_three_players_settle_pair_by_pair() -> None:
    events: list[Event] = [start((1, 2, 3)), hand(1, *R), hand(2, *N), hand(3, *F)]
    rep = report(events)
    assert points(rep) == [([1, 2], -4), ([1, 3], 12), ([2, 3], 11)]
    assert rep["net"] == {"1": 800, "2": 1500, "3": -2300}
    steps = [s.text for s in replay(events).settle().steps]
    assert steps[0].startswith("Seat 1 pays seat 2 4 units ($4)")
    assert steps[2] == "Seat 3 pays seat 2 11 units ($11): seat 3 fouled: scooped, 11"


def test_rule_four_players_with_a_surrender_sum_to_zero() -> None:
    events: list[Event] = [start((1, 2, 3, 4)), Surrender(seat=4), hand(1, *R), hand(2, *N),
                           hand(3, *F)]
    rep = report(events)
    assert points(rep) == [([1, 2], -4), ([1, 3], 12), ([1, 4], 2), ([2, 3], 11), ([2, 4], 2),
                           ([3, 4], 2)]
    assert rep["net_units"] == {"1": 10, "2": 17, "3": -21, "4": -6}
    assert sum(rep["net"].values()) == 0
    settlement = replay(events).settle()
    assert dict(settlement.put_in) == {1: 0, 2: 0, 3: 2100, 4: 600}


# --- Chinese 2: surrender ---------------------------------------------------------------------


def test_ruling_chinese_2_surrender_pays_two_to_every_opponent_even_a_surrenderer() -> None:
    events: list[Event] = [start((1, 2, 3)), Surrender(seat=1), Surrender(seat=2),
                           hand(3, *P1)]
    rep = report(events)
    assert points(rep) == [([1, 2], 0), ([1, 3], -2), ([2, 3], -2)]
    assert rep["net"] == {"1": -200, "2": -200, "3": 400}
    assert rep["surrendered"] == [1, 2]


def test_ruling_chinese_2_surrender_comes_before_the_reveal() -> None:
    state = GAME.apply(GAME.start(start((1, 2, 3))), hand(1, *P1))
    with pytest.raises(RuleViolation, match="hands are already shown: too late to surrender"):
        GAME.apply(state, Surrender(seat=2))


# --- Chinese 1: naturals ----------------------------------------------------------------------


def test_ruling_chinese_1_naturals_are_paid_by_every_opponent() -> None:
    dragon, flushes = hand(1, *DRAGON), hand(2, *FLUSHES)
    other = leftover(3, dragon, flushes)
    events: list[Event] = [start((1, 2, 3)), Natural(seat=1, kind="dragon"), dragon,
                           Natural(seat=2, kind="three flushes"), flushes, other]
    rep = report(events)
    assert rep["naturals"] == {"1": "dragon", "2": "three-flushes"}
    assert points(rep) == [([1, 2], 13), ([1, 3], 13), ([2, 3], 3)]
    assert rep["net_units"] == {"1": 26, "2": -10, "3": -16}


def test_ruling_chinese_1_a_natural_holder_plays_no_rows() -> None:
    six = hand(1, "Ac Ad Kc", "Kd 4c 4d 5c 5d", "6c 6d 8c 8d 9h")
    rep = report([start(), Natural(seat=1, kind="six-pairs"), six, hand(2, *P2)])
    assert points(rep) == [([1, 2], 3)]
    assert "rows" not in rep["pairs"][0]


def test_ruling_chinese_1_equal_naturals_break_ties_back_middle_front() -> None:
    a = hand(1, "2h 5h 9h", "3c 6c 8c Tc Qc", "4s 7s Js Ks As")
    b = hand(2, "3h 6h Th", "2d 5d 7d 9d Jd", "2s 3s 5s 8s Qs")
    events: list[Event] = [start(), Natural(seat=1, kind="three-flushes"), a,
                           Natural(seat=2, kind="three-flushes"), b]
    assert points(report(events)) == [([1, 2], 3)]
    assert cp.natural_strength(rows_of(b), "three-flushes") < cp.natural_strength(
        rows_of(a), "three-flushes")


def test_ruling_chinese_1_six_pairs_compare_the_highest_pair_down() -> None:
    a = rows_of(hand(1, "Ac Ad Kc", "Kd 4c 4d 5c 5d", "6c 6d 7c 7d 8s"))
    b = rows_of(hand(2, "Ah As Kh", "Ks 4h 4s 5h 5s", "6h 6s 8c 8d 9s"))
    assert cp.natural_strength(b, "six-pairs") > cp.natural_strength(a, "six-pairs")


def test_ruling_chinese_1_two_dragons_tie() -> None:
    one = hand(1, *DRAGON)
    two = hand(2, "2d 3c 4s", "5h 6d 7c 8s 9h", "Td Jc Qs Kh Ad")
    events: list[Event] = [start(), Natural(seat=1, kind="dragon"), one,
                           Natural(seat=2, kind="dragon"), two]
    assert points(report(events)) == [([1, 2], 0)]


def test_ruling_chinese_1_three_straights_and_its_low_front() -> None:
    straights = rows_of(hand(1, "Ah 2d 3s", "4c 5d 6h 7s 8c", "9d Tc Jh Qs Kd"))
    assert cp.natural_problem(straights, "three-straights") is None
    assert cp.natural_problem(straights, "three-flushes") is not None
    assert cp.natural_strength(straights, "three-straights")[-1] == 3


def test_rule_a_declared_natural_must_be_shown_and_true() -> None:
    state = GAME.apply(GAME.start(start()), Natural(seat=1, kind="three-flushes"))
    assert GAME.prompt(state).to_act == 1
    with pytest.raises(RuleViolation, match="seat 1 declared three flushes: record its thirteen"):
        GAME.apply(state, hand(2, *P2))
    with pytest.raises(RuleViolation, match="the front is not one"):
        GAME.apply(state, hand(1, *P1))


def test_rule_naturals_come_before_surrenders_and_the_reveal() -> None:
    state = GAME.apply(GAME.start(start((1, 2, 3))), Surrender(seat=3))
    with pytest.raises(RuleViolation, match="naturals are declared before surrenders"):
        GAME.apply(state, Natural(seat=1, kind="dragon"))
    shown = GAME.apply(GAME.start(start()), hand(2, *P2))
    with pytest.raises(RuleViolation, match="too late to declare a dragon"):
        GAME.apply(shown, Natural(seat=1, kind="dragon"))
    with pytest.raises(RuleViolation, match='"royal" is not a natural'):
        GAME.apply(GAME.start(start()), Natural(seat=1, kind="royal"))


def test_rule_duplicate_card_and_wrong_row_size_are_refused() -> None:
    state = GAME.apply(GAME.start(start()), hand(1, *P1))
    with pytest.raises(RuleViolation, match="As is already in seat 1's hand"):
        GAME.apply(state, hand(2, "As Qd 3c", "7c 7d 3h 3d 4s", "2s 3s 6s 9s Js"))
    with pytest.raises(RuleViolation, match="seat 2's front row needs 3 cards, not 2"):
        GAME.apply(state, hand(2, "Qd 3c", "7c 7d 3h 3d 4s", "2s 3s 6s 9s Js Qs"))
    with pytest.raises(RuleViolation, match="seat 1's hand is already recorded"):
        GAME.apply(state, Surrender(seat=1))


# --- prompt and view --------------------------------------------------------------------------


def test_prompt_and_view_follow_the_hand() -> None:
    state = GAME.start(start((1, 2, 3), button=1))
    prompt = GAME.prompt(state)
    assert prompt.phase == "declare" and "seats 2, 3, 1" in prompt.message
    assert {a.kind for a in prompt.actions} == {"set", "natural", "surrender"}
    state = GAME.apply(state, Surrender(seat=2))
    state = GAME.apply(state, hand(1, *R))
    assert GAME.prompt(state).message == "Record the rows of seat 3"
    waiting = GAME.view(state).seats[2]
    assert waiting.face_down and waiting.hidden == 13 and waiting.rows == ()
    state = GAME.apply(state, hand(3, *F))
    view = GAME.view(state)
    assert view.seats[0].rows[0] == ("front", ("Qh", "Qd", "Qc"))
    assert view.seats[1].status == "surrendered"
    assert view.seats[2].status == "fouled"
    assert view.seats[0].detail.endswith("net +14 units")
    assert GAME.prompt(state).done


# --- properties -------------------------------------------------------------------------------


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_property_random_hands_conserve_chips(seed: int, players: int) -> None:
    events = cp.sample_events(random.Random(seed), players=players, surrender_chance=0.2)
    hand_ = replay(events)
    settlement = hand_.settle()
    assert settlement.conserved
    rep = GAME.report(hand_.state)
    assert sum(rep["net"].values()) == 0
    assert sum(settlement.payouts.values()) == sum(settlement.put_in.values())


def test_sample_hand_is_a_complete_legal_hand() -> None:
    events = GAME.sample_hand(random.Random(2), players=4)
    assert sum(isinstance(e, SetHand) for e in events) + sum(
        isinstance(e, Surrender) for e in events) == 4
    assert replay(events).over


def test_rule_text_a_pair_of_players_may_agree_their_own_unit() -> None:
    events: list[Event] = [start((1, 2, 3), unit=100, pair_units={"2-1": 500}),
                           hand(1, *R), hand(2, *N), hand(3, *F)]
    rep = report(events)
    # Pairs (1,2) -4 at $5, (1,3) +12 at $1, (2,3) +11 at $1.
    assert rep["net"] == {"1": -2000 + 1200, "2": 2000 + 1100, "3": -2300}
    assert rep["pair_units"] == {"1-2": 500}
    assert replay(events).settle().steps[0].text.startswith("Seat 1 pays seat 2 4 units ($20)")
    with pytest.raises(RuleViolation, match='"1-9" is not a pair of seats'):
        GAME.start(start((1, 2), pair_units={"1-9": 500}))


def test_rule_a_fixed_fee_from_the_button_is_collected() -> None:
    events: list[Event] = [start(button=2, fee={"kind": "fixed", "amount": 200,
                                                "from": "button"}),
                           hand(1, *P1), hand(2, *P2)]
    settlement = replay(events).settle()
    assert [(f.kind, f.amount, f.from_seat) for f in settlement.fees] == [("button-fee", 200, 2)]
    assert dict(settlement.put_in) == {1: 0, 2: 300}
    assert settlement.conserved
    with pytest.raises(RuleViolation, match="chinese-poker does not take royalties"):
        GAME.start(start(royalties="pineapple"))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4),
       fee=st.sampled_from([{"kind": "per-player", "amount": 100},
                            {"kind": "fixed", "amount": 200, "from": "button"},
                            {"kind": "time", "amount": 500}]))
def test_property_fees_before_the_deal_keep_chips_conserved(
    seed: int, players: int, fee: dict[str, Any]
) -> None:
    events = GAME.sample_hand(random.Random(seed), players=players,
                              params=None if fee is None else {"fee": fee})
    settlement = replay(events).settle()
    assert settlement.conserved
    fees = sum(f.amount for f in settlement.fees)
    assert fees == {"per-player": 100 * players, "fixed": 200, "time": 0}[fee["kind"]]
    assert sum(settlement.put_in.values()) - sum(settlement.payouts.values()) == fees

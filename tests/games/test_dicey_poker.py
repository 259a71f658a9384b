"""Dicey Poker: one test per ruling (docs/games/dicey-poker.md), whole rounds for 1, 2, 4 and
6 players with the numbers written out, the scoring table, the game to its target and the
prize, and refusals in the dealer's words with nothing recorded."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from dealer_assist.cards import Card, parse_cards
from dealer_assist.engine.hand import read_log, replay
from dealer_assist.games.dicey_poker.rules import (
    card_points,
    deck_for,
    hole_best,
    joker_values,
    jokers_for,
    up_category,
)
from tests.games.dicey_helpers import GAME, A, B, C, D, Table, play_round

HOLE = "3h 4h 5h 6h 7h 8c 9c Tc Jd Qd"
HEARTS = "7s 2h 3h 4h 5h 6h 8h 9h Th Jh"


def five_up() -> Table:
    """Solitaire: 3h, Jd, 4h, Qd, 5h go up in three turns (the face roll of the third is
    skipped); round 4 starts with five up, none chipped."""
    t = Table().deal(1, HOLE)
    t.roll(1, "d10", 3)("up", 1, card="3h")("draw", 1, card="2c")
    t.roll(1, "d6", 1)("up", 1, card="Jd")("draw", 1, card="3c")
    t.roll(1, "d10", 4)("up", 1, card="4h")("draw", 1, card="4c")
    t.roll(1, "d6", 3)("up", 1, card="Qd")("draw", 1, card="5c")
    t.roll(1, "d10", 5)("up", 1, card="5h")("draw", 1, card="6c")
    return t


# --- ruling 1: the pack, jokers, chips and ten cards -----------------------------------------

def test_ruling_dicey_1_the_pack_and_the_jokers_by_player_count() -> None:
    assert [sum(deck_for(n).values()) for n in range(1, 7)] == [52, 52, 78, 78, 104, 104]
    assert [jokers_for(n) for n in range(1, 7)] == [2, 2, 3, 3, 4, 4]
    four = deck_for(4)
    assert four[Card(7, "s")] == four[Card(7, "h")] == 2
    assert four[Card(7, "d")] == four[Card(7, "c")] == 1


def test_ruling_dicey_1_a_card_the_pack_holds_once_is_refused_twice() -> None:
    t = Table((1, 2, 3, 4), dealer=4)
    t.deal(1, "7s 7h 7d 7c 2s 3s 4s 5s 6s 8s")
    t.deal(2, "7s 7h 2s 3s 4s 5s 6s 8s 9s Ts")  # the second spades and hearts: fine
    t.refused("7d cannot be dealt: it is already out (seat 1's hole)", "deal", 3,
              cards=HEARTS.replace("7s", "7d").split(), rule="cards")
    t.refused("7s cannot be dealt: both copies are already out (seat 1's hole, seat 2's hole)",
              "deal", 3, cards=HEARTS.split(), rule="cards")


def test_ruling_dicey_1_ten_cards_from_the_dealers_left_and_no_joker() -> None:
    t = Table((1, 2, 3), dealer=2)
    t.refused("the deal goes from the dealer's left: seat 3 is next, not seat 1", "deal", 1,
              cards=HOLE.split(), rule="Dicey 1")
    t.refused("each player is dealt ten cards, not 9", "deal", 3, cards=HOLE.split()[:9])
    t.refused("the jokers wait face up beside the table", "deal", 3,
              cards=[*HOLE.split()[:9], "Jk"])
    t.refused("deal the hole cards first: seat 3 is next", "roll", 3, die="d10", value=4)
    assert t.state.settings.order == (3, 1, 2)


# --- ruling 2: the dice of a turn ------------------------------------------------------------

def test_ruling_dicey_2_the_base_die_then_the_face_die() -> None:
    t = Table().deal(1, HOLE)
    assert [a.fields["die"] for a in t.prompt.actions] == ["d10"]
    t.refused("the base die, then the face die; now the base die (d10), not the d6", "roll", 1,
              die="d6", value=2, rule="Dicey 2")
    t.roll(1, "d10", 2)  # no 2 in the hole: discard any card, then draw
    t.refused("no match: discard any hole card, then draw", "roll", 1, die="d6", value=1)
    t("discard", 1, card="Qd")("draw", 1, card="Kd")
    assert [a.fields["die"] for a in t.prompt.actions] == ["d6"]
    t.roll(1, "d6", 6)("discard", 1, card="8c")("draw", 1, card="As")  # black king: no match
    assert (t.state.round, t.state.rolled) == (2, ())
    t.refused("the base die (d10) shows 1 to 10, not 11", "roll", 1, die="d10", value=11)


def test_ruling_dicey_2_the_face_roll_is_skipped_when_the_base_roll_made_five() -> None:
    t = five_up()
    assert t.up(1) == ["3h", "Jd", "4h", "Qd", "5h"]
    assert t.state.round == 4 and not t.state.two_rolls
    assert len(t.state.hole[1]) == 10


def test_ruling_dicey_2_five_up_one_die_with_three_of_its_kind_in_the_hole() -> None:
    t = five_up()  # hole: 6h 7h 8c 9c Tc 2c 3c 4c 5c 6c: no face card
    d10, d6 = t.prompt.actions
    assert d10.enabled and not d6.enabled
    assert d6.reason == "fewer than three face cards (J-K) in the hole"
    t.refused("seat 1 has five face up and fewer than three face cards (J-K) in the hole: "
              "roll the base die (d10)", "roll", 1, die="d6", value=1, rule="Dicey 2")


# --- ruling 3: what a roll asks for ----------------------------------------------------------

def test_ruling_dicey_3_a_match_goes_face_up_then_a_draw() -> None:
    t = Table().deal(1, HOLE).roll(1, "d10", 7)
    assert t.prompt.message == "Round 1: seat 1 rolled a 7: put one of 7h face up, then draw"
    t.refused("seat 1 rolled a 7: put one of 7h face up (then draw)", "draw", 1, card="Kc",
              rule="Dicey 3")
    t.refused("8c does not match the roll (a 7): put one of 7h face up", "up", 1, card="8c")
    t.refused("the roll of a 7 is not finished: put one of 7h face up, then draw", "roll", 1,
              die="d6", value=1)
    t("up", 1, card="7h")
    t.refused("seat 1 holds 9 cards: record the card drawn to make ten", "discard", 1,
              card="8c")
    t("draw", 1, card="7c")
    assert t.up(1) == ["7h"] and len(t.state.hole[1]) == 10


def test_ruling_dicey_3_no_match_discards_any_card_and_draws() -> None:
    t = Table().deal(1, HOLE).roll(1, "d10", 1)  # no ace
    t.refused("Ks is not in seat 1's hole", "discard", 1, card="Ks")
    t("discard", 1, card="Tc")("draw", 1, card="Kd")
    assert t.up(1) == [] and "Tc" not in t.hole(1) and "Kd" in t.hole(1)
    assert t.state.discards == (Card(10, "c"),)


def test_ruling_dicey_3_five_up_a_swap_chips_the_new_card_and_draws_nothing() -> None:
    t = five_up().roll(1, "d10", 6)  # 6h and 6c match
    assert [a.kind for a in t.prompt.actions] == ["swap", "chip"]
    t.refused("8c does not match the roll (a 6): swap one of 6h, 6c", "swap", 1, up="3h",
              hole="8c")
    t("swap", 1, up="4h", hole="6c")
    assert t.up(1) == ["3h", "Jd", "6c*", "Qd", "5h"]
    assert "4h" in t.hole(1) and len(t.state.hole[1]) == 10
    assert t.state.round == 5  # no draw: the turn is over


def test_ruling_dicey_3_five_up_a_chip_then_the_match_discarded_and_a_draw() -> None:
    t = five_up().roll(1, "d10", 6)
    t("chip", 1, card="Jd")
    t.refused("discard one of 6h, 6c, then draw before anything else", "chip", 1, card="Qd")
    t.refused("9c does not match the roll (a 6): a matching card must go out: discard one of "
              "6h, 6c", "discard", 1, card="9c")
    t("discard", 1, card="6h")("draw", 1, card="Kd")
    assert t.up(1) == ["3h", "Jd*", "4h", "Qd", "5h"]
    assert len(t.state.hole[1]) == 10 and t.state.round == 5


def test_ruling_dicey_3_all_five_chipped_the_match_is_discarded() -> None:
    t = play_round({1: C}, rounds=8)  # five swaps: all chipped; the last two rounds follow
    assert t.up(1) == ["4d*", "5s*", "6d*", "7s*", "Ts*"]
    assert t.state.final_from == 9
    t.roll(1, "d10", 2)
    assert t.prompt.message == ("Round 9 (one of the last two rounds): seat 1 rolled a 2: "
                                "discard one of 2c, 2s, then draw")
    t.refused("a matching card must go out", "discard", 1, card="Kc")


# --- ruling 4: what stays, and what starts a wild challenge ----------------------------------

def test_ruling_dicey_4_a_chipped_card_stays() -> None:
    t = five_up().roll(1, "d10", 6)("chip", 1, card="Jd")("discard", 1, card="6h")
    t("draw", 1, card="Kd").roll(1, "d10", 6)
    t.refused("Jd is not an unchipped face-up card of seat 1: swap for one of 3h, 4h, Qd, 5h "
              "(chipped cards and jokers stay)", "swap", 1, up="Jd", hole="6c", rule="Dicey 4")


@pytest.mark.parametrize("card", ["As", "2d", "Js", "Jh", "Kh"])
def test_ruling_dicey_4_an_ace_a_one_eyed_jack_the_suicide_king_or_a_two_starts_a_challenge(
    card: str,
) -> None:
    rank = {"A": 1, "2": 2}.get(card[0])
    die, value = ("d10", rank) if rank else ("d6", {"Js": 2, "Jh": 1, "Kh": 5}[card])
    hole = f"{card} 4h 5h 6h 7h 8c 9c Tc 3d 3c"
    t = Table((1, 2), dealer=2).deal(1, hole).deal(2, "4s 5s 6s 7s 8s 9s Ts 4d 5d 6d")
    if die == "d6":  # the base die first: no 2 in the hole
        t.roll(1, "d10", 2)("discard", 1, card="3d")("draw", 1, card="Qc")
    t.roll(1, die, value)("up", 1, card=card)
    assert t.state.challenge is None  # after the roll is finished: the draw first
    t("draw", 1, card="Kc")
    assert t.prompt.phase == "challenge" and t.prompt.to_act == 1


def test_ruling_dicey_4_no_challenge_once_every_joker_is_taken_or_in_the_last_rounds() -> None:
    t = Table().deal(1, "As 4h 5h 6h 7h 8c 9c Tc 3d 3c")
    t.state = replace(t.state, jokers_taken=2)
    t.roll(1, "d10", 1)("up", 1, card="As")("draw", 1, card="Qc")
    assert t.prompt.phase == "roll" and t.state.challenge is None
    t = Table().deal(1, "As 4h 5h 6h 7h 8c 9c Tc 3d 3c")
    t.state = replace(t.state, final_from=1)
    t.roll(1, "d10", 1)("up", 1, card="As")("draw", 1, card="Qc")
    assert t.state.challenge is None


# --- ruling 5: the wild challenge ------------------------------------------------------------

def challenge(players: int = 3) -> Table:
    seats = tuple(range(1, players + 1))
    t = Table(seats, dealer=seats[-1])
    holes = ["As 4h 5h 6h 7h 8c 9c Tc 3d 3c", "4s 5s 6s 7s 8s 9s Ts 4d 5d 6d",
             "Kd Qd Jd Kc Qc Jc Ks Qs Qh 2c"]
    for s in seats:
        t.deal(s, holes[s - 1])
    t.roll(1, "d10", 1)("up", 1, card="As")("draw", 1, card="2d")
    return t


def test_ruling_dicey_5_over_100_loses_and_the_next_rolls_twice() -> None:
    t = challenge()
    t.refused("the wild challenge is under way: seat 1 rolls the percentile die or stops",
              "roll", 2, die="d100", value=50, rule="Dicey 5")
    t.refused("seat 1 must roll at least 1 time: 0 so far", "stop", 1)
    t.roll(1, "d100", 90).roll(1, "d100", 20)  # 110: over, their rolls end
    assert t.prompt.to_act == 2
    t.roll(2, "d100", 60)
    t.refused("seat 2 must roll at least 2 times (every player before them went over): 1 so "
              "far", "stop", 2)
    t.roll(2, "d100", 30)("stop", 2)  # 90
    t.roll(3, "d100", 80)("stop", 3)  # 80: once is enough after a player who did not go over
    (done,) = t.state.challenges
    assert done.to_json() == {"challenger": 1, "rolls": {"1": [90, 20], "2": [60, 30],
                                                         "3": [80]}, "winner": 2}
    assert t.prompt.phase == "wild" and t.prompt.to_act == 2


def test_ruling_dicey_5_a_tie_for_closest_or_everyone_over_and_nobody_wins() -> None:
    t = challenge()
    t.roll(1, "d100", 70)("stop", 1).roll(2, "d100", 70)("stop", 2).roll(3, "d100", 90)
    t.roll(3, "d100", 20)  # 110
    assert t.state.challenges[-1].winner is None
    assert t.prompt.phase == "roll" and t.prompt.to_act == 1  # seat 1's face roll
    t = challenge(2)
    t.roll(1, "d100", 90).roll(1, "d100", 90).roll(2, "d100", 90).roll(2, "d100", 50)
    assert t.state.challenges[-1].winner is None and t.state.wild is None


def test_ruling_dicey_5_exactly_100_still_stops() -> None:
    t = challenge(2)
    t.roll(1, "d100", 90).roll(1, "d100", 10)
    roll, stop = t.prompt.actions
    assert not roll.enabled and roll.reason == "exactly 100: stop" and stop.enabled
    t("stop", 1).roll(2, "d100", 0)("stop", 2)
    assert t.state.challenges[-1].winner == 1


def test_ruling_dicey_5_solitaire_wins_with_70_to_100() -> None:
    t = Table().deal(1, "As 4h 5h 6h 7h 8c 9c Tc 3d 3c")
    t.roll(1, "d10", 1)("up", 1, card="As")("draw", 1, card="2d")
    t.roll(1, "d100", 60)("stop", 1)
    assert t.state.challenges[-1].winner is None
    t.roll(1, "d6", 1)("discard", 1, card="3d")("draw", 1, card="Kc")  # no red jack
    t.roll(1, "d10", 2)("up", 1, card="2d")("draw", 1, card="Ks")
    t.roll(1, "d100", 40).roll(1, "d100", 30)("stop", 1)
    assert t.state.challenges[-1].winner == 1 and t.prompt.phase == "wild"


def test_ruling_dicey_5_a_holder_of_two_jokers_takes_part_but_rolls_no_wild_die() -> None:
    t = challenge(2)
    t.state = replace(t.state, up={**t.state.up, 2: tuple(
        replace(f, card=Card.joker(), chipped=True) for f in t.state.face_up(1)[:1] * 2)})
    t.roll(1, "d100", 50)("stop", 1).roll(2, "d100", 90)("stop", 2)
    assert t.state.challenges[-1].winner == 2
    assert t.state.wild is None and t.prompt.phase == "roll" and t.prompt.to_act == 1


# --- ruling 6: the wild die and the jokers ---------------------------------------------------

def test_ruling_dicey_6_which_wild_die_values_take_the_next_joker() -> None:
    assert [joker_values(2, k) for k in range(3)] == [(1, 2), (3, 4), ()]
    assert [joker_values(4, k) for k in range(4)] == [(1, 4), (2, 4), (3, 4), ()]
    assert [joker_values(6, k) for k in range(5)] == [(1,), (2,), (3,), (4,), ()]


def test_ruling_dicey_6_a_joker_joins_fewer_than_five_chipped() -> None:
    t = challenge(2)
    t.roll(1, "d100", 80)("stop", 1).roll(2, "d100", 40)("stop", 2)
    t.refused("seat 1 won the wild challenge: record their roll of the wild die (d4)", "roll",
              1, die="d6", value=1, rule="Dicey 6")
    t.roll(1, "d4", 3)  # 1 or 2 takes the first joker of a two-player game
    assert t.state.joker_due is None and t.prompt.phase == "roll"
    assert t.state.challenges[-1].winner == 1
    t = challenge(2)
    t.roll(1, "d100", 80)("stop", 1).roll(2, "d100", 40)("stop", 2).roll(1, "d4", 2)
    assert t.prompt.message == "Seat 1 wins joker 1: place it face up, chipped"
    t.refused("seat 1 has 1 face up: the joker joins them, nothing goes back", "joker", 1,
              back="As", out="3d")
    t("joker", 1)
    assert t.up(1) == ["As", "Jk*"] and len(t.state.hole[1]) == 10
    assert t.state.jokers_taken == 1


def test_ruling_dicey_6_a_joker_won_with_five_up_sends_one_back_and_one_out() -> None:
    t = five_up()
    t.state = replace(t.state, jokers_taken=0, joker_due=1)
    t.refused("seat 1 has five face up: name the face-up card that goes back", "joker", 1)
    t.refused("9c is not one of seat 1's face-up cards that may go back", "joker", 1,
              back="9c", out="2c")
    t("joker", 1, back="Qd", out="Qd")
    assert t.up(1) == ["3h", "Jd", "4h", "5h", "Jk*"]
    assert len(t.state.hole[1]) == 10 and t.state.discards[-1] == Card(12, "d")
    t.state = replace(t.state, joker_due=1)
    t.refused("Jk is not one of seat 1's face-up cards that may go back", "joker", 1,
              back="Jk", out="2c", rule="Dicey 6")


# --- ruling 7: the last two rounds and the score ---------------------------------------------

def scores(t: Table) -> dict[str, tuple[object, ...]]:
    r = GAME.report(t.state)
    return {s: (v["up_category"], v["up_score"], v["bonus"], v["hole_category"],
                v["hole_score"], v["total"]) for s, v in r["scores"].items()}


A_SCORE = ("straight flush", 50, 5, "straight flush", 25, 80)  # 6-10♣ up; 4-8♥ in the hole
B_SCORE = ("full house", 30, 5, "full house", 15, 50)  # 333 88 up; 999 KK in the hole
C_SCORE = ("no pair, no ace", 2, 5, "flush", 12, 19)  # 4 5 6 7 10 up; A Q 10 7 5♦
D_SCORE = ("flush", 24, 5, "flush", 12, 41)  # 4♠ 4♠ 6♠ 8♠ 10♠: a flush with a pair


def test_ruling_dicey_7_a_whole_round_solitaire() -> None:
    t = play_round({1: C})
    assert t.state.over and len(t.events) == 33
    assert scores(t) == {"1": C_SCORE}
    assert GAME.report(t.state)["totals"] == {"1": 19}


def test_ruling_dicey_7_a_whole_round_of_two() -> None:
    t = play_round({1: A, 2: B})
    assert t.state.over and t.state.round == 11 and t.state.final_from == 9
    assert scores(t) == {"1": A_SCORE, "2": B_SCORE}


def test_ruling_dicey_7_a_whole_round_of_four_the_same_card_twice() -> None:
    t = play_round({1: A, 2: B, 3: C, 4: D})
    assert scores(t) == {"1": A_SCORE, "2": B_SCORE, "3": C_SCORE, "4": D_SCORE}
    assert t.up(4) == ["4s*", "4s*", "6s*", "8s*", "Ts*"]


def test_ruling_dicey_7_a_whole_round_of_six_carried_totals_and_the_game_over() -> None:
    totals_in = {"1": 70, "2": 100, "3": 120, "4": 0, "5": 80, "6": 131}
    t = play_round({1: A, 2: B, 3: C, 4: A, 5: B, 6: C}, totals_in=totals_in)
    assert scores(t) == {"1": A_SCORE, "2": B_SCORE, "3": C_SCORE, "4": A_SCORE,
                         "5": B_SCORE, "6": C_SCORE}
    r = GAME.report(t.state)
    assert r["totals"] == {"1": 150, "2": 150, "3": 139, "4": 80, "5": 130, "6": 150}
    assert r["game_over"] is True and r["winners"] == [1, 2, 6]
    assert GAME.next_hand(t.state) == {}


def test_ruling_dicey_7_the_game_goes_on_below_the_target() -> None:
    t = play_round({1: A, 2: B}, totals_in={"1": 69, "2": 99})
    r = GAME.report(t.state)
    assert r["totals"] == {"1": 149, "2": 149} and r["game_over"] is False
    assert r["winners"] == []
    assert GAME.next_hand(t.state) == {"totals_in": {"1": 149, "2": 149}}
    assert GAME.next_hand_seats(t.state, (2, 3)) == {"totals_in": {"2": 149}}
    t = play_round({1: A, 2: B}, totals_in={"1": 69, "2": 99}, target=140)
    assert GAME.report(t.state)["winners"] == [1, 2]


def test_ruling_dicey_7_the_scoring_table() -> None:
    def cat(text: str) -> str:
        return up_category(parse_cards(text))

    assert cat("Jk Jk 7s 7h 7d") == "five of a kind"
    assert cat("7s 7s 7h 7h 7d") == "five of a kind"  # two decks
    assert cat("Jk As Ks Qs Js") == "royal flush"
    assert cat("Jk Jk 9h 8h 2c") == "three of a kind"
    assert cat("Jk 9h 8h 7h 6h") == "straight flush"
    assert cat("4s 4s 6s 8s Ts") == "flush"  # a flush with a pair is a flush
    assert cat("As 2d 3c 4h 5s") == "straight"
    assert cat("Ks As 2d 3c 4h") == "no pair, ace high"
    assert cat("Ks Qs 2d 3c 4h") == "no pair, no ace"
    assert [card_points(c) for c in parse_cards("Jk As Kd Jc Td 2c")] == [4, 3, 2, 2, 1, 1]
    cat_, five = hole_best(parse_cards("2c 2d 2h 9s 9c 3d 4d 5d Kd Qs"))
    assert cat_ == "full house" and sorted(c.code for c in five) == ["2c", "2d", "2h", "9c",
                                                                     "9s"]


# --- the prize -------------------------------------------------------------------------------

def test_the_entries_are_the_prize_carried_until_the_game_ends_split_on_a_tie() -> None:
    first = play_round({1: A, 2: B}, entry=500)
    s = first.state and GAME.settle(first.state)
    assert dict(s.put_in) == {1: 500, 2: 500} and s.payouts == {} and s.carry_out == 1000
    nxt = play_round({1: A, 2: B}, entry=500, carry_in=1000, totals_in={"1": 80, "2": 50})
    s = GAME.settle(nxt.state)
    assert dict(s.put_in) == {} and s.payouts == {1: 1000} and s.carry_out == 0
    assert GAME.report(nxt.state)["payouts"] == {"1": 1000}
    tie = play_round({1: A, 2: B}, entry=250, carry_in=1050, totals_in={"1": 70, "2": 100},
                     smallest_chip=100)
    s = GAME.settle(tie.state)
    assert s.payouts == {1: 550, 2: 500} and s.conserved  # the odd chip: the dealer's left


# --- the example and the start ---------------------------------------------------------------

def test_example_dicey_poker_solitaire_matches_expected(examples_dir: Path) -> None:
    events, lines = read_log(examples_dir / "dicey-poker-solitaire.jsonl")
    hand = replay(events, lines=lines)
    expected = json.loads((examples_dir / "dicey-poker-solitaire.expected.json").read_text())
    report = GAME.report(hand.state)
    for key in ("scores", "totals", "game_over", "winners", "challenges", "payouts", "carry"):
        assert report[key] == expected[key], key


def test_start_settings_are_checked() -> None:
    with pytest.raises(Exception, match='"dice" is "app"'):
        Table(dice="loaded")
    with pytest.raises(Exception, match="this game takes 1 to 6 players, not 7"):
        Table((1, 2, 3, 4, 5, 6, 7))
    with pytest.raises(Exception, match='"totals_in" names seat 9'):
        Table((1, 2), totals_in={"9": 3})

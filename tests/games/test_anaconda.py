"""Anaconda: one test per house ruling (RULINGS: Anaconda 1-3; Fees for a carried pot), worked
hands with every number written out, the example hand log, and the refusals in the dealer's
words (nothing recorded on a refusal)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dealer_assist.cli.replay import outcome_json
from dealer_assist.engine.hand import HandReplay, parse_lines, replay
from dealer_assist.engine.inputs import Amount
from dealer_assist.errors import DealerAssistError
from dealer_assist.games.anaconda import GAME


def start(seats: tuple[int, ...] = (1, 2, 3), **params: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "type": "start", "game": "anaconda", "seats": list(seats), "button": seats[-1],
        "structure": "limit", "ante": 100, "small_bet": 200, "big_bet": 400, "cap": 4,
        "pot_in": 0, "smallest_chip": 100, "stacks": {str(s): 20000 for s in seats},
    }
    base.update(params)
    if base["structure"] != "limit":
        for key in ("small_bet", "big_bet", "cap"):
            base.pop(key, None)
    return base


def a(kind: str, seat: int, **more: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, **more}


PASS = {"type": "pass"}


def checks(*seats: int) -> list[dict[str, Any]]:
    return [a("check", s) for s in seats]


def to_declarations(*seats: int) -> list[dict[str, Any]]:
    """Every betting round checked through and both passes: the declarations come next."""
    return [*checks(*seats), PASS, *checks(*seats), PASS, *checks(*seats)]


def declare(seat: int, way: str) -> dict[str, Any]:
    return a("declare", seat, way=way)


def roll(seat: int, card: str) -> dict[str, Any]:
    return a("roll", seat, card=card)


def show(seat: int, *cards: str) -> dict[str, Any]:
    return a("show", seat, cards=list(cards))


def rolls(hands: dict[int, list[str]]) -> list[dict[str, Any]]:
    """Four rounds of rolls, each seat its cards in order, seats in the given order."""
    return [roll(s, cards[k]) for k in range(4) for s, cards in hands.items()]


def play(*lines: dict[str, Any]) -> HandReplay:
    events, numbers = parse_lines([json.dumps(line) for line in lines])
    return replay(events, lines=numbers)


def refused(*lines: dict[str, Any]) -> str:
    with pytest.raises(DealerAssistError) as info:
        play(*lines)
    return str(info.value)


def result(*lines: dict[str, Any]) -> dict[str, Any]:
    return outcome_json(play(*lines))


HIGH_1 = ["Ah", "Ad", "Ks", "Kd", "9c"]  # two pair
LOW_2 = ["2c", "3c", "5d", "7h", "4s"]  # seven-five low
HIGH_3 = ["Qh", "Qd", "Qs", "8c", "8d"]  # a full house


# -- ruling anaconda-1: ante, the betting structure, the two passes --------------------------
def test_ruling_anaconda_1_limit_small_bet_twice_then_the_big_bet() -> None:
    h = play(start())
    assert GAME.prompt(h.state).message.startswith(
        "Seat 1 to act (first betting round, $199 behind, pot $3): check, bet $2, fold")
    h = play(start(), *checks(1, 2, 3), PASS)
    assert "bet $2" in GAME.prompt(h.state).message
    h = play(start(), *checks(1, 2, 3), PASS, *checks(1, 2, 3), PASS)
    assert "betting after the second pass" in GAME.prompt(h.state).message
    assert "bet $4" in GAME.prompt(h.state).message


def test_ruling_anaconda_1_pot_limit_smallest_bet_is_the_ante() -> None:
    h = play(start(structure="pot-limit", ante=100))
    bet = GAME.prompt(h.state).action("bet")
    assert bet is not None and isinstance(bet.input, Amount)
    assert bet.input.low == 100  # the ante, as at a Pineapple table with antes


def test_ruling_anaconda_1_the_passes_come_between_betting_rounds() -> None:
    assert refused(start(), a("check", 1), PASS) == (
        "line 3: the betting round is not over: seat 2 acts before the cards are passed "
        "(ruling anaconda-1)")
    h = play(start(), *checks(1, 2, 3))
    p = GAME.prompt(h.state)
    assert p.phase == "passing" and p.message == (
        "First pass: every player still in passes three cards to the next player still in on "
        "the left (pot $3)")
    assert refused(start(), *checks(1, 2, 3), a("check", 1)) == (
        "line 5: no betting now: every player still in passes three cards to the next player "
        "still in on the left (Passed) (betting rule: no action once the round is closed)")


def test_ruling_anaconda_1_a_fold_before_the_pass_leaves_the_rest_to_pass() -> None:
    out = result(start(), a("bet", 1), a("fold", 2), a("fold", 3))
    assert out["payouts"] == {"1": 500} and out["carry"] == 0  # $3 antes + seat 1's $2 back


# -- ruling anaconda-2: declarations, rolls, the show ----------------------------------------
def test_ruling_anaconda_2_every_declaration_before_anything_is_rolled() -> None:
    base = (start(), *to_declarations(1, 2, 3))
    assert refused(*base, declare(1, "high"), roll(1, "Ah")) == (
        "line 14: every declaration is recorded before anything is rolled: the players still "
        "in declare high or low (still to declare: seat 2, 3) (ruling anaconda-2)")
    assert refused(*base, declare(1, "high"), declare(1, "low")) == (
        "line 14: seat 1 has already declared high: a declaration is final (ruling anaconda-2)")
    assert refused(*base, declare(1, "middle")).endswith(
        'a declaration is "high" or "low", not \'middle\' (ruling anaconda-2)')
    # in any order
    h = play(*base, declare(3, "low"), declare(1, "high"), declare(2, "high"))
    assert h.state.phase == "rolling" and GAME.prompt(h.state).to_act == 1


def test_ruling_anaconda_2_rolls_go_round_by_round_from_the_buttons_left() -> None:
    base = (start(), *to_declarations(1, 2, 3), declare(1, "high"), declare(2, "low"),
            declare(3, "high"))
    assert refused(*base, roll(2, "2c")) == (
        "line 16: seat 1 rolls next (each player still in turns one card, from the button's "
        "left, round by round), not seat 2 (ruling anaconda-2)")
    assert refused(*base, roll(1, "Ah"), roll(2, "Ah")) == (
        "line 17: Ah is already face up at the table: seat 2's roll cannot hold it "
        "(ruling anaconda-2)")
    h = play(*base, roll(1, "Ah"), roll(2, "2c"), roll(3, "Qh"), roll(1, "Ad"))
    assert GAME.prompt(h.state).message == "Seat 2 rolls a card face up (roll 2 of 4, pot $3)"


def test_ruling_anaconda_2_by_default_one_betting_round_once_four_are_up() -> None:
    base = (start(), *to_declarations(1, 2, 3), declare(1, "high"), declare(2, "low"),
            declare(3, "high"))
    h = play(*base, *rolls({1: HIGH_1, 2: LOW_2, 3: HIGH_3}))
    assert h.state.phase == "betting" and h.state.bet.round == 3
    h = play(*base, *rolls({1: HIGH_1, 2: LOW_2, 3: HIGH_3})[:3])
    assert h.state.phase == "rolling"  # no betting between the rolls


def test_ruling_anaconda_2_a_table_may_bet_after_each_round_of_rolls() -> None:
    base = (start(bet_each_roll=True), *to_declarations(1, 2, 3), declare(1, "high"),
            declare(2, "low"), declare(3, "high"))
    h = play(*base, roll(1, "Ah"), roll(2, "2c"), roll(3, "Qh"))
    p = GAME.prompt(h.state)
    assert p.phase == "betting" and "betting after roll 1" in p.message and "bet $4" in p.message
    assert refused(*base, roll(1, "Ah"), roll(2, "2c"), roll(3, "Qh"), roll(1, "Ad")) == (
        "line 19: no card is rolled now: seat 1 acts (ruling anaconda-2)")


def test_ruling_anaconda_2_a_show_holds_the_four_that_seat_rolled_in_showdown_order() -> None:
    base = (start(seats=(1, 2)), *to_declarations(1, 2), declare(1, "high"),
            declare(2, "low"), *rolls({1: HIGH_1, 2: LOW_2}), a("check", 1), a("bet", 2),
            a("call", 1))
    # seat 2 bet last: it shows first
    assert refused(*base, show(1, *HIGH_1)) == (
        "line 23: seat 1 is not next: seat 2 shows first (showdown order 2, 1: the last to bet "
        "or raise first, then clockwise) (ruling anaconda-2)")
    assert refused(*base, show(2, "2c", "3c", "5d", "6h", "4s")) == (
        "line 23: seat 2 rolled 2c 3c 5d 7h: its five must hold them (7h missing) "
        "(ruling anaconda-2)")
    assert refused(*base, show(2, *LOW_2[:4])) == (
        "line 23: seat 2 keeps five cards: show all five, not 4 (ruling anaconda-2)")
    assert refused(*base, show(2, *LOW_2), show(1, "Ah", "Ad", "Ks", "Kd", "4s")) == (
        "line 24: 4s is already face up at the table: seat 1's hand cannot hold it "
        "(ruling anaconda-2)")
    assert refused(*base, {"type": "muck", "seat": 2}).startswith("line 23: ")


# -- ruling anaconda-3: the split ------------------------------------------------------------
def test_ruling_anaconda_3_high_and_low_split_the_pot_the_odd_chip_stays() -> None:
    # $3 antes + $6 carried in: $9; high $4, low $4, $1 stays for the next hand
    out = result(start(pot_in=600), *to_declarations(1, 2, 3), declare(1, "high"),
                 declare(2, "low"), declare(3, "high"),
                 *rolls({1: HIGH_1, 2: LOW_2, 3: HIGH_3}), *checks(1, 2, 3),
                 show(1, *HIGH_1), show(2, *LOW_2), show(3, *HIGH_3))
    assert out["high_winners"] == [3] and out["low_winners"] == [2]
    assert out["payouts"] == {"2": 400, "3": 400} and out["carry"] == 100
    assert out["best_hands"]["3"]["category"] == "full house"
    assert out["best_lows"]["2"]["description"] == "seven-five low"
    assert out["conserved"] is True


def test_ruling_anaconda_3_one_side_declared_its_best_hand_takes_all() -> None:
    out = result(start(pot_in=600), *to_declarations(1, 2, 3), declare(1, "high"),
                 declare(2, "high"), declare(3, "high"),
                 *rolls({1: HIGH_1, 2: LOW_2, 3: HIGH_3}), *checks(1, 2, 3),
                 show(1, *HIGH_1), show(2, *LOW_2), show(3, *HIGH_3))
    assert out["payouts"] == {"3": 900} and out["carry"] == 0
    assert out["low_winners"] == []


def test_ruling_anaconda_3_the_low_has_no_qualifier_and_pairs_rank_below() -> None:
    # every player low, no qualifier: seat 1's two pair and seat 3's full house rank below
    # seat 2's unpaired seven-five, which takes the whole $3
    out = result(start(), *to_declarations(1, 2, 3), declare(1, "low"), declare(2, "low"),
                 declare(3, "low"), *rolls({1: HIGH_1, 2: LOW_2, 3: HIGH_3}),
                 *checks(1, 2, 3), show(1, *HIGH_1), show(2, *LOW_2), show(3, *HIGH_3))
    assert out["payouts"] == {"2": 300} and out["low_winners"] == [2]


def test_ruling_anaconda_3_tied_lows_split_their_half_what_is_left_stays() -> None:
    # pot $3 + $8 carried: $11; high half $5 to seat 1, low half $5 split by two
    # identical lows: $2 each, $1 of it and the pot's odd $1 stay: $2 carried on
    low_3 = ["2h", "3h", "5s", "7d", "4c"]
    out = result(start(pot_in=800), *to_declarations(1, 2, 3), declare(1, "high"),
                 declare(2, "low"), declare(3, "low"), *rolls({1: HIGH_1, 2: LOW_2, 3: low_3}),
                 *checks(1, 2, 3), show(1, *HIGH_1), show(2, *LOW_2), show(3, *low_3))
    assert out["payouts"] == {"1": 500, "2": 200, "3": 200} and out["carry"] == 200


# -- fees ruling: only the chips put in during the hand ---------------------------------------
def test_ruling_fees_the_rake_is_on_this_hands_chips_never_the_carried_pot() -> None:
    fee = {"kind": "rake", "percent": "10", "cap": 1000}
    # $3 antes + a $2 bet called by two in round 0 = $9 put in; $50 carried in
    lines = (start(pot_in=5000, fee=fee), a("bet", 1), a("call", 2), a("call", 3), PASS,
             *checks(1, 2, 3), PASS, *checks(1, 2, 3), declare(1, "high"), declare(2, "low"),
             declare(3, "high"), *rolls({1: HIGH_1, 2: LOW_2, 3: HIGH_3}), *checks(1, 2, 3),
             show(1, *HIGH_1), show(2, *LOW_2), show(3, *HIGH_3))
    hand = play(*lines)
    s = hand.settle()
    put = sum(s.put_in.values())
    assert put == 900  # $1 ante and $2 bet each
    # 10% of $9 is 90 cents, rounded down to the $1 chip: nothing; the $50 is not raked
    assert sum(f.amount for f in s.fees) == 0
    assert s.carry_in == 5000 and s.conserved


def test_ruling_fees_a_rake_is_worked_out_on_the_hands_chips() -> None:
    fee = {"kind": "rake", "percent": "10", "cap": 1000}
    lines = (start(pot_in=5000, fee=fee, ante=1000), *to_declarations(1, 2, 3),
             declare(1, "high"), declare(2, "low"), declare(3, "high"),
             *rolls({1: HIGH_1, 2: LOW_2, 3: HIGH_3}), *checks(1, 2, 3),
             show(1, *HIGH_1), show(2, *LOW_2), show(3, *HIGH_3))
    out = result(*lines)
    # $30 antes: rake $3 (10%), never on the $50 carried in; $77 left: $38 high, $38 low,
    # $1 stays
    assert out["fees"] == [{"kind": "rake", "amount": 300, "from": None}]
    assert out["payouts"] == {"3": 3800, "2": 3800} and out["carry"] == 100


# -- the example hand log ---------------------------------------------------------------------
def test_example_high_low_odd_chip_matches_its_expected_outcome(
    examples_dir: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from dealer_assist.cli import main

    name = "anaconda-high-low-odd-chip"
    assert main(["replay", "--json", str(examples_dir / f"{name}.jsonl")]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = json.loads((examples_dir / f"{name}.expected.json").read_text())
    assert out == expected
    # $3 antes + $6 carried + $6 in round 0 + $8 in round 2 = $23: $11 high to seat 1,
    # $11 low to seat 2, $1 stays for the next hand
    assert out["payouts"] == {"1": 1100, "2": 1100} and out["carry"] == 100
    assert out["declarations"] == {"2": "low", "1": "high"}
    assert out["conserved"] is True


def test_unknown_settings_are_refused_by_name() -> None:
    assert "anaconda does not take blinds" in refused(start(blinds=[100, 200]))
    assert refused(start(structure="limit", small_bet=0)) == (
        'line 1: a limit table needs "small_bet" and "big_bet"')
    assert refused(start(bet_each_roll="yes")) == (
        'line 1: "bet_each_roll" must be true or false')

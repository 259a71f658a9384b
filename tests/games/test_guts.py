"""Guts: one test per house ruling (RULINGS: Guts 1-6; Fees for a carried pot), worked hands
with every number written out (several hands in a row with a pot that grows, a capped
payment, a player short of what they owe), and the refusals in the dealer's words."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dealer_assist.cli.replay import outcome_json
from dealer_assist.engine.hand import HandReplay, parse_lines, replay
from dealer_assist.errors import DealerAssistError
from dealer_assist.games.guts import GAME
from dealer_assist.games.guts.settle import strength


def start(seats: tuple[int, ...] = (1, 2, 3, 4), **params: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "type": "start", "game": "guts", "seats": list(seats), "button": seats[-1],
        "ante": 100, "pot_in": 0, "max": None, "declare": "in-turn",
        "short": "pay-what-they-have", "smallest_chip": 100,
        "stacks": {str(s): 10000 for s in seats},
    }
    base.update(params)
    return base


def d(kind: str, seat: int) -> dict[str, Any]:
    return {"type": kind, "seat": seat}


def show(seat: int, *cards: str) -> dict[str, Any]:
    return {"type": "show", "seat": seat, "cards": list(cards)}


def play(*lines: dict[str, Any]) -> HandReplay:
    events, numbers = parse_lines([json.dumps(line) for line in lines])
    return replay(events, lines=numbers)


def refused(*lines: dict[str, Any]) -> str:
    with pytest.raises(DealerAssistError) as info:
        play(*lines)
    return str(info.value)


def result(*lines: dict[str, Any]) -> dict[str, Any]:
    return outcome_json(play(*lines))


# -- ruling guts-1: antes only when the pot is empty ------------------------------------------
def test_ruling_guts_1_everyone_antes_when_the_pot_is_empty() -> None:
    out = result(start(), d("out", 1), d("out", 2), d("out", 3), d("out", 4))
    assert out["antes"] == {"1": 100, "2": 100, "3": 100, "4": 100}
    assert out["pot"] == 400 and out["carry"] == 400 and out["payouts"] == {}


def test_ruling_guts_1_a_carried_pot_is_the_stake_and_nobody_antes() -> None:
    hand = play(start(pot_in=1200), d("out", 1), d("out", 2), d("out", 3), d("out", 4))
    out = outcome_json(hand)
    assert out["antes"] == {} and out["pot"] == 1200 and out["carry"] == 1200
    s = hand.settle()
    assert s.carry_in == 1200 and sum(s.put_in.values()) == 0


def test_ruling_guts_1_a_player_short_of_the_ante_antes_what_they_have() -> None:
    out = result(start(ante=300, stacks={"1": 200, "2": 10000, "3": 10000, "4": 10000}),
                 d("out", 1), d("out", 2), d("out", 3), d("out", 4))
    assert out["antes"]["1"] == 200 and out["pot"] == 1100


# -- ruling guts-2: in turn from the dealer's left; nobody in, one in -------------------------
def test_ruling_guts_2_declarations_go_in_turn_from_the_dealers_left() -> None:
    msg = refused(start(button=2), d("in", 1))
    assert "seat 3 declares next (in turn from the dealer's left), not seat 1" in msg
    assert "(ruling guts-2)" in msg


def test_ruling_guts_2_one_player_in_takes_the_pot_unseen() -> None:
    hand = play(start(pot_in=900), d("out", 1), d("in", 2), d("out", 3), d("out", 4))
    out = outcome_json(hand)
    assert out["payouts"] == {"2": 900} and out["carry"] == 0 and out["pays"] == {}
    assert out["shown"] == {}
    assert GAME.secret_seats(hand.state) == frozenset({1, 2, 3, 4})  # nobody showed
    assert "the only player in, unseen (ruling guts-2)" in out["push_steps"][0]["text"]


def test_ruling_guts_2_a_declaration_is_final() -> None:
    msg = refused(start(declare="together"), d("in", 2), d("out", 2))
    assert msg == "line 3: seat 2 has already declared in: a declaration is final (ruling guts-2)"


# -- ruling guts-3: the showdown's order; splits in the smallest chip -------------------------
@pytest.mark.parametrize(("better", "worse"), [
    (("2c", "2d"), ("Ah", "Kd")),  # a pair beats any unpaired hand
    (("9c", "9d"), ("8h", "8s")),  # the higher pair
    (("Ac", "3d"), ("Kh", "Qs")),  # the higher card first
    (("Kc", "9d"), ("Kh", "8s")),  # then the lower
    (("Ac", "2d"), ("Kh", "Qd")),  # aces high
])
def test_ruling_guts_3_hand_order(better: tuple[str, str], worse: tuple[str, str]) -> None:
    out = result(start(seats=(1, 2)), d("in", 1), d("in", 2), show(1, *better),
                 show(2, *worse))
    assert out["winners"] == [1]
    out = result(start(seats=(1, 2)), d("in", 1), d("in", 2), show(1, *worse),
                 show(2, *better))
    assert out["winners"] == [2]


def test_ruling_guts_3_suits_never_count_and_a_tie_splits_the_pot() -> None:
    # pot $5 (five antes) between two equal hands: $2 each, the odd $1 stays; seat 3 lost
    # and pays the whole $5 pot: the next pot is $1 + $5 = $6
    out = result(start(seats=(1, 2, 3, 4, 5)), d("in", 1), d("in", 2), d("in", 3),
                 d("out", 4), d("out", 5), show(1, "Kh", "Qh"), show(2, "Ks", "Qc"),
                 show(3, "Jd", "9d"))
    assert out["winners"] == [1, 2]
    assert out["payouts"] == {"1": 200, "2": 200}
    assert out["left"] == 100 and out["pays"] == {"3": 500} and out["carry"] == 600
    assert out["conserved"] is True


def test_strength_is_pairs_then_high_then_low() -> None:
    from dealer_assist.cards import parse_cards

    assert strength(parse_cards("AhAd")) == (1, 14, 14)
    assert strength(parse_cards("3h8d")) == (0, 8, 3)


# -- ruling guts-4: losers pay the pot, or the maximum ----------------------------------------
def test_ruling_guts_4_each_loser_pays_the_whole_pot_into_the_next() -> None:
    out = result(start(pot_in=700), d("in", 1), d("in", 2), d("in", 3), d("out", 4),
                 show(1, "Ah", "Kd"), show(2, "7c", "7d"), show(3, "Qs", "Js"))
    assert out["payouts"] == {"2": 700}
    assert out["pays"] == {"1": 700, "3": 700} and out["carry"] == 1400


def test_ruling_guts_4_a_split_leaves_part_but_losers_pay_the_whole_pot() -> None:
    # pot $7 carried in, two tie: $3 each, $1 left; the loser pays $7 (the whole pot)
    out = result(start(seats=(1, 2, 3), pot_in=700), d("in", 1), d("in", 2), d("in", 3),
                 show(1, "Th", "Td"), show(2, "Ts", "Tc"), show(3, "Ah", "Kh"))
    assert out["payouts"] == {"1": 300, "2": 300} and out["left"] == 100
    assert out["pays"] == {"3": 700} and out["carry"] == 800


def test_ruling_guts_4_the_tables_maximum_caps_a_payment() -> None:
    out = result(start(seats=(1, 2, 3), pot_in=5000, max=2000), d("in", 1), d("in", 2),
                 d("out", 3), show(1, "5h", "5d"), show(2, "Ah", "Kh"))
    assert out["owed"] == 2000 and out["pays"] == {"2": 2000}
    assert out["payouts"] == {"1": 5000} and out["carry"] == 2000


# -- ruling guts-5: a player who cannot cover what they owe -----------------------------------
def test_ruling_guts_5_a_short_player_pays_what_they_have_and_the_app_says_so() -> None:
    hand = play(start(seats=(1, 2, 3), pot_in=3000, stacks={"1": 10000, "2": 1200, "3": 10000}),
                d("in", 1), d("in", 2), d("out", 3), show(1, "Qh", "Qd"), show(2, "Ah", "Kh"))
    out = outcome_json(hand)
    assert out["pays"] == {"2": 1200} and out["could_not_cover"] == {"2": 3000}
    assert out["carry"] == 1200
    assert GAME.stacks_left(hand.state) == {1: 10000, 2: 0, 3: 10000}
    texts = [p["text"] for p in out["push_steps"]]
    assert ("Seat 2 lost and owes $30: it has only $12, and pays $12 into the next pot "
            "(ruling guts-5)") in texts
    # the prompt warned before seat 2 declared
    before = play(start(seats=(1, 2, 3), pot_in=3000,
                        stacks={"1": 10000, "2": 1200, "3": 10000}), d("in", 1))
    p = GAME.prompt(before.state)
    assert p.message == ("Seat 2 declares in or out (pot $30; a loss costs $30, seat 2 has "
                         "$12 behind)")
    assert p.instructions == ("seat 2: $12 behind, a loss costs $30 (cannot cover it: would "
                              "pay $12, all it has)",)


def test_ruling_guts_5_a_barred_table_refuses_in_and_records_nothing() -> None:
    lines = (start(seats=(1, 2, 3), pot_in=3000, short="barred",
                   stacks={"1": 10000, "2": 1200, "3": 10000}), d("in", 1), d("in", 2))
    msg = refused(*lines)
    assert msg == ("line 3: seat 2 has $12 behind and a loss would cost $30: at this table a "
                   "player who cannot cover the pot may not declare in; seat 2 declares out "
                   "(ruling guts-5)")
    state = play(*lines[:2]).state
    assert state.declared == {1: True}  # nothing of the refused line was recorded
    act = GAME.prompt(state).action("in")
    assert act is not None and not act.enabled and "barred" in act.reason


def test_ruling_guts_5_barred_uses_the_maximum_when_it_is_smaller() -> None:
    # a loss costs the $20 maximum, not the $30 pot: $25 behind covers it
    out = result(start(seats=(1, 2), pot_in=3000, max=2000, short="barred",
                       stacks={"1": 10000, "2": 2500}),
                 d("in", 1), d("in", 2), show(1, "2h", "3d"), show(2, "4h", "5d"))
    assert out["pays"] == {"1": 2000}


# -- ruling guts-6: together, in any order; every player in shows ----------------------------
def test_ruling_guts_6_together_declarations_and_shows_in_any_order() -> None:
    out = result(start(declare="together"), d("in", 3), d("out", 1), d("in", 4), d("out", 2),
                 show(4, "9h", "9d"), show(3, "Ah", "Kh"))
    assert out["declarations"] == {"3": "in", "1": "out", "4": "in", "2": "out"}
    assert out["winners"] == [4] and out["pays"] == {"3": 400}


def test_ruling_guts_6_only_the_players_in_show_and_only_after_everyone_declared() -> None:
    assert refused(start(declare="together"), d("in", 3), show(3, "Ah", "Kh")) == (
        "line 3: no cards are shown before every player has declared (still to declare: "
        "seat 1, 2, 4) (ruling guts-6)")
    assert refused(start(), d("in", 1), d("out", 2), d("in", 3), d("out", 4),
                   show(2, "Ah", "Kh")) == (
        "line 6: seat 2 is out: only the players in show (ruling guts-6)")


def test_a_show_is_two_cards_never_a_card_already_shown() -> None:
    base = (start(seats=(1, 2)), d("in", 1), d("in", 2), show(1, "Ah", "Kh"))
    assert refused(*base, show(2, "Ah", "2c")) == (
        "line 5: Ah is already shown by another seat: seat 2's show cannot hold it")
    assert refused(*base, show(2, "2c")) == (
        "line 5: seat 2 holds two cards: show exactly those, not 1 (ruling guts-2)")
    assert refused(*base, show(2, "2c", "3c"), d("in", 1)).startswith(
        "line 6: the hand is over")


# -- fees ruling: only the chips put in during the hand ---------------------------------------
def test_ruling_fees_a_rake_is_taken_only_from_chips_put_in_this_hand() -> None:
    fee = {"kind": "rake", "percent": "10", "cap": 1000}
    # pot $30 carried in; two losers pay $30 each: $60 put in this hand, rake $6 from the
    # next pot; the winner takes the whole $30
    out = result(start(pot_in=3000, fee=fee), d("in", 1), d("in", 2), d("in", 3),
                 d("out", 4), show(1, "Ah", "Ad"), show(2, "Kh", "Kd"), show(3, "2h", "7d"))
    assert out["fees"] == [{"kind": "rake", "amount": 600, "from": None}]
    assert out["payouts"] == {"1": 3000} and out["carry"] == 5400
    # nobody in and nothing put in: no rake on the carried pot
    out = result(start(pot_in=3000, fee=fee), d("out", 1), d("out", 2), d("out", 3),
                 d("out", 4))
    assert out["fees"] == [] and out["carry"] == 3000


def test_ruling_fees_a_rake_on_antes_won_unseen_comes_out_of_the_push() -> None:
    fee = {"kind": "rake", "percent": "10", "cap": 1000}
    # four $10 antes: $40, rake $4; nobody refills the pot, so it comes out of the push
    out = result(start(ante=1000, fee=fee), d("out", 1), d("in", 2), d("out", 3), d("out", 4))
    assert out["fees"] == [{"kind": "rake", "amount": 400, "from": None}]
    assert out["payouts"] == {"2": 3600} and out["carry"] == 0


# -- several hands in a row: a pot that grows, a capped payment -------------------------------
def test_worked_hands_in_a_row_the_pot_grows_then_a_capped_payment_then_won() -> None:
    stacks = {"1": 10000, "2": 10000, "3": 10000}
    seats = (1, 2, 3)
    # hand 1: $1 antes, pot $3; seats 1 and 2 in, seat 1 wins $3, seat 2 pays $3
    h1 = play(start(seats=seats, max=800, stacks=stacks), d("in", 1), d("in", 2), d("out", 3),
              show(1, "Ah", "Qd"), show(2, "Kh", "Qc"))
    s1 = h1.settle()
    assert s1.payouts == {1: 300, 2: 0, 3: 0} and s1.carry_out == 300
    stacks = {str(k): v + s1.payouts[k] for k, v in GAME.stacks_left(h1.state).items()}
    assert stacks == {"1": 10200, "2": 9600, "3": 9900}
    # hand 2: pot $3 carried, no antes; all three in, seat 3 wins $3, 1 and 2 pay $3 each
    h2 = play(start(seats=seats, button=1, max=800, pot_in=s1.carry_out, stacks=stacks),
              d("in", 2), d("in", 3), d("in", 1), show(1, "4h", "2d"), show(2, "6h", "5d"),
              show(3, "8s", "8c"))
    s2 = h2.settle()
    assert s2.payouts[3] == 300 and s2.carry_out == 600
    stacks = {str(k): v + s2.payouts[k] for k, v in GAME.stacks_left(h2.state).items()}
    assert stacks == {"1": 9900, "2": 9300, "3": 10200}
    # hand 3: pot $6; all in, seat 1 wins; 2 and 3 pay $6: the pot is now $12
    h3 = play(start(seats=seats, button=2, max=800, pot_in=s2.carry_out, stacks=stacks),
              d("in", 3), d("in", 1), d("in", 2), show(1, "Jh", "Jd"), show(2, "6h", "5d"),
              show(3, "Ks", "2c"))
    s3 = h3.settle()
    assert s3.payouts[1] == 600 and s3.carry_out == 1200
    stacks = {str(k): v + s3.payouts[k] for k, v in GAME.stacks_left(h3.state).items()}
    # hand 4: pot $12 over the $8 maximum: the loser pays $8; next pot $8
    h4 = play(start(seats=seats, button=3, max=800, pot_in=s3.carry_out, stacks=stacks),
              d("in", 1), d("in", 2), d("out", 3), show(1, "Ah", "Kh"), show(2, "3s", "3c"))
    out = outcome_json(h4)
    assert out["owed"] == 800 and out["pays"] == {"1": 800} and out["payouts"] == {"2": 1200}
    assert h4.settle().carry_out == 800
    # hand 5: one player in takes the $8 unseen; the pot is empty, so hand 6 antes again
    h5 = play(start(seats=seats, button=1, max=800, pot_in=800, stacks=stacks), d("out", 2),
              d("in", 3), d("out", 1))
    assert h5.settle().payouts[3] == 800 and h5.settle().carry_out == 0
    # chips: every cent put in over the hands is pushed out or is the pot left at the end
    hands = (h1, h2, h3, h4, h5)
    put = sum(sum(h.settle().put_in.values()) for h in hands)
    pushed = sum(sum(h.settle().payouts.values()) for h in hands)
    assert put == 600 + 600 + 1200 + 800 == 3200  # antes and payments
    assert pushed == 300 + 300 + 600 + 1200 + 800 == put  # the pot left at the end is $0


# -- the prompt and the screen -----------------------------------------------------------------
def test_the_prompt_shows_the_pot_and_what_a_loss_costs_before_each_declaration() -> None:
    h = play(start(pot_in=2500, max=1000))
    p = GAME.prompt(h.state)
    assert p.to_act == 1 and [a.kind for a in p.actions] == ["in", "out"]
    assert p.message == ("Seat 1 declares in or out (pot $25; a loss costs $10, seat 1 has "
                         "$100 behind)")
    t = play(start(declare="together"))
    p = GAME.prompt(t.state)
    assert p.message.startswith("Declarations all at once (pot $4; a loss costs $4)")
    assert [(a.kind, a.seat) for a in p.actions][:4] == [("in", 1), ("out", 1), ("in", 2),
                                                        ("out", 2)]


def test_unknown_settings_and_bad_choices_are_refused_by_name() -> None:
    assert "guts does not take blinds" in refused(start(blinds=[100, 200]))
    assert refused(start(declare="loud")) == (
        'line 1: "declare" must be one of in-turn, together, not \'loud\'')
    missing = start()
    del missing["ante"]
    assert 'the start needs "ante"' in refused(missing)
    assert refused(start(), {"type": "fold", "seat": 1}).startswith("line 2: ")


# -- the example hand log and its outcome -----------------------------------------------------
def test_example_split_and_short_matches_its_expected_outcome(
    examples_dir: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from dealer_assist.cli import main

    name = "guts-split-and-short"
    assert main(["replay", "--json", str(examples_dir / f"{name}.jsonl")]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = json.loads((examples_dir / f"{name}.expected.json").read_text())
    assert out == expected
    # pot $9 carried in: seats 1 and 2 tie with king-queen, $4 each, $1 stays; seat 4 owes
    # the whole $9 and pays the $5 it has: the next pot is $6
    assert out["payouts"] == {"1": 400, "2": 400} and out["left"] == 100
    assert out["pays"] == {"4": 500} and out["could_not_cover"] == {"4": 900}
    assert out["carry"] == 600 and out["conserved"] is True

"""Pineapple, Crazy Pineapple and Crazy Pineapple Hi-Lo: worked hands in each structure with
every number written out, and one test per house ruling (RULINGS: Pineapple; Fees)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dealer_assist.cli.replay import outcome_json
from dealer_assist.engine.hand import HandReplay, parse_lines, replay
from dealer_assist.engine.inputs import Amount, Cards
from dealer_assist.errors import DealerAssistError
from dealer_assist.games.pineapple import GAME


def start(**params: Any) -> dict[str, Any]:
    seats = params.pop("seats", [1, 2, 3])
    base: dict[str, Any] = {
        "type": "start", "game": "pineapple", "seats": seats, "variant": "pineapple",
        "structure": "limit", "button": seats[-1], "blinds": [100, 200],
        "small_bet": 200, "big_bet": 400, "cap": 4,
        "stacks": {str(s): 20000 for s in seats},
    }
    base.update(params)
    if base["structure"] != "limit":
        for key in ("small_bet", "big_bet", "cap"):
            base.pop(key, None)
    return base


def a(kind: str, seat: int, **more: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, **more}


def board(*cards: str) -> dict[str, Any]:
    return {"type": "board", "cards": list(cards)}


def show(seat: int, *cards: str) -> dict[str, Any]:
    return {"type": "show", "seat": seat, "cards": list(cards)}


def discard(seat: int) -> dict[str, Any]:
    return {"type": "discard", "seat": seat, "count": 1}


def play(*lines: dict[str, Any]) -> HandReplay:
    events, numbers = parse_lines([json.dumps(line) for line in lines])
    return replay(events, lines=numbers)


def refused(*lines: dict[str, Any]) -> str:
    with pytest.raises(DealerAssistError) as info:
        play(*lines)
    return str(info.value)


# -- worked hands, one per structure -------------------------------------------------------


def test_worked_limit_pineapple_hand_raked_ten_percent_capped_at_4() -> None:
    fee = {"kind": "rake", "percent": "10", "cap": 400}
    hand = play(
        start(fee=fee),
        # blinds: seat 1 $1, seat 2 $2; seat 3 raises to $4, both call: pot $12
        a("raise", 3), a("call", 1), a("call", 2),
        discard(1), discard(2), discard(3),
        board("Ah", "Kd", "7c"),
        a("check", 1), a("bet", 2), a("call", 3), a("fold", 1),  # pot $16
        board("2s"),
        a("bet", 2), a("raise", 3), a("call", 2),  # $4 and $8: pot $32
        board("9h"),
        a("check", 2), a("bet", 3), a("call", 2),  # $4 each: pot $40
        show(3, "As", "Ad"), show(2, "Kh", "Ks"),
    )
    out = outcome_json(hand)
    assert out["put_in"] == {"1": 400, "2": 1800, "3": 1800}
    assert [p["amount"] for p in out["pots"]] == [4000]
    assert out["pots"][0]["winners"] == [3]
    assert out["fees"] == [{"kind": "rake", "amount": 400, "from": None}]
    assert out["payouts"] == {"3": 3600}
    assert out["best_hands"]["3"]["category"] == "three of a kind"
    assert out["returned"] == {"1": 0, "2": 0, "3": 0}
    assert out["carry"] == 0
    assert [(x["seat"], x["type"], x["amount"], x["to"]) for x in out["actions"][:3]] == [
        (3, "raise", 400, 400), (1, "call", 300, 400), (2, "call", 200, 400)]
    assert hand.settle().net() == {1: -400, 2: -1800, 3: 1800}


def test_worked_pot_limit_crazy_hand_with_the_maximum_worked_out() -> None:
    lines = [start(structure="pot-limit", variant="crazy")]
    first = play(*lines)
    p = GAME.prompt(first.state)
    raise_ = p.action("raise")
    assert raise_ is not None and raise_.label == "Raise to $4-$7"
    assert raise_.input == Amount("to", 400, 700)
    assert p.instructions == ("pot is $3: raise to at most $7",)
    assert "over the pot-limit maximum: pot is $3: raise to at most $7" in refused(
        *lines, a("raise", 3, to=800))
    hand = play(
        *lines,
        a("raise", 3, to=700), a("call", 1), a("fold", 2),  # pot $16
        board("Ah", "Kd", "7c"),
        a("check", 1), a("bet", 3, to=1600),  # a pot-sized bet
        a("raise", 1, to=6400), a("call", 3),  # $16 + ($16 + $16 + $16) = $64: pot $144
        discard(1), discard(3),
        board("2s"), a("check", 1), a("check", 3),
        board("9h"),
        a("all-in", 1), a("fold", 3),  # seat 1's $129 left is under the $144 pot: uncalled
    )
    out = outcome_json(hand)
    assert out["put_in"] == {"1": 20000, "2": 200, "3": 7100}
    assert out["returned"] == {"1": 12900, "2": 0, "3": 0}
    assert out["payouts"] == {"1": 27300}
    assert out["pots"][0]["amount"] == 14400
    assert out["actions"][-2] == {"seat": 1, "type": "all-in", "amount": 12900, "to": 12900,
                                  "round": "river"}
    assert hand.settle().net() == {1: 7300, 2: -200, 3: -7100}


def test_worked_no_limit_crazy_hi_lo_hand_side_pot_and_odd_chip_to_the_high_half() -> None:
    hand = play(
        start(structure="no-limit", variant="crazy-hi-lo",
              stacks={"1": 5100, "2": 20000, "3": 20000}),
        a("call", 3), a("all-in", 1), a("call", 2), a("call", 3),  # main pot 3 x $51 = $153
        board("2c", "5d", "9h"),
        a("check", 2), a("check", 3),
        discard(1), discard(2), discard(3),
        board("Kc"), a("bet", 2, to=1000), a("call", 3),  # side pot $20
        board("3s"), a("check", 2), a("check", 3),
        show(1, "Ah", "6d"), show(2, "Kd", "Kh"), show(3, "7s", "8s"),
    )
    out = outcome_json(hand)
    main, side = out["pots"]
    assert (main["amount"], main["high_winners"], main["low_winners"]) == (15300, [2], [1])
    assert main["shares"] == {"2": 7700, "1": 7600}  # the odd $1 chip to the high half
    assert (side["amount"], side["high_winners"], side["low_winners"]) == (2000, [2], [3])
    assert side["shares"] == {"2": 1000, "3": 1000}
    assert side["winners"] == [2, 3]
    assert out["payouts"] == {"1": 7600, "2": 8700, "3": 1000}
    assert out["best_lows"]["1"] == {"cards": ["6d", "5d", "3s", "2c", "Ah"]}
    assert out["best_lows"]["2"] is None
    assert hand.settle().net() == {1: 2500, 2: 2600, 3: -5100}


# -- one test per ruling ---------------------------------------------------------------------


def test_ruling_pineapple_1_short_all_in_does_not_reopen_and_min_raise_is_the_last_full() -> None:
    lines = [start(structure="no-limit", stacks={"1": 20000, "2": 900, "3": 20000}),
             a("raise", 3, to=600)]
    assert "under the minimum: raise to at least $10 (the last full raise is $4)" in refused(
        *lines, a("raise", 1, to=900))
    # seat 2's all-in to $9 is $3 over $6, short of a full raise: seat 3 (who raised) and
    # seat 1 (who called) may only call
    lines += [a("call", 1), a("all-in", 2)]
    assert "not reopened" in refused(*lines, a("raise", 3, to=2000))
    p = GAME.prompt(play(*lines).state)
    assert [x.label for x in p.actions if x.kind != "kill"] == ["Call $3", "Fold"]
    hand = play(*lines, a("call", 3), a("call", 1))
    assert hand.state.phase == "board" and hand.state.bet.pot == 2700


def test_ruling_pineapple_1_limit_cap_of_four_bets_lifted_heads_up() -> None:
    capped = [start(), a("raise", 3), a("raise", 1), a("raise", 2)]  # 4 bets: blind + 3
    assert "capped at 4 bets" in refused(*capped, a("raise", 3))
    heads_up = [start(seats=[1, 2], heads_up_uncapped=True),
                a("raise", 2), a("raise", 1), a("raise", 2), a("raise", 1)]
    assert play(*heads_up).state.bet.bet == 1000


def test_ruling_pineapple_1_antes_instead_of_blinds() -> None:
    hand = play(start(structure="no-limit", blinds=None, ante=100))
    assert hand.state.bet.pot == 300 and hand.state.bet.seat_to_act == 1


def test_ruling_pineapple_2_discard_after_the_betting_and_before_the_board_card() -> None:
    pre = [start(), a("call", 3), a("call", 1)]
    assert "too early" in refused(*pre, discard(1))  # pre-flop betting not over
    closed = [*pre, a("check", 2)]
    hand = play(*closed, discard(2))
    p = GAME.prompt(hand.state)
    assert p.message.startswith("Discards after the pre-flop betting: seats 1, 3 still")
    assert p.instructions == ("seat 1: owes a discard", "seat 2: discarded",
                              "seat 3: owes a discard")
    deal = p.action("board")
    assert deal is not None and not deal.enabled
    assert [x.input for x in p.actions if x.kind == "discard"] == [Cards(1, 1, unseen=True)] * 2
    # every seat still in may be killed (a fouled hand), not only those owing a discard
    kills = {x.seat: x.label for x in p.actions if x.kind == "kill"}
    assert set(kills) == {1, 2, 3} and kills[1] == "Kill seat 1 (no discard)"
    text = refused(*closed, discard(2), board("Ah", "Kd", "7c"))
    assert "seat 1, seat 3 must discard before the flop" in text
    assert "pineapple-2" in text
    assert "already discarded" in refused(*closed, discard(2), discard(2))
    # the dealer kills the hand that will not discard: then the flop comes
    hand = play(*closed, discard(2), discard(3), a("kill", 1, reason="missed discard"),
                board("Ah", "Kd", "7c"))
    assert hand.state.phase == "betting" and 1 not in hand.state.live
    assert outcome_json(hand)["killed"] == {"1": "missed discard"}


def test_ruling_pineapple_2_crazy_discards_after_the_flop_betting() -> None:
    lines = [start(variant="crazy"), a("call", 3), a("call", 1), a("check", 2)]
    assert GAME.prompt(play(*lines).state).action("discard") is None
    assert "too early" in refused(*lines, discard(1))
    lines += [board("Ah", "Kd", "7c"), a("check", 1), a("check", 2), a("check", 3)]
    assert "must discard before the turn" in refused(*lines, board("2s"))
    hand = play(*lines, discard(1), discard(2), discard(3), board("2s"))
    assert dict(hand.state.held) == {1: 2, 2: 2, 3: 2}


def test_ruling_pineapple_2_hole_cards_are_never_typed_a_discard_may_be_shown() -> None:
    lines = [start(), a("call", 3), a("call", 1), a("check", 2)]
    hand = play(*lines, {"type": "discard", "seat": 1, "cards": ["Qs"]})
    assert outcome_json(hand)["discards"] == {"1": ["Qs"]}
    assert "already face up" in refused(*lines, {"type": "discard", "seat": 1, "cards": ["Qs"]},
                                        {"type": "discard", "seat": 2, "cards": ["Qs"]})
    assert "exactly one" in refused(*lines, {"type": "discard", "seat": 1, "count": 2})


def _to_showdown(cards: tuple[str, ...] = ("2c", "3d", "9h", "Kc", "Js"),
                 **params: Any) -> list[dict[str, Any]]:
    crazy = params.get("variant", "pineapple") != "pineapple"
    early = [] if crazy else [discard(1), discard(2), discard(3)]
    late = [discard(2), discard(3)] if crazy else []
    return [start(**params), a("call", 3), a("call", 1), a("check", 2),
            *early, board(*cards[:3]),
            a("check", 1), a("bet", 2), a("call", 3), a("fold", 1), *late,
            board(cards[3]), a("check", 2), a("check", 3), board(cards[4]), a("check", 2),
            a("check", 3)]


def test_ruling_pineapple_3_showdown_order_who_must_show_and_who_may_muck() -> None:
    lines = _to_showdown()
    hand = play(*lines)
    p = GAME.prompt(hand.state)
    assert p.to_act == 2  # river checked through: the first left of the button shows first
    muck = p.action("muck")
    assert muck is not None and not muck.enabled
    assert "must show" in refused(*lines, a("muck", 2))
    assert "seat 2 shows or mucks first" in refused(*lines, show(3, "Ah", "Ad"))
    hand = play(*lines, show(2, "Kd", "Qd"), a("muck", 3))
    assert outcome_json(hand)["payouts"] == {"2": 600 + 400}  # pre-flop $6, flop $2 + $2


def test_ruling_pineapple_3_any_five_of_two_hole_cards_and_the_board() -> None:
    hand = play(*_to_showdown(), show(2, "Ts", "Qh"), show(3, "Ks", "2d"))
    out = outcome_json(hand)
    assert out["best_hands"]["2"]["category"] == "straight"  # both hole cards and three board
    assert out["pots"][0]["winners"] == [2]


def test_ruling_pineapple_3_hi_lo_no_qualifying_low_high_scoops() -> None:
    hand = play(*_to_showdown(variant="crazy-hi-lo"), show(2, "Kd", "Qd"), show(3, "Ks", "Qs"))
    out = outcome_json(hand)
    assert out["best_lows"] == {"2": None, "3": None}
    assert out["pots"][0]["low_winners"] == [] and out["pots"][0]["high_winners"] == [2, 3]


def test_ruling_pineapple_3_hi_lo_halves_may_use_different_cards() -> None:
    hand = play(*_to_showdown(("2c", "3d", "7h", "Kc", "Kd"), variant="crazy-hi-lo"),
                show(2, "Ah", "8h"), show(3, "Ks", "Qs"))
    out = outcome_json(hand)
    pot = out["pots"][0]
    assert (pot["high_winners"], pot["low_winners"], pot["shares"]) == ([3], [2],
                                                                       {"3": 500, "2": 500})
    # seat 2's best high (kings up with its ace and eight) and its low (8-7-3-2-A) differ
    assert out["best_hands"]["2"]["cards"] == ["Kd", "Kc", "Ah", "8h", "7h"]
    assert out["best_lows"]["2"] == {"cards": ["8h", "7h", "3d", "2c", "Ah"]}


def test_ruling_fees_uncalled_chips_returned_unraked_and_a_pot_won_by_a_fold_is_raked() -> None:
    fee = {"kind": "rake", "percent": "10", "cap": 1000, "no_flop_no_drop": True}
    flop = [start(fee=fee, smallest_chip=10), a("call", 3), a("call", 1), a("check", 2),
            discard(1), discard(2), discard(3), board("2c", "3d", "9h")]
    hand = play(*flop, a("bet", 1), a("fold", 2), a("fold", 3))
    out = outcome_json(hand)
    # the uncalled $2 bet goes back unraked; the $6 pot won by the fold is raked 10%
    assert out["returned"]["1"] == 200
    assert out["fees"] == [{"kind": "rake", "amount": 60, "from": None}]
    assert out["payouts"] == {"1": 200 + 540}
    assert hand.settle().net() == {1: 340, 2: -200, 3: -200}


def test_ruling_fees_a_side_pot_won_because_the_others_in_it_folded_is_raked() -> None:
    # Seat 1 is all in for $10; seats 2 and 3 put $20 each into a side pot on the flop; seat 3
    # folds to seat 2's $20 bet on the turn. The side pot's $40 holds seat 3's called chips: it
    # is a win and raked. Only seat 2's uncalled $20 goes back. 5% of $30 + $40 = $3.50, in $1.
    fee = {"kind": "rake", "percent": "5", "cap": 500}
    hand = play(
        start(variant="crazy", structure="no-limit", fee=fee,
              stacks={"1": 1000, "2": 20000, "3": 20000}),
        a("call", 3), a("all-in", 1), a("call", 2), a("call", 3), board("2c", "5d", "9h"),
        a("bet", 2, to=2000), a("call", 3), discard(1), discard(2), discard(3), board("Kc"),
        a("bet", 2, to=2000), a("fold", 3), board("3s"),
        show(1, "Ah", "6d"), show(2, "Kd", "Kh"))
    out = outcome_json(hand)
    assert [p["amount"] for p in out["pots"]] == [3000, 4000]
    assert out["returned"]["2"] == 2000
    assert out["fees"] == [{"kind": "rake", "amount": 300, "from": None}]
    assert out["payouts"] == {"2": 2000 + 7000 - 300}
    assert hand.settle().conserved


def test_ruling_fees_no_flop_no_drop() -> None:
    fee = {"kind": "rake", "percent": "10", "cap": 1000, "no_flop_no_drop": True}
    hand = play(start(fee=fee), a("raise", 3), a("fold", 1), a("fold", 2))
    assert hand.settle().fees == ()
    assert outcome_json(hand)["payouts"] == {"3": 700}


def test_the_demo_spreads_a_table_of_each_structure_and_deals_its_hands_in_it() -> None:
    from dealer_assist.db.demo_plan import demo_kinds, plan_table

    kinds = [k for g, k in demo_kinds() if g == "pineapple"]
    assert [t.settings["params"]["structure"] for t in GAME.demo_tables()] == [
        "limit", "pot-limit", "no-limit"]
    for kind in kinds:
        table = GAME.demo_tables()[kind]
        for planned in plan_table("pineapple", 3, 7, False, kind):
            first = json.loads(planned.bodies[0])
            assert first["structure"] == table.settings["params"]["structure"]
            assert first["variant"] == table.settings["params"]["variant"]
            assert first["blinds"] == [100, 200]


def test_a_forbidden_wager_is_refused_with_its_line_and_the_rule() -> None:
    text = refused(start(structure="pot-limit"), a("raise", 3, to=800))
    assert text == ("line 2: over the pot-limit maximum: pot is $3: raise to at most $7 "
                    "(ruling pineapple-1)")
    assert 'a raise takes no "to"' in refused(start(), a("raise", 3, to=400))
    assert refused(start(), a("call", 1)).startswith(
        "line 2: seat 1 is not to act: it is seat 3's turn")


def test_ruling_pineapple_4_a_dead_hand_keeps_the_side_pot_the_others_folded_out_of() -> None:
    """Regression: a hand killed for its missed discard gave the all-in player a side pot it had
    no chip in. The dead hand gives up the pot it contests (the main pot) only, and the push
    step and the narration cite the ruling."""
    hand = play(
        start(structure="no-limit", seats=[1, 2, 3, 4, 5], button=3,
              stacks={"1": 3200, "2": 13600, "3": 10800, "4": 17600, "5": 700}),
        a("fold", 1), a("call", 2), a("raise", 3, to=4800), a("call", 4),
        a("call", 5),  # seat 5 (the big blind) all-in for $7
        a("raise", 2, to=9600), a("fold", 3), a("fold", 4),  # $48 of seat 2's raise uncalled
        discard(5), a("kill", 2, reason="missed discard"),
    )
    out = outcome_json(hand)
    assert out["returned"]["2"] == 4800
    assert [(p["amount"], p["winners"]) for p in out["pots"]] == [(2800, [5]), (12300, [2])]
    assert out["payouts"] == {"2": 12300 + 4800, "5": 2800}
    assert hand.settle().net() == {1: 0, 2: 7500, 3: -4800, 4: -4800, 5: 2100}
    texts = [p.text for p in hand.settle().steps]
    assert ("Push $123 of the side pot to seat 2: the others in it folded before its hand was "
            "dead (ruling pineapple-4)") in texts
    assert "Push $28 of the main pot to seat 5" in texts
    assert "(ruling pineapple-4)" in hand.steps[-1].lines[0]


def test_ruling_pineapple_5_a_face_down_discard_is_seat_alone() -> None:
    lines = [start(), a("call", 3), a("call", 1), a("check", 2)]
    bare = play(*lines, {"type": "discard", "seat": 1}, {"type": "discard", "seat": 2},
                {"type": "discard", "seat": 3}, board("Ah", "Kd", "7c"))
    counted = play(*lines, discard(1), discard(2), discard(3), board("Ah", "Kd", "7c"))
    assert dict(bare.state.held) == dict(counted.state.held) == {1: 2, 2: 2, 3: 2}
    assert outcome_json(bare)["discards"] == {}
    assert "exactly one" in refused(*lines, {"type": "discard", "seat": 1, "count": 0})


def test_ruling_pineapple_1_antes_and_blinds_together_antes_first_and_dead() -> None:
    hand = play(start(structure="no-limit", blinds=[100, 200], ante=25))
    bet = hand.state.bet
    assert bet.pot == 3 * 25 + 100 + 200
    assert bet.seat_to_act == 3  # left of the big blind (seat 2), as with blinds alone
    assert dict(zip(bet.seats, bet.put_in, strict=True)) == {1: 125, 2: 225, 3: 25}
    # antes count toward no round: the small blind still owes $1 to call
    s = play(start(structure="no-limit", blinds=[100, 200], ante=25), a("call", 3),
             a("fold", 1), a("fold", 2)).settle()
    assert s.conserved and s.put_in == {1: 125, 2: 225, 3: 225} and s.payouts[3] == 575


def test_the_example_hand_log_replays_from_the_cli_as_expected(
    examples_dir: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from dealer_assist.cli import main

    name = "pineapple-crazy-hi-lo-no-limit"
    assert main(["replay", "--json", str(examples_dir / f"{name}.jsonl")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == json.loads((examples_dir / f"{name}.expected.json").read_text())
    assert out["payouts"] == {"1": 7600, "2": 8700, "3": 1000} and out["conserved"]

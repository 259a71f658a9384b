"""Caro Hold 'em: the worked examples and one test per house ruling (RULINGS, Caro Hold 'em)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cli.replay import outcome_json
from dealer_assist.engine.hand import HandReplay, read_log, replay
from dealer_assist.engine.inputs import Cards
from dealer_assist.errors import HandLogError
from dealer_assist.events import event_from_json
from dealer_assist.games.caro_holdem import GAME
from dealer_assist.games.caro_holdem.betting import owed

WAGER_TYPES = ("bet", "call", "raise")


def start(**params: Any) -> dict[str, Any]:
    seats = params.pop("seats", [1, 2, 3])
    base: dict[str, Any] = {
        "type": "start", "game": "caro-holdem", "seats": seats,
        "button": seats[-1], "unit": 1000, "ante": 100,
        "stacks": {str(s): 100000 for s in seats},
    }
    base.update(params)
    if "blinds" in params:
        base.pop("ante", None)
    return base


def play(*lines: dict[str, Any]) -> HandReplay:
    return replay([event_from_json(line) for line in lines])


def act(kind: str, seat: int, **more: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, **more}


def board(*cards: str) -> dict[str, Any]:
    return {"type": "board", "cards": list(cards)}


def checks(*seats: int) -> list[dict[str, Any]]:
    return [act("check", s) for s in seats]


def refused(*lines: dict[str, Any]) -> HandLogError:
    with pytest.raises(HandLogError) as info:
        play(*lines)
    return info.value


def wagers(hand: HandReplay) -> list[list[Any]]:
    report = GAME.report(hand.state)
    return [
        [a["seat"], a["type"], a["amount"], a["cards_held"], a["level"]]
        for a in report["actions"] if a["type"] in WAGER_TYPES
    ]


# --- the worked examples -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["caro-holdem-rulings-8", "caro-holdem-rulings-9"])
def test_ruling_caro_examples_replay_to_the_expected_outcome(
    examples_dir: Path, name: str
) -> None:
    events, lines = read_log(examples_dir / f"{name}.jsonl")
    hand = replay(events, lines=lines)
    expected = json.loads((examples_dir / f"{name}.expected.json").read_text())
    out = outcome_json(hand)
    assert out["over"] is True
    assert out["conserved"] is True
    assert wagers(hand) == expected["wagers (seat, type, amount, cards_held, level)"]
    assert out["payouts"] == expected["payouts"]
    categories = {seat: h["category"] for seat, h in out["best_hands"].items()}
    assert categories == expected["best hand categories"]


def test_ruling_caro_8_bet_four_cards_raise_with_two_call_with_four(examples_dir: Path) -> None:
    events, lines = read_log(examples_dir / "caro-holdem-rulings-8.jsonl")
    hand = replay(events, lines=lines)
    blip = next(s for s in hand.steps if s.number == 15).state
    assert blip.seat(1).round_in == 16000
    assert blip.seat(2).round_in == 8000
    s = hand.settle()
    assert s.put_in == {1: 24100, 2: 16100, 3: 100}
    assert s.payouts == {1: 0, 2: 40300, 3: 0}
    assert [p.text for p in s.steps] == ["Push the pot $403 to seat 2"]
    assert GAME.report(hand.state)["pots"][0]["eligible"] == [1, 2]


def test_ruling_caro_9_at_most_two_private_cards_play(examples_dir: Path) -> None:
    events, lines = read_log(examples_dir / "caro-holdem-rulings-9.jsonl")
    hand = replay(events, lines=lines)
    best = GAME.report(hand.state)["best_hands"]["1"]
    assert best["category"] == "two pair"
    assert best["description"] == "two pair, nines and fours, ace kicker"
    assert sorted(best["cards"]) == sorted(["9c", "9d", "4h", "4c", "As"])


# --- one test per ruling -----------------------------------------------------------------------


def test_ruling_caro_1_round_limits_1_1_2_4_and_the_cap() -> None:
    hand = play(start(seats=[1, 2]), *checks(1, 2))
    cfg = hand.state.settings
    assert [cfg.limit(r) for r in range(4)] == [1000, 1000, 2000, 4000]
    capped = [start(seats=[1, 2, 3]), act("bet", 1), act("raise", 2), act("raise", 3),
              act("raise", 1)]
    err = refused(*capped, act("raise", 2))
    assert err.line == 6
    assert "capped at level 4" in err.reason and "(ruling caro-1)" in err.reason
    # The heads-up option lifts the cap while only two players are in.
    hu = play(start(seats=[1, 2], heads_up_uncapped=True), act("bet", 1), act("raise", 2),
              act("raise", 1), act("raise", 2), act("raise", 1))
    assert hu.state.level == 5
    assert hu.state.seat(1).round_in == 5 * 1000 * 5
    three = [start(seats=[1, 2, 3], heads_up_uncapped=True), act("bet", 1), act("raise", 2),
             act("raise", 3), act("raise", 1)]
    assert "capped" in refused(*three, act("raise", 2)).reason


def test_ruling_caro_2_five_cards_each_and_a_2_1_2_board_after_burns() -> None:
    hand = play(start(seats=[1, 2, 3]), *checks(1, 2, 3))
    assert hand.state.shoe.left == 52 - 15
    assert all(s.held == 5 for s in hand.state.seats)
    err = refused(start(), *checks(1, 2, 3), board("Ah", "Kd", "2c"))
    assert "the flip is 2 cards, not 3" in err.reason and err.line == 5
    hand = play(start(), *checks(1, 2, 3), board("Ah", "Kd"), *checks(1, 2, 3), board("7c"))
    assert hand.state.shoe.burned == 2 and hand.state.shoe.left == 52 - 15 - 2 - 3
    assert [c.code for c in hand.state.board] == ["Ah", "Kd", "7c"]
    assert "reflip" in GAME.prompt(play(start(), *checks(1, 2, 3), board("Ah", "Kd"),
                                        *checks(1, 2, 3), board("7c"), *checks(1, 2, 3))
                                   .state).message
    dup = refused(start(), *checks(1, 2, 3), board("Ah", "Kd"), *checks(1, 2, 3), board("Ah"))
    assert "Ah" in dup.reason


def test_ruling_caro_3_action_order_blinds_antes_and_heads_up() -> None:
    # Antes: pre-flip starts left of the button.
    assert play(start(seats=[1, 2, 3, 4], button=2)).state.to_act == 3
    # Blinds: left of the big blind pre-flip; later rounds left of the button.
    blinds = start(seats=[1, 2, 3, 4], button=2, blinds=[500, 1000])
    hand = play(blinds)
    assert hand.state.to_act == 1
    assert hand.state.seat(3).round_in == 500 and hand.state.seat(4).round_in == 1000
    # Heads-up: the button posts the small blind, acts first pre-flip and last after it.
    hu = start(seats=[1, 2], button=2, blinds=[500, 1000])
    hand = play(hu)
    assert hand.state.seat(2).round_in == 500 and hand.state.seat(1).round_in == 1000
    assert hand.state.to_act == 2
    hand = play(hu, act("discard", 2, count=4), act("call", 2), act("discard", 1, count=4),
                act("call", 1), board("Ah", "Kd"))
    assert hand.state.to_act == 1
    err = refused(hu, act("call", 1))
    assert "out of turn: seat 2 is to act" in err.reason and "(ruling caro-3)" in err.reason
    # Later rounds start with the first active player left of the button (folded skipped).
    hand = play(start(seats=[1, 2, 3], button=3), act("fold", 1), *checks(2, 3),
                board("Ah", "Kd"))
    assert hand.state.to_act == 2


def test_ruling_caro_4_owed_is_level_times_limit_times_cards_less_what_is_in() -> None:
    hand = play(start(seats=[1, 2, 3], button=3, blinds=[500, 1000]))
    state = hand.state
    # Blinds count as put in and the round starts at level 1.
    assert state.level == 1
    assert owed(state, state.seat(3)) == 5000
    assert owed(state, state.seat(3), 2) == 2000
    assert owed(state, state.seat(1)) == 4500
    assert owed(state, state.seat(2), 1) == 0
    prompt = GAME.prompt(state)
    assert prompt.message.startswith("Seat 3 to act: holds 5 cards, owes $50 to call")
    assert "keep 2: call $20, raise to $40" in prompt.instructions
    call = prompt.action("call")
    assert call is not None and call.amount == 5000
    assert [(o.keep, o.amount) for o in call.options] == [
        (1, 1000), (2, 2000), (3, 3000), (4, 4000), (5, 5000)
    ]
    # Antes are dead money: they count toward no round's obligation.
    antes = play(start(ante=500), act("bet", 1))
    assert antes.state.seat(1).round_in == 5000
    assert antes.state.seat(1).hand_in == 5500
    assert owed(antes.state, antes.state.seat(2)) == 5000


def test_ruling_caro_5_discards_face_up_only_before_a_wager_and_never_refunded() -> None:
    base = [start(), act("bet", 1)]
    err = refused(start(), act("discard", 1, cards=["3d"]), act("check", 1))
    assert err.line == 3 and "never before a check" in err.reason
    assert "(ruling caro-5)" in err.reason
    err = refused(*base, act("discard", 2, cards=["3d", "4d", "5d", "6d", "7d"]))
    assert "must keep at least one" in err.reason and err.line == 3
    # Seat 1 bet with 5 cards ($50); seat 2 raises with 2 cards ($40 total).
    hand = play(*base, act("discard", 2, cards=["3d", "4d", "5d"]), act("raise", 2),
                act("fold", 3), act("discard", 1, cards=["2c", "2d", "2h", "2s"]),
                act("call", 1))
    s1 = hand.state
    assert s1.phase == "board"
    # Seat 1 owed 2 x $10 x 1 = $20 total but had $50 in: a call of 0, nothing refunded.
    assert [a for a in GAME.report(s1)["actions"] if a["seat"] == 1][-1]["amount"] == 0
    assert s1.seat(1).hand_in == 5100 and s1.seat(1).held == 1
    assert [c.code for c in s1.seat(1).discards] == ["2c", "2d", "2h", "2s"]
    # A discarded card is face up: it cannot come on the board or be shown.
    err = refused(*base, act("discard", 2, cards=["3d", "4d", "5d"]), act("raise", 2),
                  act("fold", 3), act("call", 1), board("3d", "Ah"))
    assert "3d is already face up" in err.reason
    # A call owing nothing without a discard is a check.
    assert "that is a check" in refused(
        start(seats=[1, 2], button=2, blinds=[500, 5000]), act("call", 2), act("call", 1)
    ).reason


def test_ruling_caro_6_all_in_keeps_every_card_and_side_pots_only_from_all_ins() -> None:
    lines = [
        start(seats=[1, 2, 3], button=3,
              stacks={"1": 3100, "2": 100000, "3": 100000}),
        act("check", 1),
        act("discard", 2, cards=["3c", "3d", "8h", "8c"]),
        act("bet", 2),
        act("call", 3),
        act("call", 1),
    ]
    hand = play(*lines)
    s = hand.state
    assert s.seat(1).all_in and s.seat(1).held == 5 and s.seat(1).hand_in == 3100
    assert [a["amount"] for a in GAME.report(s)["actions"][-3:]] == [1000, 5000, 3000]
    pots = GAME.report(s)["pots"]
    assert [(p["amount"], p["eligible"]) for p in pots] == [(7300, [1, 2, 3]), (2000, [2, 3])]
    rest = [board("Jc", "7d"), *checks(2, 3), board("9h"), *checks(2, 3), board("Js", "4c"),
            *checks(2, 3), act("show", 1, cards=["As", "Ad", "3h", "5s", "8d"])]
    # Seat 2 put in $11 holding one card, yet contests all of seat 3's $51.
    won = play(*lines, *rest, act("show", 2, cards=["Jd"]),
               act("show", 3, cards=["Qc", "Qd", "6s", "6d", "Th"]))
    assert won.settle().payouts == {1: 0, 2: 9300, 3: 0}
    split = play(*lines, *rest, act("show", 2, cards=["Kd"]),
                 act("show", 3, cards=["Qc", "Qd", "6s", "6d", "Th"]))
    settled = split.settle()
    assert settled.payouts == {1: 7300, 2: 0, 3: 2000}
    assert [p.text for p in settled.steps] == [
        "Push the main pot $73 to seat 1",
        "Push the side pot $20 to seat 3",
    ]
    # No partial raises: a player short of a full raise may only call.
    short = [start(seats=[1, 2, 3], stacks={"1": 100000, "2": 1600, "3": 100000}),
             act("discard", 1, count=4), act("bet", 1), act("discard", 2, count=4)]
    err = refused(*short, act("raise", 2))
    assert "no partial raises" in err.reason and "(ruling caro-6)" in err.reason
    called = play(*short, act("call", 2))
    assert called.state.seat(2).round_in == 1000 and not called.state.seat(2).all_in


def test_ruling_caro_6_money_only_one_player_can_win_returns_to_them() -> None:
    lines = [
        start(seats=[1, 2], button=2, stacks={"1": 2100, "2": 100000}),
        act("discard", 1, count=3), act("bet", 1), act("call", 2),
    ]
    # Seat 1 bets all-in with 2 cards ($20); seat 2 calls with 5 cards ($50).
    hand = play(*lines, board("2c", "7d"), board("9h"), board("Js", "4c"),
                act("show", 1, cards=["As", "Ad"]),
                act("show", 2, cards=["Kd", "Kc", "3h", "5s", "8d"]))
    s = hand.settle()
    assert s.put_in == {1: 2100, 2: 5100}
    assert s.payouts == {1: 4200, 2: 3000}
    assert s.steps[-1].text == (
        "Return $30 uncalled to seat 2: more than any other player put in over the hand, "
        "so nobody could win it"
    )


def test_ruling_caro_7_cards_speak_split_in_the_smallest_chip_odd_chip_left_of_button() -> None:
    def hand(button: int, chip: int = 100) -> HandReplay:
        return play(
            start(seats=[1, 2, 3], button=button, smallest_chip=chip),
            *[act("fold", s) if s == 3 else act("check", s)
              for s in ([1, 2, 3] if button == 3 else [2, 3, 1])],
            board("Ah", "Kh"), *checks(*((1, 2) if button == 3 else (2, 1))), board("Qd"),
            *checks(*((1, 2) if button == 3 else (2, 1))), board("Jc", "Ts"),
            *checks(*((1, 2) if button == 3 else (2, 1))),
            act("show", 1, cards=["2c", "3c", "4d", "5d", "7s"]),
            act("show", 2, cards=["2d", "3d", "4c", "5c", "8s"]),
        )

    s = hand(3).settle()
    assert s.payouts == {1: 200, 2: 100, 3: 0}
    assert [p.text for p in s.steps] == [
        "Split the pot $3 between seats 1, 2",
        "  Push $2 to seat 1 (with the odd chip)",
        "  Push $1 to seat 2",
    ]
    assert hand(1).settle().payouts == {1: 100, 2: 200, 3: 0}
    assert hand(3, chip=50).settle().payouts == {1: 150, 2: 150, 3: 0}
    best = GAME.report(hand(3).state)["best_hands"]
    assert best["1"]["category"] == best["2"]["category"] == "straight"


def test_rule_fold_wins_uncontested_without_a_show() -> None:
    hand = play(start(), act("bet", 1), act("fold", 2), act("fold", 3))
    assert hand.over
    s = hand.settle()
    assert s.payouts == {1: 5300, 2: 0, 3: 0}
    assert GAME.report(hand.state)["best_hands"] == {}
    assert "wins uncontested" in hand.steps[-1].lines[-1]


def test_rule_show_must_match_the_cards_held_and_known_cards() -> None:
    end = [start(seats=[1, 2]), *checks(1, 2), board("Ah", "Kd"), *checks(1, 2), board("7c"),
           *checks(1, 2), board("2s", "9h"), *checks(1, 2)]
    err = refused(*end, act("show", 1, cards=["Qc", "Qd"]))
    assert "holds 5 cards" in err.reason
    err = refused(*end, act("show", 1, cards=["Qc", "Qd", "Ah", "3c", "4c"]))
    assert "Ah is already face up" in err.reason
    early = refused(start(seats=[1, 2]), act("show", 1, cards=["Qc", "Qd", "2c", "3c", "4c"]))
    assert "before the showdown" in early.reason
    mucked = play(*end, act("fold", 1))
    assert mucked.over and mucked.settle().payouts == {1: 0, 2: 200}


def test_rule_fee_rake_comes_out_of_the_pot_and_no_flip_no_drop() -> None:
    fee = {"kind": "rake", "percent": "10", "cap": 300}
    hand = play(start(fee=fee), act("bet", 1), act("fold", 2), act("fold", 3))
    s = hand.settle()
    assert sum(f.amount for f in s.fees) == 0 and s.payouts[1] == 5300
    # The fees ruling: the uncalled $50 bet is not raked, so 10% of the $3 of antes is less
    # than the $1 chip (this hand used to be raked $3 on $53).
    flip = play(start(fee=fee), *checks(1, 2, 3), board("Ah", "Kd"), act("bet", 1),
                act("fold", 2), act("fold", 3))
    s = flip.settle()
    assert s.fees == () and s.payouts[1] == 5300 and s.conserved
    called = play(start(fee=fee), *checks(1, 2, 3), board("Ah", "Kd"), act("bet", 1),
                  act("call", 2), act("fold", 3), board("7c"), act("bet", 1), act("fold", 2))
    s = called.settle()
    assert [(f.kind, f.amount, f.note) for f in s.fees] == [
        ("rake", 300, "10% of $103, capped at $3")
    ]
    assert s.payouts[1] == 300 + 5000 + 5000 - 300 + 10000 and s.conserved
    assert s.steps[0].text == "Drop $3 rake"
    assert GAME.report(called.state)["rake"] == 300


def test_rule_pre_deal_fee_is_added_to_put_in() -> None:
    fee = {"kind": "per-player", "amount": 200}
    hand = play(start(fee=fee), act("bet", 1), act("fold", 2), act("fold", 3))
    s = hand.settle()
    assert s.put_in == {1: 5300, 2: 300, 3: 300}
    assert s.conserved and hand.state.seat(1).stack == 100000 - 200 - 5100


def test_rule_prompt_board_and_showdown_needs() -> None:
    hand = play(start(), *checks(1, 2, 3))
    p = GAME.prompt(hand.state)
    board_action = p.action("board")
    assert board_action is not None and board_action.input == Cards(2, 2)
    assert p.message.startswith("Burn one and deal the flip")
    hand = play(start(), *checks(1, 2, 3), board("Ah", "Kd"), *checks(1, 2, 3))
    blip = GAME.prompt(hand.state).action("board")
    assert blip is not None and blip.input == Cards(1, 1)


def test_rule_view_shows_held_counts_discards_and_pots() -> None:
    hand = play(start(), act("discard", 1, cards=["3d", "4d"]), act("bet", 1))
    view = GAME.view(hand.state)
    one = view.seats[0]
    assert one.cards == ("3d", "4d") and one.hidden == 3 and one.put_in == 3100
    assert view.seats[1].status == "to act" and view.button == 3
    assert view.pots == (("Main pot", 3300),)


def test_rule_a_voided_discard_lets_the_player_check() -> None:
    hand = play(start(), act("discard", 1, cards=["3d"]), {"type": "void", "target": 2,
                "reason": "player checked"}, act("check", 1))
    s1 = hand.state.seat(1)
    assert s1.held == 5 and s1.discards == () and hand.state.to_act == 2


def test_rule_unseen_discard_counts_cards_only() -> None:
    hand = play(start(), act("discard", 1, count=3), act("bet", 1))
    s1 = hand.state.seat(1)
    assert s1.held == 2 and s1.unseen_discards == 3 and s1.round_in == 2000
    assert "discards 3 cards unseen: keeps 2 cards" in hand.steps[1].lines[0]
    assert "count 2" in refused(start(), act("discard", 1, cards=["3d"], count=2)).reason


def test_rule_narration_names_amount_cards_level_and_pots() -> None:
    hand = play(start(), act("discard", 1, cards=["3d", "4d"]), act("bet", 1), act("call", 2),
                act("fold", 3))
    lines = [line for step in hand.steps for line in step.lines]
    assert "Seat 1 discards 3d 4d face up: keeps 3 cards" in lines
    assert "Seat 1 bets $30 holding 3 cards (pre-flip, level 1, $30 in this round)" in lines
    assert "Seat 2 calls $50 holding 5 cards (pre-flip, level 1, $50 in this round)" in lines
    assert "Pre-flip betting over; pot $83" in lines


def test_rule_sample_hands_replay_and_settle() -> None:
    import random

    for seed in range(20):
        events = GAME.sample_hand(random.Random(seed), players=2 + seed % 7)
        hand = replay(events)
        assert hand.over and hand.settle().conserved


def test_ruling_caro_6_last_player_covering_every_all_in_is_not_asked_to_act() -> None:
    """Anything more the big blind put in could only come back to them, so they do not act."""
    hu = start(seats=[3, 4], button=3, blinds=[500, 1000], stacks={"3": 800, "4": 81800})
    hand = play(hu, act("discard", 3, count=3), act("call", 3))
    assert hand.state.seat(3).all_in and hand.state.seat(3).round_in == 800
    assert hand.state.phase == "board"
    # Short of the all-in, the last player must still call or fold.
    short = start(seats=[3, 4], button=3, blinds=[500, 1000], stacks={"3": 100000, "4": 700})
    hand = play(short)
    assert hand.state.seat(4).all_in and hand.state.to_act == 3
    assert GAME.prompt(hand.state).message.startswith("Seat 3 to act: holds 5 cards, owes $45")
    raise_ = GAME.prompt(hand.state).action("raise")
    assert raise_ is not None and not raise_.enabled and "all-in" in raise_.reason


def test_rule_prompt_enables_what_the_cards_held_allow_and_prices_the_rest() -> None:
    # Seat 1 has $30 behind after the ante: a bet with 5 cards ($50) needs a discard first.
    hand = play(start(stacks={"1": 3100, "2": 100000, "3": 100000}))
    bet = GAME.prompt(hand.state).action("bet")
    assert bet is not None and not bet.enabled
    assert bet.reason == "discard first (keep 1: bet $10, keep 2: bet $20, keep 3: bet $30 all-in)"
    assert [(o.keep, o.amount) for o in bet.options] == [(1, 1000), (2, 2000), (3, 3000)]
    hand = play(start(stacks={"1": 3100, "2": 100000, "3": 100000}), act("discard", 1, count=2))
    bet = GAME.prompt(hand.state).action("bet")
    assert bet is not None and bet.enabled and bet.label == "Bet $30" and bet.amount == 3000
    check = GAME.prompt(hand.state).action("check")
    assert check is not None and not check.enabled


def test_regression_sample_hands_at_a_table_seat_only_its_seats() -> None:
    """A six-seat table's sample hands (the dossier's, the demo's) drew seats 7 and 8."""
    import random

    for seed in range(20):
        events = GAME.sample_hand(random.Random(seed), players=6,
                                  params={"unit": 1000, "ante": 100, "smallest_chip": 100})
        assert list(events[0].seats) == [1, 2, 3, 4, 5, 6]  # type: ignore[attr-defined]

"""Markets poker: the rule text's auction example inside a whole hand with every number written
out, one test per house ruling (RULINGS: Markets poker), the refusals in the dealer's words, the
draw for leftover chips reproducible from the log, and what carries from hand to hand."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from dealer_assist.cli.replay import outcome_json
from dealer_assist.engine.build import build_event
from dealer_assist.engine.hand import HandReplay, parse_lines, replay
from dealer_assist.engine.inputs import Amount, Drawn
from dealer_assist.errors import DealerAssistError
from dealer_assist.games.markets import GAME

EXAMPLE = "markets-auction-three-players"


def start(seats: tuple[int, ...] = (1, 2, 3), dealer: int = 3, chips: int = 20,
          **params: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "start", "game": "markets", "seats": list(seats),
                           "dealer": dealer, "chip": 100,
                           "stacks": {str(s): chips * 100 for s in seats}}
    out.update(params)
    return out


def a(kind: str, seat: int | None = None, **more: Any) -> dict[str, Any]:
    return {"type": kind, **({} if seat is None else {"seat": seat}), **more}


def card(kind: str, seat: int | None, c: str) -> dict[str, Any]:
    return a(kind, seat, card=c)


def show(seat: int, *cards: str) -> dict[str, Any]:
    return {"type": "show", "seat": seat, "cards": list(cards)}


def play(*lines: dict[str, Any]) -> HandReplay:
    events, numbers = parse_lines([json.dumps(line) for line in lines])
    return replay(events, lines=numbers)


def refused(*lines: dict[str, Any]) -> str:
    with pytest.raises(DealerAssistError) as info:
        play(*lines)
    return str(info.value)


def deal(advantage: dict[int, str] | None, disclose: dict[int, str], supplier: str = "9c",
         first: str = "3c") -> list[dict[str, Any]]:
    """The deal up to the first betting round: advantage cards (first hand of a game), the
    disclosures, the supplier and the first externality."""
    out = [card("advantage", s, c) for s, c in (advantage or {}).items()]
    out += [card("disclose", s, c) for s, c in disclose.items()]
    return [*out, card("supplier", None, supplier), card("externality", None, first)]


def checked(seats: tuple[int, ...] = (1, 2, 3)) -> list[dict[str, Any]]:
    return [a("check", s) for s in seats]


def no_sale(seats: tuple[int, ...] = (1, 2, 3)) -> list[dict[str, Any]]:
    return [a("withdraw", s) for s in seats]


# -- the rule text's auction example, inside a whole hand --------------------------------


def test_the_rule_texts_auction_example_three_players_four_chips_one_each_one_to_the_pot(
    examples_dir: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """Three players, the supplier sold for 4 chips: one chip to each player (the buyer too),
    one to the pot. Antes 2 (seat 1, left of the dealer) + 1 + 2 (the dealer, seat 3) = 5;
    first round 4 each = 12; second round 1 each = 3; the auction's chip: a pot of 21, the
    leader's half 11 (the odd chip), the niche's half 10."""
    from dealer_assist.cli import main

    assert main(["replay", "--json", str(examples_dir / f"{EXAMPLE}.jsonl")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == json.loads((examples_dir / f"{EXAMPLE}.expected.json").read_text())
    assert out["auction"]["buyer"] == 1 and out["auction"]["price"] == 400
    assert out["auction"]["shares"] == {"1": 100, "2": 100, "3": 100}
    assert out["auction"]["remainder"] == 100
    assert out["leader"]["seats"] == [1] and out["leader"]["half"] == 1100
    assert out["leader"]["best_hands"]["1"]["description"] == "four of a kind, kings, ace kicker"
    assert out["niche"]["seats"] == [2] and out["niche"]["half"] == 1000
    assert out["niche"]["points"] == {"1": 35, "2": 64, "3": 43}
    assert out["payouts"] == {"1": 1200, "2": 1100, "3": 100}
    # seat 1: 20 - 2 - 4 - 1 - 4 (the price) + 1 (its share) + 11 = 21 chips
    assert out["stacks_after"] == {"1": 2100, "2": 2500, "3": 1400}
    assert out["game_over"] is False and out["carry"] == {"advantage": {}}
    assert out["conserved"] is True


# -- ruling 1: players, stacks, antes, the end of a game ---------------------------------


def test_ruling_markets_1_antes_two_chips_for_the_dealer_and_the_left_one_for_the_others() -> None:
    hand = play(start(seats=(1, 2, 3, 4, 5), dealer=2, advantage={}))
    assert GAME.contributions(hand.state) == {1: 100, 2: 200, 3: 200, 4: 100, 5: 100}


def test_ruling_markets_1_three_to_five_players_in_whole_chips_of_at_least_twelve() -> None:
    assert "3 to 5 players, not 2" in refused(start(seats=(1, 2)))
    assert "3 to 5 players, not 6" in refused(start(seats=(1, 2, 3, 4, 5, 6)))
    text = refused(start(stacks={"1": 2000, "2": 1150, "3": 2000}))
    assert "seat 2's stack of $11.50 is not a whole number of $1 chips" in text
    text = refused(start(stacks={"1": 2000, "2": 1100, "3": 2000}))
    assert ("seat 2 has 11 chips: a Markets poker game needs at least 12 chips each (below "
            "that the game is over); top the stack up or leave the seat out") in text
    # the chip defaults to the table's smallest chip
    hand = play({**start(), "chip": 25, "stacks": {"1": 300, "2": 300, "3": 300},
                 "advantage": {}})
    assert GAME.contributions(hand.state) == {1: 50, 2: 25, 3: 50}
    no_chip = {k: v for k, v in start(advantage={}).items() if k != "chip"}
    hand = play({**no_chip, "smallest_chip": 500, "stacks": {"1": 6000, "2": 6000, "3": 6000}})
    assert hand.state.chip == 500


def _short_hand() -> HandReplay:
    """Seat 2 starts with 13 chips, puts in 1 + 5 + 5 and wins nothing: it ends with 2."""
    return play(
        start(stacks={"1": 3000, "2": 1300, "3": 3000}, advantage={}),
        *deal(None, {1: "Ah", 2: "2h", 3: "Kc"}),
        a("bet", 1, to=5), a("call", 2), a("call", 3),
        card("externality", None, "4d"),
        a("bet", 1, to=5), a("call", 2), a("call", 3),
        *no_sale(),
        show(1, "Ah", "As", "Ad", "Kd", "Ks"),   # full house, aces: the leader
        show(2, "2h", "3s", "4s", "5s", "7c"),   # 15 + 3 + 4 + 5 + 7 = 34
        show(3, "Kc", "Qc", "Jc", "2s", "2d"),   # 10 + 10 + 10 + 15 + 15 = 60: the niche
    )


def test_ruling_markets_1_the_game_is_over_when_anyone_ends_a_hand_below_twelve_chips() -> None:
    hand = _short_hand()
    out = outcome_json(hand)
    # pot 5 + 15 + 15 = 35: leader 18, niche 17
    assert out["payouts"] == {"1": 1800, "3": 1700}
    assert out["stacks_after"] == {"1": 3600, "2": 200, "3": 3500}
    assert out["game_over"] is True and out["carry"] == {}
    assert GAME.game_over(hand.state) and GAME.next_hand(hand.state) == {}
    assert "Game over: seat 2 ended below 12 chips; the next hand starts a new game" in (
        GAME.prompt(hand.state).instructions)
    sheet = GAME.score_sheet([hand.state])
    assert sheet is not None
    assert sheet.rows == (("1", "36", "2", "35"),)
    assert sheet.lines[0] == "standings: seat 1 36 chips, seat 3 35 chips, seat 2 2 chips"
    assert sheet.lines[1].startswith("game over: seat 2 ended below 12 chips")


# -- ruling 2: advantage cards -------------------------------------------------------------


def test_ruling_markets_2_everyone_gets_one_on_the_first_hand_only() -> None:
    first = play(start(), card("advantage", 1, "Kh"))
    assert GAME.prompt(first.state).message == "Deal seat 2 its advantage card face up"
    text = refused(start(), card("disclose", 1, "Kh"))
    assert '"disclose" is not next: deal seat 1 its advantage card face up' in text
    later = refused(start(advantage={"2": "7h"}), card("advantage", 1, "Kh"))
    assert ("an advantage card is dealt only on the first hand of a game; later only a player "
            "who folded the last hand has one, carried in") in later
    # a carried card is face up at the table: nobody else can be dealt it
    assert "7h is already out in this hand" in refused(
        start(advantage={"2": "7h"}), card("disclose", 1, "7h"))


def _folds_out() -> HandReplay:
    """Seats 2 and 3 fold: play stops at once, seat 1 takes the pot; the folded players still
    choose their advantage card for the next hand."""
    return play(
        start(advantage={"3": "Qd"}),
        *deal(None, {1: "Ah", 2: "7d", 3: "Qc"}),
        a("bet", 1, to=3), a("fold", 2), a("fold", 3),
        card("choose", 2, "7d"), card("choose", 3, "5s"),
    )


def test_ruling_markets_2_the_folded_players_choose_and_the_next_hand_carries_them() -> None:
    hand = _folds_out()
    assert hand.over
    out = outcome_json(hand)
    # antes 2 + 1 + 2 = 5 chips to seat 1, with its 3 chips nobody called: 8 chips pushed
    assert out["payouts"] == {"1": 800}
    assert out["carry"] == {"advantage": {"2": "7d", "3": "5s"}}
    assert GAME.next_hand(hand.state) == {"advantage": {"2": "7d", "3": "5s"}}
    # seat 3 leaves: the others keep theirs; the game goes on
    assert GAME.next_hand_seats(hand.state, (1, 2, 4)) == {"advantage": {"2": "7d"}}
    assert "only a player who folded chooses" in refused(
        *_folds_lines()[:-2], card("choose", 1, "Ah"))
    assert "Qd is already out in this hand" in refused(
        *_folds_lines()[:-1], card("choose", 3, "Qd"))  # (its own advantage card is not product)
    assert "Qc is already out" not in json.dumps(outcome_json(play(
        *_folds_lines()[:-1], card("choose", 3, "Qc"))))  # its own disclosure it may keep


def _folds_lines() -> list[dict[str, Any]]:
    return [start(advantage={"3": "Qd"}), *deal(None, {1: "Ah", 2: "7d", 3: "Qc"}),
            a("bet", 1, to=3), a("fold", 2), a("fold", 3), card("choose", 2, "7d"),
            card("choose", 3, "5s")]


def test_ruling_markets_2_the_next_start_writes_advantage_even_when_nobody_folded(
    examples_dir: Any,
) -> None:
    lines = (examples_dir / f"{EXAMPLE}.jsonl").read_text().splitlines()
    hand = play(*[json.loads(x) for x in lines])
    assert GAME.next_hand(hand.state) == {"advantage": {}}
    again = play(start(advantage={}))
    assert GAME.prompt(again.state).message.startswith("Deal the products: seat 1's disclosure")


# -- ruling 3: the deal, the betting rounds, the cap ---------------------------------------


def test_ruling_markets_3_a_players_total_in_one_round_is_at_most_five_chips() -> None:
    lines = [start(advantage={}), *deal(None, {1: "Ah", 2: "7d", 3: "Qc"})]
    hand = play(*lines)
    bet = hand.state and GAME.prompt(hand.state).action("bet")
    assert bet is not None and bet.input == Amount("to", 1, 5, money=False)
    assert bet.label == "Bet 1-5 chips"
    text = refused(*lines, a("bet", 1, to=6))
    assert "a player's total in one betting round is at most $5" in text
    text = refused(*lines, a("bet", 1, to=5), a("raise", 2, to=6))
    assert "seat 2 can call or fold" in text
    # the second round opens left of the dealer again, with its own five chips
    hand = play(*lines, a("bet", 1, to=5), a("call", 2), a("call", 3),
                card("externality", None, "4d"))
    assert hand.state.bet.seat_to_act == 1
    assert "Bet 1-5 chips" in [x.label for x in GAME.prompt(hand.state).actions]
    text = refused(*lines, a("check", 1), card("externality", None, "4d"))
    assert "the betting round is not over: seat 2 is to act in the betting" in text
    text = refused(*lines, a("bet", 1))
    assert 'say how many chips: a bet gives "to"' in text


def test_ruling_markets_3_folded_players_keep_their_cards_and_do_not_show() -> None:
    lines = [start(advantage={}), *deal(None, {1: "Ah", 2: "7d", 3: "Qc"}),
             a("fold", 1), a("check", 2), a("check", 3), card("externality", None, "4d"),
             a("check", 2), a("check", 3), a("withdraw", 2), a("withdraw", 3)]
    assert "seat 1 folded: a folded player keeps its cards and does not show" in refused(
        *lines, show(1, "Ah", "Ks", "Kd", "2c", "2d"))
    view = GAME.view(play(*lines).state)
    folded = next(s for s in view.seats if s.seat == 1)
    assert folded.face_down and folded.status == "folded" and folded.cards == ("Ah",)


# -- ruling 4: the supplier auction --------------------------------------------------------


def _to_auction(seats: tuple[int, ...] = (1, 2, 3)) -> list[dict[str, Any]]:
    disclose = dict(zip(seats, ("Ah", "7d", "Qc", "Jd", "8h"), strict=False))
    return [start(seats=seats, dealer=seats[-1], advantage={}), *deal(None, disclose),
            *checked(seats), card("externality", None, "4d"), *checked(seats)]


def test_ruling_markets_4_the_auction_goes_clockwise_from_the_dealers_left() -> None:
    hand = play(*_to_auction())
    p = GAME.prompt(hand.state)
    assert p.phase == "auction" and p.to_act == 1
    assert p.message == ("Supplier auction: seat 1 bids at least 1 chip or withdraws (a "
                         "withdrawal is final)")
    assert p.instructions == ("Supplier 9c: no bid yet (the smallest bid is 1 chip)",
                              "may still bid: seat 1, seat 2, seat 3")
    assert "seat 1 is next, not seat 2" in refused(*_to_auction(), a("bid", 2, chips=1))
    hand = play(*_to_auction(), a("bid", 1, chips=2), a("withdraw", 2))
    p = GAME.prompt(hand.state)
    assert p.to_act == 3 and p.instructions == (
        "Supplier 9c: seat 1 bids 2 chips", "may still bid: seat 1, seat 3", "withdrawn: seat 2")
    assert p.action("bid") is not None and p.action("bid").input.low == 3  # type: ignore[union-attr]


def test_ruling_markets_4_each_bid_higher_withdrawals_final_only_players_still_in() -> None:
    assert "the smallest bid is 1 chip: bid at least 1 chip" in refused(
        *_to_auction(), a("bid", 1, chips=0))
    assert "seat 1 bid 2 chips: bid at least 3 chips, or withdraw" in refused(
        *_to_auction(), a("bid", 1, chips=2), a("bid", 2, chips=2))
    assert "seat 2 has withdrawn from the auction: a withdrawal is final" in refused(
        *_to_auction(), a("bid", 1, chips=1), a("withdraw", 2), a("bid", 3, chips=2),
        a("bid", 2, chips=3))
    # each seat has 20 - 2 (or 1) antes behind: 18 for seat 1
    assert "seat 1 has 18 chips behind: it cannot bid 19 chips" in refused(
        *_to_auction(), a("bid", 1, chips=19))
    lines = [start(advantage={}), *deal(None, {1: "Ah", 2: "7d", 3: "Qc"}), a("fold", 1),
             *checked((2, 3)), card("externality", None, "4d"), *checked((2, 3))]
    assert "seat 1 folded: only players still in bid for the supplier" in refused(
        *lines, a("bid", 1, chips=1))
    assert "the betting is over: the supplier auction is on" in refused(
        *_to_auction(), a("check", 1))


def test_ruling_markets_4_no_bid_no_sale_and_the_buyer_gives_up_a_product_card() -> None:
    hand = play(*_to_auction(), *no_sale())
    assert GAME.prompt(hand.state).phase == "show"
    assert outcome_json(hand)["auction"]["buyer"] is None
    lines = [*_to_auction(), a("withdraw", 1), a("bid", 2, chips=3), a("withdraw", 3)]
    hand = play(*lines)
    assert GAME.prompt(hand.state).message.startswith(
        "Seat 2 gives up one product card for the supplier (9c)")
    assert "only seat 2 replaces" in refused(*lines, card("replace", 1, "Ah"))
    assert "not the supplier itself" in refused(*lines, card("replace", 2, "9c"))
    assert "Ah is already out in this hand" in refused(*lines, card("replace", 2, "Ah"))
    # its disclosure given up: it must not be shown again, and the supplier must be
    done = [*lines, card("replace", 2, "7d"), show(1, "Ah", "Ad", "Kc", "Kd", "5c")]
    assert "seat 2 gave up 7d for the supplier" in refused(
        *done, show(2, "7d", "9c", "Ts", "Js", "Qs"))
    assert "seat 2's product holds the supplier it bought, 9c" in refused(
        *done, show(2, "8s", "Th", "Ts", "Js", "Qs"))
    assert "seat 1's product holds its disclosure, Ah" in refused(
        *lines, card("replace", 2, "7d"), show(1, "As", "Ad", "Kc", "Kd", "5c"))


def test_ruling_markets_4_when_all_but_one_fold_play_stops_at_once() -> None:
    hand = _folds_out()
    steps = [s.event.TYPE for s in hand.steps]
    assert "bid" not in steps and "show" not in steps and "withdraw" not in steps
    out = outcome_json(hand)
    assert out["leader"]["seats"] == [1] and out["niche"]["seats"] == [1]
    assert "auction" not in out
    partial = play(*_folds_lines()[:-2])
    assert GAME.prompt(partial.state).message == (
        "Seat 2 (folded) chooses its advantage card for the next hand (any card of its own "
        "product)")
    assert not partial.over


# -- ruling 5: the market leader and the niche ---------------------------------------------


def _showdown(advantage: dict[str, str] | None, firsts: dict[int, str],
              *shows: tuple[int, tuple[str, ...]], first_hand: dict[int, str] | None = None,
              ) -> HandReplay:
    begin = start(advantage=advantage) if advantage is not None else start()
    return play(begin, *deal(first_hand, firsts), *checked(), card("externality", None, "4d"),
                *checked(), *no_sale(), *(show(s, *c) for s, c in shows))


def test_ruling_markets_5_points_twos_fifteen_aces_one_faces_ten_advantage_stands_in() -> None:
    from dealer_assist.cards import parse_cards
    from dealer_assist.games.markets.settle import niche_points

    assert niche_points(parse_cards("2h Ah Kh Qh Jh"), None) == 15 + 1 + 30
    assert niche_points(parse_cards("Ah 3c 5d 7s 9h"), None) == 25
    # the advantage card stands in for the lowest product card only when that scores more
    assert niche_points(parse_cards("Ah 3c 5d 7s 9h"), parse_cards("2s")[0]) == 25 - 1 + 15
    assert niche_points(parse_cards("Th Tc Td Ts Kh"), parse_cards("9s")[0]) == 50


def test_ruling_markets_5_the_leader_is_the_best_five_of_product_advantage_and_externalities(
) -> None:
    # seat 3's advantage 8s with the externalities 3c and 4d: two pair; seat 2's 5s makes a
    # straight (2 to 6) with 3c 4d and its 2 6, above seat 1's three kings
    hand = _showdown({"2": "5s", "3": "8s"}, {1: "Kh", 2: "Ah", 3: "Qc"},
                     (1, ("Kh", "Ks", "Kc", "8d", "7h")),
                     (2, ("Ah", "2c", "Jh", "Jd", "6h")),
                     (3, ("Qc", "Qs", "Jc", "Js", "Th")))
    out = outcome_json(hand)
    assert out["leader"]["seats"] == [2]
    assert out["leader"]["best_hands"]["2"]["description"].startswith("straight, six high")
    # points: seat 1 10+10+10+8+7 = 45; seat 2 1+15+10+10+6 = 42, its 5s for the ace 46;
    # seat 3 10+10+10+10+10 = 50 (its 8s adds nothing)
    assert out["niche"]["points"] == {"1": 45, "2": 46, "3": 50}
    assert out["niche"]["seats"] == [3]


def test_ruling_markets_5_a_niche_tie_goes_to_the_higher_advantage_card_by_suit() -> None:
    # first hand: everyone has a card; seats 1 and 2 tie on 49 points (their fives add nothing)
    hand = _showdown(None, {1: "Ts", 2: "Th", 3: "2c"},
                     (1, ("Ts", "Js", "Qs", "Ks", "9s")),
                     (2, ("Th", "Jh", "Qh", "Kd", "9h")),
                     (3, ("2c", "2s", "3h", "3d", "4h")),
                     first_hand={1: "5h", 2: "5s", 3: "4s"})
    out = outcome_json(hand)
    assert out["niche"]["points"]["1"] == out["niche"]["points"]["2"] == 49
    assert out["niche"]["seats"] == [2]  # the five of spades beats the five of hearts


def test_ruling_markets_5_a_player_with_an_advantage_card_beats_one_without() -> None:
    hand = _showdown({"1": "3s"}, {1: "Ts", 2: "Th", 3: "2c"},
                     (1, ("Ts", "Js", "Qs", "Ks", "9s")),
                     (2, ("Th", "Jh", "Qh", "Kd", "9h")),
                     (3, ("2c", "5s", "3h", "3d", "5h")))
    out = outcome_json(hand)
    assert out["niche"]["points"] == {"1": 49, "2": 49, "3": 31}
    assert out["niche"]["seats"] == [1]


# -- ruling 6: the pot halved, shared halves and the app's draw ----------------------------


def _both_shared() -> list[dict[str, Any]]:
    """Seats 1 and 2 tie for leader and niche; seat 3 folds in the second round. Pot: antes 5,
    first round 1 each = 8, second round 1 from seats 1 and 2 = 10: halves of 5 and 5, each
    split 2 and 2 with one chip left over for the draw."""
    return [start(advantage={}), *deal(None, {1: "2h", 2: "2d", 3: "Kc"}),
            a("bet", 1, to=1), a("call", 2), a("call", 3), card("externality", None, "4d"),
            a("bet", 1, to=1), a("call", 2), a("fold", 3), *no_sale((1, 2)),
            show(1, "2h", "Ts", "Js", "Qs", "Ks"), show(2, "2d", "Th", "Jh", "Qh", "Kh")]


def test_ruling_markets_6_each_shared_half_with_leftovers_takes_a_draw_leader_first() -> None:
    lines = _both_shared()
    hand = play(*lines)
    p = GAME.prompt(hand.state)
    assert p.phase == "draw"
    assert p.message == ("The market leader's half is shared by seat 1, seat 2: the app draws "
                         "the order for the leftover chips and shows it to the table")
    action = p.action("draw")
    assert action is not None and action.input == Drawn("order", among=(1, 2))
    assert "Market leader: seat 1, seat 2 (high card, king" in p.instructions[0]
    assert "orders the tied seats 1, 2, each once" in refused(*lines, a("draw", order=[1, 3]))
    hand = play(*lines, a("draw", order=[2, 1]), a("draw", order=[1, 2]),
                card("choose", 3, "Kc"))
    out = outcome_json(hand)
    assert out["leader"]["shares"] == {"1": 200, "2": 300}
    assert out["niche"]["shares"] == {"1": 300, "2": 200}
    assert out["payouts"] == {"1": 500, "2": 500} and out["draws"] == [[2, 1], [1, 2]]
    assert out["carry"] == {"advantage": {"3": "Kc"}}


def test_ruling_markets_6_the_odd_chip_goes_to_the_leaders_half_and_an_even_split_needs_no_draw(
) -> None:
    # pot of 5 antes: leader 3, niche 2; the niche shared by seats 1 and 2 (49 points, no
    # advantage cards) splits 1 and 1: no draw
    hand = _showdown({}, {1: "Ts", 2: "Th", 3: "2c"},
                     (1, ("Ts", "Js", "Qs", "Ks", "9s")),
                     (2, ("Th", "Jh", "Qh", "Kd", "9h")),
                     (3, ("2c", "5s", "3h", "3d", "5h")))
    assert hand.over
    out = outcome_json(hand)
    assert out["leader"]["seats"] == [1] and out["leader"]["half"] == 300
    assert out["niche"]["seats"] == [1, 2] and out["niche"]["shares"] == {"1": 100, "2": 100}
    assert out["draws"] == []


def test_the_draw_is_made_by_the_app_and_a_replay_of_the_log_gives_the_same_result() -> None:
    lines = _both_shared()
    hand = play(*lines)
    action = GAME.prompt(hand.state).action("draw")
    assert action is not None
    drawn = build_event(action, vocab=GAME.events, rng=random.Random(4))
    assert sorted(drawn.order) == [1, 2]  # type: ignore[attr-defined]
    recorded = [*lines, drawn.to_json(), a("draw", order=[1, 2]), card("choose", 3, "Kc")]
    first = outcome_json(play(*recorded))
    again = outcome_json(play(*json.loads(json.dumps(recorded))))
    assert first == again
    winner = drawn.order[0]  # type: ignore[attr-defined]
    assert first["leader"]["shares"][str(winner)] == 300


# -- refusals ------------------------------------------------------------------------------


def test_refusals_say_what_comes_next_in_the_dealers_words() -> None:
    assert '"supplier" is not next: deal the products: seat 2\'s disclosure is next' in refused(
        start(advantage={}), card("disclose", 1, "Ah"), card("supplier", None, "9c"))
    assert "Ah is already out in this hand: the supplier cannot be it" in refused(
        start(advantage={}), card("disclose", 1, "Ah"), card("disclose", 2, "Kd"),
        card("disclose", 3, "Qc"), card("supplier", None, "Ah"))
    assert "seat 1 is next, not seat 2" in refused(
        start(advantage={}), card("disclose", 2, "Ah"))
    assert "the hand is over: settle it" in refused(*_folds_lines(), a("check", 1))
    assert "does not take pot_in" in refused(start(pot_in=100))
    assert ("the table's player-fee of $1.50 is not a whole number of $1 chips: Markets poker "
            "is played in whole chips") in refused(start(fee={"kind": "per-player",
                                                              "amount": 150}))


def test_a_folded_hand_leaves_nothing_secret_and_the_replay_reads_each_step() -> None:
    hand = _folds_out()
    assert GAME.secret_seats(hand.state) == frozenset()
    words = [line for s in hand.steps for line in s.lines]
    assert "Seat 3 keeps 5s as its advantage card for the next hand" in words
    assert "  Seat 1 is the only player left: it takes the whole pot, 5 chips" in words

"""Champs and Cowards: one test per house ruling, plus the worked example replayed from its log."""

from __future__ import annotations

import json
import types
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cards import full_deck, parse_card
from dealer_assist.engine.hand import HandReplay, read_log, replay
from dealer_assist.engine.inputs import ONE_CARD
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import HandLogError, RuleViolation
from dealer_assist.events import CardDealt, Event, Reshuffle, Start
from dealer_assist.games.champs_and_cowards import GAME
from dealer_assist.games.champs_and_cowards.events import Champ, Coward
from dealer_assist.games.champs_and_cowards.rules import card_key, points

EXAMPLE = "champs-and-cowards-rulings-10"


def start(seats: list[int], **params: Any) -> Start:
    params.setdefault("chip", 200)
    return Start(game="champs-and-cowards", seats=tuple(seats),
                 params=types.MappingProxyType(params))


def script(text: str) -> list[Event]:
    """A compact hand script: ``4+4c`` champ for seat 4 then its card, ``4+`` champ alone,
    ``4:9d`` a card alone, ``4-`` coward, ``R`` reshuffle."""
    events: list[Event] = []
    for tok in text.split():
        if tok == "R":
            events.append(Reshuffle())
        elif tok.endswith("-"):
            events.append(Coward(seat=int(tok[:-1])))
        elif "+" in tok:
            seat, _, card = tok.partition("+")
            events.append(Champ(seat=int(seat)))
            if card:
                events.append(CardDealt(seat=int(seat), card=parse_card(card)))
        else:
            seat, _, card = tok.partition(":")
            events.append(CardDealt(seat=int(seat), card=parse_card(card)))
    return events


def hand(ups: str, actions: str = "", *, seats: list[int] | None = None,
         **params: Any) -> list[Event]:
    """Start, the up cards in deal order, then the scripted actions."""
    cards = ups.split()
    seat_list = seats or list(range(1, len(cards) + 1))
    deal = [CardDealt(seat=s, card=parse_card(c)) for s, c in zip(seat_list, cards, strict=True)]
    return [start(seat_list, **params), *deal, *script(actions)]


def run(events: list[Event]) -> HandReplay:
    return replay(events)


def refused(events: list[Event]) -> HandLogError:
    with pytest.raises(HandLogError) as info:
        replay(events)
    return info.value


def example_path(examples_dir: Path, suffix: str) -> Path:
    return examples_dir / f"{EXAMPLE}{suffix}"


# --- the worked example ---------------------------------------------------------------------


def test_ruling_cc_10_rule_text_example_replays_to_expected(examples_dir: Path) -> None:
    from dealer_assist.cli.replay import load, outcome_json

    expected = json.loads(example_path(examples_dir, ".expected.json").read_text())
    out = outcome_json(load(str(example_path(examples_dir, ".jsonl"))))
    for key, value in expected.items():
        if key == "seats":
            for seat, fields in value.items():
                got = out["seats"][seat]
                assert {k: got[k] for k in fields} == fields, seat
        else:
            assert out[key] == value, key
    assert out["conserved"] is True
    assert sum(out["payouts"].values()) == 13200


def test_ruling_cc_10_push_steps_sweep_each_level(examples_dir: Path) -> None:
    events, lines = read_log(example_path(examples_dir, ".jsonl"))
    s = replay(events, lines=lines).settle()
    assert [(p.kind, p.amount, p.to_seat) for p in s.steps] == [
        ("push", 5400, 1), ("push", 3600, 1), ("turn_down", 0, 1),
        ("push", 3000, 4), ("turn_down", 0, 4), ("push", 1200, 8),
    ]
    assert s.steps[0].text == (
        "Sweep every 3-chip stack (8 × $6 = $48) to seat 1, its own 2- and 1-chip stacks ($6) "
        "riding along: $54"
    )
    assert s.steps[2].text == "Turn seat 1 face down"
    assert s.steps[3].text.startswith("Sweep the remaining 2-chip stacks (7 × $4 = $28) to seat 4")
    assert s.net() == {1: 7000, 2: -2800, 3: -1200, 4: 1400, 5: -2000, 6: -1200, 7: -1200, 8: 0}


# --- one test per ruling --------------------------------------------------------------------


def test_ruling_cc_1_seats_clockwise_three_or_more_and_one_to_eight_decks() -> None:
    game = get_game("champs-and-cowards")
    assert game is GAME
    cases = [
        (start([1, 2]), "at least 3 players, not 2"),
        (start([1, 2, 3], decks=9), '"decks" must be 1 to 8, not 9'),
        (start([1, 2, 3], decks=0), '"decks" must be at least 1'),
        (start([1, 2, 2]), "seat 2 is listed twice"),
        (start([0, 1, 2]), "seat numbers must be 1 or more"),
        (start([1, 2, 3], chip=0), '"chip" must be at least 1'),
        (start([1, 2, 3], chip="2"), '"chip" must be a whole number'),
        (start([1, 2, 3], carry_in=-5), '"carry_in" must be at least 0'),
        (start([1, 2, 3], deck=2), "does not take deck"),
    ]
    for ev, message in cases:
        with pytest.raises(RuleViolation, match=message):
            game.start(ev)
    with pytest.raises(RuleViolation, match='needs "chip"'):
        game.start(Start(game="champs-and-cowards", seats=(1, 2, 3)))
    # seats are dealt in the order listed, not in number order
    events = [start([5, 2, 9]), CardDealt(seat=2, card=parse_card("9d"))]
    assert "the next up card goes to seat 5, not seat 2" in str(refused(events))
    h = run(hand("9d 3c 4h", "5-", seats=[5, 2, 9]))
    assert h.state.order == (5, 2, 9)


def test_ruling_cc_2_six_chips_in_three_stacks_before_the_deal() -> None:
    h = run(hand("7h Kc 2s 9d"))
    view = GAME.view(h.state)
    assert [s.put_in for s in view.seats] == [1200] * 4
    assert dict(view.pots) == {
        "First-place stacks": 2400, "Second-place stacks": 1600,
        "Third-place stacks": 800, "Bonus pool": 0,
    }


def test_ruling_cc_3_points_ace_one_pips_faces_nothing() -> None:
    cards = ["As", "2h", "9d", "Td", "Jc", "Qs", "Kh"]
    assert [points(parse_card(c)) for c in cards] == [1, 2, 9, 10, 0, 0, 0]
    h = run(hand("7h Kc 2s", "1+As 1+Td"))
    assert h.state.hand(1).points == 18
    assert GAME.view(h.state).seats[0].detail == "18 points"


def test_ruling_cc_4_card_order_points_then_face_then_suit() -> None:
    cards = ["Jh", "Qc", "Kc", "9c", "9s", "Td", "As", "2s"]
    keys = sorted(cards, key=lambda c: card_key(parse_card(c)))
    assert keys == ["Jh", "Qc", "Kc", "As", "2s", "9c", "9s", "Td"]
    # no points anywhere: king beats queen beats jack, whatever the suits
    assert run(hand("Qs Kc Jh")).state.order == (2, 3, 1)
    # equal points: the suit decides
    assert run(hand("9h 2c 9s 3d")).state.order == (3, 4, 1, 2)
    # a shoe can hold identical cards: the seat dealt earlier ranks higher
    assert run(hand("2c 9d 9d", decks=2)).state.order == (2, 3, 1)


def test_ruling_cc_5_action_starts_at_best_up_card_and_goes_round_once() -> None:
    h = run(hand("3c 2c 4h 9d 5s"))
    assert h.state.order == (4, 5, 1, 2, 3)
    assert GAME.prompt(h.state).to_act == 4
    err = refused(hand("3c 2c 4h 9d 5s", "5-"))
    assert err.line == 7
    assert "coward out of turn: it is seat 4's turn, not seat 5's" in str(err)
    done = run(hand("3c 2c 4h 9d 5s", "4- 5- 1- 2- 3-"))
    assert done.over and GAME.prompt(done.state).done
    err = refused(hand("3c 2c 4h 9d 5s", "4- 5- 1- 2- 3- 4+"))
    assert "the hand is over" in str(err)


def test_ruling_cc_6_champ_pays_two_chips_burns_and_destroys() -> None:
    h = run(hand("7h Kc 2s 9d 3s", "4+4c 4- 5+2h"))
    s5 = h.state.hand(5)
    assert h.state.bonus_pool == 800 and h.state.put_in(5) == 1600
    # two up-card-free champs: 5 up cards, 2 burns and 2 cards out of 52
    assert h.state.shoe.left == 52 - 5 - 4 and h.state.shoe.burned == 2
    assert s5.status == "live" and s5.points == 5
    # the suit of the card just before destroys
    h = run(hand("7h Kc 2s 9d 3s", "4+4c 4- 5+2h 5+Qh"))
    s5 = h.state.hand(5)
    assert (s5.status, s5.reason) == ("destroyed", "suit follows 2h")
    assert GAME.prompt(h.state).to_act == 1  # the destroyed hand's turn is over
    # so does the rank of any earlier card, not only the last one
    h = run(hand("Kc 2s 9d", "3+5c 3+Ah 3+8s 3+9h"))
    s3 = h.state.hand(3)
    assert (s3.status, s3.reason) == ("destroyed", "pairs 9d")
    # the suit two cards back does not destroy
    h = run(hand("Kc 2s 9d", "3+5c 3+8d"))
    assert h.state.hand(3).status == "live"


def test_ruling_cc_7_voluntarily_and_dealer_destroyed_keep_three_standing() -> None:
    h = run(hand("9s 9h 4c 5d 2c", "1- 2- 3+5h 3-"))
    assert [x.seat for x in h.state.standing()] == [1, 2, 3]
    # 9 points again, but its last card 4s is below 5h: it ranks 4th as it stops
    h = run(hand("9s 9h 4c 5d 2c", "1- 2- 3+5h 3- 4+4s 4-"))
    s4 = h.state.hand(4)
    assert s4.status == "voluntarily_destroyed"
    assert s4.reason == "9 points ranked 4th, below third"
    assert GAME.prompt(h.state).instructions == (
        "Turn seat 4 face down: voluntarily destroyed (9 points ranked 4th, below third)",
    )
    # a better stop pushes the third hand down: dealer destroyed
    h = run(hand("9s 9h 4c 5d 2c", "1- 2- 3+5h 3- 4+4s 4- 5+8d 5-"))
    assert h.state.hand(3).status == "dealer_destroyed"
    assert [x.seat for x in h.state.standing()] == [5, 1, 2]
    assert len(h.state.standing()) == 3


def test_ruling_cc_8_last_player_within_three_must_go_on() -> None:
    events = hand("9s 4h 6c", "1- 2- 3-")
    err = refused(events)
    assert err.line == 7
    assert str(err) == (
        "line 7: seat 3 cannot stop: 6 points is within 3 of the leader's 9 (seat 1); "
        "as the last to act it must take a card (ruling cc-8)"
    )
    h = run(hand("9s 4h 6c", "1- 2-"))
    coward = GAME.prompt(h.state).action("coward")
    assert coward is not None and not coward.enabled and "within 3" in coward.reason
    # equal points but a lower last card still does not rank first
    assert "9 points is within 3" in str(refused(hand("9s 4h 6c", "1- 2- 3+3d 3-")))
    # ahead on the last card: may stop
    assert run(hand("9s 4h 6c", "1- 2- 3+4d 3-")).over
    # more than 3 behind: may stop (and is turned down if below third)
    h = run(hand("9s 4h 5c", "1- 2- 3-"))
    assert h.over and h.state.hand(3).status == "standing"
    # only the last player is held to it
    h = run(hand("9s 8h 7c 2d", "1- 2-"))
    assert GAME.prompt(h.state).action("coward").enabled  # type: ignore[union-attr]


def test_ruling_cc_9_settlement_and_carry_overs() -> None:
    # three standing: 3c·n + bonus + own 3c; 2c·(n−1) + own c; c·(n−2)
    s = run(hand("9s 8h 7c 2d", "1- 2- 3- 4+3c 4+Qc", chip=100, carry_in=500)).settle()
    assert dict(s.payouts) == {1: 1200 + 400 + 500 + 300, 2: 600 + 100, 3: 200}
    assert s.carry_out == 0 and s.conserved
    # two standing: the third-place stacks carry
    s = run(hand("9s 8h 7c 2d", "1- 2- 3+7h 4+3c 4+Qc", chip=100)).settle()
    assert dict(s.payouts) == {1: 1200 + 600 + 300, 2: 600 + 100}
    assert s.carry_out == 100 * 2 and s.conserved
    assert s.steps[-1].kind == "carry"
    # one standing: the remaining 2- and 1-chip stacks carry
    s = run(hand("9s 8h 7c 2d", "1- 2+8d 3+7h 4+3c 4+Qc", chip=100)).settle()
    assert dict(s.payouts) == {1: 1200 + 800 + 300}
    assert s.carry_out == 200 * 3 + 100 * 3 and s.conserved
    # none: every stack and the bonus pool carry
    s = run(hand("9s 8h 7c", "1+9d 2+8d 3+7h", chip=100, carry_in=300)).settle()
    assert s.payouts == {}
    assert s.carry_out == 600 * 3 + 600 + 300 and s.conserved
    assert [p.kind for p in s.steps] == ["carry"] * 4


def test_ruling_cc_11_counts_burns_and_reshuffles_destroyed_hands() -> None:
    deck = [c.code for c in full_deck()]
    stub = ["2c", "3c", "4d", "5h"]
    ups = [c for c in deck if c not in stub]  # 48 seats; the stub holds 2c 3c 4d 5h
    first = ups.index("Ts") + 1
    nxt = first + 1
    acts = f"{first}+2c {first}+3c {nxt}+"
    h = run(hand(" ".join(ups), acts))
    assert (h.state.shoe.left, h.state.shoe.burned) == (0, 2)
    assert h.state.hand(first).status == "destroyed"
    p = GAME.prompt(h.state)
    assert p.phase == "reshuffle" and p.action("reshuffle") is not None
    assert GAME.view(h.state).info[0] == "Cards left in stub: 0"
    err = refused(hand(" ".join(ups), acts + f" {nxt}:3c"))
    assert "the stub is empty: reshuffle" in str(err)
    # the destroyed hand (Ts 2c 3c) and 2 burns make a stub of 5; the owed burn takes one
    h = run(hand(" ".join(ups), acts + " R"))
    assert (h.state.shoe.left, h.state.shoe.burned, h.state.shoe.reshuffles) == (4, 1, 1)
    h = run(hand(" ".join(ups), acts + f" R {nxt}:3c"))  # 3c is back in the stub
    assert h.state.hand(nxt).cards[-1] == parse_card("3c")
    err = refused(hand(" ".join(ups), f"{first}+ R"))
    assert "no reshuffle now: 3 cards are still in the stub" in str(err)
    err = refused(hand(" ".join(ups), "R"))
    assert "only when a champ needs a card and none is left (4 left)" in str(err)


def test_ruling_cc_11_when_even_the_reshuffle_is_empty_action_stops() -> None:
    deck = [c.code for c in full_deck()]
    ups = [c for c in deck if c not in ("2c", "3d")]  # 50 seats, 2 cards in the stub
    a = ups.index("Ts") + 1
    b = a + 1
    # a: burn 1, card 2c. b: the stub is empty, so reshuffle the burn, burn it, reshuffle it
    # again and deal it: the stub and the discards are then both empty, so no champ can be
    # served and b stops where it is, with every hand still to act
    h = run(hand(" ".join(ups), f"{a}+2c {a}- {b}+ R R {b}:3d"))
    st = h.state
    assert st.over and st.exhausted
    assert {int(k): v for k, v in GAME.report(st)["places"].items()} == {1: b, 2: a, 3: b + 1}
    assert st.hand(b + 2).status == "dealer_destroyed"  # Tc: counted as stopped, ranked 4th
    assert sum(1 for x in st.hands if x.status == "standing") == 3
    assert GAME.settle(st).conserved
    assert GAME.prompt(st).message.startswith("The cards ran out")


def test_ruling_cc_12_refuses_a_card_that_cannot_be_in_the_stub() -> None:
    err = refused(hand("7h Kc 2s 7h"))
    assert err.line == 5
    assert "7h cannot come from the stub: it is already face up at seat 1" in str(err)
    err = refused(hand("7h Kc 2s", "1+Kc"))
    assert "Kc cannot come from the stub" in str(err)
    # two decks: two copies may be out, not a third
    assert run(hand("Kc 7h 7h", decks=2)).state.order == (2, 3, 1)
    err = refused(hand("7h Kc 7h 7h", decks=2))
    assert "all 2 copies are already face up (seats 1, 3)" in str(err)


def test_ruling_cc_13_destroyed_hands_face_down_unless_revealed() -> None:
    h = run(hand("7h Kc 2s 9d 3s", "4+4c 4- 5+2h 5+Qh"))
    seat5 = GAME.view(h.state).seats[4]
    assert seat5.face_down and seat5.cards == () and seat5.hidden == 3
    assert seat5.status == "destroyed" and seat5.note == "suit follows 2h"
    shown = GAME.view(h.state, reveal=True).seats[4]
    assert shown.cards == ("3♠", "2♥", "Q♥") and shown.face_down
    standing = GAME.view(h.state).seats[3]
    assert standing.cards == ("9♦", "4♣") and standing.status == "standing (1st)"


# --- shoes, prompts and narration -----------------------------------------------------------


def test_rule_identical_cards_in_a_shoe_earlier_seat_ranks_higher() -> None:
    h = run(hand("5h Kd 2d 9s 5c", "4- 5+4s 5- 1+4s 1- 2- 3-", decks=2))
    assert GAME.report(h.state)["places"] == {"1": 4, "2": 1, "3": 5}


def test_rule_prompt_offers_champ_with_its_price_and_keys() -> None:
    h = run(hand("7h Kc 2s"))
    p = GAME.prompt(h.state)
    assert (p.phase, p.to_act) == ("action", 1)
    champ, coward = p.action("champ"), p.action("coward")
    assert champ is not None and coward is not None
    assert (champ.amount, champ.key, champ.label) == (400, "C", "Champ $4")
    assert (coward.key, coward.enabled) == ("W", True)
    h = run(hand("7h Kc 2s", "1+"))
    card = GAME.prompt(h.state).action("card")
    assert card is not None and (card.input, card.label) == (ONE_CARD, "Card for seat 1")
    deal = GAME.prompt(run([start([1, 2, 3])]).state)
    assert (deal.phase, deal.to_act, deal.message) == ("deal", 1, "Deal the up card to seat 1")


def test_rule_card_and_action_out_of_turn_are_refused() -> None:
    assert "no card is due; seat 1 must say champ or coward first" in str(
        refused(hand("7h Kc 2s", "1:9d")))
    assert "the card seat 1 paid for goes to seat 1, not seat 2" in str(
        refused(hand("7h Kc 2s", "1+ 2:9d")))
    assert "seat 1 paid for a card; enter that card first" in str(
        refused(hand("7h Kc 2s", "1+ 1-")))
    partial = [start([1, 2, 3]), *hand("7h Kc", "1+")[1:]]
    assert "the up cards are not all dealt; the next one goes to seat 3" in str(refused(partial))
    assert "seat 7 is not in this hand" in str(refused(hand("7h Kc 2s", "7-")))


def test_rule_narration_names_destroyed_hands_and_why(examples_dir: Path) -> None:
    events, lines = read_log(example_path(examples_dir, ".jsonl"))
    text = [line for step in replay(events, lines=lines).steps for line in step.lines]
    assert "Action starts at seat 4 (9d); order 4, 5, 6, 7, 8, 1, 2, 3" in text
    assert "Turn seat 5 face down: destroyed (suit follows 2h)" in text
    assert "Turn seat 2 face down: destroyed (pairs 5d)" in text
    assert "Turn seat 6 face down: dealer destroyed (0 points ranked 4th, below third)" in text
    assert "Places: 1st seat 1 (18 points), 2nd seat 4 (13 points), 3rd seat 8 (9 points)" in text

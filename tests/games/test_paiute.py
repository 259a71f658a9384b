"""Paiute: the rulings (Paiute 1-2) one test each, worked hands with the numbers written out (a
call beaten in a last turn, a paiute refused after the first turn, the dealer's first call, a
tie split from the dealer's left, a reshuffle), every combination's order and tie-breaks with
wild cards, the dealer's refusals (nothing recorded), and chips conserved over random hands."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from services.support import make_room

from dealer_assist.cards import full_deck, parse_cards
from dealer_assist.engine.build import build_event
from dealer_assist.engine.hand import HandReplay, parse_lines, replay
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import DealerAssistError, RuleViolation
from dealer_assist.games.paiute.combos import COMBINATIONS, strength, value_as

GAME = get_game("paiute")
SEVENS = 7  # the wild rank of these hands: the 7h is turned up


def start(**params: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"type": "start", "game": "paiute", "seats": [1, 2, 3],
                            "dealer": 3, "ante": 100, "smallest_chip": 100}
    base.update(params)
    return base


OPEN = ({"type": "wild", "card": "7h"}, {"type": "upcard", "card": "Qs"})


def draw(seat: int, source: str = "stock") -> dict[str, Any]:
    return {"type": "draw", "seat": seat, "from": source}


def discard(seat: int, card: str) -> dict[str, Any]:
    return {"type": "discard", "seat": seat, "card": card}


def call(seat: int, cards: str, combination: str) -> dict[str, Any]:
    return {"type": "call", "seat": seat, "cards": cards.split(), "combination": combination}


def pass_(seat: int) -> dict[str, Any]:
    return {"type": "pass", "seat": seat}


def play(*lines: dict[str, Any]) -> HandReplay:
    events, numbers = parse_lines([json.dumps(line) for line in lines])
    return replay(events, lines=numbers)


def refused(*lines: dict[str, Any]) -> str:
    with pytest.raises(DealerAssistError) as info:
        play(*lines)
    return str(info.value)


def value(cards: str, combination: str) -> tuple[int, ...]:
    found = value_as(parse_cards(cards), combination, SEVENS)
    assert found is not None, (cards, combination)
    return strength(combination, found)


#: Seat 1 calls three/three straight after its first draw; seats 2 and 3 (the dealer) have
#: their last turns.
CALLED = (start(), *OPEN, draw(1), call(1, "9c 9d 9h 4c 4h 4s", "three/three"))


def test_worked_call_beaten_in_a_last_turn() -> None:
    h = play(*CALLED)
    assert h.state.last == (2, 3)
    assert GAME.prompt(h.state).message.startswith(
        "Seat 2 draws (sevens wild; pile Qs; stock 34; last turns: 2, 3; best call seat 1's "
        "three nines and three fours)")
    # seat 2 cannot call a lower three/three; it passes
    assert refused(*CALLED, draw(2), call(2, "8c 8d 8h 3c 3d 3h", "three/three")) == (
        "line 7: three eights and three threes does not beat or tie seat 1's three nines and "
        "three fours: seat 2 passes (ruling Paiute 2)")
    # the dealer's last turn: the 7c is wild, four kings and two fives beat three/three
    h = play(*CALLED, draw(2), discard(2, "2c"), pass_(2), draw(3),
             call(3, "Kc Kd Ks 7c 5s 5d", "four/two"))
    assert h.over
    report = GAME.report(h.state)
    assert report["winners"] == [3]
    assert report["hands"]["3"] == {"cards": ["Kc", "Kd", "Ks", "7c", "5s", "5d"],
                                    "rank": "four/two",
                                    "description": "four kings and two fives"}
    s = h.settle()
    assert dict(s.payouts) == {3: 300} and s.net() == {1: -100, 2: -100, 3: 200}
    assert [p.text for p in s.steps] == [
        "Push $3 to seat 3 (the pot: the best call, four kings and two fives)"]


def test_worked_tie_splits_the_pot_the_odd_chip_from_the_dealers_left() -> None:
    """A royal flush against a royal flush (the 7d wild as the queen): royal flushes tie. $3 in
    $1 chips: $1 each, the odd $1 to seat 1, the first of the two from the dealer's (seat 3's)
    left."""
    h = play(start(), *OPEN, draw(1), discard(1, "2c"), call(1, "Ah Kh Qh Jh 7c", "royal flush"),
             draw(2), discard(2, "2d"), call(2, "As Ks 7d Js Ts", "royal flush"), draw(3),
             discard(3, "3c"), pass_(3))
    assert GAME.report(h.state)["winners"] == [1, 2]
    s = h.settle()
    assert dict(s.payouts) == {1: 200, 2: 100} and s.net() == {1: 100, 2: 0, 3: -100}


def test_ruling_paiute_2_a_paiute_only_on_the_callers_first_turn() -> None:
    first = play(start(seats=[1, 2], dealer=2), *OPEN, draw(1),
                 call(1, "Qh Qd Tc Ts 6c 6d", "paiute"))
    assert GAME.report(first.state)["hands"]["1"]["description"] == (
        "paiute, queens, tens and sixes")
    later = (start(seats=[1, 2], dealer=2), *OPEN, draw(1), discard(1, "4d"), draw(2),
             discard(2, "5d"), draw(1))
    assert refused(*later, call(1, "Qh Qd Tc Ts 6c 6d", "paiute")) == (
        "line 9: a paiute is called only on the caller's first turn, and seat 1 has had one "
        "(ruling Paiute 2)")
    # the prompt offers no paiute to a seat past its first turn
    action = GAME.prompt(play(*later).state).action("call")
    assert action is not None and "paiute" not in action.more[0].options  # type: ignore[union-attr]


def test_ruling_paiute_2_the_dealer_calling_first_wins_at_once() -> None:
    h = play(start(), *OPEN, draw(1), discard(1, "4d"), draw(2), discard(2, "5d"), draw(3),
             discard(3, "9d"), call(3, "Ah Kh Qh Jh 7c", "royal flush"))
    assert h.over and h.state.last == ()
    assert h.steps[-1].lines[-2:] == ("the dealer called first and wins at once",
                                      "seat 3 wins $3")
    assert dict(h.settle().payouts) == {3: 300}


def test_ruling_paiute_2_a_call_is_the_combination_claimed_with_the_wild_rank() -> None:
    base = (start(), *OPEN, draw(1))
    assert refused(*base, call(1, "9c 9d 9h 4c 4h 5s", "four/two")) == (
        "line 5: 9c 9d 9h 4c 4h 5s is not four/two with sevens wild (they make no combination)"
        " (ruling Paiute 2)")
    assert "(they make three nines and three fours: call that)" in refused(
        *base, call(1, "9c 9d 9h 4c 4h 4s", "four/two"))
    assert "five of a kind is five cards: seat 1 discards its sixth card first, then calls" in (
        refused(*base, call(1, "9c 9d 9h 9s 7c 2d", "five of a kind")))
    assert "four/two is six cards: it is called straight after the draw, before the discard" in (
        refused(*base, discard(1, "2d"), call(1, "9c 9d 9h 9s 7c", "four/two")))
    assert '"full house" is not a combination' in refused(
        *base, discard(1, "2d"), call(1, "9c 9d 9h 4s 4c", "full house"))


def test_ruling_paiute_2_a_call_is_paid_as_the_best_combination_its_cards_make() -> None:
    """Regression (issue 41): twos wild, Kc 2s 2h 5c 5d 5h was taken as three kings and three
    fives, tying seat 2's three kings and three nines ($7 each of $14); the cards make four
    fives and two kings, which beats it. The worse reading is refused with the better one
    named; called as four/two it takes the whole pot."""
    base = (start(seats=[1, 2], dealer=2, ante=700), {"type": "wild", "card": "2c"},
            {"type": "upcard", "card": "Qs"}, draw(1))
    assert refused(*base, call(1, "Kc 2s 2h 5c 5d 5h", "three/three")) == (
        "line 5: Kc 2s 2h 5c 5d 5h make four fives and two kings with twos wild, better than "
        "three kings and three fives: call four/two (ruling Paiute 2)")
    h = play(*base, call(1, "Kc 2s 2h 5c 5d 5h", "four/two"), draw(2))
    assert GAME.report(h.state)["hands"]["1"]["description"] == "four fives and two kings"
    assert "does not beat or tie seat 1's four fives and two kings" in refused(
        *base, call(1, "Kc 2s 2h 5c 5d 5h", "four/two"), draw(2),
        call(2, "Kd Kh Ks 9c 9d 9h", "three/three"))
    h = play(*base, call(1, "Kc 2s 2h 5c 5d 5h", "four/two"), draw(2), discard(2, "3d"),
             pass_(2))
    assert h.over and dict(h.settle().payouts) == {1: 1400}


def test_ruling_paiute_1_the_top_of_the_pile_must_change() -> None:
    base = (start(), *OPEN, draw(1, "discard"))
    assert refused(*base, discard(1, "Qs")) == (
        "line 5: Qs was just taken from the discard pile: it cannot go straight back (the top "
        "of the pile must change) (ruling Paiute 1)")
    # seat 1 holds the Qs now: its call must show it, nobody else may discard it
    h = play(*base, discard(1, "3c"))
    assert h.state.pile == parse_cards("3c") and h.state.where == {parse_cards("Qs")[0]: 1}
    assert "Qs was taken from the discard pile by seat 1: seat 2 cannot discard it" in refused(
        *base, discard(1, "3c"), draw(2), discard(2, "Qs"))
    assert "seat 1 took Qs from the discard pile and kept it: its call must show it" in refused(
        *base, call(1, "9c 9d 9h 4c 4h 4s", "three/three"))
    assert "7h is the wild card, under the stock: seat 1 cannot discard it" in refused(
        *base, discard(1, "7h"))
    assert "3c is in the discard pile: seat 2 cannot discard it" in refused(
        *base, discard(1, "3c"), draw(2), discard(2, "3c"))


def test_ruling_paiute_1_turn_order_and_what_a_turn_is() -> None:
    assert "it is seat 1's turn, not seat 2's" in refused(start(), *OPEN, draw(1),
                                                          discard(2, "4d"))
    assert "seat 2 draws next, not seat 3" in refused(start(), *OPEN, draw(1),
                                                      discard(1, "4d"), draw(3))
    assert "a pass ends a last turn, after a call" in refused(start(), *OPEN, draw(1),
                                                               discard(1, "4d"), pass_(1))
    assert "turn up the wild card first" in refused(start(), {"type": "upcard", "card": "Qs"})
    assert '"stock" or the "discard" pile, not "deck"' in refused(start(), *OPEN,
                                                                  draw(1, "deck"))


def test_worked_reshuffle_when_the_stock_runs_out() -> None:
    """Two seats: 52 - 10 dealt - the wild card - the upcard = 40 cards in the stock. After 40
    draws it is empty: a draw from it is refused until the discards under the top card (the
    upcard and 39 discards) are shuffled into a new stock of 40."""
    spare = [c.code for c in full_deck() if c.code not in ("7h", "Qs")]
    lines: list[dict[str, Any]] = [start(seats=[1, 2], dealer=2), *OPEN]
    for i in range(40):
        seat = 1 + i % 2
        lines += [draw(seat), discard(seat, spare[i])]
    h = play(*lines)
    assert h.state.stock == 0 and len(h.state.pile) == 41
    assert refused(*lines, draw(1)).endswith(
        "the stock is empty: reshuffle the discard pile under its top card first "
        "(ruling Paiute 1)")
    prompt = GAME.prompt(h.state)
    stock = next(x for x in prompt.actions if x.fields.get("from") == "stock")
    assert not stock.enabled and stock.reason == "the stock is empty: reshuffle first"
    reshuffle = prompt.action("reshuffle")
    assert reshuffle is not None
    h = play(*lines, build_event(reshuffle).to_json(), draw(1))
    assert h.state.stock == 39 and h.state.pile == parse_cards(spare[39])
    assert "the stock still has 39 cards" in refused(*lines, {"type": "reshuffle"}, draw(1),
                                                    discard(1, spare[0]), {"type": "reshuffle"})


def test_every_combination_order_and_its_tie_breaks_with_wild_sevens() -> None:
    five = value("9c 9d 9h 9s 7c", "five of a kind")
    royal = value("Ah Kh Qh Jh 7c", "royal flush")
    straight = value("Kh Qh Jh Th 9h", "straight flush")
    four_two = value("Ac Ad Ah As Kc Kd", "four/two")
    three_three = value("Ac Ad Ah Kc Kd Kh", "three/three")
    paiute = value("Ac Ad Kc Kd Qc Qd", "paiute")
    assert five > royal > straight > four_two > three_three > paiute
    assert [strength(c, (0, 0, 0))[0] for c in COMBINATIONS] == [6, 5, 4, 3, 2, 1]
    assert value("Tc Td Th 7c 7d", "five of a kind") > five  # five tens beat five nines
    assert value("As Ks Qs Js Ts", "royal flush") == royal  # royal flushes tie
    assert straight > value("5h 4h 3h 2h Ah", "straight flush")  # the ace low: five high
    assert value("9h 8h 7c 6h 5h", "straight flush") == value("9s 8s 7s 6s 5s",
                                                              "straight flush")
    assert value("Kh Qh Jh 7c 9h", "straight flush") == straight  # the wild fills the ten
    # four/two by the four alone; three/three by the higher three alone
    assert value("Ac Ad Ah 7c 2c 2d", "four/two") == value("As 7d 7s Ad 3c 3d", "four/two")
    assert four_two > value("Kc Kd Kh Ks Ac Ad", "four/two")
    assert three_three == value("As 7c 7d 2c 2d 2h", "three/three")
    assert three_three > value("Kc Kd Kh Qc Qd Qh", "three/three")
    # paiute by the highest pair, then the middle, then the lowest
    assert paiute > value("Ac Ad Kc Kd Jc Jd", "paiute") > value("Ac Ad Qc Qd Jc Jd",
                                                                  "paiute")
    assert value_as(parse_cards("Kc Kd Kh Ks Qc"), "five of a kind", SEVENS) is None
    assert value_as(parse_cards("Ks As 2s 3s 4s"), "straight flush", SEVENS) is None  # K-A-2


def test_a_refusal_records_nothing() -> None:
    room = make_room()
    svc = room.svc
    table = svc.add_table(room.admin, {"game": "paiute", "seats": [1, 2, 3],
                                       "smallest_chip": 100, "params": {"ante": 100}},
                          name="P1")
    svc.add_user(room.admin, name="pia", full_name="Pia Dealer", role="dealer", pin="5555")
    dealer = svc.sign_in("pia", "5555")
    svc.open_shift(dealer, table.id, floor="fran")
    now = svc.start_hand(dealer, table.id)
    for kind, card in (("wild", "7h"), ("upcard", "Qs")):
        action = now.prompt().action(kind)
        assert action is not None
        now = svc.record(dealer, now.hand.id, build_event(action, {"card": parse_cards(card)},
                                                          vocab=now.game.events))
    prompt = now.prompt()
    take = next(x for x in prompt.actions if x.fields.get("from") == "discard")
    assert take.label == f"Seat {prompt.to_act}: take the Qs"
    now = svc.record(dealer, now.hand.id, build_event(take, vocab=now.game.events))
    before = len(svc.hand_events(now.hand.id))
    throw = now.prompt().action("discard")
    assert throw is not None
    with pytest.raises(RuleViolation, match="Qs was just taken from the discard pile"):
        svc.record(dealer, now.hand.id, build_event(throw, {"card": parse_cards("Qs")},
                                                    vocab=now.game.events))
    assert len(svc.hand_events(now.hand.id)) == before


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5))
def test_random_hands_conserve_chips_and_pay_the_best_call(seed: int, players: int) -> None:
    events = GAME.sample_hand(random.Random(seed), players=players)
    h = replay(events)
    s = h.settle()
    assert s.conserved and sum(s.payouts.values()) == 100 * players
    best = max(c.strength for c in h.state.calls)
    assert set(s.payouts) == {c.seat for c in h.state.calls if c.strength == best}


def test_the_example_hand_log_replays_from_the_cli_as_expected(
    examples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dealer_assist.cli import main

    name = "paiute-call-beaten-in-a-last-turn"
    assert main(["replay", "--json", str(examples_dir / f"{name}.jsonl")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == json.loads((examples_dir / f"{name}.expected.json").read_text())
    assert out["payouts"] == {"3": 300} and out["winners"] == [3] and out["conserved"]
    assert [c["combination"] for c in out["calls"]] == ["four/two", "four/two"]


def test_regression_an_upcard_after_the_pile_was_emptied_is_refused_in_words() -> None:
    """The dossier's refusal sampler found it: a second upcard once the only pile card was
    taken raised an IndexError instead of a refusal."""
    assert refused(start(), *OPEN, draw(1, "discard"), {"type": "upcard", "card": "2c"}) == (
        "line 5: the upcard is already turned: the discard pile is started (ruling Paiute 1)")

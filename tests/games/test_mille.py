"""Mille: one test per ruling (RULINGS.md, Mille), the settlement worked out by hand for a plain
win, a skunk and a double skunk, refusals in the dealer's words with nothing recorded, the play
turn by turn, and the score sheet carried from hand to hand through the services."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from services.support import make_room

from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.engine.build import build_event
from dealer_assist.engine.hand import replay
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Reshuffle, Start
from dealer_assist.games.mille.events import Discard, Draw, Left, Meld, Out, Upcard
from dealer_assist.games.mille.rules import payment, rounded, seat_score, value

GAME = get_game("mille")


def start(**params: Any) -> Start:
    params.setdefault("dealer", 1)
    params.setdefault("stakes", [100, 500])
    return Start(game="mille", seats=(1, 2), params=params)


def meld(seat: int, cards: str) -> Meld:
    return Meld(seat=seat, cards=parse_cards(cards))


def left(seat: int, cards: str = "") -> Left:
    return Left(seat=seat, cards=parse_cards(cards) if cards else ())


def play(*events: Event) -> Any:
    state = GAME.start(events[0])  # type: ignore[arg-type]
    for ev in events[1:]:
        state = GAME.apply(state, ev)
    return state


def score(melds: dict[int, str], held: str = "") -> Any:
    from dealer_assist.games.mille.rules import meld_rank

    by_rank: dict[int, tuple[Any, ...]] = {}
    for text in melds.values():
        cards = parse_cards(text)
        rank = meld_rank(cards)
        by_rank[rank] = (*by_rank.get(rank, ()), *cards)
    return seat_score(by_rank, parse_cards(held) if held else ())


# --- the rulings ------------------------------------------------------------------------------


def test_ruling_mille_1_two_decks_a_third_copy_is_refused() -> None:
    state = play(start(), meld(1, "Qs Qs Qh"))
    with pytest.raises(RuleViolation, match=r"Q♠ is already recorded twice: two decks hold only "
                                            r"two") as refused:
        GAME.check(state, left(2, "Qs 4h"))
    assert refused.value.rule == "mille-1"
    # the same card twice in one meld is two decks' worth, not a typo
    assert GAME.can(play(start()), meld(2, "7h 7h 7d"))


def test_ruling_mille_1_a_meld_is_three_of_a_rank_2s_wild() -> None:
    s = play(start())
    with pytest.raises(RuleViolation, match=r"Qs Kh 2c is not a meld: it mixes queens and "
                                            r"kings; a meld is one rank, 2s wild"):
        GAME.check(s, meld(1, "Qs Kh 2c"))
    with pytest.raises(RuleViolation, match=r"a meld is three or more cards, not 2 \(Qs Qh\)"):
        GAME.check(s, meld(1, "Qs Qh"))
    assert GAME.can(s, meld(1, "Qs 2h 2d"))  # any number of wilds
    assert GAME.can(s, meld(1, "2s 2h 2d"))  # a meld of 2s


def test_ruling_mille_1_melds_of_one_rank_form_one_meld() -> None:
    state = play(start(), meld(1, "Ks Ks Kh Kh"), meld(1, "Kd Kd Kc Kc"))
    assert state.score(1).eights == (13,)  # the two lines are one meld of all eight kings


def test_ruling_mille_1_the_pile_is_taken_with_two_naturals_of_its_top_card() -> None:
    s = play(start(turns=True), Upcard(card=parse_card("9h")), Draw(seat=2, source="pile"))
    with pytest.raises(RuleViolation, match=r"seat 2 took the pile: it melds 9♥ with two or "
                                            r"more natural nines first, not 9h 9d 2c"):
        GAME.check(s, meld(2, "9h 9d 2c"))
    assert GAME.can(s, meld(2, "9h 9d 9s"))
    two = play(start(turns=True), Upcard(card=parse_card("2h")))
    with pytest.raises(RuleViolation, match=r"2♥ is a 2: the pile is taken only with natural "):
        GAME.check(two, Draw(seat=2, source="pile"))


def test_ruling_mille_2_card_values() -> None:
    values = {c: value(parse_card(c)) for c in
              ("Qs", "Qh", "Jd", "Jc", "2c", "As", "Kh", "Td", "9s", "3c")}
    assert values == {"Qs": 100, "Qh": 10, "Jd": 50, "Jc": 10, "2c": 20, "As": 15, "Kh": 10,
                      "Td": 10, "9s": 5, "3c": 5}


def test_ruling_mille_3_naturals_double_and_both_at_once_x4() -> None:
    # all eight sevens without a wild (40 -> 80), but a 2 melded as a wild elsewhere
    eight = score({1: "7s 7s 7h 7h 7d 7d 7c 7c", 2: "Kh Kd 2c"})
    assert (eight.melded, eight.naturals, eight.no_twos) == (80 + 40, 1, False)
    # no 2 melded: everything doubled (Q♠ 100 + 20 -> 240)
    plain = score({1: "Qs Qh Qd"})
    assert (plain.melded, plain.naturals) == (240, 1)
    # both: the eight x4 (160), the rest x2 (240): two naturals, two asterisks on the sheet
    both = score({1: "7s 7s 7h 7h 7d 7d 7c 7c", 2: "Qs Qh Qd"})
    assert (both.melded, both.naturals) == (160 + 240, 2)
    state = play(start(), meld(1, "7s 7s 7h 7h 7d 7d 7c 7c"), meld(1, "Qs Qh Qd"),
                 left(2, "4h 5h"), Out(seat=1))
    sheet = GAME.score_sheet([state])
    assert sheet is not None and sheet.rows[0][1:3] == ("400**", "(-10)")


def test_ruling_mille_4_hand_score_and_the_chapeau() -> None:
    state = play(start(), meld(1, "Kh Kd 2c"), meld(2, "9c 9d 2s"), left(2, "As Jd 7c"),
                 Out(seat=1))
    assert state.hand_scores() == {1: 40, 2: 30 - 70}
    assert state.score(2).chapeau and not state.score(1).chapeau
    sheet = GAME.score_sheet([state])
    assert sheet is not None and sheet.rows[0][1:3] == ("40", "(-40)")


def test_ruling_mille_5_the_game_ends_at_1200_and_equal_totals_go_on() -> None:
    hand = (meld(1, "Kh Kd 2c"), meld(2, "Qh Qd 2s"), left(2, "4c 4d"), Out(seat=1))
    under = play(start(totals_in={"1": 1150, "2": 0}), *hand)  # 1,190: not yet
    assert under.totals()[1] == 1190 and not GAME.game_over(under)
    assert GAME.next_hand(under)["totals_in"] == {"1": 1190, "2": 30}
    equal = play(start(totals_in={"1": 1200, "2": 1210}), *hand)  # 1,240 each: goes on
    assert equal.totals() == {1: 1240, 2: 1240} and not GAME.game_over(equal)
    assert GAME.report(equal)["game_over"] is False and GAME.report(equal)["winner"] is None
    won = play(start(totals_in={"1": 1160, "2": 0}), *hand)
    assert GAME.game_over(won) and GAME.next_hand(won) == {}


def test_ruling_mille_5_rounding_50_goes_up() -> None:
    assert [rounded(t) for t in (1250, 1249, -150, -151, 49, 50, -50, -51)] == [
        1300, 1200, -100, -200, 0, 100, 0, -100]


def test_ruling_mille_6_a_meld_of_2s_keeps_the_no_2s_natural_and_is_doubled() -> None:
    s = score({1: "2s 2h 2d", 2: "Ah Ad Ac"})
    assert (s.no_twos, s.naturals, s.melded) == (True, 1, (60 + 45) * 2)
    wild = score({1: "2s 2h 2d", 2: "Ah Ad 2c"})  # a 2 used as a wild spoils it
    assert (wild.no_twos, wild.melded) == (False, 60 + 50)


# --- the settlement, worked by hand ---------------------------------------------------------


def test_settlement_plain_win() -> None:
    """1,000 + 205 against 700 + 100: the game $5, seat 1's one natural $5, 1,200 - 800 = four
    hundreds at $1: $14, not doubled (800 is not under 600)."""
    state = play(start(totals_in={"1": 1000, "2": 700}, naturals_in={"1": 1}),
                 meld(1, "Qs Qh 2c"), meld(1, "Ah Ad Ac"), meld(1, "Kh Kd Ks"),
                 meld(2, "9h 9d 9c"), meld(2, "Th Td Tc Ts"), left(2, "3h 4h"), Out(seat=1))
    assert state.hand_scores() == {1: 130 + 45 + 30, 2: (15 + 40) * 2 - 10}
    assert state.totals() == {1: 1205, 2: 800}
    s = GAME.settle(state)
    assert s.put_in == {1: 0, 2: 1400} and s.payouts == {1: 1400, 2: 0} and s.conserved
    pay = GAME.report(state)["settlement"]
    assert [(x["times"], x["amount"]) for x in pay["lines"]] == [(1, 500), (1, 500), (0, 0),
                                                                  (4, 400)]
    assert (pay["multiplier"], pay["total"], pay["payer"], pay["payee"]) == (1, 1400, 2, 1)


def test_settlement_skunk_with_naturals_and_chapeaux(examples_dir: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """The example log: 1,400 against 380 (under 600: doubled). The game $5, seat 1's three
    naturals $15, seat 2's two chapeaux $10, 1,400 - 400 = ten hundreds $10: $40 x 2 = $80."""
    from dealer_assist.cli import main

    assert main(["replay", "--json", str(examples_dir / "mille-skunk.jsonl")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == json.loads((examples_dir / "mille-skunk.expected.json").read_text())
    assert out["hand_scores"] == {"1": 350, "2": -40} and out["totals"] == {"1": 1400,
                                                                            "2": 380}
    assert out["settlement"]["multiplier"] == 2 and out["settlement"]["total"] == 8000
    assert out["payouts"] == {"1": 8000} and out["conserved"]


def test_settlement_double_skunk() -> None:
    """1,150 + 380 against 30 - 100 = -70 (below zero: tripled). The game $5, seat 1's four
    naturals $20, seat 2's three chapeaux $15, 1,500 - (-100) = sixteen hundreds $16:
    $56 x 3 = $168."""
    state = play(start(totals_in={"1": 1150, "2": 30}, naturals_in={"1": 2},
                       chapeaux_in={"2": 2}),
                 meld(1, "7s 7s 7h 7h"), meld(1, "7d 7d 7c 7c"), meld(1, "Jd Jd Jc"),
                 meld(2, "4h 4d 2s"), left(2, "Qs As Ad"), Out(seat=1))
    assert state.hand_scores() == {1: 40 * 4 + 110 * 2, 2: 30 - 130}
    assert state.totals() == {1: 1530, 2: -70}
    assert state.naturals() == {1: 4, 2: 0} and state.chapeaux() == {1: 0, 2: 3}
    pay = payment(stakes=(100, 500), winner=1, loser=2, totals=state.totals(),
                  naturals=state.naturals(), chapeaux=state.chapeaux())
    assert [x.amount for x in pay.lines] == [500, 2000, 1500, 1600]
    assert (pay.multiplier, pay.total) == (3, 16800)
    s = GAME.settle(state)
    assert s.payouts[1] == 16800 == s.put_in[2] and s.conserved
    assert s.steps[0].text.endswith("double skunk (below 0): tripled")


# --- the hand's lines: order and refusals ---------------------------------------------------


def test_the_hand_ends_with_out_and_the_others_left_in_either_order() -> None:
    a = play(start(), meld(1, "Kh Kd Kc"), Out(seat=1))
    assert not a.over and GAME.prompt(a).to_act == 2
    assert play(start(), meld(1, "Kh Kd Kc"), Out(seat=1), left(2, "4h")).over
    assert play(start(), meld(1, "Kh Kd Kc"), left(1), left(2, "4h"), Out(seat=1)).over


@pytest.mark.parametrize(("events", "message"), [
    ((meld(1, "Kh Kd Kc"), left(1, "4h"), Out(seat=1)),
     r"seat 1 holds 4h: a player who goes out holds no cards"),
    ((Out(seat=1),), r"seat 1 has melded nothing: a player goes out by melding"),
    ((meld(1, "Kh Kd Kc"), Out(seat=1), Out(seat=2)), r"seat 1 already went out"),
    ((meld(1, "Kh Kd Kc"), Out(seat=1), left(1, "5c")), r"seat 1 went out: it holds no cards"),
    ((left(2, "4h"), meld(2, "Kh Kd Kc")), r"seat 2's cards left are recorded: its melds are "
                                           r"all in"),
    ((Discard(seat=1, card=parse_card("4h")),), r'"discard" is not an input of this table'),
])
def test_refusals_of_the_sheet(events: tuple[Event, ...], message: str) -> None:
    state = play(start(), *events[:-1])
    with pytest.raises(RuleViolation, match=message):
        GAME.check(state, events[-1])


@pytest.mark.parametrize(("params", "message"), [
    ({"stakes": None}, r'the start needs "stakes": \[small, large\] in cents'),
    ({"stakes": [500, 100]}, r"the small stake cannot be larger than the large one"),
    ({"totals_in": {"3": 10}}, r'"totals_in" names seat 3, which is not in the hand'),
    ({"naturals_in": {"1": -1}}, r'"naturals_in" for seat 1 must be a whole number of at '
                                 r"least 0"),
    ({"target": 1000}, r"mille does not take target"),
])
def test_refusals_of_the_start(params: dict[str, Any], message: str) -> None:
    p = {"dealer": 1, "stakes": [100, 500], **params}
    p = {k: v for k, v in p.items() if v is not None}
    with pytest.raises(RuleViolation, match=message):
        GAME.start(Start(game="mille", seats=(1, 2), params=p))
    with pytest.raises(RuleViolation, match=r"this game takes 2 to 2 players, not 3"):
        GAME.start(Start(game="mille", seats=(1, 2, 3), params={"stakes": [100, 500]}))


# --- the play turn by turn ------------------------------------------------------------------


def test_turns_the_sheet_follows_from_the_play() -> None:
    """Nothing typed twice: the app sees who goes out, and the cards left are counted."""
    s = play(start(turns=True, dealer=1), Upcard(card=parse_card("9h")))
    assert GAME.prompt(s).to_act == 2  # the non-dealer plays first
    s = play(start(turns=True, dealer=1), Upcard(card=parse_card("9h")),
             Draw(seat=2, source="pile"), meld(2, "9h 9d 9s"), meld(2, "Kh Kd Kc Ks"),
             meld(2, "Ah Ad 2c"), meld(2, "5h 5d 5c"), Discard(seat=2, card=parse_card("3h")),
             Draw(seat=1, source="stock"), Discard(seat=1, card=parse_card("8c")),
             Draw(seat=2, source="stock"))
    assert s.held == {1: 15, 2: 3} and s.stock == 71 and s.pile == parse_cards("3h 8c")
    s = GAME.apply(s, meld(2, "Qh Qd Qc"))  # its last three cards: out without a discard
    assert s.out == 2 and not s.over
    p = GAME.prompt(s)
    assert p.message == "Seat 2 went out: type the 15 cards seat 1 holds"
    with pytest.raises(RuleViolation, match=r"seat 1 holds 15 cards, not 2"):
        GAME.check(s, left(1, "4h 4d"))
    with pytest.raises(RuleViolation, match=r"the app sees who goes out"):
        GAME.check(s, Out(seat=2))
    s = GAME.apply(s, left(1, "4h 4d 4c 6h 6d 6c 7h 7d 7c 8h 8d Jh Jh Jc Th"))
    assert s.over and s.hand_scores()[2] == 15 + 40 + 50 + 15 + 30


def test_turns_the_stock_is_rebuilt_from_the_pile_under_its_top_card() -> None:
    s = play(start(turns=True), Upcard(card=parse_card("9h")))
    with pytest.raises(RuleViolation, match=r"the stock still holds 73 cards"):
        GAME.check(s, Reshuffle())
    from dataclasses import replace

    empty = replace(s, stock=0, pile=parse_cards("9h 4c Kd"))
    with pytest.raises(RuleViolation, match=r"the stock is empty: rebuild it"):
        GAME.check(empty, Draw(seat=2, source="stock"))
    after = GAME.apply(empty, Reshuffle())
    assert after.stock == 2 and after.pile == parse_cards("Kd")


@pytest.mark.parametrize(("events", "message"), [
    ((Draw(seat=2, source="stock"),), r"turn the upcard first"),
    ((Upcard(card=parse_card("9h")), Draw(seat=1, source="stock")),
     r"seat 2 is to play, not seat 1"),
    ((Upcard(card=parse_card("9h")), Discard(seat=2, card=parse_card("4h"))),
     r"seat 2 draws first"),
    ((Upcard(card=parse_card("9h")), Draw(seat=2, source="pile"),
      Discard(seat=2, card=parse_card("4h"))), r"seat 2 took the pile: it melds the top card"),
    ((Upcard(card=parse_card("9h")), Draw(seat=2, source="pile"), meld(2, "9h 9d 9c"),
      Discard(seat=2, card=parse_card("4h")), Draw(seat=1, source="stock"),
      Discard(seat=1, card=parse_card("5h")), Draw(seat=2, source="stock"),
      Discard(seat=2, card=parse_card("6h")), Draw(seat=1, source="stock"),
      Discard(seat=1, card=parse_card("7h")), Draw(seat=2, source="stock"),
      meld(2, "8h 8d 8c"), meld(2, "Jh Jd Jc"), Discard(seat=2, card=parse_card("Th")),
      Draw(seat=1, source="stock"), Discard(seat=1, card=parse_card("Tc")),
      Draw(seat=2, source="stock"), Discard(seat=2, card=parse_card("Td")),
      Draw(seat=1, source="stock"), Discard(seat=1, card=parse_card("Ts")),
      Draw(seat=2, source="stock"), meld(2, "Kh Kd Kc"), left(1, "4c")),
     r"nobody has gone out"),
])
def test_refusals_of_the_play(events: tuple[Event, ...], message: str) -> None:
    state = play(start(turns=True), *events[:-1])
    with pytest.raises(RuleViolation, match=message):
        GAME.check(state, events[-1])


def test_turns_a_card_taken_with_the_pile_is_among_the_cards_left() -> None:
    s = play(start(turns=True), Upcard(card=parse_card("9h")), Draw(seat=2, source="stock"),
             Discard(seat=2, card=parse_card("Kc")), Draw(seat=1, source="pile"))
    s = GAME.apply(s, meld(1, "Kc Kd Ks"))  # the pile's 9h stays in seat 1's hand
    assert s.known[1] == parse_cards("9h")
    from dataclasses import replace

    s = replace(s, out=2, held={1: 2, 2: 0})
    with pytest.raises(RuleViolation, match=r"seat 1 took 9h with the pile and has not melded "
                                            r"or discarded it: it is among the cards left"):
        GAME.check(s, left(1, "4h 4d"))
    assert GAME.can(s, left(1, "9h 4d"))


# --- the screen's actions build the events --------------------------------------------------


def test_actions_build_the_log_lines_with_json_names() -> None:
    s = play(start(turns=True), Upcard(card=parse_card("9h")))
    take = GAME.prompt(s).action("draw")
    pile = next(a for a in GAME.prompt(s).actions if a.label == "Take the pile")
    assert take is not None and take.label == "From the stock"
    built = build_event(pile, vocab=GAME.events)
    assert built.to_json() == {"type": "draw", "seat": 2, "from": "pile"}
    sheet = play(start())
    m = GAME.prompt(sheet).action("meld")
    assert m is not None
    ev = build_event(m, {"cards": parse_cards("Qs Qs 2c")}, vocab=GAME.events)
    assert ev.to_json() == {"type": "meld", "seat": 1, "cards": ["Qs", "Qs", "2c"]}


# --- from hand to hand, through the services ------------------------------------------------

SETTINGS = {"game": "mille", "seats": 2, "smallest_chip": 100, "stakes": "$1-$5",
            "params": {"stakes": [100, 500]}}


def _record(svc: Any, who: Any, hand_id: int, *events: Event) -> Any:
    now = None
    for ev in events:
        now = svc.record(who, hand_id, ev)
    return now


def test_the_sheet_carries_between_hands_and_a_new_game_starts_from_zero(tmp_path: Path) -> None:
    room = make_room()
    svc = room.svc
    table = svc.add_table(room.admin, SETTINGS, name="Mille 1")
    svc.add_user(room.admin, name="mo", full_name="Mo Mille", role="dealer", pin="5555")
    dealer = svc.sign_in("mo", "5555")
    svc.open_shift(dealer, table.id, floor="fran")
    first = svc.start_hand(dealer, table.id)
    assert "totals_in" not in first.replay.start.params
    _record(svc, dealer, first.hand.id, meld(1, "Qs Qh Qd Qc Qs Qh Qd Qc"), meld(2, "4h 4d 4c"),
            left(2, "Kh"), Out(seat=1))
    svc.settle(dealer, first.hand.id)
    # 8 queens: 260, no 2s: x4 = 1,040; seat 2 15 x 2 - 10 = 20
    second = svc.start_hand(dealer, table.id)
    p = second.replay.start.params
    assert p["dealer"] == 1 and p["totals_in"] == {"1": 1040, "2": 20}
    assert p["naturals_in"] == {"1": 2, "2": 1} and p["chapeaux_in"] == {"1": 0, "2": 0}
    # a refusal: said in the dealer's words, nothing recorded
    before = len(svc.hand_events(second.hand.id))
    with pytest.raises(RuleViolation, match=r"a meld is three or more cards, not 2"):
        svc.record(dealer, second.hand.id, meld(1, "Ks Kh"))
    assert len(svc.hand_events(second.hand.id)) == before
    _record(svc, dealer, second.hand.id, meld(2, "Ks Kh Kd Kc Ks Kh Kd Kc"),
            meld(1, "5h 5d 2c"), left(1, "Qs"), Out(seat=2))
    svc.settle(dealer, second.hand.id)  # seat 2: 80 x 4 = 320; seat 1: 30 - 100 = -70
    so_far = svc.game_so_far(table.id)
    assert len(so_far.hands) == 2 and not so_far.over
    assert so_far.sheet is not None and so_far.sheet.rows == (
        ("1", "1040**", "20*", "1040", "20"), ("2", "(-70)", "320**", "970", "340"))
    third = svc.start_hand(dealer, table.id)
    p = third.replay.start.params
    assert p["totals_in"] == {"1": 970, "2": 340} and p["chapeaux_in"] == {"1": 1, "2": 0}
    _record(svc, dealer, third.hand.id, meld(1, "As Ah Ad Ac As Ah Ad Ac"),
            meld(1, "Jd Jd Jh"), left(2, "3h 3d"), Out(seat=1))
    settled = svc.settle(dealer, third.hand.id)
    # seat 1: 120 x 4 + 110 x 2 = 700 -> 1,670; seat 2: -10 -> 330 (a skunk) and a chapeau;
    # seat 1's naturals 2 + 0 + 2, seat 2's chapeaux 1; 1,700 - 300: fourteen hundreds
    assert settled.payouts[1] == settled.put_in[2] == (500 + 4 * 500 + 1 * 500 + 14 * 100) * 2
    so_far = svc.game_so_far(table.id)
    assert so_far.over and len(so_far.hands) == 3
    assert so_far.sheet is not None and so_far.sheet.lines[-1] == (
        "game over: seat 1 wins; seat 2 pays $88 (skunk (under 600): doubled)")
    # the game report prints the sheet, the result and every hand's money
    from dealer_assist.reports.generate import game_report
    from tests.reports.pdftext import pages

    done = game_report(svc, room.floor, tmp_path / "game.pdf", table="Mille 1")
    text = "\n".join(pages(done.path))
    assert "Mille score sheet" in text and "hands 1 to 3" in text
    for line in so_far.sheet.lines:
        assert line in text
    fourth = svc.start_hand(dealer, table.id)  # a new game: nothing carried in
    assert not {"totals_in", "naturals_in", "chapeaux_in"} & set(fourth.replay.start.params)


def test_next_hand_seats_keeps_the_sheet_only_for_the_same_two_players() -> None:
    state = play(start(), meld(1, "Kh Kd Kc"), left(2, "4h"), Out(seat=1))
    assert GAME.next_hand_seats(state, (2, 1))["totals_in"] == {"1": 60, "2": -5}
    assert GAME.next_hand_seats(state, (1, 3)) == {}


def test_a_misdealt_hand_is_dealt_again_with_what_it_carried_in() -> None:
    events = [start(totals_in={"1": 300, "2": 200}), meld(1, "Kh Kd Kc")]
    from dealer_assist.events import Misdeal

    hand = replay([*events, Misdeal(reason="cards exposed")])
    assert hand.settle().conserved and GAME.redeal(hand.state) == {
        "totals_in": {"1": 300, "2": 200}}

"""Open-Face Chinese Poker: placement in turn, fouls, royalties, pair settlement, fantasyland."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.engine.hand import read_log, replay
from dealer_assist.errors import HandLogError, RuleViolation
from dealer_assist.events import Discard, Event, Start
from dealer_assist.games import ofc
from dealer_assist.games.ofc.events import Place, SetHand
from dealer_assist.games.open_face.rows import ROYALTY_TABLES, Rows, foul_reason, royalties

GAME = ofc.GAME


def rows(front: str, middle: str, back: str) -> Rows:
    return Rows(parse_cards(front), parse_cards(middle), parse_cards(back))


def start(seats: tuple[int, ...] = (1, 2), **params: Any) -> Start:
    params.setdefault("button", seats[-1])
    return Start(game="ofc", seats=seats, params=params)


def play(hands: dict[int, Rows], **params: Any) -> list[Event]:
    """A legal log that ends with ``hands``: first five back-first, then one card a turn."""
    seats = tuple(sorted(hands))
    begin = start(seats, **params)
    state = GAME.start(begin)
    queues = {
        s: [(r, c) for r in ("back", "middle", "front") for c in h.row(r)]
        for s, h in hands.items() if s not in state.settings.in_fantasyland
    }
    events: list[Event] = [begin]
    while not state.over:
        if state.first_five_done and state.pending_sets:
            seat = state.pending_sets[0]
            h = hands[seat]
            ev: Event = SetHand(seat=seat, front=h.front, middle=h.middle, back=h.back)
        else:
            seat = state.current  # type: ignore[assignment]
            row, card = queues[seat].pop(0)
            ev = Place(seat=seat, card=card, row=row)
        state = GAME.apply(state, ev)
        events.append(ev)
    return events


def place(seat: int, card: str, row: str) -> Place:
    return Place(seat=seat, card=parse_card(card), row=row)


def run(events: list[Event]) -> ofc.OfcState:
    return replay(events).state  # type: ignore[no-any-return]


# Three hands used for the multi-player settlements (royalties 29, 5, and a foul).
SEAT1 = rows("Qs Qh 3c", "8c 8d 8h 4c 4d", "5c 5d 5h 5s 2d")  # QQ 7, full house 12, quads 10
SEAT2 = rows("6c 6d 7s", "9c 9d Td Tc Jc", "Ah Kh Jh 9h 3h")  # 66 1, two pair 0, flush 4
SEAT3 = rows("Ad As 2c", "3d 4h 6h 7c 9s", "Kc Ks Kd Jd Js")  # AA over ace-less high: fouls
SEAT4 = rows("4s 3s 2s", "Qd Qc 7h 7d 2h", "Ac Ts Th 8s 6s")  # two pair over a pair: fouls


# --- the worked example -----------------------------------------------------------------------


def test_example_ofc_two_players_matches_expected(examples_dir: Path) -> None:
    events, lines = read_log(examples_dir / "ofc-two-players.jsonl")
    hand = replay(events, lines=lines)
    expected = json.loads((examples_dir / "ofc-two-players.expected.json").read_text())
    report = GAME.report(hand.state)
    assert report["fouled"] == expected["fouled"]
    assert report["royalties"] == expected["royalties"]
    assert [[p["seats"], p["points"]] for p in report["pairs"]] == expected[
        "pairs (seat a, seat b): points from a's side"]
    assert report["net"] == expected["net (cents)"]
    assert report["fantasyland"] == expected["fantasyland"]
    for row, text in expected["rows"].items():
        winner = int(text.split()[1])
        assert report["pairs"][0]["winners"][row] == winner
        assert report["pairs"][0]["rows"][row].startswith(f"seat {winner} (")
    settlement = hand.settle()
    assert settlement.conserved
    assert settlement.put_in[2] == 600 and settlement.payouts[1] == 600
    assert [s.text for s in settlement.steps] == [
        "Seat 2 pays seat 1 6 units ($6): rows +1, royalties 9 - 4"]
    assert report["next_button"] == 1


# --- OFC 1: turn order and placement ----------------------------------------------------------


def test_ruling_ofc_1_turn_starts_left_of_the_button() -> None:
    state = GAME.start(start((1, 2, 3), button=1))
    assert GAME.prompt(state).to_act == 2
    with pytest.raises(RuleViolation, match="it is seat 2's turn, not seat 1's"):
        GAME.apply(state, place(1, "Ah", "back"))


def test_ruling_ofc_1_first_five_then_one_card_a_turn() -> None:
    state = GAME.start(start((1, 2), button=2))
    for card in ("Ah", "Kh", "Qh", "Jh", "Th"):
        assert GAME.prompt(state).to_act == 1
        state = GAME.apply(state, place(1, card, "back"))
    assert GAME.prompt(state).to_act == 2
    for card in ("2c", "3c", "4c", "5c", "6c"):
        state = GAME.apply(state, place(2, card, "middle"))
    state = GAME.apply(state, place(1, "9s", "front"))
    with pytest.raises(RuleViolation, match="it is seat 2's turn, not seat 1's"):
        GAME.apply(state, place(1, "8s", "front"))
    assert GAME.prompt(state).message == "Seat 2: place a card in the front, back"


def test_rule_a_full_row_is_refused_and_the_open_rows_named() -> None:
    state = GAME.start(start())
    for card in ("Ah", "Kh", "Qh"):
        state = GAME.apply(state, place(1, card, "front"))
    with pytest.raises(RuleViolation, match=r"seat 1's front row is full \(3 cards\): "
                                            "place Jh in the middle or back"):
        GAME.apply(state, place(1, "Jh", "front"))
    assert [a.key for a in GAME.prompt(state).actions if a.kind == "place"] == ["middle", "back"]


def test_rule_a_card_already_out_is_refused() -> None:
    state = GAME.apply(GAME.start(start()), place(1, "Qh", "front"))
    with pytest.raises(RuleViolation, match="Qh is already out: seat 1's front row"):
        GAME.apply(state, place(1, "Qh", "middle"))


def test_rule_unknown_row_and_unknown_seat_are_refused() -> None:
    state = GAME.start(start())
    with pytest.raises(RuleViolation, match='"side" is not a row'):
        GAME.apply(state, place(1, "Qh", "side"))
    with pytest.raises(RuleViolation, match="seat 7 is not playing this hand"):
        GAME.apply(state, place(7, "Qh", "front"))
    assert GAME.apply(state, place(1, "Qh", "top")).rows[1].front == (parse_card("Qh"),)


def test_rule_ofc_takes_two_to_four_players() -> None:
    with pytest.raises(RuleViolation, match="2 to 4 players, not 5"):
        GAME.start(start((1, 2, 3, 4, 5)))


def test_a_bad_line_in_a_log_names_the_line() -> None:
    events = [start(), place(1, "Qh", "front"), place(1, "Qh", "back")]
    with pytest.raises(HandLogError, match="line 3: Qh is already out"):
        replay(events)


# --- OFC 2: fouls -----------------------------------------------------------------------------


def test_ruling_ofc_2_front_compared_rank_by_rank_with_the_middle() -> None:
    assert foul_reason(rows("Qs Qh As", "Qd Qc Jc 9c 3d", "2h 3h 4h 5h 7h")) is not None
    assert foul_reason(rows("Qs Qh Jd", "Qd Qc Jc 9c 3d", "2h 3h 4h 5h 7h")) is None


def test_ruling_ofc_2_middle_above_back_fouls() -> None:
    reason = foul_reason(rows("2s 3d 4c", "Ah Kh 9h 6h 3h", "As Ad Kc Qc Jd"))
    assert reason is not None and reason.startswith("the middle (flush")


def test_rule_trips_in_front_over_two_pair_middle_fouls() -> None:
    assert foul_reason(rows("7s 7d 7c", "Ah Ad Kc Kh 3h", "2h 3c 4d 5s 6s")) is not None


# --- OFC 3: royalties -------------------------------------------------------------------------

BACK_BASE = "Ah Ad Ac As 2c"  # quads in back so a middle made hand does not foul


@pytest.mark.parametrize(("hand", "row", "rules_text", "pineapple"), [
    (rows("6s 6d 2c", "Kh Kd Qc Qd 3c", BACK_BASE), "front", 1, 1),
    (rows("As Ah 2c", "Kh Kd Kc Qd Qc", "2s 2d 2h 2c 3c"), "front", 9, 9),
    (rows("5s 5d 2c", "Kh Kd Qc Qd 3c", BACK_BASE), "front", 0, 0),
    (rows("2s 2d 2h", "Kh Kd Kc Qd Qc", BACK_BASE), "front", 20, 10),
    (rows("Ks Kd Kh", "As Ad Ac Qd Qc", "2s 3s 4s 5s 6s"), "front", 20, 21),
    (rows("2s 3d 4c", "7h 7d 7c Qd 3c", BACK_BASE), "middle", 0, 2),
    (rows("2s 3d 4c", "7h 8d 9c Td Jc", BACK_BASE), "middle", 4, 4),
    (rows("2s 3d 4c", "2h 8h 9h Th Kh", BACK_BASE), "middle", 8, 8),
    (rows("2s 3d 4c", "Kh Kd Kc Qd Qc", BACK_BASE), "middle", 12, 12),
    (rows("2s 3d 4c", "Kh Kd Kc Ks Qc", "2h 3h 4h 5h 6h"), "middle", 20, 20),
    (rows("2s 3d 4c", "2h 3h 4h 5h 6h", "Ts Js Qs Ks As"), "middle", 30, 30),
    (rows("2s 3d 4c", "Th Jh Qh Kh Ah", "Ts Js Qs Ks As"), "middle", 50, 50),
    (rows("2s 3d 4c", "5h 5d 9c 9d Kc", "7h 8d 9s Td Jc"), "back", 2, 2),
    (rows("2s 3d 4c", "5h 5d 9c 9d Kc", "2h 8h 9h Th Kh"), "back", 4, 4),
    (rows("2s 3d 4c", "5h 5d 9c 9d Kc", "Kh Kd Kc Qd Qc"), "back", 6, 6),
    (rows("2s 3d 4c", "5h 5d 9c 9d Kc", BACK_BASE), "back", 10, 10),
    (rows("2s 3d 4c", "5h 5d 9c 9d Kc", "2h 3h 4h 5h 6h"), "back", 15, 15),
    (rows("2s 3d 4c", "5h 5d 9c 9d Kc", "Ts Js Qs Ks As"), "back", 25, 25),
])
def test_ruling_ofc_3_royalties_under_both_tables(
    hand: Rows, row: str, rules_text: int, pineapple: int
) -> None:
    assert foul_reason(hand) is None
    assert royalties(hand, ROYALTY_TABLES["rules-text"])[row] == rules_text
    assert royalties(hand, ROYALTY_TABLES["pineapple"])[row] == pineapple


def test_issue_pineapple_table_front_trips_run_10_to_22() -> None:
    table = ROYALTY_TABLES["pineapple"]
    assert royalties(rows("2s 2d 2h", "Kh Kd Kc Qd Qc", BACK_BASE), table)["front"] == 10
    assert royalties(rows("Ks Kd Kh", "As Ad Ac Qd Qc", "2s 3s 4s 5s 6s"), table)["front"] == 21
    hand = rows("As Ad Ah", "Kh Kd Kc Ks Qc", "2h 3h 4h 5h 6h")
    assert royalties(hand, table)["front"] == 22


def test_ruling_ofc_3_a_fouled_hand_earns_no_royalties() -> None:
    fouled = rows("As Ad 2c", "3d 4h 6h 7c 9s", "Kc Ks Kd Jd Js")
    clean = rows("2s 3s 5d", "4d 4c 8c 9c Tc", "Qh Qd Qc Th Td")
    report = GAME.report(run(play({1: fouled, 2: clean})))
    assert report["fouled"] == [1]
    assert report["royalties"] == {"1": 0, "2": 6}
    assert report["pairs"][0]["points"] == -12


def test_rule_royalty_table_setting_is_checked() -> None:
    with pytest.raises(RuleViolation, match='royalties must be one of "rules-text", "pineapple"'):
        GAME.start(start(royalties="vegas"))


def test_rule_the_pineapple_table_changes_the_settlement() -> None:
    a = rows("7s 7d 7c", "8h 8d 8c Kd Kc", "As Ad Ah Ac 2d")
    b = rows("2s 3s 5d", "4d 4c 9c Tc Jc", "Qh Qd Qc Th Td")
    text = GAME.report(run(play({1: a, 2: b})))
    pine = GAME.report(run(play({1: a, 2: b}, royalties="pineapple")))
    # rules-text: 20 + 12 + 10 = 42 vs 6; pineapple: 15 + 12 + 10 = 37 vs 6; both scoop 6.
    assert text["pairs"][0]["points"] == 6 + 42 - 6
    assert pine["pairs"][0]["points"] == 6 + 37 - 6


# --- OFC 4: pairwise settlement ---------------------------------------------------------------


def test_ruling_ofc_4_scoop_scores_three_more() -> None:
    report = GAME.report(run(play({1: SEAT1, 2: SEAT2})))
    assert report["royalties"] == {"1": 29, "2": 5}
    assert report["pairs"][0]["points"] == 3 + 3 + 29 - 5
    assert report["pairs"][0]["scoop"] is True


def test_ruling_ofc_4_a_tied_row_scores_nothing_and_breaks_the_scoop() -> None:
    a = rows("2s 3s 5d", "4d 4c 9c Tc Jc", "Qh Qd Qc Th Td")
    b = rows("2h 3h 5c", "6d 6c 8s 8h Kd", "Ks Kh Kc 7h 7d")
    report = GAME.report(run(play({1: a, 2: b})))
    pair = report["pairs"][0]
    assert pair["winners"] == {"front": None, "middle": 2, "back": 2}
    assert pair["scoop"] is False
    assert pair["points"] == -2 + 6 - 6


def test_ruling_ofc_4_fouled_hand_pays_six_plus_royalties() -> None:
    report = GAME.report(run(play({1: SEAT1, 3: SEAT3})))
    assert report["fouled"] == [3]
    assert report["pairs"] == [{"seats": [1, 3], "points": 35, "fouled": [3]}]
    assert report["net"] == {"1": 3500, "3": -3500}


def test_ruling_ofc_4_two_fouled_hands_exchange_nothing() -> None:
    report = GAME.report(run(play({3: SEAT3, 4: SEAT4})))
    assert report["fouled"] == [3, 4]
    assert report["pairs"][0]["points"] == 0
    settlement = GAME.settle(run(play({3: SEAT3, 4: SEAT4})))
    assert settlement.steps == () and settlement.conserved


def test_ruling_ofc_4_three_players_settle_pair_by_pair() -> None:
    state = run(play({1: SEAT1, 2: SEAT2, 3: SEAT3}, unit=100))
    report = GAME.report(state)
    assert [(p["seats"], p["points"]) for p in report["pairs"]] == [
        ([1, 2], 30), ([1, 3], 35), ([2, 3], 11)]
    assert report["net"] == {"1": 6500, "2": -1900, "3": -4600}
    assert sum(report["net"].values()) == 0
    settlement = GAME.settle(state)
    assert settlement.conserved
    assert dict(settlement.put_in) == {1: 0, 2: 1900, 3: 4600}
    assert dict(settlement.payouts) == {1: 6500, 2: 0, 3: 0}
    assert [s.text.split(":")[0] for s in settlement.steps] == [
        "Seat 2 pays seat 1 30 units ($30)",
        "Seat 3 pays seat 1 35 units ($35)",
        "Seat 3 pays seat 2 11 units ($11)",
    ]


def test_ruling_ofc_4_four_players_fouls_against_fouls() -> None:
    state = run(play({1: SEAT1, 2: SEAT2, 3: SEAT3, 4: SEAT4}, unit=250))
    report = GAME.report(state)
    assert [(p["seats"], p["points"]) for p in report["pairs"]] == [
        ([1, 2], 30), ([1, 3], 35), ([1, 4], 35), ([2, 3], 11), ([2, 4], 11), ([3, 4], 0)]
    assert report["net_units"] == {"1": 100, "2": -8, "3": -46, "4": -46}
    assert report["net"] == {"1": 25000, "2": -2000, "3": -11500, "4": -11500}
    assert GAME.settle(state).conserved


def test_rule_settle_refuses_an_unfinished_hand() -> None:
    with pytest.raises(RuleViolation, match="the hand is not finished: Seat 1: place card 1"):
        GAME.settle(GAME.start(start()))


# --- OFC 5: fantasyland -----------------------------------------------------------------------


def test_ruling_ofc_5_fantasyland_entry_queens_or_better_without_fouling() -> None:
    conf = ofc.Fantasyland()
    assert ofc.earns_fantasyland(rows("Qs Qh 3c", "8c 8d 8h 4c 4d", "5c 5d 5h 5s 2d"), conf)
    assert not ofc.earns_fantasyland(rows("Js Jh 3c", "8c 8d 8h 4c 4d", "5c 5d 5h 5s 2d"), conf)
    assert ofc.earns_fantasyland(rows("2s 2h 2c", "8c 8d 8h 4c 4d", "5c 5d 5h 5s 2d"), conf)
    assert not ofc.earns_fantasyland(SEAT3, conf)  # AA in front, but fouled
    assert ofc.earns_fantasyland(rows("Js Jh 3c", "8c 8d 8h 4c 4d", "5c 5d 5h 5s 2d"),
                                 ofc.Fantasyland(entry="JJ"))


def test_ruling_ofc_5_fantasyland_stay_conditions() -> None:
    conf = ofc.Fantasyland()
    assert ofc.stays_in_fantasyland(rows("2s 2h 2c", "8c 8d 8h Ac Kd", "5c 5d 5h Ks Kh"), conf)
    assert ofc.stays_in_fantasyland(rows("Qs Qh 3c", "8c 8d 8h 4c 4d", "9s 9d 9h Ks Kh"), conf)
    assert ofc.stays_in_fantasyland(rows("Qs Qh 3c", "8c 8d 4h 4c 2d", "5c 5d 5h 5s 2h"), conf)
    assert not ofc.stays_in_fantasyland(
        rows("As Ah 3c", "8c 8d 4h 4c 2d", "9s 9d 9h Ks Kh"), conf)
    assert not ofc.stays_in_fantasyland(
        rows("2s 2h 2c", "8c 8d 8h Ac Kd", "5c 5d 5h Ks Kh"), ofc.Fantasyland(stay="never"))


def test_ruling_ofc_5_fantasyland_hand_is_set_after_the_others_first_five() -> None:
    events = play({1: SEAT1, 2: SEAT2, 3: SEAT3}, button=3, fantasyland=[2])
    state = GAME.start(events[0])  # type: ignore[arg-type]
    early = SetHand(seat=2, front=SEAT2.front, middle=SEAT2.middle, back=SEAT2.back)
    assert "dealt thirteen cards after" in GAME.prompt(state).instructions[0]
    with pytest.raises(RuleViolation, match="sets after everyone else has placed their first"):
        GAME.apply(state, early)
    with pytest.raises(RuleViolation, match="seat 2 is in fantasyland"):
        GAME.apply(state, place(2, "Ah", "back"))
    assert [type(e).__name__ for e in events[1:13]] == ["Place"] * 10 + ["SetHand", "Place"]
    mid = run(events[:12])
    seat2 = GAME.view(mid).seats[1]
    assert seat2.face_down and seat2.hidden == 13 and seat2.rows == ()
    assert GAME.view(mid, reveal=True).seats[1].rows[0] == ("front", ("6c", "6d", "7s"))
    final = run(events)
    assert GAME.view(final).seats[1].rows[2][1] == ("Ah", "Kh", "Jh", "9h", "3h")
    report = GAME.report(final)
    assert report["net"] == {"1": 6500, "2": -1900, "3": -4600}
    assert report["fantasyland"] == [1]  # seat 2's 66 front meets no stay condition
    assert report["next_button"] == 3


def test_ruling_ofc_5_fantasyland_seat_stays_with_quads_in_back() -> None:
    report = GAME.report(run(play({1: SEAT1, 2: SEAT2}, fantasyland=[1])))
    assert report["fantasyland"] == [1]
    assert report["next_button"] == 2


def test_ruling_ofc_5_the_button_moves_left_after_a_normal_hand() -> None:
    report = GAME.report(run(play({1: SEAT1, 2: SEAT2, 3: SEAT3}, button=1)))
    assert report["next_button"] == 2


def test_ruling_ofc_5_a_seat_that_stays_keeps_fantasyland_when_a_player_sits_down() -> None:
    """Seat 2 played in fantasyland, seat 1 earned it: a fourth player sitting down takes it
    from nobody, and the button stays with seat 3 (anyone played in fantasyland)."""
    final = run(play({1: SEAT1, 2: SEAT2, 3: SEAT3}, button=3, fantasyland=[2]))
    assert GAME.next_hand(final) == {"button": 3, "in_fantasyland": [1]}
    assert GAME.next_hand_seats(final, (1, 2, 3, 4)) == {"button": 3, "in_fantasyland": [1]}
    assert GAME.next_hand_seats(final, (1, 3)) == {"button": 3, "in_fantasyland": [1]}


def test_ruling_ofc_5_a_seat_that_leaves_takes_its_fantasyland_with_it() -> None:
    """Seat 1 earned fantasyland and leaves: nobody plays the next hand in it (it does not pass
    to the seat that takes its place, nor to anyone else)."""
    final = run(play({1: SEAT1, 2: SEAT2, 3: SEAT3}, button=3, fantasyland=[2]))
    assert GAME.next_hand_seats(final, (2, 3)) == {"button": 3}
    assert GAME.next_hand_seats(final, (2, 3, 4)) == {"button": 3}


def test_ruling_ofc_5_the_button_moves_on_when_its_seat_leaves_or_nobody_played_fantasyland(
) -> None:
    """The button stays after a fantasyland hand only while its seat plays; otherwise the table
    moves it on as after any hand (the game names no button)."""
    final = run(play({1: SEAT1, 2: SEAT2, 3: SEAT3}, button=3, fantasyland=[2]))
    assert GAME.next_hand_seats(final, (1, 2)) == {"in_fantasyland": [1]}
    plain = run(play({1: SEAT1, 2: SEAT2, 3: SEAT3}, button=1))
    assert GAME.next_hand(plain) == {"button": 2, "in_fantasyland": [1]}
    assert GAME.next_hand_seats(plain, (1, 2, 3, 4)) == {"in_fantasyland": [1]}
    assert GAME.next_hand_seats(plain, (2, 3, 4)) == {}


def test_rule_fantasyland_settings_are_checked() -> None:
    with pytest.raises(RuleViolation, match="fantasyland is switched off"):
        GAME.start(start(fantasyland={"enabled": False, "seats": [1]}))
    with pytest.raises(RuleViolation, match="among the seats"):
        GAME.start(start(fantasyland=[5]))
    off = GAME.report(run(play({1: SEAT1, 2: SEAT2}, fantasyland=False)))
    assert off["fantasyland"] == []
    never = run(play({1: SEAT1, 2: SEAT2}, fantasyland={"stay": "never", "seats": [1]}))
    assert GAME.report(never)["fantasyland"] == []
    table = run(play({1: SEAT1, 2: SEAT2}, fantasyland={"stay": "never"}, in_fantasyland=[1]))
    assert GAME.report(table)["in_fantasyland"] == [1]
    assert GAME.report(table)["fantasyland"] == []


def test_rule_only_fantasyland_seats_set_a_whole_hand() -> None:
    state = GAME.start(start())
    with pytest.raises(RuleViolation, match="seat 1 is not in fantasyland"):
        GAME.apply(state, SetHand(seat=1, front=SEAT1.front, middle=SEAT1.middle,
                                  back=SEAT1.back))


# --- Pineapple --------------------------------------------------------------------------------


def test_issue_pineapple_three_cards_a_turn_one_discarded() -> None:
    state = GAME.start(start(pineapple=True))
    for seat, cards in ((1, "2c 3c 4c 5c 6c"), (2, "2d 3d 4d 5d 6d")):
        for card in cards.split():
            state = GAME.apply(state, place(seat, card, "back"))
    state = GAME.apply(state, place(1, "Ah", "middle"))
    assert GAME.prompt(state).message == "Seat 1: place a card in the front, middle and " \
                                         "discard one card"
    state = GAME.apply(state, place(1, "Kh", "middle"))
    with pytest.raises(RuleViolation, match="has placed its two cards this turn: record the"):
        GAME.apply(state, place(1, "Qh", "middle"))
    state = GAME.apply(state, Discard(seat=1, cards=(parse_card("Qh"),)))
    assert GAME.prompt(state).to_act == 2
    with pytest.raises(RuleViolation, match="Qh is already out: discarded by seat 1"):
        GAME.apply(state, place(2, "Qh", "middle"))
    state = GAME.apply(state, Discard(seat=2, count=1))
    with pytest.raises(RuleViolation, match="no discard due"):
        GAME.apply(state, Discard(seat=2, count=1))
    assert GAME.report(state)["discards"] == {"1": ["Qh"], "2": ["?"]}


def test_issue_pineapple_hand_completes_and_settles() -> None:
    events = ofc.sample_events(random.Random(7), players=3, pineapple=True)
    assert sum(isinstance(e, Discard) for e in events) == 12
    hand = replay(events)
    assert hand.over and hand.settle().conserved


def test_rule_no_discards_without_pineapple_and_no_pineapple_for_four() -> None:
    state = GAME.start(start())
    with pytest.raises(RuleViolation, match="not playing Pineapple"):
        GAME.apply(state, Discard(seat=1, count=1))
    with pytest.raises(RuleViolation, match="Pineapple takes 2 or 3 players"):
        GAME.start(start((1, 2, 3, 4), pineapple=True))


# --- prompt, view, narration ------------------------------------------------------------------


def test_view_gives_rows_status_and_royalties() -> None:
    state = run(play({1: SEAT1, 3: SEAT3}))
    view = GAME.view(state)
    s1, s3 = view.seats
    assert s1.rows == (("front", ("Qs", "Qh", "3c")),
                       ("middle", ("8c", "8d", "8h", "4c", "4d")),
                       ("back", ("5c", "5d", "5h", "5s", "2d")))
    assert s1.detail == ("royalties 29 (front 7, middle 12, back 10); net +35 units; "
                         "fantasyland next hand")
    assert s3.status == "fouled" and s3.detail.startswith("fouled: the front (pair of aces")
    assert GAME.prompt(state).done


def test_narration_names_fouls_and_pair_points() -> None:
    hand = replay(play({1: SEAT1, 3: SEAT3}))
    text = "\n".join(line for step in hand.steps for line in step.lines)
    assert "seat 3 Ad As 2c / 3d 4h 6h 7c 9s / Kc Ks Kd Jd Js: fouled" in text
    assert "seats 1 and 3: +35 for seat 1 (seat 3 fouled (6 + royalties 29))" in text


# --- properties -------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), pineapple=st.booleans(),
       fantasyland=st.booleans())
def test_property_random_hands_conserve_chips(
    seed: int, players: int, pineapple: bool, fantasyland: bool
) -> None:
    rng = random.Random(seed)
    events = ofc.sample_events(rng, players=min(players, 3) if pineapple else players,
                               pineapple=pineapple, fantasyland=(1,) if fantasyland else ())
    hand = replay(events)
    settlement = hand.settle()
    assert settlement.conserved
    report = GAME.report(hand.state)
    assert sum(report["net"].values()) == 0
    assert all(v % 100 == 0 for v in report["net"].values())
    for seat in report["fouled"]:
        assert report["royalties"][str(seat)] == 0


def test_sample_hand_is_a_complete_legal_hand() -> None:
    events = GAME.sample_hand(random.Random(1), players=4)
    assert sum(isinstance(e, Place) for e in events) == 52
    assert replay(events).over


# --- table settings: fees and unknown keys ----------------------------------------------------


def test_rule_a_per_player_fee_is_put_in_and_conserved() -> None:
    state = run(play({1: SEAT1, 2: SEAT2}, fee={"kind": "per-player", "amount": 100},
                     smallest_chip=100))
    settlement = GAME.settle(state)
    assert [(f.kind, f.amount, f.from_seat) for f in settlement.fees] == [
        ("player-fee", 100, 1), ("player-fee", 100, 2)]
    assert dict(settlement.put_in) == {1: 100, 2: 3000 + 100}
    assert dict(settlement.payouts) == {1: 3000, 2: 0}
    assert settlement.conserved
    assert GAME.report(state)["net"] == {"1": 3000, "2": -3000}


def test_rule_no_pot_means_no_rake() -> None:
    with pytest.raises(RuleViolation, match="settled player to player and has no pot"):
        GAME.start(start(fee={"kind": "rake", "percent": "5"}))


def test_rule_an_unknown_setting_is_refused() -> None:
    with pytest.raises(RuleViolation, match="ofc does not take royalty: its settings are"):
        GAME.start(start(royalty="pineapple"))

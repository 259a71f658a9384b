"""Ruling caro-6 and the fees ruling: only uncalled chips go back; a pot won because the others
in it folded is a win, pushed as one and raked. One pinned rake per pot shape."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.hand import replay
from dealer_assist.events import event_from_json

RAKE = {"kind": "rake", "percent": "5", "cap": 500, "min_pot": 1000}

#: The demo hand an auditor found short-raked: seat 4 all-in for $8.25 before the flip, seats 6
#: and 8 build a side pot, seat 8 folds to seat 6's $20 bet on the flip.
DEMO_HAND: list[dict[str, Any]] = [
    {"type": "start", "game": "caro-holdem", "seats": [4, 6, 7, 8], "blinds": [1000, 2000],
     "button": 6, "cap": 4, "fee": RAKE, "smallest_chip": 25, "unit": 1000,
     "stacks": {"4": 825, "6": 396000, "7": 7350, "8": 14850}},
    {"type": "discard", "seat": 4, "cards": ["Tc", "4d"]},
    {"type": "call", "seat": 4},
    {"type": "discard", "seat": 6, "cards": ["5d", "5c", "7h"]},
    {"type": "raise", "seat": 6},
    {"type": "fold", "seat": 7},
    {"type": "discard", "seat": 8, "cards": ["8d", "9s", "Qh"]},
    {"type": "raise", "seat": 8},
    {"type": "raise", "seat": 6},
    {"type": "call", "seat": 8},
    {"type": "board", "cards": ["Kd", "Th"]},
    {"type": "check", "seat": 8},
    {"type": "bet", "seat": 6},
    {"type": "fold", "seat": 8},
    {"type": "board", "cards": ["7d"]},
    {"type": "board", "cards": ["6c", "3s"]},
    {"type": "show", "seat": 4, "cards": ["5h", "2d", "Kc"]},
    {"type": "show", "seat": 6, "cards": ["Ks", "2c"]},
]


def settle(lines: list[dict[str, Any]]) -> Settlement:
    s = replay([event_from_json(x) for x in lines]).settle()
    assert s.conserved
    return s


def start(**more: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "type": "start", "game": "caro-holdem", "seats": [1, 2, 3], "button": 3,
        "unit": 1000, "ante": 100, "fee": RAKE, "stacks": {"1": 100000, "2": 100000, "3": 100000},
    }
    base.update(more)
    return base


def act(kind: str, seat: int, **more: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, **more}


def board(*cards: str) -> dict[str, Any]:
    return {"type": "board", "cards": list(cards)}


def test_ruling_caro_6_demo_hand_side_pot_won_by_fold_is_raked_on_what_was_called() -> None:
    s = settle(DEMO_HAND)
    assert s.put_in == {4: 825, 6: 10000, 7: 1000, 8: 8000}  # $198.25 in all
    assert [(f.kind, f.amount, f.note) for f in s.fees] == [
        ("rake", 500, "5% of $178.25, capped at $5")
    ]
    assert [p.text for p in s.steps] == [
        "Drop $5 rake",
        "Split the main pot $28 between seats 4, 6",
        "  Push $14 to seat 4",
        "  Push $14 to seat 6",
        "Push the side pot $145.25 to seat 6: the others in it folded",
        "Return $20 uncalled to seat 6: the part of its bet nobody called",
    ]
    assert [p.kind for p in s.steps] == ["fee", "split", "push", "push", "push", "return"]
    assert s.payouts == {4: 1400, 6: 1400 + 14525 + 2000, 7: 0, 8: 0}
    pots = s.extra["pots"]
    assert [(p["amount"], p["fee"], p.get("returned", False)) for p in pots] == [
        (3300, 500, False), (14525, 0, False), (2000, 0, True)
    ]


def test_ruling_caro_6_one_winner_by_fold_is_raked_and_the_uncalled_bet_returns() -> None:
    # Antes $3; seat 1 bets $50 and seat 2 calls on the flip; seat 1 bets $100 on the blip and
    # seat 2 folds: $103 was called (5% = $5.15, capped at $5) and $100 goes back.
    s = settle([start(), act("check", 1), act("check", 2), act("check", 3), board("Ah", "Kd"),
                act("bet", 1), act("call", 2), act("fold", 3), board("7c"), act("bet", 1),
                act("fold", 2)])
    assert [(f.amount, f.note) for f in s.fees] == [(500, "5% of $103, capped at $5")]
    assert [p.text for p in s.steps] == [
        "Drop $5 rake",
        "Push the pot $98 to seat 1",
        "Return $100 uncalled to seat 1: the part of its bet nobody called",
    ]
    assert s.payouts[1] == 9800 + 10000


def test_ruling_caro_6_a_raise_below_what_the_folder_put_in_over_the_hand_is_not_uncalled() -> (
    None
):
    # Seat 1 bets holding 5 cards ($50); seat 2 raises to level 2 holding 1 card ($20); seat 1
    # folds. Over the hand seat 1 put in $51 and seat 2 $21: seat 1 had matched the raise before
    # it was made, so nothing of it is uncalled and seat 2 wins all $72 (the rule compared one
    # round's levels and returned $10 before ruling caro-6 said totals).
    s = settle([start(seats=[1, 2], button=2, stacks={"1": 100000, "2": 100000}),
                act("bet", 1), act("discard", 2, count=4), act("raise", 2), act("fold", 1)])
    assert s.put_in == {1: 5100, 2: 2100}
    assert [p.text for p in s.steps] == ["Push the pot $72 to seat 2"]
    assert s.payouts == {1: 0, 2: 7200}
    assert s.fees == ()  # no flip, no drop (the default)


def test_ruling_caro_6_call_above_an_all_in_holds_only_its_owners_chips_and_returns() -> None:
    # Seat 1 is all-in for $21; seat 2 calls $50 holding five cards. Nobody else could put a
    # chip beside seat 2's extra $30: it goes back unraked; the rake is on the $42 main pot.
    s = settle([start(seats=[1, 2], button=2, stacks={"1": 2100, "2": 100000}),
                act("discard", 1, count=3), act("bet", 1), act("call", 2), board("2c", "7d"),
                board("9h"), board("Js", "4c"), act("show", 1, cards=["As", "Ad"]),
                act("show", 2, cards=["Kd", "Kc", "3h", "5s", "8d"])])
    assert [(f.amount, f.note) for f in s.fees] == [
        (200, "5% of $42, rounded down to the $1 chip")
    ]
    assert s.steps[-1].text == (
        "Return $30 uncalled to seat 2: more than any other player put in over the hand, "
        "so nobody could win it"
    )
    assert s.payouts == {1: 4000, 2: 3000}


def test_ruling_caro_6_all_in_for_less_matches_a_raise_up_to_what_it_put_in() -> None:
    # Seat 3 bets $50 holding five cards; seat 1 calls all-in for $30; seat 2 folds. Seat 3's
    # bet was matched up to $30 by the all-in: $20 goes back, the rest is contested and raked.
    s = settle([start(stacks={"1": 3100, "2": 100000, "3": 100000}, button=2),
                act("bet", 3), act("call", 1), act("fold", 2), board("2c", "7d"),
                board("9h"), board("Js", "4c"),
                act("show", 1, cards=["As", "Ad", "3c", "4h", "6d"]),
                act("show", 3, cards=["Kd", "Kc", "3h", "5s", "8d"])])
    assert s.put_in == {1: 3100, 2: 100, 3: 5100}
    assert [(f.amount, f.note) for f in s.fees] == [(300, "5% of $63, rounded down to the $1 chip")]
    assert s.steps[-1].text == "Return $20 uncalled to seat 3: the part of its bet nobody called"
    assert s.payouts == {1: 6000, 2: 0, 3: 2000}

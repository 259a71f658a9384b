"""Ruling caro-6: chips are compared over the whole hand, never round by round.

The worked shapes are written out with their numbers; the property test plays random legal hands
with short stacks (all-ins, discards, folds) and checks the engine against a reading of the
ruling written here on its own, from the ruling's text.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from dealer_assist.engine.base import Settlement
from dealer_assist.engine.hand import HandReplay, replay
from dealer_assist.engine.pots import split_pot
from dealer_assist.events import event_from_json
from dealer_assist.games.caro_holdem.play import start_state, step
from dealer_assist.games.caro_holdem.sample import sample_hand, sample_start
from dealer_assist.games.caro_holdem.showdown import best_hands, final_pots
from dealer_assist.games.caro_holdem.state import BETTING, OVER, State

RAKE = {"kind": "rake", "percent": "5", "cap": 100000, "no_flop_no_drop": False}


def start(seats: list[int], button: int, stacks: dict[int, int], **more: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "type": "start", "game": "caro-holdem", "seats": seats, "button": button,
        "unit": 1000, "ante": 100, "stacks": {str(s): v for s, v in stacks.items()},
    }
    base.update(more)
    return base


def act(kind: str, seat: int, **more: Any) -> dict[str, Any]:
    return {"type": kind, "seat": seat, **more}


def board(*cards: str) -> dict[str, Any]:
    return {"type": "board", "cards": list(cards)}


def play(*lines: dict[str, Any]) -> HandReplay:
    return replay([event_from_json(line) for line in lines])


def settled(*lines: dict[str, Any]) -> Settlement:
    s = play(*lines).settle()
    assert s.conserved
    return s


# --- the uncalled chips: totals over the hand ----------------------------------------------------


def test_ruling_caro_6_a_bet_below_an_all_in_players_total_is_not_uncalled() -> None:
    """Seat 6 (five cards) is all-in pre-flip for $151 in all; seat 9 (three cards) has put in
    $91 and bets $30 on the flip; seat 8 folds. Seat 9's $121 does not exceed seat 6's $151, so
    nothing comes back to seat 9 (comparing the flip alone returned the $30) and seat 6, with
    the best hand, wins every chip: $151 + $151 + $121 = $423."""
    s = settled(
        start([6, 8, 9], 9, {6: 15100, 8: 100000, 9: 100000}),
        act("bet", 6), act("call", 8),
        act("discard", 9, cards=["2c", "3d"]), act("raise", 9),
        act("raise", 6),  # level 3 holding five: $150 in the round, every chip seat 6 has
        act("call", 8), act("call", 9),
        board("Ah", "Kd"),
        act("check", 8), act("bet", 9), act("fold", 8),
        board("7c"), board("7d", "2s"),
        act("show", 6, cards=["As", "Ad", "4c", "5c", "9h"]),
        act("show", 9, cards=["Kc", "Ks", "8h"]),
    )
    assert s.put_in == {6: 15100, 8: 15100, 9: 12100}
    assert s.payouts == {6: 42300, 8: 0, 9: 0}
    assert [p.kind for p in s.steps] == ["push"]
    assert [p.text for p in s.steps] == ["Push the pot $423 to seat 6"]


def test_ruling_caro_6_heads_up_an_all_in_call_for_less_in_the_round_still_covers_the_bet() -> (
    None
):
    """Heads-up: seat 1 (five cards) put in $101 before the flip; on the flip seat 2 (one card)
    bets $10 and seat 1 calls all-in for the $0.50 it has left. Over the hand seat 1 put in more
    ($101.50 against $31), so no part of seat 2's bet goes back (the round's amounts returned
    $9.50): the pot is $132.50, all of it contested."""
    s = settled(
        start([1, 2], 2, {1: 10150, 2: 100000}),
        act("bet", 1), act("discard", 2, count=4), act("raise", 2), act("call", 1),
        board("Ah", "Kd"),
        act("check", 1), act("bet", 2), act("call", 1),
        board("7c"), board("7d", "2s"),
        act("show", 1, cards=["Qs", "Qd", "4c", "5c", "9h"]),
        act("show", 2, cards=["Ac"]),
    )
    assert s.put_in == {1: 10150, 2: 3100}
    assert s.payouts == {1: 0, 2: 13250}
    assert [p.text for p in s.steps] == ["Push the pot $132.50 to seat 2"]


def test_ruling_caro_6_an_all_in_raise_below_a_callers_total_is_not_uncalled() -> None:
    """Seat 1 (five cards) is at level 3 for $150 before the flip; seat 2 (two cards) raises to
    level 4 all-in ($80, $81 in all); seat 3 folds. Seat 1's $151 already covers the raise: seat
    1 is not asked again, nothing goes back to seat 2 (the round's levels returned $20 to it),
    and what seat 1 put in above seat 2's $81 ($70) is the part nobody could win. The $193
    pot is seat 2's and seat 1's to contest."""
    s = settled(
        start([1, 2, 3], 3, {1: 100000, 2: 8100, 3: 100000}),
        act("bet", 1),
        act("discard", 2, cards=["2c", "3d", "4h"]), act("raise", 2),
        act("discard", 3, count=4), act("raise", 3),
        act("call", 1),
        act("raise", 2),  # level 4 holding two: $80 in the round, all-in
        act("fold", 3),
        board("Ah", "Kd"), board("7c"), board("7d", "2s"),
        act("show", 1, cards=["Qs", "Qd", "4c", "5c", "9h"]),
        act("show", 2, cards=["As", "Ad"]),
    )
    assert s.put_in == {1: 15100, 2: 8100, 3: 3100}
    assert s.payouts == {1: 7000, 2: 19300, 3: 0}
    assert [p.text for p in s.steps] == [
        "Push the pot $193 to seat 2",
        "Return $70 uncalled to seat 1: more than any other player put in over the hand, "
        "so nobody could win it",
    ]


# --- the end of a round: totals over the hand ----------------------------------------------------


def test_ruling_caro_6_not_asked_when_every_all_in_opponent_put_in_no_more_over_the_hand() -> (
    None
):
    """Seat 1 (five cards) put in $51 before the flip; seat 2 (one card, $21 in all) bets its
    last $10 on the flip. Seat 1's total is larger: whatever it added could not be won, so the
    flip betting is over (this round's amounts asked seat 1 for $50)."""
    hand = play(
        start([1, 2], 2, {1: 100000, 2: 2100}),
        act("bet", 1), act("discard", 2, count=4), act("call", 2),
        board("Ah", "Kd"), act("check", 1), act("bet", 2),
    )
    state = hand.state
    assert state.seat(2).all_in and state.seat(2).hand_in == 2100
    assert state.to_act is None and state.phase == "board"


def test_ruling_caro_6_asked_while_an_all_in_opponent_put_in_more_over_the_hand() -> None:
    """Seat 2 (three cards, $91 in all) bets $30 on the flip; seat 1 (one card after its
    discard, $121 in all) raises all-in to level 2 for $20. This round seat 2 put in more, but
    over the hand seat 1 did: seat 2 still owes $30 by ruling 4 and must act (the round's
    amounts closed the betting)."""
    lines = [
        start([1, 2], 2, {1: 12100, 2: 100000}),
        act("bet", 1), act("discard", 2, count=2), act("raise", 2), act("call", 1),
        board("Ah", "Kd"), act("check", 1), act("bet", 2),
        act("discard", 1, count=4), act("raise", 1),
    ]
    state = play(*lines).state
    assert state.seat(1).all_in and state.seat(1).hand_in == 12100
    assert state.seat(2).hand_in == 9100
    assert state.to_act == 2
    s = settled(*lines, act("call", 2), board("7c"), board("7d", "2s"),
                act("show", 1, cards=["As"]), act("show", 2, cards=["Qs", "Qd", "4c"]))
    assert s.put_in == {1: 12100, 2: 12100}
    assert s.payouts == {1: 24200, 2: 0}


# --- random legal hands against the ruling's own reading -----------------------------------------


def reference_payouts(state: State) -> tuple[dict[int, int], dict[int, int]]:
    """Ruling caro-6 read on its own: (what each seat is pushed, what goes back uncalled)."""
    cfg = state.settings
    totals = {s.seat: s.hand_in for s in state.seats}
    live = [s.seat for s in state.seats if not s.folded]
    all_in = {s.seat for s in state.seats if not s.folded and s.all_in}
    actors = [s for s in live if s not in all_in]
    back: dict[int, int] = {}
    ranked = sorted(totals, key=lambda s: totals[s], reverse=True)
    top, rest = ranked[0], ranked[1:]
    second = max((totals[s] for s in rest), default=0)
    if totals[top] > second and top in live and not [s for s in actors if s != top]:
        back[top] = totals[top] - second
        totals[top] = second
    pots: list[tuple[int, list[int]]] = []
    if len(live) == 1:
        pots.append((sum(totals.values()), live))
    else:
        below = 0
        for level in sorted({totals[s] for s in all_in if totals[s] > 0}):
            chips = sum(min(t, level) - min(t, below) for t in totals.values())
            pots.append((chips, [s for s in live if s not in all_in or totals[s] >= level]))
            below = level
        chips = sum(t - below for t in totals.values() if t > below)
        if chips:
            pots.append((chips, actors or live))
    hands = best_hands(state)
    out = {s: 0 for s in cfg.seats}
    for chips, eligible in pots:
        if len(eligible) > 1:
            top_strength = max(hands[s].strength for s in eligible)
            eligible = [s for s in eligible if hands[s].strength == top_strength]
        parts = split_pot(chips, eligible, seats=cfg.seats, button=cfg.button,
                          smallest_chip=cfg.smallest_chip)
        for seat, amount in parts.items():
            out[seat] += amount
    for seat, amount in back.items():
        out[seat] += amount
    return out, back


def _asked_for_nothing(state: State) -> bool:
    """The seat to act faces only all-in players whose totals are no larger than its own."""
    me = state.seat(state.to_act)  # type: ignore[arg-type]
    others = [s for s in state.live() if s.seat != me.seat]
    return bool(others) and all(s.all_in and s.hand_in <= me.hand_in for s in others)


@pytest.mark.parametrize("seed", range(8))
def test_ruling_caro_6_random_all_in_hands_settle_as_the_ruling_reads(seed: int) -> None:
    rng = random.Random(9100 + seed)
    checked = returned = 0
    for _ in range(60):
        players = rng.randint(2, 6)
        first = sample_start(rng, players=players, fee=RAKE)
        events = sample_hand(rng, players=players, start=first, fold_rate=0.15)
        state = start_state(first)  # type: ignore[arg-type]
        for event in events[1:]:
            if state.phase == BETTING:
                assert not _asked_for_nothing(state), (seed, events)
            state = step(state, event)
        assert state.phase == OVER
        settlement = replay(events).settle()
        assert settlement.conserved
        fees = sum(f.amount for f in settlement.fees if f.from_seat is None)
        expected, back = reference_payouts(state)
        got = dict(settlement.payouts)
        # The fee comes out of the pots, the main pot first: compare what the winners get
        # before it, and the rake's base with the chips that were not returned.
        assert sum(got.values()) + fees == sum(expected.values()), (seed, events)
        if fees == 0:
            assert got == expected, (seed, events)
        base = sum(s.hand_in for s in state.seats) - sum(back.values())
        for line in settlement.fees:
            if line.kind == "rake":
                assert line.base == base, (seed, events)
        for p in settlement.steps:
            if p.kind == "return":
                returned += 1
                seat = p.to_seat
                others = [s.hand_in for s in state.seats if s.seat != seat]
                assert state.seat(seat).hand_in > max(others), (seed, events)  # type: ignore[arg-type]
        # An all-in player wins from each opponent at most what they put in: every pot they
        # contest lies within their own total, but the last pot above every all-in total when
        # nobody still in can act (the ruling gives it to every player still in).
        pots, _ = final_pots(state)
        can_act = [s for s in state.live() if not s.all_in]
        for pot, _returned in pots:
            for seat in pot.eligible:
                s = state.seat(seat)
                if s.all_in:
                    if pot.level is None:
                        assert not can_act, (seed, events)
                    else:
                        assert pot.level <= s.hand_in, (seed, events)
        checked += 1
    assert checked == 60 and returned > 0


# --- hands settled before the rule read this way (verify's notes) --------------------------------


def test_ruling_caro_6_verify_names_a_hand_settled_by_the_round_rule_as_a_note_not_a_fault() -> (
    None
):
    """The first shape, settled as the round-by-round rule did ($30 back to seat 9), is a genuine
    record: verify says which rule settled it and what it gave differently, and no fault."""
    from dealer_assist.games.caro_holdem._legacy import ROUND_RULE, earlier_rules
    from dealer_assist.services.chain import canonical
    from dealer_assist.services.ledger import ledger_lines
    from dealer_assist.services.verify import HandInfo, HandNote, check_hand

    lines = [
        start([6, 8, 9], 9, {6: 15100, 8: 100000, 9: 100000}, fee=RAKE),
        act("bet", 6), act("call", 8), act("discard", 9, cards=["2c", "3d"]), act("raise", 9),
        act("raise", 6), act("call", 8), act("call", 9), board("Ah", "Kd"),
        act("check", 8), act("bet", 9), act("fold", 8), board("7c"), board("7d", "2s"),
        act("show", 6, cards=["As", "Ad", "4c", "5c", "9h"]),
        act("show", 9, cards=["Kc", "Ks", "8h"]),
    ]
    hand = play(*lines)
    old = {r.name: r.settlement for r in earlier_rules(hand.state)}[ROUND_RULE]
    assert old.payouts[9] == 3000 and old.conserved
    bodies = [canonical(line) for line in lines]
    job = (7, HandInfo(1, 3, "settled"), list(range(1, len(lines) + 1)), bodies,
           ledger_lines(7, old))
    found = check_hand(job)
    assert isinstance(found, HandNote)
    assert found.message == (
        f"hand 3 was settled under {ROUND_RULE}: the house fee $2 short ($19 taken, $21 owed); "
        "seat 6 pushed $28 less; seat 9 pushed $30 more"
    )
    # a ledger no rule gives is still a fault
    forged = ledger_lines(7, hand.settle())[:-1]
    assert not isinstance(check_hand((*job[:4], forged)), HandNote)

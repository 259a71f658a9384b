"""Rams: one test per ruling (rams-1 to rams-4), worked hands with the numbers written out (Rams
won and lost, a redeal, a widow switch, the dealer taking the trump card), the refusals in the
dealer's words, revokes found by a later card, and chips conserved across a run of hands."""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import parse_card
from dealer_assist.engine.hand import HandReplay, replay
from dealer_assist.errors import RuleViolation
from dealer_assist.events import CardDealt, Event, Start
from dealer_assist.games.rams import GAME
from dealer_assist.games.rams.events import Pass, Play, Rams, TakeTrump, Trump, Widow


def start(seats: tuple[int, ...] = (1, 2, 3, 4), dealer: int = 4, pot_in: int = 1500,
          stake: int = 100, **more: Any) -> Start:
    return Start(game="rams", seats=seats,
                 params={"dealer": dealer, "stake": stake, "pot_in": pot_in, **more})


def card(seat: int, code: str) -> CardDealt:
    return CardDealt(seat=seat, card=parse_card(code))


def trick(*plays: tuple[int, str]) -> list[Event]:
    return [card(s, c) for s, c in plays]


def play(*events: Event | list[Event]) -> HandReplay:
    flat: list[Event] = []
    for e in events:
        flat.extend(e if isinstance(e, list) else [e])
    return replay(flat)


def refused(events: list[Event], bad: Event, match: str) -> None:
    state = play(*events).state
    with pytest.raises(RuleViolation, match=match):
        GAME.apply(state, bad)


# The example hand (tests/data/examples/rams-widow-and-a-player-without-a-trick.jsonl): four
# players, the dealer seat 4, a $1 counter, 15 counters carried in. Hearts are trumps.
EXAMPLE = [
    start(),
    Trump(card=parse_card("Kh")),
    Widow(seat=1), Pass(seat=2), Play(seat=3), Play(seat=4),
    *trick((1, "As"), (3, "7s"), (4, "Ks")),
    *trick((1, "Ah"), (3, "8h"), (4, "Th")),
    *trick((1, "Qc"), (3, "Ac"), (4, "9h")),
    *trick((4, "Jd"), (1, "Qd"), (3, "8d")),
    *trick((1, "9s"), (3, "Td"), (4, "Jh")),
]


def test_worked_hand_widow_switch_a_fifth_of_the_pot_per_trick_and_a_player_without_a_trick() -> (
    None
):
    hand = play(EXAMPLE)
    assert hand.over
    r = GAME.report(hand.state)
    assert [t["winner"] for t in r["tricks"]] == [1, 1, 4, 1, 4]
    assert r["tricks_won"] == {"1": 3, "3": 0, "4": 2}
    s = hand.settle()
    # pot = 15 carried + 5 ante = 20 counters: $4 a trick; seat 1 $12, seat 4 $8; seat 3
    # played and took no trick: $5 into the next pot
    assert s.payouts == {1: 1200, 4: 800}
    assert s.put_in == {4: 500, 3: 500}
    assert s.carry_in == 1500 and s.carry_out == 500 and s.conserved
    assert r["payouts"] == {"1": 1200, "4": 800} and r["pays"] == {"3": 500, "4": 500}
    assert r["carry"] == 500 and r["revokes"] == []


def test_the_example_hand_log_replays_from_the_cli_as_expected(
    examples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dealer_assist.cli import main

    name = "rams-widow-and-a-player-without-a-trick"
    lines = (examples_dir / f"{name}.jsonl").read_text().splitlines()
    assert [json.loads(x) for x in lines] == [e.to_json() for e in EXAMPLE]
    assert main(["replay", "--json", str(examples_dir / f"{name}.jsonl")]) == 0
    out = json.loads(capsys.readouterr().out)
    expected = json.loads((examples_dir / f"{name}.expected.json").read_text())
    assert out == expected
    assert out["payouts"] == {"1": 1200, "4": 800} and out["carry"] == 500


# --- rams-1: players, pack, ante, the turned card ------------------------------------------


def test_ruling_rams_1_three_to_five_players_the_dealer_antes_five_counters() -> None:
    with pytest.raises(RuleViolation, match="3 to 5 players, not 2"):
        GAME.start(start(seats=(1, 2), dealer=2))
    with pytest.raises(RuleViolation, match="3 to 5 players, not 6"):
        GAME.start(start(seats=(1, 2, 3, 4, 5, 6), dealer=6))
    state = GAME.start(start(stake=200, pot_in=0))
    assert state.pot == 1000 and GAME.contributions(state) == {4: 1000}


def test_ruling_rams_1_the_turned_card_is_from_the_32_card_pack_and_out_of_play() -> None:
    refused([start()], Trump(card=parse_card("6h")), "not in the 32-card pack")
    refused([start()], Play(seat=1), "turn the trump card first")
    base = [start(), Trump(card=parse_card("Kh")), Play(seat=1), Play(seat=2), Play(seat=3),
            Play(seat=4)]
    refused(base, card(1, "Kh"), "K♥ is out of play this hand")
    refused(base, card(1, "5h"), "not in the 32-card pack")


# --- rams-2: declarations -------------------------------------------------------------------


def test_ruling_rams_2_declarations_go_from_the_dealers_left_the_dealer_last() -> None:
    base = [start(), Trump(card=parse_card("Kh"))]
    assert GAME.prompt(play(base).state).to_act == 1
    refused(base, Play(seat=4), "seat 1 declares next, not seat 4")


def test_ruling_rams_2_nobody_passes_while_the_pot_holds_five_counters_or_fewer() -> None:
    # an empty pot plus the ante is exactly 5 counters: no pass
    base = [start(pot_in=0), Trump(card=parse_card("Kh"))]
    refused(base, Pass(seat=1), "nobody may pass while the pot holds 5 counters or fewer "
            r"\(it holds 5\)")
    action = GAME.prompt(play(base).state).action("pass")
    assert action is not None and not action.enabled
    # one counter more and passing is allowed
    GAME.apply(play([start(pot_in=100), Trump(card=parse_card("Kh"))]).state, Pass(seat=1))


def test_ruling_rams_2_the_widow_once_a_hand() -> None:
    base = [start(), Trump(card=parse_card("Kh")), Widow(seat=1)]
    refused(base, Widow(seat=2), "seat 1 has already taken the widow")


def test_ruling_rams_2_after_rams_everyone_plays_and_later_players_may_take_the_widow() -> None:
    base = [start(), Trump(card=parse_card("Kh")), Pass(seat=1), Rams(seat=2)]
    refused(base, Pass(seat=3), "seat 2 declared Rams: everyone must play")
    refused(base, Rams(seat=3), "seat 2 has already declared Rams")
    state = play(*base, Widow(seat=3), Play(seat=4)).state
    assert state.tricks is not None and state.tricks.order == (1, 2, 3, 4)
    assert state.widow_by == 3


def test_ruling_rams_2_everyone_before_the_dealer_passes_redeal_by_the_same_dealer() -> None:
    # worked: three players, dealer seat 3, 10 counters in: pot 15 counters after the ante
    hand = play(start(seats=(1, 2, 3), dealer=3, pot_in=1000), Trump(card=parse_card("9c")),
                Pass(seat=1), Pass(seat=2))
    assert hand.over
    s = hand.settle()
    # seat 2 (the dealer's right) pays the dealer $5; the pot ($15, ante included) carries
    assert s.put_in == {3: 500, 2: 500} and s.payouts == {3: 500}
    assert s.carry_out == 1500 and s.conserved
    assert GAME.next_hand(hand.state) == {"dealer": 3}
    assert GAME.report(hand.state)["redeal"] is True


def test_ruling_rams_2_one_other_player_in_the_dealer_must_play_and_may_take_the_trump() -> None:
    base = [start(seats=(1, 2, 3), dealer=3, pot_in=1000), Trump(card=parse_card("Qd")),
            Play(seat=1), Pass(seat=2)]
    refused(base, Pass(seat=3), "one other player plays: the dealer must play")
    hand = play(*base, Play(seat=3), TakeTrump(seat=3, give=parse_card("7c")))
    state = hand.state
    assert state.gave == parse_card("7c")
    # the trump card is now the dealer's; the card given is out of play
    refused([*base, Play(seat=3), TakeTrump(seat=3, give=parse_card("7c"))], card(1, "Qd"),
            "Q♦ is in seat 3's hand")
    refused([*base, Play(seat=3), TakeTrump(seat=3, give=parse_card("7c"))], card(1, "7c"),
            "7♣ is out of play")
    refused([*base, Play(seat=3), TakeTrump(seat=3, give=parse_card("7c"))],
            TakeTrump(seat=3, give=parse_card("8c")), "already taken the trump card")
    # the first lead is seat 1, the first player in on the dealer's left
    assert GAME.prompt(state).to_act == 1
    after = play(*base, Play(seat=3), TakeTrump(seat=3, give=parse_card("7c")),
                 card(1, "Ah"), card(3, "Qd"))
    assert after.state.tricks is not None and after.state.tricks.done[0].winner == 3


def test_ruling_rams_2_the_dealer_takes_the_trump_only_with_one_other_player_in() -> None:
    base = [start(), Trump(card=parse_card("Qd")), Play(seat=1), Play(seat=2), Pass(seat=3),
            Play(seat=4)]
    refused(base, TakeTrump(seat=4, give=parse_card("7c")),
            "only when one other player plays")
    one = [start(seats=(1, 2, 3), dealer=3), Trump(card=parse_card("Qd")), Play(seat=1),
           Pass(seat=2), Play(seat=3)]
    refused(one, TakeTrump(seat=1, give=parse_card("7c")), "only the dealer")
    refused([*one, card(1, "Ah")], TakeTrump(seat=3, give=parse_card("7c")), "too late")


def test_ruling_rams_2_the_first_lead_is_the_first_player_in_on_the_dealers_left() -> None:
    hand = play(start(), Trump(card=parse_card("Kh")), Pass(seat=1), Play(seat=2), Pass(seat=3),
                Play(seat=4))
    assert GAME.prompt(hand.state).to_act == 2
    refused([start(), Trump(card=parse_card("Kh")), Pass(seat=1), Play(seat=2), Pass(seat=3),
             Play(seat=4)], card(4, "Ah"), "seat 2 plays next, not seat 4")


# --- rams-3: tricks and revokes -------------------------------------------------------------


def test_ruling_rams_3_the_highest_trump_else_the_highest_of_the_suit_led_wins() -> None:
    hand = play(start(seats=(1, 2, 3), dealer=3), Trump(card=parse_card("7s")), Play(seat=1),
                Play(seat=2), Play(seat=3),
                trick((1, "Ah"), (2, "Kh"), (3, "8s")),   # trumped
                trick((3, "9d"), (1, "Ac"), (2, "Td")))   # an off-suit ace does not win
    t = hand.state.tricks
    assert t is not None and [x.winner for x in t.done] == [3, 2]


def test_ruling_rams_3_a_card_already_played_is_refused() -> None:
    base = [start(seats=(1, 2, 3), dealer=3), Trump(card=parse_card("7s")), Play(seat=1),
            Play(seat=2), Play(seat=3), card(1, "Ah")]
    refused(base, card(2, "Ah"), "A♥ has already been played")


def test_ruling_rams_3_a_revoke_is_named_when_a_later_card_shows_it_and_the_hand_stands() -> (
    None
):
    # seat 2 shows out of hearts at trick 1 (discarding a diamond), then plays a heart at
    # trick 2: the app accepts it and names trick 1 as a revoke
    base = [start(seats=(1, 2, 3), dealer=3), Trump(card=parse_card("7s")), Play(seat=1),
            Play(seat=2), Play(seat=3),
            *trick((1, "Ah"), (2, "8d"), (3, "8h"))]
    hand = play(*base, *trick((1, "Kd"), (2, "9h")))
    t = hand.state.tricks
    assert t is not None
    assert [r.to_json() for r in t.revokes] == [
        {"seat": 2, "trick": 1, "rule": "follow suit (hearts)", "card": "9h", "shown_at": 2}]
    assert t.done[0].revoke and (t.current is not None and not t.current.revoke)
    # seat 2 also claimed no trumps at trick 1 (it neither followed nor trumped)
    after = play(*base, *trick((1, "Kd"), (2, "9h"), (3, "Ad")), card(3, "Qc"), card(1, "Jc"),
                 card(2, "9s"))
    t2 = after.state.tricks
    assert t2 is not None
    # it neither followed nor trumped at tricks 1 and 2, holding the nine of trumps
    assert [(r.trick, r.why) for r in t2.revokes] == [
        (1, "follow suit (hearts)"), (1, "trump when unable to follow (spades)"),
        (2, "trump when unable to follow (spades)")]
    lines = GAME.narrate(play(*base, card(1, "Kd")).state, card(2, "9h"),
                         play(*base, card(1, "Kd"), card(2, "9h")).state)
    assert "revoke: seat 2 at trick 1 (follow suit (hearts)); 9♥ at trick 2 shows it" in lines


def test_ruling_rams_3_not_heading_the_trick_when_able_is_a_revoke_once_shown() -> None:
    base = [start(seats=(1, 2, 3), dealer=3), Trump(card=parse_card("7s")), Play(seat=1),
            Play(seat=2), Play(seat=3),
            *trick((1, "Qh"), (2, "8h"), (3, "9h"))]   # seat 2 played under the queen
    hand = play(*base, *trick((1, "Ac"), (2, "Kh"), (3, "7c")))   # ... but held the king
    t = hand.state.tricks
    assert t is not None
    assert [(r.seat, r.trick, r.why) for r in t.revokes] == [
        (2, 1, "head the trick when able (rams-3)"),
        # and at trick 2 it showed out of clubs without trumping: a claim, not yet a revoke
    ]


def test_ruling_rams_3_overtrump_when_able() -> None:
    base = [start(seats=(1, 2, 3), dealer=3), Trump(card=parse_card("7s")), Play(seat=1),
            Play(seat=2), Play(seat=3),
            *trick((1, "Ah"), (2, "Ts"), (3, "8s"))]   # seat 3 trumps under seat 2's ten
    hand = play(*base, *trick((2, "Kc"), (3, "Qs")))
    t = hand.state.tricks
    assert t is not None and [(r.seat, r.why) for r in t.revokes] == [
        (3, "overtrump when able (rams-3)")]


def test_ruling_rams_3_revoke_setting_is_floor_only() -> None:
    with pytest.raises(RuleViolation, match='"revoke" must be "floor"'):
        GAME.start(start(revoke="penalty"))
    assert GAME.start(start(revoke="floor")).revoke == "floor"


# --- rams-4: the settlement -----------------------------------------------------------------


def test_ruling_rams_4_odd_counters_stay_in_the_pot() -> None:
    # 18 carried + 5 = 23 counters: 4 a trick ($4), 3 odd counters stay
    hand = play(start(seats=(1, 2, 3), dealer=3, pot_in=1800), Trump(card=parse_card("7s")),
                Play(seat=1), Play(seat=2), Play(seat=3),
                trick((1, "Ah"), (2, "Kh"), (3, "Qh")),
                trick((1, "Ad"), (2, "Kd"), (3, "Qd")),
                trick((1, "Ac"), (2, "Kc"), (3, "Qc")),
                trick((1, "As"), (2, "Ks"), (3, "Qs")),
                trick((1, "Jh"), (2, "Th"), (3, "9h")))
    s = hand.settle()
    assert s.payouts == {1: 2000} and s.carry_out == 300 + 500 + 500
    assert s.put_in == {3: 500 + 500, 2: 500}


RAMS_WON = [
    start(seats=(1, 2, 3), dealer=3, pot_in=1000), Trump(card=parse_card("9s")),
    Rams(seat=1), Play(seat=2), Play(seat=3),
    *trick((1, "As"), (2, "8s"), (3, "Ts")),
    *trick((1, "Ks"), (2, "Kh"), (3, "7d")),
    *trick((1, "Qs"), (2, "7c"), (3, "8d")),
    *trick((1, "Js"), (2, "8c"), (3, "9d")),
    *trick((1, "Ah"), (2, "9h"), (3, "Td")),
]


def test_ruling_rams_4_worked_rams_won_the_pot_and_five_from_each() -> None:
    hand = play(RAMS_WON)
    s = hand.settle()
    # pot 10 + 5 = 15 counters; seat 1 takes $15 and $5 from each of seats 2 and 3
    assert s.payouts == {1: 2500}
    assert s.put_in == {2: 500, 3: 500 + 500}
    assert s.carry_out == 0 and s.conserved
    r = GAME.report(hand.state)
    assert r["rams_won"] is True and r["tricks_won"] == {"1": 5, "2": 0, "3": 0}
    assert GAME.game_over(hand.state)  # the pot is empty: the game of this pot ends


def test_ruling_rams_4_worked_rams_lost_at_the_first_trick_someone_else_takes() -> None:
    base = [start(pot_in=700), Trump(card=parse_card("7h")), Pass(seat=1), Rams(seat=2),
            Widow(seat=3), Play(seat=4),
            *trick((1, "Kc"), (2, "Ac"), (3, "8c"), (4, "9c"))]
    assert not play(base).over
    hand = play(*base, *trick((2, "Ad"), (3, "8h"), (4, "Td"), (1, "Kd")))
    assert hand.over  # seat 3 trumped: play stops
    s = hand.settle()
    # pot 7 + 5 = 12 counters ($12): seat 2 doubles it and pays $5 to each of 3 opponents
    assert s.put_in == {4: 500, 2: 1200 + 3 * 500}
    assert s.payouts == {1: 500, 3: 500, 4: 500}
    assert s.carry_out == 2400 and s.conserved
    assert GAME.report(hand.state)["rams_won"] is False
    refused([*base, *trick((2, "Ad"), (3, "8h"), (4, "Td"), (1, "Kd"))], card(3, "Ah"),
            "the hand is over")


# --- refusals through the services: the dealer's words, nothing recorded ---------------------


def test_refusals_through_the_services_record_nothing() -> None:
    from dealer_assist.services import Argon2PinHasher, InMemoryStore, Services

    class Clock:
        now = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)

        def __call__(self) -> datetime:
            self.now += timedelta(microseconds=1)
            return self.now

    svc = Services(InMemoryStore(), clock=Clock(), hasher=Argon2PinHasher(fast=True))
    svc.create_first_admin(name="admin", full_name="Ada Admin", pin="9999")
    admin = svc.sign_in("admin", "9999")
    svc.add_user(admin, name="dee", full_name="Dee Dealer", role="dealer", pin="1111")
    svc.add_user(admin, name="fran", full_name="Fran Floor", role="floor", pin="2222")
    table = svc.add_table(admin, {"game": "rams", "seats": [1, 2, 3], "smallest_chip": 100,
                                  "params": {"stake": 100}}, name="Rams 1")
    dee = svc.sign_in("dee", "1111")
    svc.open_shift(dee, table.id, floor="fran")
    now = svc.start_hand(dee, table.id)
    assert now.replay.start.get("dealer") == 3 and now.replay.start.get("pot_in") == 0
    now = svc.record(dee, now.hand.id, Trump(card=parse_card("Jd")))
    count = len(svc.store.hand_events(now.hand.id))
    for bad, words in ((Pass(seat=1), "nobody may pass"), (Play(seat=2), "seat 1 declares"),
                       (card(1, "Ah"), "has not declared yet")):
        with pytest.raises(RuleViolation, match=words):
            svc.record(dee, now.hand.id, bad)
        assert len(svc.store.hand_events(now.hand.id)) == count
    for ev in (Play(seat=1), Play(seat=2), Play(seat=3),
               *trick((1, "Ah"), (2, "Kh"), (3, "Qh")), *trick((1, "Ad"), (2, "Kd"), (3, "Qd")),
               *trick((1, "Ac"), (2, "Kc"), (3, "Qc")), *trick((1, "As"), (2, "Ks"), (3, "Qs")),
               *trick((1, "Jh"), (2, "Th"), (3, "9h"))):
        now = svc.record(dee, now.hand.id, ev)
    svc.settle(dee, now.hand.id)
    # the next hand: the deal moves on and the pot carries ($5 ante -> $1 a trick: seat 1
    # took all five; seats 2 and 3 pay $5 each)
    nxt = svc.start_hand(dee, table.id)
    assert nxt.replay.start.get("dealer") == 1 and nxt.replay.start.get("pot_in") == 1000


# --- chips are conserved across a sequence of hands -----------------------------------------


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), hands=st.integers(2, 6))
def test_chips_are_conserved_across_a_sequence_of_hands(seed: int, hands: int) -> None:
    rng = random.Random(seed)
    players = rng.randint(3, 5)
    pot, dealer = 0, players
    total_in = total_out = 0
    for _ in range(hands):
        events = GAME.sample_hand(rng, players=players, params={"pot_in": pot, "dealer": dealer})
        hand = replay(events)
        s = hand.settle()
        assert s.conserved and s.carry_in == pot
        total_in += sum(s.put_in.values())
        total_out += sum(s.payouts.values())
        # the pot only ever holds whole counters, and the next hand starts with what is left
        pot = s.carry_out
        assert pot % 100 == 0
        nxt = GAME.next_hand(hand.state)
        dealer = nxt.get("dealer", dealer % players + 1)
    assert total_in == total_out + pot  # every chip put in was pushed or is in the pot


def test_ruling_fees_a_fee_per_player_is_paid_before_the_deal_on_top_of_the_ante() -> None:
    """Fees ruling: a fee per player is collected before the deal and is on the ledger; the pot
    is untouched. (The rake and the collection from the pot: tests/fees/test_carried_pot_games.)"""
    hand = play(start(seats=(1, 2, 3), dealer=3, pot_in=1000, fee={"kind": "per-player",
                                                                    "amount": 100}),
                Trump(card=parse_card("9c")), Pass(seat=1), Pass(seat=2))
    s = hand.settle()
    assert [f.amount for f in s.fees] == [100, 100, 100]
    # the fee comes on top of the ante and the redeal payment; the pot is untouched
    assert s.put_in == {1: 100, 2: 100 + 500, 3: 100 + 500} and s.carry_out == 1500
    assert s.conserved
    assert GAME.contributions(hand.state) == {1: 100, 2: 100, 3: 600}

"""Preference (Austrian): one test per ruling (pref-1 to pref-7), worked hands with the numbers
written out (Game, Hearts, an invitation, no aces, both defenders dropping, an ante, the end of
the game), the refusals in the dealer's words, and chips conserved across a run of hands.

The tricks of the worked hands are played from known hands by the rules (each player plays its
highest legal card), so no play breaks a rule and every revoke list is empty."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.engine.hand import HandReplay, replay
from dealer_assist.errors import RuleViolation
from dealer_assist.events import CardDealt, Discard, Event, Show, Start
from dealer_assist.games.preference import GAME
from dealer_assist.games.preference.events import (
    Ante,
    Bid,
    Defend,
    End,
    NameTrump,
    NoAces,
    Talon,
)
from dealer_assist.games.preference.present import auction_line
from dealer_assist.games.tricks import legal_cards


def start(seats: tuple[int, ...] = (1, 2, 3), dealer: int = 3, pot_in: int = 0,
          stake: int = 100, **more: Any) -> Start:
    return Start(game="preference", seats=seats,
                 params={"dealer": dealer, "stake": stake, "pot_in": pot_in, **more})


def card(seat: int, code: str) -> CardDealt:
    return CardDealt(seat=seat, card=parse_card(code))


def bids(*said: tuple[int, str]) -> list[Event]:
    return [Bid(seat=s, bid=b) for s, b in said]


def playout(events: list[Event], hands: dict[int, str]) -> list[Event]:
    """The events, then every card: each player its highest legal card from its hand."""
    held = {s: list(parse_cards(h)) for s, h in hands.items()}
    state = replay(events).state
    out = list(events)
    while not state.over:
        t = state.tricks
        assert t is not None
        seat = t.to_play()
        assert seat is not None
        c = max(legal_cards(t, seat, held[seat]), key=lambda c: (c.rank, c.suit))
        held[seat].remove(c)
        out.append(CardDealt(seat=seat, card=c))
        state = GAME.apply(state, out[-1])
    return out


def refused(events: list[Event], bad: Event, match: str) -> None:
    state = replay(events).state
    with pytest.raises(RuleViolation, match=match):
        GAME.apply(state, bad)


#: Seat 1 holds the four aces and the top spades; the talon is 8♣ 7♣.
HANDS = {1: "As Ks Qs Js Ts Ah Kh Ad Ac Kc", 2: "9s 8s Qh Jh Th 9h Kd Qd Qc Jc",
         3: "7s 8h 7h Jd Td 9d 8d 7d Tc 9c"}
#: Seat 1 holds every heart.
HEARTS = {1: "Ah Kh Qh Jh Th 9h 8h 7h As Ad", 2: "Ks Qs Js Ts 9s Ac Kc Qc Jc Tc",
          3: "8s 7s Kd Qd Jd Td 9d 8d 9c 8c"}


def settled(events: list[Event]) -> tuple[HandReplay, dict[str, Any]]:
    hand = replay(events)
    assert hand.over and hand.settle().conserved
    return hand, GAME.report(hand.state)


# --- worked hands ---------------------------------------------------------------------------


def test_worked_hand_an_ante_one_bid_four_aces_made_both_defenders_under_two() -> None:
    events = playout([start(), Ante(stakes=10), *bids((1, "one"), (2, "pass"), (3, "pass")),
                      Talon(cards=parse_cards("8c 7c")),
                      Discard(seat=1, cards=parse_cards("8c 7c")), NameTrump(seat=1, suit="s"),
                      Defend(seat=2, choice="play"), Defend(seat=3, choice="play")], HANDS)
    _hand, r = settled(events)
    assert r["tricks_won"] == {"1": 10, "2": 0, "3": 0} and r["revokes"] == []
    # pot: 3 x 10 stakes = $30. Seat 1 takes $10 and keeps it all (no defender trick); each
    # defender under two tricks pays $10 into the pot; four aces made: $10 from each.
    assert r["payouts"] == {"1": 1000 + 2 * 1000}
    assert r["pays"] == {"1": 1000, "2": 1000 + 1000 + 1000, "3": 1000 + 1000 + 1000}
    assert r["carry"] == 3000 - 1000 + 2 * 1000 and r["pot_low"] is False
    assert r["bonuses"] == ["Four aces made"]


def test_worked_hand_game_two_game_bidders_the_higher_suit_declares_and_an_invitation() -> None:
    # four seats: the dealer (seat 4) sits out; 1 and 2 bid Game; 1 names clubs, 2 diamonds:
    # diamonds (3) beats clubs (2), seat 2 declares; seat 3 (its left) plays, seat 1 drops,
    # seat 3 invites seat 1
    events = playout([start(seats=(1, 2, 3, 4), dealer=4), Ante(stakes=10),
                      *bids((1, "game"), (2, "game"), (3, "pass")),
                      NameTrump(seat=1, suit="c"), NameTrump(seat=2, suit="d"),
                      Defend(seat=3, choice="play"), Defend(seat=1, choice="drop"),
                      Defend(seat=3, choice="invite")], HANDS)
    _hand, r = settled(events)
    assert r["declarer"] == 2 and r["trump"] == "d" and r["contract"] == "Game"
    assert r["invited_by"] == 3 and r["tricks_won"] == {"1": 4, "2": 3, "3": 3}
    assert r["revokes"] == []
    # pot $30 (seat 4 puts nothing in). Seat 2 takes $10, pays the host (seat 3) $1 for each
    # of the pair's 7 tricks, keeps $3; under six tricks it pays $20 into the pot. The pair
    # took 7 (four or more): no penalty.
    assert r["payouts"] == {"2": 300, "3": 700}
    assert r["pays"] == {"1": 1000, "2": 1000 + 2000, "3": 1000}
    assert r["carry"] == 3000 - 1000 + 2000
    assert "4" not in r["pays"]


def test_worked_hand_hearts_made_ten_stakes_from_each_opponent() -> None:
    events = playout([start(), Ante(stakes=10), Bid(seat=1, bid="hearts"),
                      Defend(seat=2, choice="play"), Defend(seat=3, choice="play")], HEARTS)
    _hand, r = settled(events)
    assert r["trump"] == "h" and r["tricks_won"]["1"] == 10
    assert r["payouts"] == {"1": 1000 + 2 * 1000}
    assert r["pays"] == {"1": 1000, "2": 3000, "3": 3000}
    assert r["bonuses"] == ["Hearts made"] and r["carry"] == 4000


def test_worked_hand_no_aces_lost_the_declarer_pays_each_opponent() -> None:
    events = playout([start(), Ante(stakes=10), *bids((1, "pass"), (2, "pass"), (3, "game")),
                      NameTrump(seat=3, suit="d"), NoAces(seat=3),
                      Defend(seat=1, choice="play"), Defend(seat=2, choice="play")], HANDS)
    _hand, r = settled(events)
    assert r["tricks_won"] == {"1": 4, "2": 3, "3": 3} and r["no_aces"] is True
    # seat 3 takes $10, pays $4 and $3, keeps $3; under six: $20 into the pot; no aces lost:
    # $10 to each of seats 1 and 2
    assert r["payouts"] == {"1": 400 + 1000, "2": 300 + 1000, "3": 300}
    assert r["pays"] == {"1": 1000, "2": 1000, "3": 1000 + 2000 + 2000}
    assert r["bonuses"] == ["No aces lost"] and r["carry"] == 4000


def test_worked_hand_both_defenders_drop_paid_as_ten_tricks_with_four_aces_shown() -> None:
    _hand, r = settled([start(pot_in=1500), *bids((1, "game"), (2, "pass"), (3, "pass")),
                       NameTrump(seat=1, suit="s"),
                       Show(seat=1, cards=parse_cards("As Ah Ad Ac")),
                       Defend(seat=2, choice="drop"), Defend(seat=3, choice="drop")])
    # no ante: the pot holds 15 stakes. Seat 1 takes $10; four aces made: $10 from each
    assert r["tricks"] == [] and r["payouts"] == {"1": 1000 + 2000}
    assert r["pays"] == {"2": 1000, "3": 1000}
    assert r["carry"] == 500 and r["pot_low"] is True


def test_worked_hand_the_end_of_the_game_shares_the_pot_odd_stakes_from_the_dealers_left() -> (
    None
):
    # seven stakes left; four seats, the dealer (seat 2) sits out: 3, 4, 1 share, seat 3 first
    hand, r = settled([start(seats=(1, 2, 3, 4), dealer=2, pot_in=700), End()])
    assert r["payouts"] == {"1": 200, "3": 300, "4": 200} and r["carry"] == 0
    assert GAME.game_over(hand.state)


def test_worked_hand_everyone_passes_the_same_dealer_deals_again() -> None:
    hand, r = settled([start(pot_in=1200), *bids((1, "pass"), (2, "pass"), (3, "pass"))])
    assert r["carry"] == 1200 and r["all_passed"] is True and r["payouts"] == {}
    assert GAME.next_hand(hand.state) == {"dealer": 3}


EXAMPLE_NAME = "preference-game-and-an-invitation"


def test_the_example_hand_log_replays_from_the_cli_as_expected(
    examples_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dealer_assist.cli import main

    path = examples_dir / f"{EXAMPLE_NAME}.jsonl"
    assert main(["replay", "--json", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == json.loads((examples_dir / f"{EXAMPLE_NAME}.expected.json").read_text())
    assert out["payouts"] == {"2": 300, "3": 700} and out["carry"] == 4000


# --- the rulings ----------------------------------------------------------------------------


def test_ruling_pref_1_three_active_players_a_fourth_sits_out_and_the_ante_in_tens() -> None:
    with pytest.raises(RuleViolation, match="3 to 4 players, not 5"):
        GAME.start(start(seats=(1, 2, 3, 4, 5), dealer=5))
    assert GAME.start(start(seats=(1, 2, 3, 4), dealer=2)).active == (3, 4, 1)
    refused([start()], Ante(stakes=15), "a multiple of ten stakes, not 15")
    refused([start()], Ante(stakes=0), "a multiple of ten stakes, not 0")
    state = replay([start(seats=(1, 2, 3, 4), dealer=4), Ante(stakes=20)]).state
    assert GAME.contributions(state) == {1: 2000, 2: 2000, 3: 2000} and state.pot == 6000


def test_ruling_pref_2_no_skipping_numbers_only_higher_game_and_hearts() -> None:
    base = [start(), Ante(stakes=10)]
    refused(base, Bid(seat=1, bid="two"), "no skipping: the next number is One")
    refused(base, Bid(seat=2, bid="one"), "seat 1 bids next, not seat 2")
    numeric = [*base, *bids((1, "one"), (2, "two"), (3, "pass"))]
    refused(numeric, Bid(seat=1, bid="game"), "seat 1 bid a number: it may only go higher")
    GAME.apply(replay(numeric).state, Bid(seat=1, bid="three"))
    game = [*base, *bids((1, "game"))]
    refused(game, Bid(seat=2, bid="one"), "Game has been bid: only Game, Hearts or pass")
    hearts = [*base, *bids((1, "pass"), (2, "hearts"))]
    assert replay(hearts).state.declarer == 2
    refused(hearts, Bid(seat=3, bid="game"), "the bidding is over")
    refused(hearts, NameTrump(seat=2, suit="s"), "nobody names a suit after Hearts")
    refused(hearts, Talon(cards=parse_cards("7c 8c")), "only after a numeric bid")


def test_ruling_pref_2_numeric_trumps_ranked_at_least_the_bid() -> None:
    base = [start(), Ante(stakes=10), *bids((1, "one"), (2, "two"), (3, "three"), (1, "pass"),
                                            (2, "pass"))]
    assert replay(base).state.declarer == 3
    refused(base, Discard(seat=3, cards=parse_cards("7c 8c")), "after taking the talon")
    refused(base, NameTrump(seat=3, suit="h"), "takes the talon and discards two")
    taken = [*base, Talon(cards=parse_cards("7c 8c")), Discard(seat=3, cards=parse_cards("7c 9s"))]
    refused(taken, NameTrump(seat=3, suit="c"), "ranked at least 3")
    assert replay([*taken, NameTrump(seat=3, suit="d")]).state.trump == "d"


def test_ruling_pref_2_several_games_equal_suits_the_first_from_the_dealers_left() -> None:
    state = replay([start(), Ante(stakes=10), *bids((1, "pass"), (2, "game"), (3, "game")),
                    NameTrump(seat=2, suit="s"), NameTrump(seat=3, suit="s")]).state
    assert state.declarer == 2 and state.trump == "s"
    refused([start(), Ante(stakes=10), *bids((1, "pass"), (2, "game"), (3, "game"))],
            NameTrump(seat=3, suit="s"), "seat 2 names trumps next")


def test_ruling_pref_3_no_aces_not_by_discarding_an_ace_and_before_the_first_lead() -> None:
    base = [start(), Ante(stakes=10), *bids((1, "one"), (2, "pass"), (3, "pass")),
            Talon(cards=parse_cards("7c 8c"))]
    aced = [*base, Discard(seat=1, cards=parse_cards("As 8c")), NameTrump(seat=1, suit="h")]
    refused(aced, NoAces(seat=1), "cannot declare no aces: A♠ went through")
    action = GAME.prompt(replay(aced).state).action("no-aces")
    assert action is not None and not action.enabled
    clean = [*base, Discard(seat=1, cards=parse_cards("7c 8c")), NameTrump(seat=1, suit="h")]
    refused(clean, NoAces(seat=2), "only the declarer")
    led = [*clean, Defend(seat=2, choice="play"), Defend(seat=3, choice="play"), card(1, "Kh")]
    refused(led, NoAces(seat=1), "before the first lead")


def test_ruling_pref_3_a_declared_no_aces_then_an_ace_played_is_named() -> None:
    hand = replay([start(), Ante(stakes=10), *bids((1, "game"), (2, "pass"), (3, "pass")),
                   NameTrump(seat=1, suit="h"), NoAces(seat=1), Defend(seat=2, choice="play"),
                   Defend(seat=3, choice="play"), card(1, "Ah")])
    assert [r["rule"] for r in GAME.report(hand.state)["revokes"]] == ["declared no aces"]


def test_ruling_pref_4_the_first_defender_beats_the_declarers_lead_with_the_lowest_card() -> None:
    base = [start(), Ante(stakes=10), *bids((1, "game"), (2, "pass"), (3, "pass")),
            NameTrump(seat=1, suit="s"), Defend(seat=2, choice="play"),
            Defend(seat=3, choice="play")]
    # seat 1 leads 9♥; seat 2 beats it with K♥ though it holds 10♥ (shown at trick 2)
    hand = replay([*base, card(1, "9h"), card(2, "Kh"), card(3, "7h"),
                   card(2, "Ac"), card(3, "7c"), card(1, "8c"), card(2, "Th")])
    t = hand.state.tricks
    assert t is not None
    assert [(r.seat, r.trick, r.why) for r in t.revokes] == [
        (2, 1, "beat the lead with the lowest card that does (pref-4)")]
    # with one defender dropped the rule does not apply (and the dropped seat does not play:
    # ruling pref-8)
    alone = replay([*base[:-1], Defend(seat=3, choice="drop"), card(1, "9h"), card(2, "Kh"),
                    card(2, "Ac"), card(1, "8c"), card(2, "Th")])
    assert alone.state.tricks is not None and alone.state.tricks.revokes == ()
    # nor with an invited pair: ruling pref-8 keeps it to both defenders playing
    invited = replay([*base[:-1], Defend(seat=3, choice="drop"), Defend(seat=2, choice="invite"),
                      card(1, "9h"), card(2, "Kh"), card(3, "7h"), card(2, "Ac"), card(3, "7c"),
                      card(1, "8c"), card(2, "Th")])
    assert invited.state.tricks is not None and invited.state.tricks.revokes == ()


def test_ruling_pref_5_penalties_into_the_pot_bonuses_between_players() -> None:
    # a defender playing alone under two tricks pays ten; the declarer's four aces are made
    events = playout([start(), Ante(stakes=10), *bids((1, "game"), (2, "pass"), (3, "pass")),
                      NameTrump(seat=1, suit="s"), Defend(seat=2, choice="play"),
                      Defend(seat=3, choice="drop")], HANDS)
    _hand, r = settled(events)
    assert r["tricks_won"] == {"1": 10, "2": 0}  # (seat 3 dropped: it plays no card)
    assert r["pays"] == {"1": 1000, "2": 1000 + 1000 + 1000, "3": 1000 + 1000}
    assert r["payouts"] == {"1": 1000 + 2000}


def test_ruling_pref_6_defenders_speak_from_the_declarers_left_then_an_invitation() -> None:
    base = [start(), Ante(stakes=10), *bids((1, "pass"), (2, "game"), (3, "pass")),
            NameTrump(seat=2, suit="h")]
    refused(base, Defend(seat=1, choice="play"), "seat 3 speaks first")
    refused(base, Defend(seat=3, choice="invite"), "both defenders say play or drop")
    one = [*base, Defend(seat=3, choice="play"), Defend(seat=1, choice="drop")]
    refused(one, Defend(seat=1, choice="invite"), "only seat 3, the defender playing")
    refused([*base, Defend(seat=3, choice="play"), Defend(seat=1, choice="play")],
            Defend(seat=3, choice="invite"), "only the one defender playing may invite")
    refused(base, card(2, "Ah"), "seat 3 says play or drop first")
    # the bonus opponents are both other active players, dropped or not (Hearts lost: each
    # of seats 1 and 3 gets $10, though seat 1 dropped)
    hand = replay(playout([start(), Ante(stakes=10), *bids((1, "pass"), (2, "hearts")),
                           Defend(seat=3, choice="play"), Defend(seat=1, choice="drop")],
                          {1: HANDS[2], 2: HANDS[3], 3: HANDS[1]}))
    s = hand.settle()
    assert s.extra["bonuses"] == ["Hearts lost"]
    assert s.payouts[1] >= 1000 and s.payouts[3] >= 1000


def test_ruling_pref_7_ante_lines_and_the_low_pot_choice() -> None:
    refused([start(pot_in=500)], Bid(seat=1, bid="one"), "under ten: ante")
    refused([start(pot_in=1000)], Ante(stakes=10), "only when it is under ten")
    prompt = GAME.prompt(replay([start(pot_in=500)]).state)
    assert prompt.phase == "ante" and {a.kind for a in prompt.actions if a.enabled} == {
        "ante", "end"}


def test_ruling_pref_revoke_setting_is_floor_only() -> None:
    with pytest.raises(RuleViolation, match='"revoke" must be "floor"'):
        GAME.start(start(revoke="penalty"))


def test_a_card_already_played_or_discarded_is_refused() -> None:
    base = [start(), Ante(stakes=10), *bids((1, "one"), (2, "pass"), (3, "pass")),
            Talon(cards=parse_cards("7c 8c")), Discard(seat=1, cards=parse_cards("7c 9s")),
            NameTrump(seat=1, suit="h"), Defend(seat=2, choice="play"),
            Defend(seat=3, choice="play")]
    refused(base, card(1, "9s"), "9♠ is out of play")
    refused(base, card(2, "Ah"), "seat 1 plays next")
    refused([*base, card(1, "Ah")], card(2, "Ah"), "A♥ has already been played")
    # 8♣ came from the talon and was kept: it is the declarer's
    refused([*base, card(1, "Ah")], card(2, "8c"), "8♣ is in seat 1's hand")


# --- chips are conserved across a sequence of hands -----------------------------------------


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), hands=st.integers(2, 6))
def test_chips_are_conserved_across_a_sequence_of_hands(seed: int, hands: int) -> None:
    rng = random.Random(seed)
    players = rng.randint(3, 4)
    pot, dealer = 0, players
    total_in = total_out = 0
    for _ in range(hands):
        events = GAME.sample_hand(rng, players=players, params={"pot_in": pot, "dealer": dealer})
        hand = replay(events)
        s = hand.settle()
        assert s.conserved and s.carry_in == pot
        total_in += sum(s.put_in.values())
        total_out += sum(s.payouts.values())
        pot = s.carry_out
        assert pot % 100 == 0
        dealer = GAME.next_hand(hand.state).get("dealer", dealer % players + 1)
    assert total_in == total_out + pot


# --- a Hearts contract dealt to the end from the prompt -------------------------------------


def _by_prompt(events: list[Event], hands: dict[int, str], choices: dict[int, str]) -> (
        list[Event]):
    """The hand from ``events`` on, entered only through what the prompt offers: each
    defender's choice from its Play or Drop action, each card through the card action of the
    seat the prompt names (its highest legal card)."""
    from dealer_assist.engine.build import build_event

    held = {s: list(parse_cards(h)) for s, h in hands.items()}
    state = replay(events).state
    out = list(events)
    while not state.over:
        prompt = GAME.prompt(state)
        assert prompt.to_act is not None, prompt
        by_kind = {a.kind: a for a in prompt.actions if a.seat == prompt.to_act and a.enabled}
        if prompt.phase == "defend":
            want = choices[prompt.to_act]
            action = next(a for a in prompt.actions
                          if a.kind == "defend" and a.fields.get("choice") == want)
            ev = build_event(action, vocab=GAME.events)
        else:
            t = state.tricks
            assert prompt.phase == "tricks" and t is not None
            c = max(legal_cards(t, prompt.to_act, held[prompt.to_act]),
                    key=lambda c: (c.rank, c.suit))
            held[prompt.to_act].remove(c)
            ev = build_event(by_kind["card"], {"card": c}, vocab=GAME.events)
        out.append(ev)
        state = GAME.apply(state, ev)
    return out


@pytest.mark.parametrize(("before", "who"), [([], 1), ([(1, "one")], 2),
                                           ([(1, "one"), (2, "two")], 3)])
def test_regression_a_hearts_bid_is_prompted_and_dealt_to_the_end(
    before: list[tuple[int, str]], who: int,
) -> None:
    """A Hearts bid, first or after numbers, ends the auction with hearts trumps: the prompt
    asks the defenders at once (it failed on a Hearts bid) and the contract is played out."""
    base = [start(), Ante(stakes=10), *bids(*before), Bid(seat=who, bid="hearts")]
    state = replay(base).state
    prompt = GAME.prompt(state)
    assert (prompt.phase, prompt.to_act) == ("defend", who % 3 + 1)
    view = GAME.view(state)
    assert f"Seat {who} declares Hearts, trumps hearts" in view.info
    assert f"seat {who} hearts" in auction_line(state)
    others = [s for s in (1, 2, 3) if s != who]
    hands = {who: HEARTS[1], others[0]: HEARTS[2], others[1]: HEARTS[3]}
    events = _by_prompt(base, hands, {1: "play", 2: "play", 3: "play"})
    _hand, r = settled(events)
    assert r["contract"] == "Hearts" and r["declarer"] == who and r["trump"] == "h"
    assert r["tricks_won"][str(who)] == 10
    # ruling pref-5: ten stakes from the pot, and Hearts made: $10 from each opponent
    assert r["bonuses"] == ["Hearts made"]
    assert r["payouts"] == {str(who): 1000 + 2 * 1000}
    assert all(r["pays"][str(s)] == 1000 + 1000 + 1000 for s in (1, 2, 3) if s != who)


def test_regression_hearts_lost_pays_each_opponent_ten_stakes() -> None:
    """Ruling pref-5: Hearts lost, the declarer pays ten stakes to each opponent (one dropped)."""
    events = _by_prompt([start(), Ante(stakes=10), Bid(seat=1, bid="hearts")],
                        {1: HEARTS[3], 2: HEARTS[1], 3: HEARTS[2]}, {2: "play", 3: "drop"})
    _hand, r = settled(events)
    assert r["bonuses"] == ["Hearts lost"] and r["tricks_won"]["1"] < 6
    won2 = r["tricks_won"]["2"]
    assert r["payouts"]["3"] == 1000 and r["payouts"]["2"] == won2 * 100 + 1000
    assert r["pays"]["1"] == 1000 + 2000 + 2 * 1000


def test_regression_the_cli_replays_a_start_and_a_hearts_bid(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dealer_assist.cli import main
    from dealer_assist.engine.hand import to_lines

    path = tmp_path / "hearts.jsonl"
    path.write_text(to_lines([start(pot_in=1500), Bid(seat=1, bid="hearts")]))
    assert main(["replay", str(path)]) == 0
    assert "Seat 2 plays or drops" in capsys.readouterr().out


# --- ruling pref-8: a dropped defender takes no part in the play -----------------------------


def test_ruling_preference_8_one_defender_plays_two_cards_a_trick_declarer_leads() -> None:
    base = [start(), Ante(stakes=10), *bids((1, "game"), (2, "pass"), (3, "pass")),
            NameTrump(seat=1, suit="s"), Defend(seat=2, choice="drop"),
            Defend(seat=3, choice="play")]
    state = replay(base).state
    prompt = GAME.prompt(state)
    assert (prompt.phase, prompt.to_act) == ("tricks", 1)  # the declarer leads the first
    assert {a.kind for a in prompt.actions} >= {"card", "defend"}  # seat 3 may still invite
    # seat 2 dropped: its cards stay face down; a card for it is refused, saying so
    after_lead = GAME.apply(state, card(1, "7h"))
    with pytest.raises(RuleViolation, match="seat 2 dropped: it takes no part in the play"):
        GAME.apply(after_lead, card(2, "Ah"))
    # two cards a trick; the trick's winner leads the next
    after = GAME.apply(GAME.apply(after_lead, card(3, "8h")), card(3, "Ac"))
    t = after.tricks
    assert t is not None and [x.plays for x in t.done] == [
        ((1, parse_card("7h")), (3, parse_card("8h")))]
    assert t.trick().leader == 3 and t.to_play() == 1
    events = playout(base, {1: HANDS[2], 2: HANDS[3], 3: HANDS[1]})
    assert len(events) == len(base) + 20  # ten tricks of two cards
    _hand, r = settled(events)
    assert set(r["tricks_won"]) == {"1", "3"} and sum(r["tricks_won"].values()) == 10
    seats = {sv.seat: sv for sv in GAME.view(replay(base).state).seats}
    assert seats[2].status == "drops: out of the play" and seats[2].hidden == 0


def test_ruling_preference_8_an_invited_guest_plays_every_trick_and_reads_so() -> None:
    base = [start(), Ante(stakes=10), *bids((1, "game"), (2, "pass"), (3, "pass")),
            NameTrump(seat=1, suit="s"), Defend(seat=2, choice="drop"),
            Defend(seat=3, choice="play"), Defend(seat=3, choice="invite")]
    state = replay(base).state
    assert state.tricks is not None and state.tricks.order == (1, 2, 3)
    seats = {sv.seat: sv.status for sv in GAME.view(state).seats}
    assert seats == {1: "declarer: Game", 2: "plays (invited guest)", 3: "plays (host)"}
    events = playout(base, HANDS)
    assert len(events) == len(base) + 30  # ten tricks of three cards
    _hand, r = settled(events)
    assert set(r["tricks_won"]) == {"1", "2", "3"}


def test_ruling_preference_8_the_invitation_after_a_drop_changes_who_plays() -> None:
    """Before the first card the lone defender may still invite: the guest then plays too."""
    base = [start(), Ante(stakes=10), *bids((1, "game"), (2, "pass"), (3, "pass")),
            NameTrump(seat=1, suit="s"), Defend(seat=2, choice="play"),
            Defend(seat=3, choice="drop")]
    assert replay(base).state.tricks.order == (1, 2)  # type: ignore[union-attr]
    invited = replay([*base, Defend(seat=2, choice="invite")]).state
    assert invited.tricks is not None and invited.tricks.order == (1, 2, 3)
    refused([*base, card(1, "7h")], Defend(seat=2, choice="invite"), "before the first lead")


# --- ruling pref-7: the game can always be ended between hands ------------------------------


@pytest.mark.parametrize("pot_in", [0, 1500, 3000])
def test_ruling_preference_7_the_game_ends_between_hands_whatever_the_pot(pot_in: int) -> None:
    from dealer_assist.engine.build import build_event

    state = replay([start(seats=(1, 2, 3, 4), dealer=2, pot_in=pot_in)]).state
    prompt = GAME.prompt(state)
    end = next(a for a in prompt.actions if a.kind == "end")
    assert end.enabled and end.key == "e"
    hand, r = settled([start(seats=(1, 2, 3, 4), dealer=2, pot_in=pot_in),
                       build_event(end, vocab=GAME.events)])
    assert r["ended"] is True and r["carry"] == 0 and GAME.game_over(hand.state)
    shares = {3: 0, 4: 0, 1: 0}
    for i in range(pot_in // 100):
        shares[(3, 4, 1)[i % 3]] += 100
    assert r["payouts"] == {str(s): v for s, v in sorted(shares.items()) if v}
    steps = hand.settle().steps
    if not pot_in:
        assert [x.text for x in steps] == ["The game ends: the pot is empty, nothing to share"]


def test_ruling_preference_7_no_end_once_the_bidding_or_the_ante_began() -> None:
    refused([start(pot_in=1500), Bid(seat=1, bid="pass")], End(), "comes before the bidding")
    refused([start(), Ante(stakes=10)], End(), "comes before the bidding")
    state = replay([start(pot_in=1500), Bid(seat=1, bid="pass")]).state
    assert "end" not in {a.kind for a in GAME.prompt(state).actions}


def test_regression_a_misdealt_hand_is_a_row_of_the_score_sheet() -> None:
    from dealer_assist.events import Misdeal

    first = replay([start(pot_in=1500), End()])
    misdealt = replay([start(pot_in=1500), Bid(seat=1, bid="one"), Misdeal(reason="exposed")])
    sheet = GAME.score_sheet([first.state, misdealt.state])
    assert sheet is not None
    assert sheet.rows[1] == ("2 (misdeal)", "$0", "$0", "$0", "$15")

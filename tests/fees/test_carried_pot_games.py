"""The fees ruling in the trick games whose pot carries from hand to hand (Rams, Preference): a
percentage rake, a fixed collection from the pot and a jackpot drop are worked out on the chips
put into the pot during the hand, never on the pot carried in, taken when the hand settles
(first from what goes on to the next pot, then from the pot's pushes), rounded down to the
smallest chip, capped, with a minimum pot and "no flop, no drop" (no fee in a hand nobody played
for the pot). Every settlement conserves chips, hand after hand."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.engine.base import Settlement
from dealer_assist.engine.hand import replay
from dealer_assist.engine.registry import get_game
from dealer_assist.events import CardDealt, Event, Start
from dealer_assist.games.preference.events import Ante, Bid, Defend, NameTrump
from dealer_assist.games.rams.events import Pass, Play, Rams, Trump, Widow

RAMS = get_game("rams")
PREF = get_game("preference")
TEN = {"kind": "rake", "percent": "10"}


def rams_start(fee: dict[str, Any] | None = None, *, seats: tuple[int, ...] = (1, 2, 3, 4),
               dealer: int = 4, pot_in: int = 1500, **more: Any) -> Start:
    params: dict[str, Any] = {"dealer": dealer, "stake": 100, "pot_in": pot_in, **more}
    if fee is not None:
        params["fee"] = fee
    return Start(game="rams", seats=seats, params=params)


def card(seat: int, code: str) -> CardDealt:
    return CardDealt(seat=seat, card=parse_card(code))


def tricks(*rows: str) -> list[Event]:
    """Each row "1:As 3:7s 4:Ks" is one trick."""
    out: list[Event] = []
    for row in rows:
        for play in row.split():
            seat, code = play.split(":")
            out.append(card(int(seat), code))
    return out


#: The Rams example hand (docs/games/rams.md): 15 counters of $1 carried in, the dealer's $5
#: ante: a $20 pot, $4 a trick; seat 1 takes three tricks ($12), seat 4 two ($8); seat 3
#: played and took none: it pays $5 into the next pot.
RAMS_HAND: list[Event] = [
    Trump(card=parse_card("Kh")), Widow(seat=1), Pass(seat=2), Play(seat=3), Play(seat=4),
    *tricks("1:As 3:7s 4:Ks", "1:Ah 3:8h 4:Th", "1:Qc 3:Ac 4:9h", "4:Jd 1:Qd 3:8d",
            "1:9s 3:Td 4:Jh"),
]


def rams(fee: dict[str, Any] | None, events: list[Event] = RAMS_HAND,
         **start: Any) -> Settlement:
    return replay([rams_start(fee, **start), *events]).settle().require_conserved()


def pot_lines(s: Settlement) -> list[tuple[str, int, int | None]]:
    return [(f.kind, f.amount, f.base) for f in s.fees if f.from_seat is None]


def test_ruling_fees_rams_rake_on_the_hands_chips_only_taken_from_the_next_pot_first() -> None:
    plain = rams(None)
    assert plain.payouts == {1: 1200, 4: 800} and plain.carry_out == 500
    s = rams(TEN)
    # chips put in this hand: the $5 ante and seat 3's $5, $10 (the $15 carried in is not
    # raked): 10% is $1, out of the next pot first; the pushes are untouched
    assert pot_lines(s) == [("rake", 100, 1000)]
    assert s.fees[0].note == "10% of $10"
    assert s.payouts == {1: 1200, 4: 800} and s.carry_out == 400
    assert s.put_in == plain.put_in == {4: 500, 3: 500}
    assert any(step.kind == "fee" and step.text == "Drop $1 rake (10% of $10)"
               for step in s.steps)


def test_ruling_fees_rams_collection_larger_than_the_next_pot_comes_from_the_pushes() -> None:
    s = rams({"kind": "fixed", "amount": 700})
    # $5 from the next pot, then $2 from the tricks' pushes, a $1 chip each from the dealer's left
    assert pot_lines(s) == [("collection", 700, 1000)]
    assert s.carry_out == 0 and s.payouts == {1: 1100, 4: 700}
    texts = [step.text for step in s.steps]
    assert "Seat 1: 3 tricks × $4 = $12, less $1 of the house's fee: $11" in texts


def test_ruling_fees_rams_rake_rounds_down_to_the_smallest_chip_and_is_capped() -> None:
    # 25% of $10 is $2.50: $2 with the $1 counter as the smallest chip, $2.50 with quarters
    assert pot_lines(rams({"kind": "rake", "percent": "25"})) == [("rake", 200, 1000)]
    assert pot_lines(rams({"kind": "rake", "percent": "25"}, smallest_chip=25)) == [
        ("rake", 250, 1000)]
    assert pot_lines(rams({"kind": "rake", "percent": "25", "cap": 100})) == [
        ("rake", 100, 1000)]
    # a minimum pot is read on the hand's chips too: $10 put in is under a $12 minimum
    assert rams({"kind": "rake", "percent": "25", "min_pot": 1200}).fees == ()
    assert pot_lines(rams({"kind": "rake", "percent": "25", "min_pot": 1000})) == [
        ("rake", 200, 1000)]


REDEAL: list[Event] = [Trump(card=parse_card("9c")), Pass(seat=1), Pass(seat=2)]


def test_ruling_fees_rams_no_flop_no_drop_a_redeal_takes_no_fee() -> None:
    # everyone before the dealer passed: nobody played for the pot
    s = rams({**TEN, "jackpot": {"amount": 100}}, REDEAL, seats=(1, 2, 3), dealer=3, pot_in=1000)
    assert s.fees == () and s.carry_out == 1500
    # without "no flop, no drop" the dealer's $5 ante is raked: 50 cents, with 50-cent chips
    s = rams({**TEN, "no_flop_no_drop": False}, REDEAL, seats=(1, 2, 3), dealer=3,
             pot_in=1000, smallest_chip=50)
    assert pot_lines(s) == [("rake", 50, 500)] and s.carry_out == 1450
    assert s.payouts == {3: 500}  # the redeal's payment to the dealer is never raked


def test_ruling_fees_rams_won_the_rake_comes_from_the_declarers_pot() -> None:
    won = [Trump(card=parse_card("9s")), Rams(seat=1), Play(seat=2), Play(seat=3),
           *tricks("1:As 2:8s 3:Ts", "1:Ks 2:Kh 3:7d", "1:Qs 2:7c 3:8d", "1:Js 2:8c 3:9d",
                   "1:Ah 2:9h 3:Td")]
    s = rams({"kind": "rake", "percent": "20"}, won, seats=(1, 2, 3), dealer=3, pot_in=1000)
    # only the $5 ante went into the pot this hand (the $5 from each opponent is paid to the
    # declarer, not into the pot): 20% is $1, from the $15 pot seat 1 takes
    assert pot_lines(s) == [("rake", 100, 500)]
    assert s.payouts == {1: 1500 - 100 + 1000} and s.carry_out == 0


def test_ruling_fees_rams_lost_the_doubling_is_raked_and_stays_in_the_pot() -> None:
    lost = [Trump(card=parse_card("7h")), Pass(seat=1), Rams(seat=2), Widow(seat=3),
            Play(seat=4), *tricks("1:Kc 2:Ac 3:8c 4:9c", "2:Ad 3:8h 4:Td 1:Kd")]
    s = rams(TEN, lost, pot_in=700)
    # the ante $5 and the doubling $12 went in: 10% of $17 is $1.70, $1 in counters
    assert pot_lines(s) == [("rake", 100, 1700)]
    assert s.carry_out == 2400 - 100 and s.payouts == {1: 500, 3: 500, 4: 500}


def test_ruling_fees_rams_jackpot_drop_to_its_own_fund() -> None:
    s = rams({"kind": "none", "jackpot": {"amount": 200}})
    assert [(f.kind, f.amount) for f in s.fees] == [("jackpot", 200)]
    assert s.carry_out == 300


# --- Preference ------------------------------------------------------------------------------


#: Seat 1 holds the four aces and the top spades; the talon is 8♣ 7♣ (tests/games).
PREF_HANDS = {1: "As Ks Qs Js Ts Ah Kh Ad Ac Kc", 2: "9s 8s Qh Jh Th 9h Kd Qd Qc Jc",
              3: "7s 8h 7h Jd Td 9d 8d 7d Tc 9c"}


def pref(fee: dict[str, Any] | None, *events: Event, pot_in: int = 0) -> Settlement:
    params: dict[str, Any] = {"dealer": 3, "stake": 100, "pot_in": pot_in}
    if fee is not None:
        params["fee"] = fee
    from tests.games.test_preference import playout  # (the highest legal card each turn)

    played = playout([Start(game="preference", seats=(1, 2, 3), params=params), *events],
                     PREF_HANDS)
    return replay(played).settle().require_conserved()


ONE_BID: list[Event] = [
    Bid(seat=1, bid="one"), Bid(seat=2, bid="pass"), Bid(seat=3, bid="pass"),
]


def _one_bid_played() -> list[Event]:
    from dealer_assist.events import Discard
    from dealer_assist.games.preference.events import Talon

    return [*ONE_BID, Talon(cards=parse_cards("8c 7c")),
            Discard(seat=1, cards=parse_cards("8c 7c")), NameTrump(seat=1, suit="s"),
            Defend(seat=2, choice="play"), Defend(seat=3, choice="play")]


def test_ruling_fees_preference_rake_on_the_antes_and_penalties_from_the_next_pot() -> None:
    plain = pref(None, Ante(stakes=10), *_one_bid_played())
    assert plain.carry_out == 4000 and plain.payouts == {1: 3000}
    s = pref(TEN, Ante(stakes=10), *_one_bid_played())
    # $30 of antes and $20 of penalties went in: 10% of $50 is $5, out of the next pot
    assert pot_lines(s) == [("rake", 500, 5000)]
    assert s.carry_out == 3500 and s.payouts == {1: 3000}
    capped = pref({**TEN, "cap": 300}, Ante(stakes=10), *_one_bid_played())
    assert pot_lines(capped) == [("rake", 300, 5000)]
    assert pref({**TEN, "min_pot": 6000}, Ante(stakes=10), *_one_bid_played()).fees == ()


def test_ruling_fees_preference_a_pot_carried_in_is_never_raked_again() -> None:
    # $20 carried in, no ante (the pot holds ten stakes or more): only the defenders' $20 of
    # penalties went in this hand
    s = pref(TEN, *_one_bid_played(), pot_in=2000)
    assert pot_lines(s) == [("rake", 200, 2000)]
    # everyone passed and nobody played for the pot: no fee ("no flop, no drop")
    passed = replay([Start(game="preference", seats=(1, 2, 3),
                           params={"dealer": 3, "stake": 100, "pot_in": 0, "fee": TEN}),
                     Ante(stakes=10), Bid(seat=1, bid="pass"), Bid(seat=2, bid="pass"),
                     Bid(seat=3, bid="pass")]).settle().require_conserved()
    assert passed.fees == () and passed.carry_out == 3000


def test_ruling_fees_preference_collection_cut_from_the_declarers_take() -> None:
    s = pref({"kind": "fixed", "amount": 4500}, Ante(stakes=10), *_one_bid_played())
    # $40 goes on to the next pot; the other $5 comes out of the declarer's $10
    assert pot_lines(s) == [("collection", 4500, 5000)]
    assert s.carry_out == 0 and s.payouts == {1: 1000 - 500 + 2000}


# --- runs of hands ---------------------------------------------------------------------------

POLICIES = [
    {"kind": "rake", "percent": "10", "no_flop_no_drop": False},
    {"kind": "rake", "percent": "5", "cap": 300, "min_pot": 500},
    {"kind": "rake", "percent": "7.5", "jackpot": {"amount": 100, "no_flop_no_drop": False}},
    {"kind": "fixed", "amount": 300},
    {"kind": "fixed", "amount": 200, "from": "button"},
    {"kind": "per-player", "amount": 100},
    {"kind": "none", "jackpot": {"amount": 200, "fund": "promo"}},
]


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), hands=st.integers(2, 6),
       policy=st.sampled_from(POLICIES), name=st.sampled_from(["rams", "preference"]),
       chip=st.sampled_from([None, 25, 100]))
def test_ruling_fees_runs_of_hands_conserve_and_never_rake_the_carried_pot(
    seed: int, hands: int, policy: dict[str, Any], name: str, chip: int | None
) -> None:
    game = get_game(name)
    rng = random.Random(seed)
    players = rng.randint(*game.players)
    pot, dealer = 0, players
    total_in = total_out = fees = 0
    for _ in range(hands):
        params: dict[str, Any] = {"pot_in": pot, "dealer": dealer, "fee": policy}
        if chip is not None:
            params["smallest_chip"] = chip
        events = game.sample_hand(rng, players=players, params=params)
        hand = replay(events)
        s = hand.settle()
        assert s.conserved and s.carry_in == pot
        put = sum(s.put_in.values())
        before = sum(f.amount for f in s.fees if f.from_seat is not None)
        for f in s.fees:
            if f.from_seat is None:
                # worked out on this hand's chips only, rounded to the chip, within the pot
                assert f.base is not None and 0 < f.amount <= f.base <= put - before
                assert f.amount % (chip or 100) == 0
        total_in += put
        total_out += sum(s.payouts.values())
        fees += sum(f.amount for f in s.fees)
        pot = s.carry_out
        if game.game_over(hand.state):
            break
        dealer = game.next_hand(hand.state).get("dealer", dealer % players + 1)
    assert total_in == total_out + fees + pot

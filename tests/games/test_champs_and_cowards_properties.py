"""Champs and Cowards over random legal hands, and with the house's fees."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.engine.hand import parse_lines, replay, to_lines
from dealer_assist.events import Reshuffle
from dealer_assist.games.champs_and_cowards import GAME
from dealer_assist.games.champs_and_cowards.events import Champ

from .test_champs_and_cowards import hand, refused, run

FEES = st.sampled_from([
    None,
    {"kind": "per-player", "amount": 100},
    {"kind": "rake", "percent": "10", "cap": 500},
    {"kind": "fixed", "amount": 300, "from": "pot"},
    {"kind": "rake", "bps": 500, "jackpot": {"amount": 100}},
])


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 24),
    decks=st.integers(1, 3),
    chip=st.sampled_from([25, 100, 200, 500]),
    carry_in=st.integers(0, 5000),
    fee=FEES,
)
def test_rule_random_hands_conserve_chips_and_never_stand_more_than_three(
    seed: int, players: int, decks: int, chip: int, carry_in: int, fee: dict[str, object] | None
) -> None:
    events = GAME.sample_hand(
        random.Random(seed), players=players,
        params={"decks": decks, "chip": chip, "carry_in": carry_in, "fee": fee},
    )
    h = replay(events)
    assert h.over
    for step in h.steps:
        assert sum(1 for x in step.state.hands if x.status == "standing") <= 3
    s = h.settle()
    champs = sum(1 for e in events if isinstance(e, Champ))
    antes = 6 * chip * players
    fees = sum(f.amount for f in s.fees)
    pre = sum(f.amount for f in s.fees if f.from_seat is not None)
    paid_in = antes + pre + 2 * chip * champs + carry_in
    assert paid_in == sum(s.payouts.values()) + s.carry_out + fees
    assert s.conserved
    # the fee never touches the prize stacks: only the bonus pool pays pot fees
    assert fees - pre <= chip * 2 * champs + carry_in
    # the hand log's JSON form replays to the same outcome
    again, _ = parse_lines(to_lines(events).splitlines())
    assert replay(again).settle() == s


def test_rule_sample_hands_reshuffle_when_the_stub_runs_out() -> None:
    events = [
        e
        for seed in range(10)
        for e in GAME.sample_hand(random.Random(seed), players=24, params={"decks": 1})
    ]
    assert any(isinstance(e, Reshuffle) for e in events)


def test_rule_fees_per_player_before_the_deal() -> None:
    fee = {"kind": "per-player", "amount": 100}
    s = run(hand("9s 8h 2c", "1- 2- 3-", chip=100, fee=fee)).settle()
    assert dict(s.put_in) == {1: 700, 2: 700, 3: 700}
    assert [(f.kind, f.amount, f.from_seat) for f in s.fees] == [
        ("player-fee", 100, 1), ("player-fee", 100, 2), ("player-fee", 100, 3)
    ]
    assert dict(s.payouts) == {1: 1200, 2: 500, 3: 100} and s.conserved
    assert GAME.view(run(hand("9s 8h 7c", chip=100, fee=fee)).state).seats[0].put_in == 700


def test_rule_fees_rake_comes_from_the_bonus_pool_only() -> None:
    fee = {"kind": "rake", "percent": "10", "chip": 100}
    acts = "4+4c 4- 5+2h 5+Qh 6- 7- 8- 1+As 1+Td 1- 2+5d 2+Ac 2+8s 2+5h 3-"
    h = run(hand("7h Kc 2s 9d 3s Jc Jh 9c", acts, fee=fee))
    s = h.settle()
    # 10% of the $36 bonus pool, rounded down to the $1 chip: $3; the stacks are untouched
    assert [(f.kind, f.amount) for f in s.fees] == [("rake", 300)]
    assert dict(s.payouts) == {1: 9000 - 300, 4: 3000, 8: 1200}
    assert [p.kind for p in s.steps][:3] == ["push", "fee", "push"]
    assert s.steps[1].text.startswith("Take the house rake of $3 from the bonus pool")
    # no champ bought a card: no rake (nothing in the pool to take it from but the carry-in)
    s = run(hand("9s 8h 2c", "1- 2- 3-", fee=fee, carry_in=1000)).settle()
    assert s.fees == () and s.payouts[1] == 1800 + 1000 + 600


def test_rule_fees_fixed_from_the_button_is_refused() -> None:
    err = refused(hand("9s 8h 7c", fee={"kind": "fixed", "amount": 100, "from": "button"}))
    assert err.line == 1 and "the table's fee" in str(err) and "no button" in str(err)
    err = refused(hand("9s 8h 7c", fee={"kind": "rake", "percent": "150"}))
    assert err.line == 1 and 'fee "percent" must be between 0 and 100' in str(err)

"""Property tests of the betting engine: random legal hands in every structure conserve chips,
and nobody wins more from an opponent than that opponent put in."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.engine import betting as b
from dealer_assist.engine.pots import Pot
from dealer_assist.errors import RuleViolation


@st.composite
def tables(draw: st.DrawFn) -> tuple[b.BettingRules, list[int], int, dict[int, int], int]:
    structure = draw(st.sampled_from(list(b.Structure)))
    forced = draw(st.sampled_from(["blinds", "antes", "both"]))
    blinds = forced != "antes"
    ante = draw(st.sampled_from([25, 50, 100])) if forced != "blinds" else 0
    if structure is b.Structure.LIMIT:
        rules = b.BettingRules(
            structure=structure,
            small_blind=100 if blinds else 0,
            big_blind=200 if blinds else 0,
            ante=ante,
            small_bet=200,
            big_bet=400,
            cap=draw(st.sampled_from([None, 3, 4])),
            heads_up_uncapped=draw(st.booleans()),
        )
    else:
        rules = b.BettingRules(
            structure=structure,
            small_blind=100 if blinds else 0,
            big_blind=200 if blinds else 0,
            ante=ante,
            min_bet=None if blinds else 200,
            max_in_round=draw(st.sampled_from([None, None, 1000])),
        )
    n = draw(st.integers(2, 6))
    seats = draw(st.permutations(range(1, 10)))[:n]
    button = draw(st.sampled_from(seats))
    stacks = {s: draw(st.integers(1, 6000)) for s in seats}
    pot_in = draw(st.sampled_from([0, 0, 350]))
    return rules, list(seats), button, stacks, pot_in


def _act(state: b.BettingState, choice: b.Choice, to: int | None) -> b.BettingState:
    seat = state.seat_to_act
    assert seat is not None
    if choice.kind == "check":
        return b.check(state, seat)
    if choice.kind == "call":
        return b.call(state, seat)
    if choice.kind == "fold":
        return b.fold(state, seat)
    if choice.kind == "all-in":
        return b.all_in(state, seat)
    if choice.kind == "bet":
        return b.bet(state, seat, to=to)
    return b.raise_to(state, seat, to=to)


@settings(max_examples=150, deadline=None)
@given(table=tables(), data=st.data())
def test_random_legal_hands_conserve_chips_and_win_no_more_than_each_opponent_put_in(
    table: tuple[b.BettingRules, list[int], int, dict[int, int], int], data: st.DataObject
) -> None:
    rules, seats, button, stacks, pot_in = table
    state = b.start(rules, seats=seats, button=button, stacks=stacks, pot_in=pot_in)
    while True:
        assert sum(state.stacks) + sum(state.put_in) - sum(state.returned) == sum(
            stacks.values()
        )
        assert min(state.stacks) >= 0
        if rules.max_in_round is not None and state.round > 0:
            assert max(state.in_round) <= rules.max_in_round
        if state.to_act is None:
            if state.betting_done or state.round == 3:
                break
            state = b.next_round(state)
            continue
        if data.draw(st.integers(0, 19)) == 0 and len(state.live) > 1:
            # now and then the dealer kills a hand, in turn or not
            state = b.kill(state, data.draw(st.sampled_from(state.live)))
            continue
        opts = b.options(state)
        assert opts is not None
        seat = opts.seat
        # every choice offered is accepted; the can_* answers agree
        assert b.can_fold(state, seat)
        assert b.can_check(state, seat) == (opts.choice("check") is not None)
        assert b.can_call(state, seat) == (opts.choice("call") is not None)
        choice = data.draw(st.sampled_from(opts.choices))
        to = None
        if choice.kind in ("bet", "raise"):
            assert choice.low is not None and choice.high is not None
            to = data.draw(st.integers(choice.low, choice.high))
            if choice.low > state.in_round[state.to_act] + state.stacks[state.to_act]:
                raise AssertionError("a bet range beyond the stack")
            below = choice.low - 1
            if below > state.bet and below != choice.high and rules.structure is not (
                b.Structure.LIMIT
            ):
                try:
                    (b.verify_bet if choice.kind == "bet" else b.verify_raise)(
                        state, seat, to=below
                    )
                except RuleViolation as refusal:
                    assert refusal.rule == "betting-min-raise"
                else:
                    raise AssertionError("a raise under the minimum was accepted")
        state = _act(state, choice, to)
    strength = {s: data.draw(st.integers(0, 3)) for s in seats}

    def winners(pot: Pot) -> list[list[int]]:
        top = max(strength[s] for s in pot.eligible)
        high = [s for s in pot.eligible if strength[s] == top]
        low = [min(pot.eligible)] if data.draw(st.booleans()) else []
        return [high, low]

    rake = data.draw(st.integers(0, 500))

    def fee(pots: tuple[Pot, ...]) -> int:
        room = sum(p.amount for p in pots if p.contested or state.hand_over)
        return min(rake, room)

    chip = data.draw(st.sampled_from([1, 25, 100]))
    payout = b.award(state, winners=winners, fee=fee, smallest_chip=chip)
    assert payout.conserved
    final = {s: state.stacks[i] + payout.won[s] for i, s in enumerate(state.seats)}
    assert sum(final.values()) + payout.fee == sum(stacks.values()) + pot_in
    contributions = state.contributions()
    assert sum(p.amount for p in b.pots(state)) == sum(contributions.values()) + pot_in
    folded = {s for i, s in enumerate(state.seats) if state.folded[i]}
    for w in seats:
        # from a player still in, at most what w itself put in; a folded player's chips are
        # dead and may all go to the one who wins the pot they reached
        gain = payout.won[w] - contributions[w]
        most = sum(
            contributions[o] if o in folded else min(contributions[o], contributions[w])
            for o in seats
            if o != w
        )
        assert gain <= most + pot_in, (w, gain, most)
        if state.folded[state.seats.index(w)]:
            assert payout.won[w] == 0

"""Worked hands for the betting engine, every number written out, and each refusal's message.

Amounts are cents: $1/$2 blinds are 100/200. Seats are listed clockwise.
"""

from __future__ import annotations

import pytest

from dealer_assist.engine import betting as b
from dealer_assist.engine.pots import Pot
from dealer_assist.errors import BadInput, RuleViolation

NL = b.Structure.NO_LIMIT
PL = b.Structure.POT_LIMIT
LIMIT = b.Structure.LIMIT


def play(state: b.BettingState, *moves: tuple[int, str] | tuple[int, str, int]) -> b.BettingState:
    """Apply ``(seat, kind)`` or ``(seat, kind, to)`` moves in order."""
    for move in moves:
        seat, kind = move[0], move[1]
        to = move[2] if len(move) == 3 else None
        if kind == "check":
            state = b.check(state, seat)
        elif kind == "call":
            state = b.call(state, seat)
        elif kind == "fold":
            state = b.fold(state, seat)
        elif kind == "all-in":
            state = b.all_in(state, seat)
        elif kind == "bet":
            state = b.bet(state, seat, to=to)
        elif kind == "raise":
            state = b.raise_to(state, seat, to=to)
        else:
            raise AssertionError(kind)
    return state


def refused(rule: str, action: object, *args: object, **kwargs: object) -> str:
    with pytest.raises(RuleViolation) as info:
        action(*args, **kwargs)  # type: ignore[operator]
    assert info.value.rule == rule, info.value.message
    return info.value.message


def labels(state: b.BettingState) -> tuple[str, ...]:
    opts = b.options(state)
    assert opts is not None
    return opts.labels


# -- no-limit ---------------------------------------------------------------------------------


def test_worked_no_limit_hand_min_raise_short_all_in_side_pot_and_split() -> None:
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    s = b.start(rules, seats=[1, 2, 3, 4], button=4,
                stacks={1: 10000, 2: 10000, 3: 3000, 4: 10000})
    # seat 1 posts $1, seat 2 $2; seat 3 (left of the big blind) acts first
    assert (s.seat_to_act, s.put_in, s.pot) == (3, (100, 200, 0, 0), 300)
    assert labels(s) == ("call $2", "raise to $4-$30", "all-in $30 (raise)", "fold")
    s = play(s, (3, "raise", 600))
    # the last full raise is $4: the next raise is to at least $10
    assert labels(s) == ("call $6", "raise to $10-$100", "all-in $100 (raise)", "fold")
    message = refused("betting-min-raise", b.raise_to, s, 4, to=900)
    assert message == (
        "under the minimum: raise to at least $10 (the last full raise is $4), or all-in for $100"
    )
    s = play(s, (4, "call"), (1, "fold"), (2, "raise", 2000))  # a full raise of $14
    # seat 3 has $24 more: all-in to $30 is a raise of $10, short of the $14 full raise
    assert labels(s) == ("call $14", "all-in $24 (raise)", "fold")
    s = play(s, (3, "all-in"))
    assert s.log[-1] == b.Act(3, "raise", 2400, 3000, True, 0)
    # seat 4 acted at $6 and now faces $30: $24 more, at least a full raise: it may raise
    assert labels(s) == ("call $24", "raise to $44-$100", "all-in $94 (raise)", "fold")
    s = play(s, (4, "call"))
    # seat 2 raised to $20 and faces only $10 more: not reopened
    message = refused("betting-reopen", b.raise_to, s, 2, to=5000)
    assert message == (
        "the all-in since seat 2 acted was short of a full raise, so the betting is not "
        "reopened to it: seat 2 can call $10 or fold, not raise"
    )
    assert labels(s) == ("call $10", "fold")
    s = play(s, (2, "call"))
    assert s.round_closed and s.pot == 9100
    assert b.pots(s) == (Pot(9100, (2, 3, 4), 3000),)
    # the flop: seat 2 (first left of the button still in with chips) opens
    s = b.next_round(s)
    assert s.seat_to_act == 2
    assert labels(s) == ("check", "bet $2-$70", "all-in $70 (bet)", "fold")
    s = play(s, (2, "bet", 2000), (4, "all-in"), (2, "call"))
    assert s.betting_done
    assert [(p.amount, p.eligible) for p in b.pots(s)] == [(9100, (2, 3, 4)), (14000, (2, 4))]
    strength = {2: 5, 3: 9, 4: 5}
    payout = b.award(s, winners=b.best_first(strength))
    # seat 3 takes the main pot; seats 2 and 4 tie for the side pot and split it
    assert payout.won == {1: 0, 2: 7000, 3: 9100, 4: 7000}
    assert {seat: s.stacks[i] + payout.won[seat] for i, seat in enumerate(s.seats)} == {
        1: 9900, 2: 7000, 3: 9100, 4: 7000
    }
    assert payout.conserved and payout.fee == 0


def test_rule_the_uncalled_part_of_a_bet_goes_back_and_is_in_the_payouts() -> None:
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    s = b.start(rules, seats=[1, 2, 3], button=3, stacks={1: 2000, 2: 10000, 3: 10000})
    s = play(s, (3, "fold"), (1, "call"), (2, "check"))
    s = b.next_round(s)
    s = play(s, (1, "check"), (2, "bet", 5000), (1, "call"))
    assert s.seat_to_act is None
    # seat 1 calls all-in for its last $18; nobody can call more of seat 2's $50: $32 comes back
    assert s.log[-1] == b.Act(1, "call", 1800, 1800, True, 1)
    assert s.returned == (0, 3200, 0)
    assert s.stacks == (0, 8000, 10000)
    payout = b.award(s, winners=b.best_first({1: 1, 2: 2}))
    assert payout.pots[0].amount == 4000 and payout.pots[0].shares == {2: 4000}
    assert payout.put_in == {1: 2000, 2: 5200, 3: 0}
    assert payout.returned == {1: 0, 2: 3200, 3: 0}
    assert payout.payouts == {1: 0, 2: 7200, 3: 0}
    assert payout.net() == {1: -2000, 2: 2000, 3: 0}


def test_rule_everyone_folds_to_a_raise_the_raise_comes_back_above_the_blind() -> None:
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    s = b.start(rules, seats=[1, 2, 3], button=3, stacks={1: 5000, 2: 5000, 3: 5000})
    s = play(s, (3, "raise", 800), (1, "fold"), (2, "fold"))
    assert s.hand_over and s.betting_done and s.live == (3,)
    assert s.returned == (0, 0, 600)
    payout = b.award(s)  # one seat left: no winners needed
    assert payout.won == {1: 0, 2: 0, 3: 500}
    assert payout.net() == {1: -100, 2: -200, 3: 300}


def test_rule_a_short_all_in_bet_does_not_reopen_to_a_player_who_checked() -> None:
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    s = b.start(rules, seats=[1, 2, 3], button=3, stacks={1: 5000, 2: 5000, 3: 300})
    s = play(s, (3, "call"), (1, "call"), (2, "check"))
    s = b.next_round(s)
    s = play(s, (1, "check"), (2, "check"), (3, "all-in"))
    assert s.log[-1] == b.Act(3, "bet", 100, 100, True, 1)
    # $1 is less than the $2 smallest bet: seat 1 checked, so it may only call or fold
    assert labels(s) == ("call $1", "fold")
    s = play(s, (1, "call"))
    assert labels(s) == ("call $1", "fold")  # seat 2 checked too


def test_rule_cumulative_short_all_ins_reopen_when_they_add_up_to_a_full_raise() -> None:
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    s = b.start(rules, seats=[1, 2, 3, 4, 5], button=5,
                stacks={1: 20000, 2: 20000, 3: 20000, 4: 1300, 5: 1700})
    s = b.next_round(play(s, (3, "call"), (4, "call"), (5, "call"), (1, "call"), (2, "check")))
    s = play(s, (1, "bet", 500), (2, "raise", 1000), (3, "call"), (4, "all-in"), (5, "all-in"))
    # seat 4's all-in to $11 and seat 5's to $15 are each short of the $5 full raise, but
    # seat 1 (bet $5) now faces $10 more: reopened, and the least raise is to $15 + $5
    assert s.seat_to_act == 1
    rng = b.wager_range(s, 0)
    assert (rng.low, rng.high) == (2000, 19800)
    s = play(s, (1, "call"), (2, "call"))
    # seat 3 called $10 and faces $15: $5 more, exactly a full raise
    assert labels(s)[1] == "raise to $20-$198"


def test_rule_under_the_smallest_bet_is_refused_unless_all_in() -> None:
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    s = b.start(rules, seats=[1, 2], button=2, stacks={1: 5000, 2: 5000})
    s = b.next_round(play(s, (2, "call"), (1, "check")))
    message = refused("betting-min-raise", b.bet, s, 1, to=150)
    assert message == (
        "under the minimum: bet to at least $2 (the smallest bet is $2), or all-in for $48"
    )
    refused("betting-amount", b.bet, s, 1)
    refused("betting-stack", b.bet, s, 1, to=4900)


# -- pot-limit --------------------------------------------------------------------------------


def test_worked_pot_limit_hand_the_maximum_worked_out_for_the_dealer() -> None:
    rules = b.BettingRules(structure=PL, small_blind=500, big_blind=1000)
    s = b.start(rules, seats=[1, 2, 3, 4, 5], button=5, stacks=dict.fromkeys(range(1, 6), 50000))
    # before the flop: the pot is $15, calling $10 makes it $25: raise to at most $35
    opts = b.options(s)
    assert opts is not None
    assert opts.note == "pot is $15: raise to at most $35"
    assert opts.labels[:2] == ("call $10", "raise to $20-$35")
    s = play(s, (3, "call"), (4, "call"), (5, "call"), (1, "call"), (2, "check"))
    s = b.next_round(s)
    assert s.pot == 5000
    assert labels(s)[1] == "bet $10-$50"
    s = play(s, (1, "bet", 2500), (2, "fold"), (3, "call"), (4, "call"), (5, "fold"))
    s = b.next_round(s)
    s = play(s, (1, "bet", 2000))
    opts = b.options(s)
    assert opts is not None and opts.seat == 3
    assert opts.note == "pot is $145: raise to at most $185"
    assert opts.labels == ("call $20", "raise to $40-$185", "fold")
    message = refused("betting-pot-limit", b.raise_to, s, 3, to=18600)
    assert message == "over the pot-limit maximum: pot is $145: raise to at most $185"
    refused("betting-pot-limit", b.all_in, s, 3)
    s = play(s, (3, "raise", 18500), (4, "fold"), (1, "call"))
    assert s.pot == 12500 + 2 * 18500
    assert s.round_closed and not s.betting_done


def test_rule_pot_limit_opening_bet_may_be_the_smallest_bet_even_above_the_pot() -> None:
    rules = b.BettingRules(structure=PL, ante=100, min_bet=1000)
    s = b.start(rules, seats=[1, 2, 3], button=3, stacks=dict.fromkeys([1, 2, 3], 20000))
    assert s.seat_to_act == 1 and s.pot == 300
    assert labels(s)[:2] == ("check", "bet $10")


# -- limit ------------------------------------------------------------------------------------


def _limit(**kwargs: object) -> b.BettingRules:
    settings: dict[str, object] = {
        "structure": LIMIT, "small_blind": 100, "big_blind": 200, "small_bet": 200,
        "big_bet": 400, "cap": 4,
    }
    settings.update(kwargs)
    return b.BettingRules(**settings)  # type: ignore[arg-type]


def test_worked_limit_hand_cap_counts_the_big_blind_and_lifts_heads_up() -> None:
    s = b.start(_limit(), seats=[1, 2, 3, 4], button=4, stacks=dict.fromkeys([1, 2, 3, 4], 20000))
    assert labels(s) == ("call $2", "raise to $4", "fold")
    # the big blind is the first bet; three raises make four and cap the round
    s = play(s, (3, "raise"), (4, "raise"), (1, "raise"))
    assert (s.bet, s.raises) == (800, 4)
    assert refused("betting-cap", b.raise_to, s, 2) == (
        "the betting is capped at 4 bets this round: seat 2 can call or fold"
    )
    assert labels(s) == ("call $6", "fold")
    s = play(s, (2, "call"), (3, "call"), (4, "call"))
    assert s.pot == 3200
    s = b.next_round(s)  # the flop: still the small bet
    assert refused("betting-limit", b.bet, s, 1, to=300) == (
        "in limit a bet this round is to $2, not $3"
    )
    s = play(s, (1, "bet"), (2, "fold"), (3, "raise"), (4, "fold"))
    # heads-up now: no cap
    s = play(s, (1, "raise"), (3, "raise"), (1, "raise"))
    assert (s.bet, s.raises) == (1000, 5)
    assert labels(s) == ("call $2", "raise to $12", "fold")
    s = play(s, (3, "call"))
    s = b.next_round(s)  # the turn: the big bet
    assert labels(s) == ("check", "bet $4", "fold")
    s = play(s, (1, "bet"))
    assert s.log[-1] == b.Act(1, "bet", 400, 400, False, 2)


def test_rule_limit_cap_stays_heads_up_when_the_table_says_so() -> None:
    s = b.start(_limit(heads_up_uncapped=False), seats=[1, 2], button=2,
                stacks={1: 20000, 2: 20000})
    s = play(s, (2, "raise"), (1, "raise"), (2, "raise"))
    refused("betting-cap", b.raise_to, s, 1)


def test_rule_limit_all_in_of_half_a_bet_reopens_the_betting() -> None:
    s = b.start(_limit(), seats=[1, 2, 3], button=3, stacks={1: 20000, 2: 20000, 3: 500})
    s = b.next_round(play(s, (3, "call"), (1, "call"), (2, "check")))
    s = play(s, (1, "bet"), (2, "call"), (3, "all-in"))
    # seat 3 had $3: all-in to $3 is a raise of $1, half the $2 bet: a raise
    assert s.log[-1] == b.Act(3, "raise", 300, 300, True, 1)
    assert labels(s) == ("call $1", "raise to $5", "fold")
    s = play(s, (1, "raise"))
    assert s.bet == 500


def test_rule_limit_all_in_under_half_a_bet_does_not_reopen_and_the_raise_completes() -> None:
    s = b.start(_limit(), seats=[1, 2, 3, 4], button=4,
                stacks={1: 20000, 2: 20000, 3: 20000, 4: 450})
    s = b.next_round(play(s, (3, "call"), (4, "call"), (1, "call"), (2, "check")))
    s = play(s, (1, "bet"), (2, "call"), (3, "call"), (4, "all-in"))
    # seat 4 had $2.50: a raise of 50 cents, under half a bet: not a raise for those who acted
    assert s.log[-1] == b.Act(4, "raise", 250, 250, True, 1)
    assert s.raises == 1
    assert refused("betting-reopen", b.raise_to, s, 1).startswith(
        "the all-in since seat 1 acted was short of a full raise"
    )
    assert labels(s) == ("call $0.50", "fold")


def test_rule_limit_raise_after_a_short_all_in_from_a_player_yet_to_act() -> None:
    s = b.start(_limit(), seats=[1, 2, 3, 4], button=4,
                stacks={1: 20000, 2: 20000, 3: 250, 4: 20000})
    s = play(s, (3, "all-in"))  # $2.50 over the $2 big blind: 50 cents, under half a bet
    # the next raise completes a full raise over the big blind: to $4
    assert labels(s) == ("call $2.50", "raise to $4", "fold")


def test_rule_limit_wager_beyond_the_stack_must_be_all_in() -> None:
    s = b.start(_limit(), seats=[1, 2, 3], button=3, stacks={1: 20000, 2: 20000, 3: 300})
    assert refused("betting-stack", b.raise_to, s, 3).startswith("seat 3 has only $3 in all")
    assert labels(s) == ("call $2", "all-in $3 (raise)", "fold")


# -- order of play ----------------------------------------------------------------------------


def test_rule_heads_up_the_button_posts_the_small_blind_acts_first_then_last() -> None:
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    s = b.start(rules, seats=[4, 7], button=7, stacks={4: 5000, 7: 5000})
    assert s.put_in == (200, 100) and s.seat_to_act == 7
    s = play(s, (7, "call"))
    # the big blind's option
    assert s.seat_to_act == 4 and labels(s)[:2] == ("check", "raise to $4-$50")
    s = b.next_round(play(s, (4, "check")))
    assert s.seat_to_act == 4


def test_rule_antes_only_the_first_seat_left_of_the_button_opens() -> None:
    rules = b.BettingRules(structure=NL, min_bet=100)
    antes = {1: 200, 2: 200, 3: 100, 4: 100}  # two chips for the dealer and the next seat
    s = b.start(rules, seats=[1, 2, 3, 4], button=1, stacks=dict.fromkeys([1, 2, 3, 4], 5000),
                antes=antes, pot_in=300)
    assert s.seat_to_act == 2 and s.bet == 0 and s.in_round == (0, 0, 0, 0)
    assert s.pot == 900
    assert s.put_in == (200, 200, 100, 100)
    s = play(s, (2, "check"), (3, "check"), (4, "check"), (1, "check"))
    assert s.round_closed
    # antes are dead money: a seat that anted less still contests the whole pot
    assert b.pots(s) == (Pot(900, (2, 3, 4, 1), None),)
    payout = b.award(s, winners=lambda pot: [[3]])
    assert payout.won == {1: 0, 2: 0, 3: 900, 4: 0}


def test_rule_a_players_total_in_a_round_is_capped_when_the_table_says_so() -> None:
    rules = b.BettingRules(structure=NL, ante=100, min_bet=100, max_in_round=500)
    s = b.start(rules, seats=[1, 2, 3], button=3, stacks=dict.fromkeys([1, 2, 3], 5000))
    assert labels(s)[:2] == ("check", "bet $1-$5")
    s = play(s, (1, "bet", 300))
    assert labels(s)[:2] == ("call $3", "raise to $5")
    assert refused("betting-round-max", b.raise_to, s, 2, to=600).startswith(
        "a player's total in one betting round is at most $5"
    )
    s = play(s, (2, "raise", 500))
    assert refused("betting-round-max", b.raise_to, s, 3, to=500)
    assert labels(s) == ("call $5", "fold")


def test_rule_a_short_big_blind_still_makes_the_others_call_the_full_blind() -> None:
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    s = b.start(rules, seats=[1, 2, 3], button=3, stacks={1: 5000, 2: 150, 3: 5000})
    assert s.put_in == (100, 150, 0) and s.stacks[1] == 0 and s.bet == 200
    s = play(s, (3, "call"), (1, "call"))
    assert s.round_closed
    assert [(p.amount, p.eligible) for p in b.pots(s)] == [(450, (1, 2, 3)), (100, (1, 3))]


# -- refusals ---------------------------------------------------------------------------------


def test_refusals_name_the_rule_and_what_to_do() -> None:
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    s = b.start(rules, seats=[1, 2, 3], button=3, stacks=dict.fromkeys([1, 2, 3], 5000))
    assert refused("betting-turn", b.call, s, 1) == "seat 1 is not to act: it is seat 3's turn"
    assert refused("betting-check", b.check, s, 3) == "seat 3 cannot check: it faces $2 to call"
    assert refused("betting-bet", b.bet, s, 3, to=400) == (
        "seat 3 faces $2: call, raise or fold (a bet opens a round)"
    )
    assert refused("betting-seat", b.call, s, 8).startswith("seat 8 is not in this hand")
    s = play(s, (3, "call"), (1, "call"))
    assert refused("betting-call", b.call, s, 2) == "nothing to call for seat 2: check"
    s = play(s, (2, "check"))
    assert refused("betting-closed", b.check, s, 1) == (
        "the betting round is over: nobody is to act until the next card"
    )
    s = b.next_round(s)
    assert refused("betting-raise", b.raise_to, s, 1, to=400) == (
        "nobody has bet this round: seat 1 can bet or check"
    )
    assert not b.can_raise(s, 1, to=400) and b.can_bet(s, 1, to=400)
    s = play(s, (1, "bet", 400), (2, "fold"), (3, "fold"))
    assert refused("betting-closed", b.check, s, 1) == (
        "the hand is over: seat 1 is the only player left"
    )


def test_rule_raising_into_players_who_are_all_all_in_is_refused() -> None:
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    s = b.start(rules, seats=[1, 2], button=2, stacks={1: 1000, 2: 5000})
    s = play(s, (2, "raise", 600), (1, "all-in"))
    assert refused("betting-all-in", b.raise_to, s, 2, to=5000) == (
        "everyone else still in is all-in: seat 2 can call or fold"
    )
    assert labels(s) == ("call $4", "fold")


def test_bad_settings_are_refused_with_a_message() -> None:
    with pytest.raises(BadInput, match="must equal the small bet"):
        b.BettingRules(structure=LIMIT, small_blind=100, big_blind=100, small_bet=200,
                       big_bet=400)
    assert b.BettingRules(structure="pot-limit", big_blind=200).structure is PL  # type: ignore[arg-type]
    with pytest.raises(BadInput, match="write limit, pot-limit or no-limit"):
        b.BettingRules(structure="spread", big_blind=200)  # type: ignore[arg-type]
    with pytest.raises(BadInput, match="need a big blind or a minimum bet"):
        b.BettingRules(structure=NL, ante=100)
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    with pytest.raises(RuleViolation, match="seat 2 has no chips"):
        b.start(rules, seats=[1, 2], button=1, stacks={1: 100, 2: 0})


# -- pots, odd chips, halves, fees ------------------------------------------------------------


def _showdown(stacks: dict[int, int], button: int) -> b.BettingState:
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    seats = sorted(stacks)
    s = b.start(rules, seats=seats, button=button, stacks=stacks)
    while not s.round_closed:
        opts = b.options(s)
        assert opts is not None
        s = b.check(s, opts.seat) if opts.choice("check") else b.call(s, opts.seat)
    return s


def test_rule_odd_chips_go_to_the_first_winner_left_of_the_button() -> None:
    s = _showdown({1: 5000, 2: 5000, 3: 5000}, button=2)
    # pot $6: with a 25-cent smallest chip, $6 = 24 chips; split three ways evenly
    payout = b.award(s, winners=lambda pot: [[1, 2, 3]], smallest_chip=25)
    assert payout.won == {1: 200, 2: 200, 3: 200}
    payout = b.award(s, winners=lambda pot: [[1, 2]], smallest_chip=100)
    assert payout.won == {1: 300, 2: 300, 3: 0}
    # after a $1 fee, $5 in $1 chips between seats 1 and 2: clockwise from the button (seat 2)
    # come seats 3, 1, 2, so the odd chip goes to seat 1, the first winner
    payout = b.award(s, winners=lambda pot: [[1, 2]], smallest_chip=100, fee=lambda pots: 100)
    assert payout.won == {1: 300, 2: 200, 3: 0} and payout.fee == 100
    payout = b.award(s, winners=lambda pot: [[2, 1]], smallest_chip=100, fee=lambda pots: 100)
    assert payout.won == {1: 300, 2: 200, 3: 0}


def test_rule_split_parts_the_first_part_takes_the_odd_chip() -> None:
    """Hi-lo: the high half takes the pot's odd chip; each half then splits among its own."""
    s = _showdown({1: 5000, 2: 5000, 3: 5000}, button=3)
    payout = b.award(s, winners=lambda pot: [[2], [1, 3]], smallest_chip=100, fee=lambda p: 100)
    # $5 left after the fee: the high half $3, the low half $2 split $1 and $1
    assert payout.won == {1: 100, 2: 300, 3: 100}
    assert payout.pots[0].parts == ((2,), (1, 3)) and payout.pots[0].winners == (2, 1, 3)


def test_rule_the_fee_comes_out_of_the_main_pot_first() -> None:
    s = _showdown({1: 200, 2: 5000, 3: 5000}, button=3)
    s = b.next_round(s)
    s = play(s, (2, "bet", 1000), (3, "call"))
    pots = b.pots(s)
    assert [(p.amount, p.eligible) for p in pots] == [(600, (1, 2, 3)), (2000, (2, 3))]
    payout = b.award(s, winners=lambda pot: [[1]] if 1 in pot.eligible else [[3]],
                     fee=lambda p: 700)
    assert [a.fee for a in payout.pots] == [600, 100]
    assert payout.won == {1: 0, 2: 0, 3: 1900} and payout.conserved
    with pytest.raises(ValueError, match="cannot come out of pots"):
        b.award(s, winners=lambda pot: [[3]], fee=lambda p: 2601)


# -- killed hands and the showdown order ---------------------------------------------------


def test_rule_a_killed_hand_is_out_and_its_chips_stay_in_the_pot() -> None:
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    s = b.start(rules, seats=[1, 2, 3], button=3, stacks=dict.fromkeys([1, 2, 3], 5000))
    s = b.next_round(play(s, (3, "call"), (1, "call"), (2, "check")))
    s = play(s, (1, "bet", 400))
    # between the deal of two cards, or out of turn: the dealer kills seat 3's hand
    s = b.kill(s, 3)
    assert s.seat_to_act == 2 and s.live == (1, 2) and s.log[-1].kind == "kill"
    s = b.kill(s, 2)
    assert s.hand_over and s.returned == (400, 0, 0)
    assert b.award(s).won == {1: 600, 2: 0, 3: 0}
    # heads-up, the seat to act's only opponent is killed: the hand is over at once
    hu = b.start(rules, seats=[1, 2], button=1, stacks={1: 5000, 2: 5000})
    hu = b.kill(hu, 2)
    assert hu.hand_over and hu.seat_to_act is None and hu.returned == (0, 0)
    assert b.award(hu).won == {1: 300, 2: 0}
    assert refused("betting-kill", b.kill, b.kill(b.start(rules, seats=[1, 2, 3], button=3,
                   stacks=dict.fromkeys([1, 2, 3], 5000)), 1), 1) == "seat 1's hand is already out"


def test_rule_showdown_order_last_aggressor_first_else_left_of_the_button() -> None:
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    s = b.start(rules, seats=[1, 2, 3, 4], button=4, stacks=dict.fromkeys([1, 2, 3, 4], 5000))
    s = b.next_round(play(s, (3, "call"), (4, "call"), (1, "call"), (2, "check")))
    s = play(s, (1, "check"), (2, "check"), (3, "bet", 200), (4, "call"), (1, "call"),
             (2, "fold"))
    assert b.showdown_order(s) == (3, 4, 1)
    s = b.next_round(s)
    s = play(s, (1, "check"), (3, "check"), (4, "check"))
    assert b.showdown_order(s) == (1, 3, 4)


def test_rule_award_may_leave_the_odd_chips_in_the_pot_for_the_next_hand() -> None:
    """A game whose pot carries (Anaconda: what cannot be split evenly stays in the pot) asks
    ``award`` to leave the odd chips instead of pushing them from the button's left."""
    rules = b.BettingRules(structure=NL, small_blind=100, big_blind=200)
    s = b.start(rules, seats=[1, 2, 3], button=3, stacks={1: 10000, 2: 10000, 3: 10000})
    s = play(s, (3, "call"), (1, "call"), (2, "check"))
    s = b.next_round(s)
    s = play(s, (1, "check"), (2, "check"), (3, "check"))
    tie = b.best_first({1: 5, 2: 5, 3: 1})
    # $6 between two in $4 chips: pushed, the odd chips go from the button's left ($4 and $2);
    # left, all $6 stay in the pot; in $1 chips it splits evenly and nothing stays
    pushed = b.award(s, winners=tie, smallest_chip=400)
    assert pushed.won == {1: 400, 2: 200, 3: 0} and pushed.left == 0
    kept = b.award(s, winners=tie, smallest_chip=400, leave_odd=True)
    assert kept.won == {1: 0, 2: 0, 3: 0} and kept.left == 600 and kept.conserved
    even = b.award(s, winners=tie, smallest_chip=100, leave_odd=True)
    assert even.won == {1: 300, 2: 300, 3: 0} and even.left == 0 and even.conserved

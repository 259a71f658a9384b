"""The betting actions: for each, ``verify_*`` (raises :class:`RuleViolation` with the reason
written for the dealer), ``can_*`` (the same rule asked as yes or no, for enabling a button) and
the action itself, which returns the new state.

``bet`` and ``raise_to`` take ``to``, the seat's total in this round after the wager; in limit
the amount is fixed and ``to`` may be left out. ``all_in`` puts in the whole stack, whatever
that amounts to; a ``call`` for more than the stack is an all-in call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from dealer_assist.engine.betting.rules import Structure
from dealer_assist.engine.betting.state import Act, BettingState, evolve, put_to_act
from dealer_assist.engine.evolve import builder, replaced, setter
from dealer_assist.engine.start import off_chip
from dealer_assist.errors import RuleViolation
from dealer_assist.money import format_cents as money

#: ``Act(...)`` without the frozen constructor's cost (every wager of every replay makes one).
_act = builder(Act)

# -- limits of a wager ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Range:
    """The totals a bet or raise may go to now: ``low`` to ``high`` (equal in limit). ``low`` is
    the full minimum; a smaller total is legal only as the seat's whole stack (``short``)."""

    low: int
    high: int
    all_in: int
    pot: int | None = None  # pot-limit: the pot the maximum was worked from

    @property
    def short(self) -> bool:
        """The seat cannot make a full bet or raise: only all-in for less."""
        return self.all_in < self.low


def _violation(text: str, rule: str) -> RuleViolation:
    return RuleViolation(text, rule=f"betting-{rule}")


def _on_turn(state: BettingState, seat: int) -> int:
    i = state.index(seat)
    if state.to_act is None:
        if state.hand_over:
            raise _violation(
                f"the hand is over: seat {state.live[0]} is the only player left", "closed"
            )
        raise _violation(
            "the betting round is over: nobody is to act until the next card", "closed"
        )
    if state.to_act != i:
        raise _violation(
            f"seat {seat} is not to act: it is seat {state.seat_to_act}'s turn", "turn"
        )
    return i


def pot_limit_max(state: BettingState, i: int) -> tuple[int, int]:
    """Pot-limit: (the pot now, the most position ``i`` may bet or raise to). The raise is the
    size of the pot after the player's call: bet + (pot + call)."""
    call = state.bet - state.in_round[i]
    return state.pot, state.bet + state.pot + call


def wager_range(state: BettingState, i: int) -> Range:
    """The totals position ``i`` may bet or raise to, before asking whether it may at all."""
    rules = state.rules
    everything = state.in_round[i] + state.stacks[i]
    if rules.structure is Structure.LIMIT:
        target = (state.full_level if state.bet else 0) + rules.bet_size(state.round)
        return Range(low=target, high=target, all_in=everything)
    low = state.bet + state.full_raise
    high = everything
    pot = None
    if rules.structure is Structure.POT_LIMIT:
        pot, most = pot_limit_max(state, i)
        high = min(high, most)
    if rules.max_in_round is not None:
        high = min(high, rules.max_in_round)
        low = min(low, high)
    if high < everything:  # (a total short of all-in is a whole number of chips)
        high -= high % rules.chip
    return Range(low=low, high=max(high, min(low, everything)), all_in=everything, pot=pot)


def _raising_open(state: BettingState, i: int, what: str) -> None:
    """The rules that close raising to a player whatever the amount."""
    seat = state.seats[i]
    rules = state.rules
    owed = state.bet - state.in_round[i]
    if state.stacks[i] <= owed:
        raise _violation(
            f"seat {seat} has {money(state.stacks[i])}, not more than the "
            f"{money(owed)} to call: call (all-in) or fold",
            "stack",
        )
    if not any(
        j != i and not state.folded[j] and state.stacks[j] + state.in_round[j] > state.bet
        for j in range(len(state.seats))
    ):
        raise _violation(
            f"everyone else still in is all-in: seat {seat} can "
            + ("call or fold" if owed else "only check"),
            "all-in",
        )
    if rules.max_in_round is not None and state.in_round[i] + owed >= rules.max_in_round:
        raise _violation(
            f"a player's total in one betting round is at most {money(rules.max_in_round)}: "
            f"seat {seat} can call or fold",
            "round-max",
        )
    if (
        rules.structure is Structure.LIMIT
        and rules.cap is not None
        and state.raises >= rules.cap
        and not (rules.heads_up_uncapped and len(state.live) == 2)
    ):
        raise _violation(
            f"the betting is capped at {rules.cap} bets this round: seat {seat} can "
            + ("call or fold" if owed else "check"),
            "cap",
        )
    acted = state.acted_at[i]
    if acted is not None:
        if rules.structure is Structure.LIMIT:
            reopened = state.full_level > acted
        else:
            reopened = state.bet - acted >= state.full_raise
        if not reopened:
            raise _violation(
                f"the all-in since seat {seat} acted was short of a full raise, so the betting "
                f"is not reopened to it: seat {seat} can call {money(owed)} or fold, not {what}",
                "reopen",
            )


def _check_amount(state: BettingState, i: int, to: int | None, what: str) -> int:
    """The total ``to`` after a bet or raise, checked against the structure."""
    seat = state.seats[i]
    rng = wager_range(state, i)
    rules = state.rules
    if to is None:
        if rules.structure is not Structure.LIMIT:
            raise _violation(
                f"say how much: {what} to a total between {money(rng.low)} and "
                f"{money(rng.high)}",
                "amount",
            )
        to = rng.low
    if not isinstance(to, int) or isinstance(to, bool):
        raise _violation(f"the amount must be whole cents, not {to!r}", "amount")
    if to % rules.chip and to != rng.all_in:
        raise _violation(f"a {what} to {off_chip(to, rules.chip)}", "chip")
    if to > rng.all_in:
        raise _violation(
            f"seat {seat} has only {money(rng.all_in)} in all for this round "
            f"({money(state.stacks[i])} behind): at most all-in for that",
            "stack",
        )
    if rules.structure is Structure.LIMIT:
        if to != rng.low and not (to == rng.all_in and to < rng.low):
            raise _violation(
                f"in limit a {what} this round is to {money(rng.low)}, not {money(to)}",
                "limit",
            )
        return to
    if to < rng.low and to != rng.all_in:
        last = "the smallest bet" if state.bet == 0 else "the last full raise"
        raise _violation(
            f"under the minimum: {what} to at least {money(rng.low)} "
            f"({last} is {money(state.full_raise)}), or all-in for {money(rng.all_in)}",
            "min-raise",
        )
    if to > rng.high:
        if rules.max_in_round is not None and to > rules.max_in_round:
            raise _violation(
                f"a player's total in one betting round is at most "
                f"{money(rules.max_in_round)}: {what} to at most {money(rng.high)}",
                "round-max",
            )
        assert rng.pot is not None
        raise _violation(
            f"over the pot-limit maximum: pot is {money(rng.pot)}: {what} to at most "
            f"{money(rng.high)}",
            "pot-limit",
        )
    return to


# -- verify -------------------------------------------------------------------------------


def verify_check(state: BettingState, seat: int) -> int:
    """Returns the seat's position (the action asks for it next)."""
    i = _on_turn(state, seat)
    owed = state.bet - state.in_round[i]
    if owed > 0:
        raise _violation(
            f"seat {seat} cannot check: it faces {money(owed)} to call", "check"
        )
    return i


def verify_call(state: BettingState, seat: int) -> int:
    """Returns the seat's position (the action asks for it next)."""
    i = _on_turn(state, seat)
    if state.bet - state.in_round[i] <= 0:
        raise _violation(f"nothing to call for seat {seat}: check", "call")
    return i


def verify_fold(state: BettingState, seat: int) -> int:
    """Returns the seat's position (the action asks for it next)."""
    return _on_turn(state, seat)


def verify_bet(state: BettingState, seat: int, *, to: int | None = None) -> int:
    """Returns the total the bet goes to."""
    i = _on_turn(state, seat)
    if state.bet > 0:
        raise _violation(
            f"seat {seat} faces {money(state.bet - state.in_round[i])}: "
            "call, raise or fold (a bet opens a round)",
            "bet",
        )
    _raising_open(state, i, "bet")
    return _check_amount(state, i, to, "bet")


def verify_raise(state: BettingState, seat: int, *, to: int | None = None) -> int:
    """Returns the total the raise goes to."""
    i = _on_turn(state, seat)
    if state.bet == 0:
        raise _violation(f"nobody has bet this round: seat {seat} can bet or check", "raise")
    _raising_open(state, i, "raise")
    return _check_amount(state, i, to, "raise")


def verify_all_in(state: BettingState, seat: int) -> str:
    """Returns what the all-in amounts to: ``call``, ``bet`` or ``raise``."""
    i = _on_turn(state, seat)
    everything = state.in_round[i] + state.stacks[i]
    if everything <= state.bet:
        return "call"
    if state.bet == 0:
        verify_bet(state, seat, to=everything)
        return "bet"
    verify_raise(state, seat, to=everything)
    return "raise"


def _can(verify: Callable[[], object]) -> bool:
    try:
        verify()
    except RuleViolation:
        return False
    return True


def can_check(state: BettingState, seat: int) -> bool:
    return _can(lambda: verify_check(state, seat))


def can_call(state: BettingState, seat: int) -> bool:
    return _can(lambda: verify_call(state, seat))


def can_fold(state: BettingState, seat: int) -> bool:
    return _can(lambda: verify_fold(state, seat))


def can_bet(state: BettingState, seat: int, *, to: int | None = None) -> bool:
    return _can(lambda: verify_bet(state, seat, to=to))


def can_raise(state: BettingState, seat: int, *, to: int | None = None) -> bool:
    return _can(lambda: verify_raise(state, seat, to=to))


def can_all_in(state: BettingState, seat: int) -> bool:
    return _can(lambda: verify_all_in(state, seat))


# -- the actions --------------------------------------------------------------------------


def _after(state: BettingState, i: int, act: Act, **changes: object) -> BettingState:
    """Record ``act``, pass the turn, and close the round (returning any uncalled chips)."""
    return _turn(evolve(state, log=(*state.log, act), **changes), i)


def _turn(moved: BettingState, i: int) -> BettingState:
    """Pass the turn on from position ``i`` on ``moved``, a record just made that nobody else
    holds yet, and close the round when nobody is left to act."""
    nxt = moved.next_to_act(i)  # (reads everything but the turn)
    put_to_act(moved, nxt)  # (a new record nobody else holds yet: no second copy)
    if nxt is None:
        moved = _return_uncalled(moved)
    return moved


def _return_uncalled(state: BettingState) -> BettingState:
    """Chips above what anyone else put in this round go back to their owner, if still in."""
    if len(state.seats) < 2:
        return state
    ranked = sorted(range(len(state.seats)), key=lambda j: state.in_round[j], reverse=True)
    top, second = ranked[0], ranked[1]
    extra = state.in_round[top] - state.in_round[second]
    if extra <= 0 or state.folded[top]:  # a killed hand's chips stay in the pot
        return state
    return evolve(
        state,
        stacks=replaced(state.stacks, top, state.stacks[top] + extra),
        returned=replaced(state.returned, top, state.returned[top] + extra),
        in_round=replaced(state.in_round, top, state.in_round[top] - extra),
        bet=state.in_round[second] if state.bet == state.in_round[top] else state.bet,
    )


def _put(state: BettingState, i: int, to: int) -> dict[str, object]:
    amount = to - state.in_round[i]
    return {
        "stacks": replaced(state.stacks, i, state.stacks[i] - amount),
        "put_in": replaced(state.put_in, i, state.put_in[i] + amount),
        "in_round": replaced(state.in_round, i, to),
    }


#: The copies a check, a call and a fold make, their changed fields named once (the usual
#: inputs of every betting game: no keywords matched on each).
_checked = setter(BettingState, "log", "acted_at")
_called = setter(BettingState, "log", "acted_at", "stacks", "put_in", "in_round")
_folded = setter(BettingState, "log", "folded")


def check(state: BettingState, seat: int) -> BettingState:
    i = verify_check(state, seat)
    act = _act(seat, "check", 0, state.in_round[i], False, state.round)
    return _turn(_checked(state, (*state.log, act), replaced(state.acted_at, i, state.bet)), i)


def call(state: BettingState, seat: int) -> BettingState:
    """Match the bet, or put in the whole stack when it is short of it."""
    i = verify_call(state, seat)
    in_round, stacks = state.in_round, state.stacks
    to = min(state.bet, in_round[i] + stacks[i])
    amount = to - in_round[i]
    act = _act(seat, "call", amount, to, amount == stacks[i], state.round)
    put_in = state.put_in
    return _turn(_called(
        state, (*state.log, act), replaced(state.acted_at, i, state.bet),
        replaced(stacks, i, stacks[i] - amount), replaced(put_in, i, put_in[i] + amount),
        replaced(in_round, i, to)), i)


def fold(state: BettingState, seat: int) -> BettingState:
    i = verify_fold(state, seat)
    act = _act(seat, "fold", 0, state.in_round[i], False, state.round)
    return _turn(_folded(state, (*state.log, act), replaced(state.folded, i, True)), i)


def _wager(state: BettingState, i: int, to: int, kind: str) -> BettingState:
    rules = state.rules
    seat = state.seats[i]
    increment = to - state.bet
    all_in = to == state.in_round[i] + state.stacks[i]
    changes = _put(state, i, to)
    if rules.structure is Structure.LIMIT:
        size = rules.bet_size(state.round)
        base = state.full_level if state.bet else 0
        full = to - base >= size or 2 * (to - base) >= size
    else:
        full = increment >= state.full_raise
    if full:
        if rules.structure is not Structure.LIMIT:
            changes["full_raise"] = increment
        changes["full_level"] = to
        changes["raises"] = state.raises + 1
    act = _act(seat, kind, to - state.in_round[i], to, all_in, state.round)
    return _after(
        state,
        i,
        act,
        bet=to,
        aggressor=seat,
        acted_at=replaced(state.acted_at, i, to),
        **changes,
    )


def bet(state: BettingState, seat: int, *, to: int | None = None) -> BettingState:
    total = verify_bet(state, seat, to=to)
    return _wager(state, state.index(seat), total, "bet")


def raise_to(state: BettingState, seat: int, *, to: int | None = None) -> BettingState:
    total = verify_raise(state, seat, to=to)
    return _wager(state, state.index(seat), total, "raise")


def all_in(state: BettingState, seat: int) -> BettingState:
    """The whole stack in: a call, a bet or a raise, whichever it amounts to."""
    kind = verify_all_in(state, seat)
    i = state.index(seat)
    if kind == "call":
        return call(state, seat)
    return _wager(state, i, state.in_round[i] + state.stacks[i], kind)


def verify_kill(state: BettingState, seat: int) -> None:
    i = state.index(seat)
    if state.folded[i]:
        raise _violation(f"seat {seat}'s hand is already out", "kill")
    if state.hand_over:
        raise _violation(
            f"the hand is over: seat {state.live[0]} is the only player left", "closed"
        )


def can_kill(state: BettingState, seat: int) -> bool:
    return _can(lambda: verify_kill(state, seat))


def kill(state: BettingState, seat: int) -> BettingState:
    """The dealer declares a hand dead, in turn or not (a missed discard, a fouled hand): it is
    out as if folded, its chips stay in the pot. The turn passes on if it was this seat's, or if
    the seat to act no longer has anything to decide."""
    verify_kill(state, seat)
    i = state.index(seat)
    act = _act(seat, "kill", 0, state.in_round[i], False, state.round)
    dead = evolve(state, folded=replaced(state.folded, i, True), log=(*state.log, act))
    at = dead.to_act
    if dead.hand_over:
        return _return_uncalled(evolve(dead, to_act=None))
    if at is None:
        return dead
    nxt = at if at != i and dead.needs_to_act(at) else dead.next_to_act(at)
    dead = evolve(dead, to_act=nxt)
    return _return_uncalled(dead) if nxt is None else dead

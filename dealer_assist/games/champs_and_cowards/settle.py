"""Places and the dealer's push: each stack level swept to its winner, winners' own chips riding
along, the bonus pool to first, carry-overs into the next hand's bonus pool, the house's fees."""

from __future__ import annotations

import functools

from dealer_assist.engine.base import FeeLine, PushStep, Settlement
from dealer_assist.engine.evolve import builder
from dealer_assist.errors import RuleViolation
from dealer_assist.fees import FeeContext, pot_fees
from dealer_assist.games.champs_and_cowards.rules import (
    ANTE_CHIPS,
    CHAMP_CHIPS,
    FIRST_STACK,
    SECOND_STACK,
    THIRD_STACK,
)
from dealer_assist.games.champs_and_cowards.state import CCState
from dealer_assist.money import format_cents as fmt


def places(state: CCState) -> dict[int, int]:
    """Place (1-3) -> seat, only for places awarded (standing hands, best first)."""
    return {i: h.seat for i, h in enumerate(state.standing(), start=1)}


def bonus_fees(state: CCState) -> list[FeeLine]:
    """House fees out of the bonus pool (never the prize stacks), when first place takes it.

    When no hand stands the whole pool carries and pays no fee this hand. "No flop, no drop"
    here means: no champ bought a card this hand."""
    return _bonus_fees(state, bool(state.standing()))


def _bonus_fees(state: CCState, any_standing: bool) -> list[FeeLine]:
    """:func:`bonus_fees`, told whether any hand stands."""
    if state.fee is None or not any_standing:
        return []
    ctx = _fee_context(
        seats=state.seats,
        pot=state.bonus_pool,
        saw_flop=state.champs > 0,
        smallest_chip=state.smallest_chip,
    )
    return pot_fees(state.fee, ctx)


def _stacks(count: int, chips: int, chip: int) -> str:
    return f"{count} × {fmt(chips * chip)} = {fmt(count * chips * chip)}"


# The push's words for the stacks, by the table's numbers only (the same for many hands: each
# worked out once).


@functools.lru_cache(maxsize=4096)
def _first_text(n: int, c: int, first: int) -> str:
    own = (SECOND_STACK + THIRD_STACK) * c
    return (f"Sweep every 3-chip stack ({_stacks(n, FIRST_STACK, c)}) to seat {first}, its own "
            f"2- and 1-chip stacks ({fmt(own)}) riding along: {fmt(FIRST_STACK * c * n + own)}")


@functools.lru_cache(maxsize=4096)
def _no_first_text(n: int, c: int) -> str:
    return (f"No hand stands: move every 3-chip stack ({_stacks(n, FIRST_STACK, c)}) to the "
            "next hand's bonus pool")


@functools.lru_cache(maxsize=4096)
def _second_text(left2: int, c: int, second: int) -> str:
    own = THIRD_STACK * c
    return (f"Sweep the remaining 2-chip stacks ({_stacks(left2, SECOND_STACK, c)}) to seat "
            f"{second}, its own 1-chip stack ({fmt(own)}) riding along: "
            f"{fmt(SECOND_STACK * c * left2 + own)}")


@functools.lru_cache(maxsize=4096)
def _no_second_text(left2: int, c: int) -> str:
    return (f"Move the remaining 2-chip stacks ({_stacks(left2, SECOND_STACK, c)}) to the "
            "next hand's bonus pool")


@functools.lru_cache(maxsize=4096)
def _third_text(left1: int, c: int, third: int) -> str:
    return (f"Push the remaining 1-chip stacks ({_stacks(left1, THIRD_STACK, c)}) to seat "
            f"{third}")


@functools.lru_cache(maxsize=4096)
def _no_third_text(left1: int, c: int) -> str:
    return (f"Move the remaining 1-chip stacks ({_stacks(left1, THIRD_STACK, c)}) to the "
            "next hand's bonus pool")


def settle(state: CCState) -> Settlement:
    if not state.over:
        raise RuleViolation("the hand is not over: finish the action before pushing")
    c, n = state.chip, state.n
    seat_of = {i: h.seat for i, h in enumerate(state.standing(), start=1)}  # places(state)
    steps: list[PushStep] = []
    payouts: dict[int, int] = {}
    carry = 0

    def push(text: str, amount: int, to: int | None, kind: str = "push") -> None:
        steps.append(_push_step(len(steps) + 1, text, amount, to, kind))
        if to is not None and kind == "push":
            payouts[to] = payouts.get(to, 0) + amount

    fees = _bonus_fees(state, bool(seat_of))
    first = seat_of.get(1)
    if first is not None:
        sweep = FIRST_STACK * c * n
        own = (SECOND_STACK + THIRD_STACK) * c
        push(_first_text(n, c, first), sweep + own, first)
        pool = state.bonus_pool
        for f in fees:
            push(f"Take the house {f.kind} of {fmt(f.amount)} from the bonus pool ({f.note})",
                 f.amount, None, "fee")
            pool -= f.amount
        if pool:
            push(f"Push the bonus pool ({fmt(pool)}) to seat {first}", pool, first)
        push(f"Turn seat {first} face down", 0, first, "turn_down")
    else:
        push(_no_first_text(n, c), FIRST_STACK * c * n, None, "carry")
        carry += FIRST_STACK * c * n
        if state.bonus_pool:
            push(f"Leave the bonus pool ({fmt(state.bonus_pool)}) for the next hand",
                 state.bonus_pool, None, "carry")
            carry += state.bonus_pool
    second = seat_of.get(2)
    left2 = n - 1 if first is not None else n
    if second is not None:
        sweep = SECOND_STACK * c * left2
        own = THIRD_STACK * c
        push(_second_text(left2, c, second), sweep + own, second)
        push(f"Turn seat {second} face down", 0, second, "turn_down")
    else:
        amount = SECOND_STACK * c * left2
        push(_no_second_text(left2, c), amount, None, "carry")
        carry += amount
    left1 = n - sum(1 for p in (first, second) if p is not None)
    third = seat_of.get(3)
    if third is not None:
        push(_third_text(left1, c, third), THIRD_STACK * c * left1, third)
    else:
        amount = THIRD_STACK * c * left1
        push(_no_third_text(left1, c), amount, None, "carry")
        carry += amount
    return _settlement(
        put_in=put_ins(state),
        payouts=payouts,
        carry_in=state.carry_in,
        carry_out=carry,
        fees=(*state.pre_fees, *fees),
        steps=tuple(steps),
        extra={"places": seat_of, "bonus_pool": state.bonus_pool},
    ).require_conserved()


def put_ins(state: CCState) -> dict[int, int]:
    """Seat -> everything it put on the table (:meth:`CCState.put_in` of every seat, in one
    pass over the fees)."""
    fees: dict[int, int] = {}
    for f in state.pre_fees:
        if f.from_seat is not None:
            fees[f.from_seat] = fees.get(f.from_seat, 0) + f.amount
    c = state.chip
    return {
        h.seat: (ANTE_CHIPS + CHAMP_CHIPS * h.champs) * c + fees.get(h.seat, 0)
        for h in state.hands
    }


#: ``PushStep(...)`` and ``Settlement(...)`` without the frozen constructors' cost: every
#: replayed hand settles again.
_push_step = builder(PushStep)
_fee_context = builder(FeeContext)
_settlement = builder(Settlement)

"""Rams' settlement: a fifth of the pot per trick in whole counters, five counters into the next
pot from a player in without a trick, Rams won or lost, and the redeal's payment to the dealer.
Chips are conserved: the pot carried in and everything paid this hand is pushed or carried."""

from __future__ import annotations

from dealer_assist.engine.base import PushStep, Settlement
from dealer_assist.errors import RuleViolation
from dealer_assist.games.rams.state import PAYMENT, TRICKS, RamsState
from dealer_assist.money import format_cents as fmt


def settle(state: RamsState) -> Settlement:
    if not state.over:
        raise RuleViolation("the hand is not over: play every trick before settling",
                            rule="rams")
    s = state.stake
    pay = PAYMENT * s
    put_in: dict[int, int] = {state.dealer: state.ante}
    for f in state.fees:
        if f.from_seat is not None:
            put_in[f.from_seat] = put_in.get(f.from_seat, 0) + f.amount
    payouts: dict[int, int] = {}
    steps: list[PushStep] = []
    pot = state.pot
    carry = pot

    def push(text: str, amount: int, to: int | None, kind: str = "push") -> None:
        steps.append(PushStep(len(steps) + 1, text, amount, to, kind))
        if to is not None and kind == "push":
            payouts[to] = payouts.get(to, 0) + amount

    def owes(seat: int, amount: int) -> None:
        put_in[seat] = put_in.get(seat, 0) + amount

    extra: dict[str, object] = {}
    if state.redeal:
        right = state.order[-2]
        owes(right, pay)
        push(f"Everyone before the dealer passed: seat {right} pays the dealer (seat "
             f"{state.dealer}) {fmt(pay)}", pay, state.dealer)
        push(f"Leave the pot of {fmt(pot)} for the next hand, dealt by the same dealer", pot,
             None, "carry")
        extra["redeal"] = True
    elif state.rams_by is not None:
        r = state.rams_by
        others = [x for x in state.order if x != r]
        if state.rams_lost:
            owes(r, pot + pay * len(others))
            push(f"Rams lost: seat {r} doubles the pot ({fmt(pot)} more)", pot, None, "carry")
            for o in others:
                push(f"Seat {r} pays seat {o} {fmt(pay)}", pay, o)
            carry = 2 * pot
            push(f"Leave the pot of {fmt(pot)} for the next hand: with the doubling it holds "
                 f"{fmt(carry)}", pot, None, "carry")
        else:
            owes_each = pay
            for o in others:
                owes(o, owes_each)
            push(f"Rams won: push the pot of {fmt(pot)} and {fmt(pay)} from each of "
                 f"{len(others)} opponents to seat {r}", pot + pay * len(others), r)
            carry = 0
        extra["rams"] = {"seat": r, "won": not state.rams_lost}
    else:
        assert state.tricks is not None
        share = pot // (TRICKS * s) * s
        won = state.tricks.won()
        for seat, n in won.items():
            if n:
                push(f"Seat {seat}: {n} trick{'s' if n > 1 else ''} × {fmt(share)} = "
                     f"{fmt(n * share)}", n * share, seat)
        carry = pot - share * TRICKS
        if carry:
            push(f"The odd {fmt(carry)} stays in the pot", carry, None, "carry")
        for seat, n in won.items():
            if not n:
                owes(seat, pay)
                push(f"Seat {seat} played and took no trick: pays {fmt(pay)} into the next "
                     "pot", pay, None, "carry")
                carry += pay
        extra["share"] = share
    for f in state.fees:
        push(f"House {f.kind} of {fmt(f.amount)} from seat {f.from_seat}", f.amount, None, "fee")
    return Settlement(put_in=put_in, payouts=payouts, carry_in=state.pot_in, carry_out=carry,
                      fees=state.fees, steps=tuple(steps), extra=extra).require_conserved()

"""Rams' settlement: a fifth of the pot per trick in whole counters, five counters into the next
pot from a player in without a trick, Rams won or lost, and the redeal's payment to the dealer.
Chips are conserved: the pot carried in and everything paid this hand is pushed, carried or
collected.

A rake, a collection from the pot or a jackpot drop is worked out on the chips put into the pot
during the hand (the dealer's ante, the payments of players in without a trick, a lost Rams'
doubling), never on the pot carried in, and taken when the hand settles, first from what goes
on to the next pot, then from the pot's pushes (fees ruling; ``games/carried_pot``). "No flop,
no drop" reads as: no fee in a hand everyone before the dealer passed (nobody played for the
pot)."""

from __future__ import annotations

from dealer_assist.engine.base import Settlement
from dealer_assist.errors import RuleViolation
from dealer_assist.games.carried_pot import collect, fee_text
from dealer_assist.games.rams.state import PAYMENT, TRICKS, RamsState
from dealer_assist.games.tricks.table import Payments, with_fees
from dealer_assist.money import format_cents as fmt


def settlement(state: RamsState) -> Settlement:
    if not state.over:
        raise RuleViolation("the hand is not over: play every trick before settling",
                            rule="rams")
    s = state.stake
    pay = PAYMENT * s
    put_in: dict[int, int] = {state.dealer: state.ante}
    with_fees(put_in, state.fees)
    pot = state.pot
    ledger = Payments(put_in)
    push, owes = ledger.push, ledger.owes

    # The pot's fate before any fee: each seat's share of it, what goes on to the next pot,
    # and what was paid into it this hand beside the ante.
    shares: dict[int, int] = {}
    carry = pot
    into_pot = 0
    share = 0
    if state.rams_by is not None and not state.rams_lost:
        shares = {state.rams_by: pot}
        carry = 0
    elif state.rams_by is not None:
        into_pot = pot
        carry = 2 * pot
    elif not state.redeal:
        assert state.tricks is not None
        share = pot // (TRICKS * s) * s
        shares = {seat: n * share for seat, n in state.tricks.won().items() if n}
        into_pot = pay * sum(1 for n in state.tricks.won().values() if not n)
        carry = pot - share * TRICKS + into_pot
    got = collect(state.fee, seats=state.seats, button=state.dealer, base=state.ante + into_pot,
                  contested=not state.redeal, carry=carry, shares=shares, order=state.order)

    def less_fee(seat: int, amount: int) -> str:
        cut = got.cut(seat, amount)
        return f", less {fmt(cut)} of the house's fee: {fmt(amount - cut)}" if cut else ""

    extra: dict[str, object] = {}
    if state.redeal:
        right = state.order[-2]
        owes(right, pay)
        push(f"Everyone before the dealer passed: seat {right} pays the dealer (seat "
             f"{state.dealer}) {fmt(pay)}", pay, state.dealer)
        for line in got.fees:
            push(fee_text(line), line.amount, None, "fee")
        push(f"Leave the pot of {fmt(got.carry)} for the next hand, dealt by the same dealer",
             got.carry, None, "carry")
        extra["redeal"] = True
    elif state.rams_by is not None:
        r = state.rams_by
        others = [x for x in state.order if x != r]
        if state.rams_lost:
            owes(r, pot + pay * len(others))
            push(f"Rams lost: seat {r} doubles the pot ({fmt(pot)} more)", pot, None, "carry")
            for o in others:
                push(f"Seat {r} pays seat {o} {fmt(pay)}", pay, o)
            for line in got.fees:
                push(fee_text(line), line.amount, None, "fee")
            push(f"Leave the pot of {fmt(pot)} for the next hand: with the doubling"
                 + (" and less the fee" if got.fees else "") + f" it holds {fmt(got.carry)}",
                 pot, None, "carry")
        else:
            for o in others:
                owes(o, pay)
            for line in got.fees:
                push(fee_text(line), line.amount, None, "fee")
            kept = got.shares.get(r, 0)
            push(f"Rams won: push the pot of {fmt(pot)}{less_fee(r, pot)} and {fmt(pay)} from "
                 f"each of {len(others)} opponents to seat {r}", kept + pay * len(others), r)
        extra["rams"] = {"seat": r, "won": not state.rams_lost}
    else:
        assert state.tricks is not None
        won = state.tricks.won()
        for line in got.fees:
            push(fee_text(line), line.amount, None, "fee")
        for seat, n in won.items():
            if n:
                push(f"Seat {seat}: {n} trick{'s' if n > 1 else ''} × {fmt(share)} = "
                     f"{fmt(n * share)}{less_fee(seat, n * share)}", got.shares.get(seat, 0),
                     seat)
        odd = pot - share * TRICKS
        if odd:
            push(f"The odd {fmt(odd)} stays in the pot", odd, None, "carry")
        for seat, n in won.items():
            if not n:
                owes(seat, pay)
                push(f"Seat {seat} played and took no trick: pays {fmt(pay)} into the next "
                     "pot", pay, None, "carry")
        if got.carry != carry:
            push(f"The fee came out of the next pot first: it holds {fmt(got.carry)}",
                 got.carry, None, "note")
        extra["share"] = share
    return ledger.settlement(carry_in=state.pot_in, before_deal=state.fees, got=got,
                             extra=extra)

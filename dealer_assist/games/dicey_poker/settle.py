"""Dicey Poker's money: the entries (cents per player, put in on the first hand of a game) are
the prize; it carries from hand to hand and goes to the winner when the game ends, split on a
tie (odd chips from the dealer's left). Chips are conserved.

The table's fee: a fee per player, a fixed fee from the dealer or a time collection is paid
before the deal of every hand, on top of the entries. A rake, a collection or a jackpot drop is
worked out on the chips put in during the hand (the entries, on a game's first hand), never on
the prize carried in, and taken when the hand settles, from the prize kept for the next hand
first, then from the winners' pushes (fees ruling, as in the other games whose pot carries)."""

from __future__ import annotations

from dealer_assist.engine.base import PushStep, Settlement
from dealer_assist.engine.pots import split_pot
from dealer_assist.games.carried_pot import collect, fee_text
from dealer_assist.games.dicey_poker.present import entries, winners
from dealer_assist.games.dicey_poker.state import DiceyState
from dealer_assist.money import format_cents


def entered(state: DiceyState) -> dict[int, int]:
    """The entries put in this hand (a game's first hand only)."""
    st = state.settings
    return {s: st.entry for s in st.seats} if entries(state) else {}


def put_in(state: DiceyState) -> dict[int, int]:
    """The entries and the fees paid before the deal."""
    out = entered(state)
    for f in state.settings.fee.before_deal:
        if f.from_seat is not None:
            out[f.from_seat] = out.get(f.from_seat, 0) + f.amount
    return out


def settle(state: DiceyState) -> Settlement:
    st = state.settings
    paid = put_in(state)
    base = sum(entered(state).values())
    prize = st.carry_in + base
    won = winners(state)
    steps: list[PushStep] = []
    shares: dict[int, int] = {}
    if won and prize:
        shares = split_pot(prize, won, seats=st.seats, button=st.dealer,
                           smallest_chip=st.smallest_chip)
    got = collect(st.fee, seats=st.seats, button=st.dealer, base=base, contested=True,
                  carry=prize - sum(shares.values()), shares=shares, order=st.order)
    for line in got.fees:
        steps.append(PushStep(len(steps) + 1, fee_text(line), line.amount, None, "fee"))
    payouts = dict(got.shares) if shares else {}
    if payouts:
        for s in st.order:
            if s in payouts:
                steps.append(PushStep(len(steps) + 1, f"Push {format_cents(payouts[s])} to "
                                      f"seat {s} (the game's prize)", payouts[s], s))
    carry = got.carry
    if carry:
        steps.append(PushStep(len(steps) + 1, f"Keep the prize of {format_cents(carry)} for "
                              "the next hand of the game", carry, None, "carry"))
    if not steps:
        steps.append(PushStep(1, "No chips move: the totals carry to the next hand", 0, None,
                              "carry"))
    for f in st.fee.before_deal:
        steps.append(PushStep(len(steps) + 1, f"House {f.kind} of {format_cents(f.amount)} from "
                              f"seat {f.from_seat}", f.amount, None, "fee"))
    return Settlement(put_in=paid, payouts=payouts, carry_in=st.carry_in, carry_out=carry,
                      fees=st.fee.before_deal + got.fees, steps=tuple(steps)).require_conserved()

"""Dicey Poker's money: the entries (cents per player, put in on the first hand of a game) are
the prize; it carries from hand to hand and goes to the winner when the game ends, split on a
tie (odd chips from the dealer's left). Chips are conserved."""

from __future__ import annotations

from dealer_assist.engine.base import PushStep, Settlement
from dealer_assist.engine.pots import split_pot
from dealer_assist.games.dicey_poker.present import entries, winners
from dealer_assist.games.dicey_poker.state import DiceyState
from dealer_assist.money import format_cents


def put_in(state: DiceyState) -> dict[int, int]:
    st = state.settings
    return {s: st.entry for s in st.seats} if entries(state) else {}


def settle(state: DiceyState) -> Settlement:
    st = state.settings
    paid = put_in(state)
    prize = st.carry_in + sum(paid.values())
    won = winners(state)
    steps: list[PushStep] = []
    payouts: dict[int, int] = {}
    if won and prize:
        payouts = split_pot(prize, won, seats=st.seats, button=st.dealer,
                            smallest_chip=st.smallest_chip)
        for s in st.order:
            if s in payouts:
                steps.append(PushStep(len(steps) + 1, f"Push {format_cents(payouts[s])} to "
                                      f"seat {s} (the game's prize)", payouts[s], s))
    carry = prize - sum(payouts.values())
    if carry:
        steps.append(PushStep(len(steps) + 1, f"Keep the prize of {format_cents(carry)} for "
                              "the next hand of the game", carry, None, "carry"))
    if not steps:
        steps.append(PushStep(1, "No chips move: the totals carry to the next hand", 0, None,
                              "carry"))
    return Settlement(put_in=paid, payouts=payouts, carry_in=st.carry_in, carry_out=carry,
                      steps=tuple(steps)).require_conserved()

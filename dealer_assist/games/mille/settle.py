"""Mille's money: what the loser pays the winner when the game ends (stakes "small-large" on
the final totals, naturals and chapeaux) and the house fee taken before the deal. Nothing else
moves between hands; chips are conserved."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealer_assist.engine.base import PushStep, Settlement
from dealer_assist.fees.table import fees_by_seat
from dealer_assist.games.mille.rules import Payment, payment
from dealer_assist.games.mille.state import MilleState
from dealer_assist.money import format_cents


def settlement_of(state: MilleState) -> Payment | None:
    """What the loser owes the winner, once a hand has ended the game (None before)."""
    winner = state.winner
    if winner is None:
        return None
    st = state.settings
    return payment(stakes=st.stakes, winner=winner, loser=st.other(winner),
                   totals=state.totals(), naturals=state.naturals(),
                   chapeaux=state.chapeaux())


def paid_before_deal(state: MilleState) -> Mapping[int, int]:
    """Only a house fee taken before the deal is on the table before the game ends."""
    return fees_by_seat(state.settings.seats, state.settings.fees)


def settlement(state: MilleState) -> Settlement:
    """A finished hand's settlement: the house fee paid before the deal and, when the hand
    ends the game, the loser's payment to the winner line by line."""
    st = state.settings
    fees = fees_by_seat(st.seats, st.fees)
    pay = settlement_of(state)
    put_in = dict(fees)
    payouts = {s: 0 for s in st.seats}
    steps: list[PushStep] = []
    extra: dict[str, Any] = {"hand_scores": {str(s): v for s, v in
                                             state.hand_scores().items()}}
    if pay is not None:
        put_in[pay.payer] += pay.total
        payouts[pay.payee] = pay.total
        text = f"Seat {pay.payer} pays seat {pay.payee} {format_cents(pay.total)}: " + \
            "; ".join(f"{x.what} {x.times} x {format_cents(x.stake)}" for x in pay.lines)
        if pay.why:
            text += f"; {pay.why}"
        steps.append(PushStep(1, text, pay.total, pay.payee, "pay"))
        extra["settlement"] = pay.to_json()
    return Settlement(put_in=put_in, payouts=payouts, fees=st.fees, steps=tuple(steps),
                      extra=extra).require_conserved()

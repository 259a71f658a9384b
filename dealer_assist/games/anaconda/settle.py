"""Showdown and settlement: the best high among the high declarers and the best ace-to-five
low (no qualifier) among the low declarers split each pot; one side declared, its best hand
takes it all; what cannot be split evenly stays in the pot for the next hand (ruling
anaconda-3; the betting engine's ``award(leave_odd=True)``). The fee is worked out on the chips
put in during the hand only, never on the pot carried in (fees ruling)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer_assist.engine import betting
from dealer_assist.engine.base import FeeLine, PushStep, Settlement
from dealer_assist.engine.pots import Pot, pot_name
from dealer_assist.errors import RuleViolation
from dealer_assist.evaluate import HandValue
from dealer_assist.evaluate.high import evaluate
from dealer_assist.evaluate.low import LowValue, low_hand
from dealer_assist.games.anaconda.state import HIGH, LOW, OVER, State
from dealer_assist.games.carried_pot import hand_fees
from dealer_assist.money import format_cents


def best_hands(state: State) -> dict[int, HandValue]:
    """Each shown hand of a high declarer, as a high hand."""
    return {s: evaluate(cards) for s, cards in state.shown.items()
            if state.declared.get(s) == HIGH and s in state.live}


def best_lows(state: State) -> dict[int, LowValue]:
    """Each shown hand of a low declarer, as an ace-to-five low (no qualifier)."""
    out: dict[int, LowValue] = {}
    for s, cards in state.shown.items():
        if state.declared.get(s) == LOW and s in state.live:
            low = low_hand(cards, None)
            assert low is not None
            out[s] = low
    return out


def _top(values: dict[int, int], among: Sequence[int]) -> tuple[int, ...]:
    known = [s for s in among if s in values]
    if not known:
        return ()
    best = max(values[s] for s in known)
    return tuple(s for s in known if values[s] == best)


@dataclass(frozen=True, slots=True)
class Result:
    payout: betting.Payout
    fees: tuple[FeeLine, ...]
    high: tuple[tuple[int, ...], ...]  # each pot's high winners
    low: tuple[tuple[int, ...], ...]  # each pot's low winners


def result(state: State) -> Result:
    """Every pot paid: the halves, the odd chips left in the pot, the fee."""
    t = state.table
    bet = state.bet
    highs = {s: v.strength for s, v in best_hands(state).items()}
    lows = {s: v.strength for s, v in best_lows(state).items()}

    def winners(pot: Pot) -> list[tuple[int, ...]]:
        alive = pot.eligible
        return [g for g in (_top(highs, alive), _top(lows, alive)) if g] or [alive]

    fee_lines: list[FeeLine] = []

    def fee(pots: tuple[Pot, ...]) -> int:
        # the chips put in during this hand; the pot carried in is never raked again
        base = sum(bet.put_in) - sum(bet.returned)
        fee_lines.extend(hand_fees(t.policy, seats=t.seats, button=t.button, base=base,
                                   contested=bool(state.rolled), smallest_chip=t.smallest_chip))
        return min(sum(p.amount for p in pots), sum(line.amount for line in fee_lines))

    payout = betting.award(bet, winners=winners, smallest_chip=t.smallest_chip, fee=fee,
                           leave_odd=True)
    lines: list[FeeLine] = []
    left = payout.fee
    for line in fee_lines:  # a fee line larger than the pots could give is cut to fit
        take = min(left, line.amount)
        left -= take
        if take:
            lines.append(FeeLine(line.kind, take, line.from_seat, line.note, line.base))
    high_groups: list[tuple[int, ...]] = []
    low_groups: list[tuple[int, ...]] = []
    for a in payout.pots:  # each part is one side's winners (a pot won by a fold: no side)
        sides: dict[str, tuple[int, ...]] = {HIGH: (), LOW: ()}
        sides.update((state.declared.get(g[0], ""), tuple(g)) for g in a.parts)
        high_groups.append(sides[HIGH])
        low_groups.append(sides[LOW])
    return Result(payout, tuple(lines), tuple(high_groups), tuple(low_groups))


def settlement(state: State) -> Settlement:
    """Put in, pushed, left in the pot, fees and the dealer's push steps; chips conserved."""
    if state.phase != OVER:
        raise RuleViolation("the hand is not over yet: nothing can be pushed")
    r = result(state)
    payout = r.payout
    put_in = dict(payout.put_in)
    for line in state.pre_fees:
        if line.from_seat is not None:
            put_in[line.from_seat] = put_in.get(line.from_seat, 0) + line.amount
    steps: list[PushStep] = []

    def add(text: str, amount: int, to: int | None, kind: str) -> None:
        steps.append(PushStep(len(steps) + 1, text, amount, to, kind))

    for line in r.fees:
        add(f"Drop {format_cents(line.amount)} {line.kind}", line.amount, None, "fee")
    for seat, cents in payout.returned.items():
        if cents:
            add(f"Return {format_cents(cents)} uncalled to seat {seat}: the part of its bet "
                "nobody called", cents, seat, "return")
    for i, award in enumerate(payout.pots):
        name = pot_name(i, len(payout.pots))
        for seat, cents in award.shares.items():
            if not cents:
                continue
            way = state.declared.get(seat)
            part = ""
            if way is not None and len(award.parts) > 1:
                part = f" ({way})"
            elif way is not None and len(state.live) > 1:
                part = f" (the only {way} side: it takes all)"
            add(f"Push {format_cents(cents)} of {name} to seat {seat}{part}", cents, seat,
                "push")
    if payout.left:
        add(f"Leave {format_cents(payout.left)} in the pot for the next hand: it cannot be "
            "split evenly (ruling anaconda-3)", payout.left, None, "carry")
    pushed = {s: payout.payouts.get(s, 0) for s in state.table.seats}
    return Settlement(
        put_in=put_in, payouts=pushed, carry_in=state.table.pot_in, carry_out=payout.left,
        fees=state.pre_fees + r.fees, steps=tuple(steps),
        extra={"returned": {str(s): c for s, c in payout.returned.items()}},
    ).require_conserved()

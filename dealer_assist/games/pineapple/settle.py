"""Showdown and settlement: best hands from any five of two hole cards and the board, the
hi-lo halves, the pots and the house fee, paid by the betting engine's ``award``.

Only uncalled chips go back (the part of the last bet or raise nobody matched, returned when the
round closed); a pot won because the others folded is raked like any other. The fee is worked
out by the fees engine on every chip in the pots, with "no flop, no drop" meaning no flop was
dealt. Hi-lo: half of each pot to the best high, half to the best ace-to-five low of eight or
better; no qualifying low, the high takes it all; the pot's odd chip goes to the high half, and
within a half tied winners split in the smallest chip, odd chips from the first left of the
button (as in Caro).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer_assist.engine import betting
from dealer_assist.engine.base import FeeLine, PushStep, Settlement
from dealer_assist.engine.betting.state import evolve as betting_evolve
from dealer_assist.engine.evolve import builder
from dealer_assist.engine.pots import Pot, pot_name
from dealer_assist.errors import RuleViolation
from dealer_assist.evaluate import HandValue, best_hand
from dealer_assist.evaluate.low import LowValue, low_hand
from dealer_assist.fees import FeeContext, pot_fees
from dealer_assist.games.pineapple.state import OVER, State
from dealer_assist.money import format_cents


def best_hands(state: State) -> dict[int, HandValue]:
    """Each shown hand's best five of its two cards and the five board cards."""
    if len(state.board) != 5:
        return {}
    return {s: best_hand(state.board, cards) for s, cards in state.shown
            if s in state.live}


def best_lows(state: State) -> dict[int, LowValue | None]:
    """Hi-lo: each shown hand's best ace-to-five low of eight or better (None: no low)."""
    if len(state.board) != 5 or not state.settings.hi_lo:
        return {}
    return {s: low_hand(state.board + cards, 8) for s, cards in state.shown
            if s in state.live}


@dataclass(frozen=True, slots=True)
class Result:
    """The hand paid: the engine's payout, the fee lines, and the winners of each half."""

    payout: betting.Payout
    fees: tuple[FeeLine, ...]
    high: tuple[tuple[int, ...], ...]
    low: tuple[tuple[int, ...], ...]


def _top(values: dict[int, int], among: Sequence[int]) -> tuple[int, ...]:
    known = [s for s in among if s in values]
    if not known:
        return ()
    best = max(values[s] for s in known)
    return tuple(s for s in known if values[s] == best)


#: The last finished hand's result, by the state object (states are immutable, so the same
#: object has the same result): a hand is settled, reported and measured in turn, and the
#: dossier's simulation does that for hundreds of thousands of hands.
_LAST: tuple[State, Result] | None = None


def result(state: State) -> Result:
    """Every pot paid: winners, halves, fee (remembered for the last state asked)."""
    global _LAST
    last = _LAST
    if last is not None and last[0] is state:
        return last[1]
    out = _result(state)
    _LAST = (state, out)
    return out


def _result(state: State) -> Result:
    cfg = state.settings
    bet = state.bet
    highs = {s: v.strength for s, v in best_hands(state).items()}
    lows = {s: v.strength for s, v in best_lows(state).items() if v is not None}
    high_groups: list[tuple[int, ...]] = []
    low_groups: list[tuple[int, ...]] = []

    # Ruling pineapple-4: a dead hand (killed, or mucked at the showdown) gives up every pot
    # another player still in contests; a pot nobody else is left in (the side pot the others
    # folded out of) goes to the last of its players to give up, never to a player who put
    # nothing in it.
    dead_order = [a.seat for a in bet.log if a.kind == "kill"]
    if dead_order:
        folded = tuple(f and s not in dead_order for s, f in zip(bet.seats, bet.folded,
                                                                  strict=True))
        bet = betting_evolve(bet, folded=folded)
    dead = set(dead_order)

    def winners(pot: Pot) -> list[tuple[int, ...]]:
        alive = tuple(s for s in pot.eligible if s not in dead)
        if not alive:
            last = max(pot.eligible, key=dead_order.index)
            high_groups.append((last,))
            low_groups.append(())
            return [(last,)]
        high = _top(highs, alive) or alive
        low = _top(lows, alive)
        high_groups.append(high)
        low_groups.append(low)
        return [high, low] if low else [high]

    fee_lines: list[FeeLine] = []

    def fee(pots: tuple[Pot, ...]) -> int:
        base = sum(p.amount for p in pots)  # all called chips: uncalled ones went back
        fee_lines.extend(pot_fees(cfg.policy, FeeContext(
            seats=cfg.seats, button=cfg.button, pot=base, saw_flop=len(state.board) >= 3,
            smallest_chip=cfg.smallest_chip)))
        return min(base, sum(line.amount for line in fee_lines))

    payout = betting.award(bet, winners=winners, smallest_chip=cfg.smallest_chip, fee=fee)
    # a fee line larger than the pots could give (never with a percentage) is cut to fit
    lines: list[FeeLine] = []
    left = payout.fee
    for line in fee_lines:
        take = min(left, line.amount)
        left -= take
        if take:
            lines.append(FeeLine(line.kind, take, line.from_seat, line.note, line.base))
    if len(high_groups) != len(payout.pots):  # pots with one seat or a hand won by a fold
        high_groups = [a.parts[0] for a in payout.pots]
        low_groups = [a.parts[1] if len(a.parts) > 1 else () for a in payout.pots]
    return Result(payout, tuple(lines), tuple(high_groups), tuple(low_groups))


def settlement(state: State) -> Settlement:
    """Put in, pushed, fees and the dealer's push steps; chips are conserved."""
    if state.phase != OVER:
        raise RuleViolation("the hand is not over yet: nothing can be pushed")
    r = result(state)
    payout = r.payout
    fees = state.pre_fees + r.fees
    put_in = dict(payout.put_in)
    for line in state.pre_fees:
        if line.from_seat is not None:
            put_in[line.from_seat] = put_in.get(line.from_seat, 0) + line.amount
    steps: list[PushStep] = []

    def add(text: str, amount: int, to: int | None, kind: str) -> None:
        steps.append(_push_step(len(steps) + 1, text, amount, to, kind))

    dead = {seat for seat, _ in state.killed} | set(state.mucked)
    for line in r.fees:
        add(f"Drop {format_cents(line.amount)} {line.kind}", line.amount, None, "fee")
    for seat, cents in payout.returned.items():
        if cents:
            add(f"Return {format_cents(cents)} uncalled to seat {seat}: the part of its bet "
                "nobody called", cents, seat, "return")
    for i, award in enumerate(payout.pots):
        name = pot_name(i, len(payout.pots))
        for seat, cents in award.shares.items():
            if cents:
                part = ""
                if state.settings.hi_lo and len(award.parts) > 1:
                    halves = [h for h, g in zip(("high", "low"), award.parts, strict=False)
                              if seat in g]
                    part = f" ({' and '.join(halves)})"
                why = (": the others in it folded before its hand was dead (ruling pineapple-4)"
                       if seat in dead and len(award.parts) == 1 else "")
                add(f"Push {format_cents(cents)} of {name} to seat {seat}{part}{why}", cents,
                    seat, "push")
    pushed = {s: payout.payouts.get(s, 0) for s in state.settings.seats}
    return _settlement(
        put_in=put_in, payouts=pushed, fees=fees, steps=tuple(steps),
        extra={"returned": {str(s): c for s, c in payout.returned.items()}},
    ).require_conserved()


#: (the settlement's records without the frozen constructors' cost: every replayed or verified
#: hand settles again)
_push_step = builder(PushStep)
_settlement = builder(Settlement)

"""The showdown's order of hands and the settlement: who takes the pot, what each player in
who lost pays into the next one, what stays, and the house fee (chips conserved).

Rulings guts-2 to guts-5: nobody in, the pot carries unchanged; one in takes it unseen;
several in, the best two cards take it (tied winners split it in the smallest chip, the rest
stays as the next pot's start) and each player in who did not win pays the pot (or the table's
maximum when it is smaller) into the next pot, or what they have when they cannot cover it.
A fee is worked out on the chips put in during the hand (antes and payments), never on a pot
carried in (fees ruling), and comes out of the next pot first, then out of what is pushed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer_assist.cards import RANK_NAMES, RANK_PLURALS, Card
from dealer_assist.engine.base import FeeLine, PushStep, Settlement
from dealer_assist.engine.evolve import builder
from dealer_assist.errors import RuleViolation
from dealer_assist.games.carried_pot import TableFee, collect
from dealer_assist.games.guts.state import OVER, State
from dealer_assist.money import format_cents as money


def strength(cards: Sequence[Card]) -> tuple[int, int, int]:
    """Two cards' rank (ruling guts-3): a pair beats any unpaired hand, a higher pair a lower;
    unpaired hands by the higher card, then the lower; aces high; suits never count."""
    hi, lo = sorted((c.rank for c in cards), reverse=True)
    return (1, hi, hi) if hi == lo else (0, hi, lo)


def describe(cards: Sequence[Card]) -> str:
    """The hand in words: "pair of aces", "ace-king"."""
    kind, hi, lo = strength(cards)
    if kind:
        return f"pair of {RANK_PLURALS[hi]}"
    return f"{RANK_NAMES[hi]}-{RANK_NAMES[lo]}"


@dataclass(frozen=True, slots=True)
class Outcome:
    """The hand's result in money, before and after the fee."""

    winners: tuple[int, ...]
    won: dict[int, int]  # the pot's shares, before any fee
    pays: dict[int, int]  # what each player in who lost pays into the next pot
    short: dict[int, int]  # a loser who could not cover what they owed -> what they owed
    left: int  # what a split could not share: it stays as the next pot's start
    fees: tuple[FeeLine, ...]
    payouts: dict[int, int]  # what is pushed to each seat, after the fee
    carry: int  # the next pot, after the fee

    @property
    def fee(self) -> int:
        return sum(f.amount for f in self.fees)


def winners(state: State, ins: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """The seats that take the pot: the only player in, or the best hands shown (``ins``:
    the players in, when the caller has them)."""
    if ins is None:
        ins = state.ins
    if len(ins) <= 1:
        return ins
    ranks = {s: strength(state.shown[s]) for s in ins if s in state.shown}
    if not ranks:
        return ()
    best = max(ranks.values())
    return tuple(s for s in ins if ranks.get(s) == best)


def outcome(state: State, ins: tuple[int, ...] | None = None) -> Outcome:
    """The finished hand in money (the hand must be over). ``ins``: the players in, when the
    caller has them (a property worked out from the declarations: asked once a settlement)."""
    if ins is None:
        ins = state.ins
    if state.phase_of(ins) != OVER:
        raise RuleViolation("the hand is not over yet: nothing can be pushed")
    t = state.table
    pot = state.pot
    won_by = winners(state, ins)
    won: dict[int, int] = {}
    left = 0
    if won_by:
        chip = t.smallest_chip
        each = pot // (chip * len(won_by)) * chip  # ruling guts-3: the rest stays
        won = dict.fromkeys(won_by, each)
        left = pot - each * len(won_by)
    else:
        left = pot  # nobody in: the pot carries unchanged (ruling guts-2)
    pays: dict[int, int] = {}
    short: dict[int, int] = {}
    if len(ins) >= 2:
        owed = state.owed
        for s in ins:
            if s in won:
                continue
            paid = min(owed, state.behind[s])  # ruling guts-5: what they have
            pays[s] = paid
            if paid < owed:
                short[s] = owed
    base = sum(state.antes.values()) + sum(pays.values())
    collected = collect(TableFee(policy=t.policy, smallest_chip=t.smallest_chip),
                        seats=t.seats, button=t.button, base=base, contested=bool(ins),
                        carry=left + sum(pays.values()), shares=won, order=t.order)
    return _outcome(won_by, won, pays, short, left, collected.fees, collected.shares,
                    collected.carry)


def settlement(state: State) -> Settlement:
    """Put in, pushed, carried and collected, with the dealer's steps; chips conserved."""
    t = state.table
    ins = state.ins
    o = outcome(state, ins)
    put_in: dict[int, int] = {s: 0 for s in t.seats}
    for line in state.pre_fees:
        if line.from_seat is not None:
            put_in[line.from_seat] += line.amount
    for s, a in state.antes.items():
        put_in[s] += a
    for s, p in o.pays.items():
        put_in[s] += p
    steps: list[PushStep] = []

    def add(text: str, amount: int, to: int | None, kind: str) -> None:
        steps.append(_push_step(len(steps) + 1, text, amount, to, kind))

    for s, p in o.pays.items():
        if s in o.short:
            add(f"Seat {s} lost and owes {money(o.short[s])}: it has only {money(p)}, and pays "
                f"{money(p)} into the next pot (ruling guts-5)", p, None, "collect")
        else:
            add(f"Seat {s} lost: it pays {money(p)} into the next pot (ruling guts-4)", p, None,
                "collect")
    for line in o.fees:
        add(f"Drop {money(line.amount)} {line.kind}", line.amount, None, "fee")
    if len(ins) == 1:
        s = ins[0]
        add(f"Push the pot, {money(o.payouts[s])}, to seat {s}: the only player in, unseen "
            "(ruling guts-2)", o.payouts[s], s, "push")
    else:
        for s in o.winners:
            what = describe(state.shown[s])
            tie = " (a tie: the pot is split)" if len(o.winners) > 1 else ""
            add(f"Push {money(o.payouts[s])} to seat {s}: {what}{tie}", o.payouts[s], s,
                "push")
    if not ins:
        add(f"Nobody is in: the pot of {money(o.carry)} stays for the next hand (ruling "
            "guts-2)", o.carry, None, "carry")
    elif o.carry:
        parts = []
        if o.left:
            parts.append(f"{money(o.left)} the split leaves")
        if o.pays:
            parts.append(f"{money(sum(o.pays.values()))} paid by the losers")
        why = f" ({' and '.join(parts)}" + (", less the fee)" if o.fee > 0 and parts else ")")
        add(f"Leave {money(o.carry)} in the pot for the next hand{why if parts else ''}",
            o.carry, None, "carry")
    return _settlement(
        put_in, {s: o.payouts.get(s, 0) for s in t.seats}, t.pot_in, o.carry,
        state.pre_fees + o.fees, tuple(steps),
    ).require_conserved()


#: (the settlement's records without the frozen constructors' cost: verify and every report
#: settle each hand again, and a Guts hand is a few events, so its settlement is a third of it)
_outcome = builder(Outcome)
_push_step = builder(PushStep)
_settlement = builder(Settlement)

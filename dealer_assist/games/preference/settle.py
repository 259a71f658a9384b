"""Preference's settlement from the pot: ten stakes to the declarer, a stake per trick to each
defender playing (both to the host of an invited pair), the penalties into the pot, the Hearts,
four-aces and no-aces bonuses between the players; or, when the players end the game, the pot
shared among the three active players. Chips are conserved."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import PushStep, Settlement
from dealer_assist.errors import RuleViolation
from dealer_assist.games.preference.state import (
    ACES,
    BONUS,
    DECLARER_PENALTY,
    DEFENDER_PENALTY,
    POT_TAKE,
    TRICKS,
    PrefState,
)
from dealer_assist.money import format_cents as fmt


def declarer_tricks(state: PrefState) -> int:
    if state.both_dropped:
        return TRICKS
    d = state.declarer
    assert d is not None and state.tricks is not None
    return state.tricks.won()[d]


def four_aces(state: PrefState) -> bool:
    return state.declarer_cards() >= ACES


def settle(state: PrefState) -> Settlement:
    if not state.over:
        raise RuleViolation("the hand is not over: play every trick before settling",
                            rule="pref")
    s = state.stake
    put_in: dict[int, int] = {}
    for seat in state.active:
        if state.ante:
            put_in[seat] = state.ante * s
    for f in state.fees:
        if f.from_seat is not None:
            put_in[f.from_seat] = put_in.get(f.from_seat, 0) + f.amount
    payouts: dict[int, int] = {}
    steps: list[PushStep] = []
    extra: dict[str, Any] = {}
    pot = state.pot

    def push(text: str, amount: int, to: int | None, kind: str = "push") -> None:
        steps.append(PushStep(len(steps) + 1, text, amount, to, kind))
        if to is not None and kind == "push":
            payouts[to] = payouts.get(to, 0) + amount

    def owes(seat: int, amount: int) -> None:
        put_in[seat] = put_in.get(seat, 0) + amount

    def pay(frm: int, to: int, amount: int, why: str) -> None:
        owes(frm, amount)
        push(f"{why}: seat {frm} pays seat {to} {fmt(amount)}", amount, to)

    carry = pot
    if state.ended:
        units, cents = divmod(pot, s)
        each, odd = divmod(units, len(state.active))
        for i, seat in enumerate(state.active):
            share = each * s + (s if i < odd else 0) + (cents if i == 0 else 0)
            if share:
                push(f"The game ends: seat {seat}'s share of the pot, {fmt(share)}", share, seat)
        carry = 0
        extra["ended"] = True
    elif state.all_passed:
        push(f"Everyone passed: leave the pot of {fmt(pot)} for the same dealer's next deal",
             pot, None, "carry")
    else:
        d = state.declarer
        assert d is not None
        won = state.tricks.won() if state.tricks is not None else {}
        host = state.invited()
        playing = state.playing_defenders()
        to_defenders: dict[int, int] = {}
        if not state.both_dropped:
            for x in state.defenders():
                if host is not None:
                    to_defenders[host] = to_defenders.get(host, 0) + won[x]
                elif x in playing:
                    to_defenders[x] = won[x]
        take = POT_TAKE * s
        carry = pot - take
        mine = take - sum(to_defenders.values()) * s
        dt = declarer_tricks(state)
        push(f"The declarer (seat {d}) takes {fmt(take)} from the pot"
             + (" (both defenders dropped: paid as ten tricks)" if state.both_dropped else
                f"; {dt} tricks, {fmt(mine)} kept"), mine, d)
        for x, n in to_defenders.items():
            if n:
                push(f"Seat {x}: {n} trick{'s' if n != 1 else ''} × {fmt(s)}"
                     + (" (the invited pair's)" if host is not None else ""), n * s, x)
        if carry:
            push(f"Leave {fmt(carry)} of the pot in it for the next hand", carry, None, "carry")
        made = dt >= 6
        if not made:
            owes(d, DECLARER_PENALTY * s)
            carry += DECLARER_PENALTY * s
            push(f"Seat {d} took {dt} tricks, under six: pays {fmt(DECLARER_PENALTY * s)} "
                 "into the pot", DECLARER_PENALTY * s, None, "carry")
        if host is not None:
            pair = sum(won[x] for x in state.defenders())
            if pair < 4:
                owes(host, DEFENDER_PENALTY * s)
                carry += DEFENDER_PENALTY * s
                push(f"The invited pair took {pair} tricks, under four: seat {host} (the "
                     f"host) pays {fmt(DEFENDER_PENALTY * s)} into the pot",
                     DEFENDER_PENALTY * s, None, "carry")
        else:
            for x in playing:
                if won[x] < 2:
                    owes(x, DEFENDER_PENALTY * s)
                    carry += DEFENDER_PENALTY * s
                    push(f"Seat {x} played and took {won[x]} tricks, under two: pays "
                         f"{fmt(DEFENDER_PENALTY * s)} into the pot", DEFENDER_PENALTY * s,
                         None, "carry")
        opponents = [x for x in state.active if x != d]
        bonus = BONUS * s
        bonuses: list[str] = []
        for name, applies, both_ways in (
            ("Hearts", state.kind == "hearts", True),
            ("Four aces", four_aces(state), False),
            ("No aces", state.no_aces, True),
        ):
            if not applies:
                continue
            if made:
                bonuses.append(f"{name} made")
                for o in opponents:
                    pay(o, d, bonus, f"{name} made")
            elif both_ways:
                bonuses.append(f"{name} lost")
                for o in opponents:
                    pay(d, o, bonus, f"{name} lost")
        extra.update({"declarer": d, "made": made, "bonuses": bonuses})
    for f in state.fees:
        push(f"House {f.kind} of {fmt(f.amount)} from seat {f.from_seat}", f.amount, None, "fee")
    return Settlement(put_in=put_in, payouts=payouts, carry_in=state.pot_in, carry_out=carry,
                      fees=state.fees, steps=tuple(steps), extra=extra).require_conserved()

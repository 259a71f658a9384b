"""Preference's settlement from the pot: ten stakes to the declarer, a stake per trick to each
defender playing (both to the host of an invited pair), the penalties into the pot, the Hearts,
four-aces and no-aces bonuses between the players; or, when the players end the game, the pot
shared among the three active players. Chips are conserved.

A rake, a collection from the pot or a jackpot drop is worked out on the chips put into the pot
during the hand (the antes and the penalties), never on the pot carried in, and taken when the
hand settles, first from what goes on to the next pot, then from the pot's pushes (fees ruling;
``games/carried_pot``). "No flop, no drop" reads as: no fee in a hand everyone passed (nobody
played for the pot)."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.base import Settlement
from dealer_assist.errors import RuleViolation
from dealer_assist.games.carried_pot import Collected, collect, fee_text
from dealer_assist.games.preference.state import (
    ACES,
    BONUS,
    DECLARER_PENALTY,
    DEFENDER_PENALTY,
    POT_TAKE,
    TRICKS,
    PrefState,
)
from dealer_assist.games.tricks.table import Payments, with_fees
from dealer_assist.money import format_cents as fmt


def declarer_tricks(state: PrefState) -> int:
    if state.both_dropped:
        return TRICKS
    d = state.declarer
    assert d is not None and state.tricks is not None
    return state.tricks.won()[d]


def four_aces(state: PrefState) -> bool:
    return state.declarer_cards() >= ACES


def settlement(state: PrefState) -> Settlement:
    if not state.over:
        raise RuleViolation("the hand is not over: play every trick before settling",
                            rule="pref")
    s = state.stake
    put_in: dict[int, int] = {}
    for seat in state.active:
        if state.ante:
            put_in[seat] = state.ante * s
    with_fees(put_in, state.fees)
    extra: dict[str, Any] = {}
    pot = state.pot
    ledger = Payments(put_in)
    push, owes = ledger.push, ledger.owes

    def pay(frm: int, to: int, amount: int, why: str) -> None:
        owes(frm, amount)
        push(f"{why}: seat {frm} pays seat {to} {fmt(amount)}", amount, to)

    got = Collected(fees=(), carry=pot, shares={})
    if state.ended:
        units, cents = divmod(pot, s)
        each, odd = divmod(units, len(state.active))
        for i, seat in enumerate(state.active):
            share = each * s + (s if i < odd else 0) + (cents if i == 0 else 0)
            if share:
                push(f"The game ends: seat {seat}'s share of the pot, {fmt(share)}", share, seat)
        if not pot:
            push("The game ends: the pot is empty, nothing to share", 0, None, "note")
        got = Collected(fees=(), carry=0, shares={})
        extra["ended"] = True
    elif state.all_passed:
        got = collect(state.fee, seats=state.seats, button=state.dealer, base=pot - state.pot_in,
                      contested=False, carry=pot, shares={}, order=state.active)
        for line in got.fees:
            push(fee_text(line), line.amount, None, "fee")
        push(f"Everyone passed: leave the pot of {fmt(got.carry)} for the same dealer's next "
             "deal", got.carry, None, "carry")
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
        left = pot - take
        mine = take - sum(to_defenders.values()) * s
        dt = declarer_tricks(state)
        made = dt >= 6
        penalties: list[tuple[int, int, str]] = []
        if not made:
            penalties.append((d, DECLARER_PENALTY * s,
                              f"Seat {d} took {dt} tricks, under six: pays "
                              f"{fmt(DECLARER_PENALTY * s)} into the pot"))
        if host is not None:
            pair = sum(won[x] for x in state.defenders())
            if pair < 4:
                penalties.append((host, DEFENDER_PENALTY * s,
                                  f"The invited pair took {pair} tricks, under four: seat "
                                  f"{host} (the host) pays {fmt(DEFENDER_PENALTY * s)} into "
                                  "the pot"))
        else:
            for x in playing:
                if won[x] < 2:
                    penalties.append((x, DEFENDER_PENALTY * s,
                                      f"Seat {x} played and took {won[x]} tricks, under two: "
                                      f"pays {fmt(DEFENDER_PENALTY * s)} into the pot"))
        into_pot = sum(amount for _, amount, _ in penalties)
        shares = {d: mine, **{x: n * s for x, n in to_defenders.items() if n}}
        got = collect(state.fee, seats=state.seats, button=state.dealer,
                      base=pot - state.pot_in + into_pot, contested=True,
                      carry=left + into_pot, shares=shares, order=state.active)

        def less_fee(seat: int, amount: int) -> str:
            cut = got.cut(seat, amount)
            return f", less {fmt(cut)} of the house's fee: {fmt(amount - cut)}" if cut else ""

        for line in got.fees:
            push(fee_text(line), line.amount, None, "fee")
        push(f"The declarer (seat {d}) takes {fmt(take)} from the pot"
             + (" (both defenders dropped: paid as ten tricks)" if state.both_dropped else
                f"; {dt} tricks, {fmt(mine)} kept") + less_fee(d, mine),
             got.shares.get(d, 0), d)
        for x, n in to_defenders.items():
            if n:
                push(f"Seat {x}: {n} trick{'s' if n != 1 else ''} × {fmt(s)}"
                     + (" (the invited pair's)" if host is not None else "")
                     + less_fee(x, n * s), got.shares.get(x, 0), x)
        if left:
            push(f"Leave {fmt(left)} of the pot in it for the next hand", left, None, "carry")
        for seat, amount, text in penalties:
            owes(seat, amount)
            push(text, amount, None, "carry")
        if got.carry != left + into_pot:
            push(f"The fee came out of the next pot first: it holds {fmt(got.carry)}",
                 got.carry, None, "note")
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
    return ledger.settlement(carry_in=state.pot_in, before_deal=state.fees, got=got,
                             extra=extra)

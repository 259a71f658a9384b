"""Ledger lines: a settlement written as money lines, so reports total them and verify can
re-derive them from the events and compare."""

from __future__ import annotations

from dealer_assist.engine.base import Settlement
from dealer_assist.services.model import LedgerLine


def ledger_lines(hand_id: int, s: Settlement) -> list[LedgerLine]:
    """What each seat put in, what was pushed to it, every fee, and the carries in and out.

    Zero amounts are left out. The lines balance: put_in + carry_in = push + fee + carry_out.
    """
    lines: list[LedgerLine] = []
    for seat, amount in sorted(s.put_in.items()):
        if amount:
            lines.append(LedgerLine(hand_id=hand_id, kind="put_in", seat=seat, amount=amount))
    if s.carry_in:
        lines.append(LedgerLine(hand_id=hand_id, kind="carry_in", amount=s.carry_in))
    for seat, amount in sorted(s.payouts.items()):
        if amount:
            lines.append(LedgerLine(hand_id=hand_id, kind="push", seat=seat, amount=amount))
    for fee in s.fees:
        if fee.amount:
            lines.append(
                LedgerLine(
                    hand_id=hand_id, kind="fee", seat=fee.from_seat, amount=fee.amount,
                    detail=fee.kind,
                )
            )
    if s.carry_out:
        lines.append(LedgerLine(hand_id=hand_id, kind="carry_out", amount=s.carry_out))
    return lines


def same_lines(a: list[LedgerLine], b: list[LedgerLine]) -> bool:
    return sorted(x.key() for x in a) == sorted(x.key() for x in b)


def balanced(lines: list[LedgerLine]) -> bool:
    inflow = sum(x.amount for x in lines if x.kind in ("put_in", "carry_in"))
    outflow = sum(x.amount for x in lines if x.kind in ("push", "fee", "carry_out"))
    return inflow == outflow

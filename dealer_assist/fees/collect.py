"""What a table's fee policy collects in one hand: the fees paid before the deal (on top of a
seat's put-in) and the fees taken out of the pot at settlement, each a FeeLine in whole chips."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from dealer_assist.engine.base import FeeLine
from dealer_assist.errors import RuleViolation
from dealer_assist.fees.policy import (
    FeeContext,
    FeePolicy,
)
from dealer_assist.money import format_cents


def down_to_chip(amount: int, chip: int) -> int:
    """Round down to a whole number of the table's smallest chip (the house never makes change)."""
    return (amount // chip) * chip


def _check_ctx(policy: FeePolicy, ctx: FeeContext) -> FeeContext:
    """The context to compute with: the policy's own ``chip``, when set, is the table's chip."""
    if policy.chip is not None:
        ctx = replace(ctx, smallest_chip=policy.chip)
    if ctx.smallest_chip <= 0:
        raise RuleViolation(f"the smallest chip must be at least 1 cent, not {ctx.smallest_chip}")
    if ctx.pot < 0:
        raise RuleViolation(f"the pot cannot be negative ({ctx.pot})")
    return ctx


def pre_deal_fees(policy: FeePolicy | None, ctx: FeeContext) -> list[FeeLine]:
    """Fees each seat pays before the deal, on top of its put-in (``from_seat`` set).

    A per-player fee is one line per seat; a fixed collection from the button is one line from the
    button seat. Rake, a fixed collection from the pot and time fees collect nothing here.

    The lines depend on nothing but the policy and the table (seats, button, chip), which repeat
    hand after hand, so they are worked out once for each (the lines are immutable); a refusal is
    worked out, and raised, every time.
    """
    if policy is None:
        return []
    try:  # the context's fields, as its own hash and equality would read them
        key = (id(policy), ctx.seats, ctx.button, ctx.pot, ctx.saw_flop, ctx.smallest_chip)
        known = _PRE_DEAL.get(key)
    except TypeError:  # a context that cannot be hashed (seats in a list): nothing to remember
        return _pre_deal_fees(policy, ctx)
    if known is not None and known[0] is policy:
        return list(known[1])
    lines = _pre_deal_fees(policy, ctx)
    if len(_PRE_DEAL) >= 1024:
        _PRE_DEAL.clear()
    _PRE_DEAL[key] = (policy, tuple(lines))  # holding the policy keeps its id from being reused
    return lines


#: (id of the policy, the context's fields) -> (the policy, its pre-deal lines); see
#: :func:`pre_deal_fees`.
_PRE_DEAL: dict[tuple[Any, ...], tuple[FeePolicy, tuple[FeeLine, ...]]] = {}
if tuple(f.name for f in fields(FeeContext)) != (
    "seats", "button", "pot", "saw_flop", "smallest_chip"
):  # the key above reads every field of the context: a new field must join it
    raise TypeError("pre_deal_fees' key must name every field of FeeContext")


def _pre_deal_fees(policy: FeePolicy, ctx: FeeContext) -> list[FeeLine]:
    ctx = _check_ctx(policy, ctx)
    if policy.kind == "per-player":
        if policy.amount == 0:
            return []
        return [
            FeeLine("player-fee", policy.amount, seat, f"{format_cents(policy.amount)} a player")
            for seat in ctx.seats
        ]
    if policy.kind == "fixed" and policy.source == "button":
        if ctx.button is None:
            raise RuleViolation(
                "this table's fee is paid by the button seat, but this hand has no button: "
                "choose a per-player fee or a collection from the pot for this game"
            )
        if ctx.button not in ctx.seats:
            raise RuleViolation(f"the button, seat {ctx.button}, is not in this hand")
        if policy.amount == 0:
            return []
        return [FeeLine("button-fee", policy.amount, ctx.button, "fixed fee from the button")]
    return []


def _rake(policy: FeePolicy, ctx: FeeContext) -> FeeLine | None:
    if policy.no_flop_no_drop and not ctx.saw_flop:
        return None
    if ctx.pot < policy.min_pot or ctx.pot == 0:
        return None
    rate = policy.rate
    raw = ctx.pot * rate.numerator // rate.denominator  # the exact product, rounded down
    note = f"{policy.percent}% of {format_cents(ctx.pot)}"
    if policy.cap is not None and raw > policy.cap:
        raw = policy.cap
        note += f", capped at {format_cents(policy.cap)}"
    amount = down_to_chip(raw, ctx.smallest_chip)
    if amount != raw:
        note += f", rounded down to the {format_cents(ctx.smallest_chip)} chip"
    return FeeLine("rake", amount, None, note, ctx.pot) if amount > 0 else None


def _collection(policy: FeePolicy, ctx: FeeContext) -> FeeLine | None:
    if policy.no_flop_no_drop and not ctx.saw_flop:
        return None
    if ctx.pot < policy.min_pot:
        return None
    amount = down_to_chip(min(policy.amount, ctx.pot), ctx.smallest_chip)
    note = "fixed collection from the pot"
    if amount < policy.amount:
        note += f" (the pot held only {format_cents(ctx.pot)})"
    return FeeLine("collection", amount, None, note, ctx.pot) if amount > 0 else None


def pot_fees(policy: FeePolicy | None, ctx: FeeContext) -> list[FeeLine]:
    """Fees taken out of ``ctx.pot`` at settlement (``from_seat`` None): rake or a fixed
    collection for the house, then the jackpot/promotional drop for its own fund.

    Every amount is rounded down to the smallest chip and together they never exceed the pot.
    """
    if policy is None:
        return []
    ctx = _check_ctx(policy, ctx)
    lines: list[FeeLine] = []
    house: FeeLine | None = None
    if policy.kind == "rake":
        house = _rake(policy, ctx)
    elif policy.kind == "fixed" and policy.source == "pot":
        house = _collection(policy, ctx)
    if house is not None:
        lines.append(house)
    j = policy.jackpot
    if j is not None and (ctx.saw_flop or not j.no_flop_no_drop) and ctx.pot >= j.min_pot:
        left = ctx.pot - sum(line.amount for line in lines)
        amount = down_to_chip(min(j.amount, left), ctx.smallest_chip)
        if amount > 0:
            lines.append(FeeLine(j.fund, amount, None, f"{j.fund} drop", ctx.pot))
    return lines

"""What a table's next hand starts with, derived from its last hand: pure functions over the
last hand's replay (no store, no clock), so each rule is tested on its own.

The services look the last hand up once and replay it at most once; these functions say what
follows from it: the button, what the game carries over (a bonus hand, a button that stays), each
seat's stack, and the stacks a dealer typed checked against them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dealer_assist.engine.hand import HandReplay
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.money import format_cents


def next_button(seats: Sequence[int], last_button: object, *, redealt: bool) -> int:
    """The seat after ``last_button``, clockwise among ``seats``; after a misdeal (``redealt``)
    the same button, the hand being dealt again. No last button: the last seat."""
    if not isinstance(last_button, int):
        return seats[-1]
    if redealt and last_button in seats:
        return last_button
    later = [s for s in seats if s > last_button]
    return later[0] if later else seats[0]


def carried_over(last: HandReplay, seats: Sequence[int]) -> dict[str, Any]:
    """What the game takes over from its last settled hand at the same seats (``redeal`` after
    a misdeal, with its button; ``next_hand`` otherwise); nothing after a change of seats."""
    if tuple(last.start.seats) != tuple(seats):
        return {}
    if last.misdeal is not None:  # dealt again as it was
        kept = dict(last.game.redeal(last.state))
        button = last.start.params.get("button")
        if isinstance(button, int):
            kept["button"] = button
        return kept
    return dict(last.game.next_hand(last.state))


def stacks_after(last: HandReplay) -> dict[int, int]:
    """Each seat's chips after a settled hand played with stacks: what it had left plus what
    was pushed to it (a misdeal gives back what was put in). Empty for a hand without stacks."""
    if last.start.get("stacks") is None:
        return {}
    payouts = last.settle().payouts
    left = last.game.stacks_left(last.state) or {}
    return {seat: stack + payouts.get(seat, 0) for seat, stack in left.items()}


def stacks_for(
    kept: Mapping[int, int], seats: Sequence[int], buy_in: int | None, given: Mapping[int, int]
) -> tuple[dict[int, int], list[str]]:
    """The next hand's stacks: ``given`` where given, else what the seat ``kept``, else the
    buy-in; and, for the audit log, each given stack that differs from the default."""
    out: dict[int, int] = {}
    changed: list[str] = []
    for seat in seats:
        default = kept.get(seat, buy_in)
        value = given.get(seat, default)
        if value is None:
            raise BadInput(f"give seat {seat}'s stack: the table has no buy-in setting and "
                           "the seat did not play the last hand")
        if isinstance(value, bool) or not isinstance(value, int):
            raise BadInput(f"seat {seat}'s stack must be whole cents, not {value!r}")
        if value <= 0:
            had = "has no chips left" if seat in kept else "has no stack"
            raise RuleViolation(
                f"seat {seat} {had}: enter a rebuy for it (Stacks…) or leave it out of "
                "this hand"
            )
        if seat in given and value != default:
            if default is None:
                was = "no stack before"
            elif seat in kept:
                was = f"{format_cents(default)} kept from the last hand"
            else:
                was = f"the buy-in of {format_cents(default)}"
            changed.append(f"seat {seat} {format_cents(value)} ({was})")
        out[seat] = value
    return out, changed

"""What a table's next hand starts with, derived from its last hand: pure functions over the
last hand's replay (no store, no clock), so each rule is tested on its own.

The services look the last hand up once and replay it at most once; these functions say what
follows from it: the button, what the game carries over (a bonus hand, a button that stays), each
seat's stack, and the stacks a dealer typed checked against them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dealer_assist.engine.base import Game
from dealer_assist.engine.hand import HandReplay
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.events import Start
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
    """What the game takes over from its last settled hand (:func:`carried_from`)."""
    return carried_from(last.game, last.start, last.state, seats,
                        misdealt=last.misdeal is not None)


def carried_from(
    game: Game[Any], start: Start, state: Any, seats: Sequence[int], *, misdealt: bool
) -> dict[str, Any]:
    """What the next hand at ``seats`` takes from a settled hand (its ``game``, ``start`` and
    last ``state``), in the log's names: after a misdeal, ``redeal`` and the same button;
    otherwise ``next_hand``. When the seats change, what the game says survives the change
    (``Game.next_hand_seats``: by default nothing); a misdealt hand then carries nothing. The
    services start the next hand with it, and verify and the demo hold hands to it."""
    if tuple(start.seats) != tuple(seats):
        return {} if misdealt else dict(game.next_hand_seats(state, tuple(seats)))
    if misdealt:  # dealt again as it was
        kept = dict(game.redeal(state))
        key = game.key("button")
        button = start.params.get(key)
        if isinstance(button, int):
            kept[key] = button
        return kept
    return dict(game.next_hand(state))


def last_button(last: HandReplay) -> object:
    """The seat that had the button (or the game's dealer) in ``last``; None without one."""
    return last.start.params.get(last.game.key("button"))


def stacks_after(last: HandReplay) -> dict[int, int]:
    """Each seat's chips after a settled hand played with stacks: what it had left plus what
    was pushed to it (a misdeal gives back what was put in). Empty for a hand without stacks."""
    brought = last.start.get(last.game.key("stacks"))
    if brought is None:
        return {}
    if last.misdeal is not None:
        # every chip of the hand went back: each seat leaves with the stack it brought (what a
        # game counts as left and as put in can differ while a payment waits for settlement:
        # an auction's price, a loser's payment, an uncalled bet)
        return {int(seat): int(n) for seat, n in brought.items()}
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

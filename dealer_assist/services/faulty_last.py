"""The next hand after a hand whose record cannot be read (a stored event the game's reader
refuses, written behind the app's back: verify names it and skips it).

Such a hand does not replay, so its button, each seat's stack and what its game carries cannot be
taken from its replay, and a hand still open cannot be finished. The table goes on all the same:
what the next hand starts from is worked out from what can still be read (the hand's start and
its ledger lines), shown to the dealer, and a floor person approves it with their PIN (the
approval of a hand's start, :func:`dealer_assist.services.approvals.start_subject`). Nothing is
deleted or rewritten: the faulty record stays where it is and verify keeps naming it.

Pure: the services read the rows and the ledger lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dealer_assist.engine.base import Game
from dealer_assist.money import format_cents
from dealer_assist.services.handrules import NEW_GAME
from dealer_assist.services.model import Hand, LedgerLine, StoredEvent


@dataclass(frozen=True, slots=True)
class FaultyLast:
    """What the table's last hand, whose record cannot be read, leaves the next hand: read from
    its start and (settled) its latest ledger lines; ``why``: the reader's words."""

    number: int
    why: str
    settled: bool
    #: The button of its start (None: its start cannot be read either, or has none).
    button: int | None = None
    #: Each seat's chips after it: what the seat brought, less what it put in, plus what was
    #: pushed to it (settled); what it brought (still open: every chip back, as a misdeal).
    stacks: dict[int, int] = field(default_factory=dict)
    #: The pot the next hand takes: its ledger's carry-out (settled), else the pot it took in.
    carry: int = 0


def read_what_is_left(
    game: Game[Any], hand: Hand, rows: Sequence[StoredEvent], ledger: Sequence[LedgerLine],
    why: str,
) -> FaultyLast:
    """:class:`FaultyLast` of ``hand`` (its stored ``rows`` and latest ``ledger`` lines)."""
    settled = hand.status == "settled"
    start: Mapping[str, Any] = {}
    if rows and not rows[0].fault and rows[0].body.get("type") == "start":
        start = rows[0].body
    button = start.get(game.key("button"))
    brought = start.get(game.key("stacks"))
    stacks: dict[int, int] = {}
    if isinstance(brought, Mapping):
        for seat, chips in brought.items():
            try:
                stacks[int(seat)] = int(chips)
            except (TypeError, ValueError):
                continue
    if settled:
        for line in ledger:
            if line.seat in stacks and line.kind == "put_in":
                stacks[line.seat] -= line.amount
            elif line.seat in stacks and line.kind == "push":
                stacks[line.seat] += line.amount
        carry = sum(x.amount for x in ledger if x.kind == "carry_out")
    else:
        took = start.get(game.key("carry_in"))
        carry = took if isinstance(took, int) and not isinstance(took, bool) else 0
    return FaultyLast(number=hand.number, why=why, settled=settled,
                      button=button if isinstance(button, int) else None,
                      stacks={s: n for s, n in stacks.items() if n > 0}, carry=carry)


def unreadable_line(last: FaultyLast, game: Game[Any]) -> str:
    """The line the approval of the next hand's start opens with: which hand cannot be read,
    and (when the game carries something from hand to hand) that none of it is taken over."""
    line = f"hand {last.number} cannot be read, so the next hand starts from what it shows"
    if game.carries:
        line += f"; {NEW_GAME}: {', '.join(game.carries)} not carried from the last hand"
    return line


def starts_from(per_hand: Mapping[str, Any], game: Game[Any]) -> str:
    """The next hand's button, carry and stacks in words, as the dealer is shown them."""
    parts: list[str] = []
    button = per_hand.get("button")
    if isinstance(button, int):
        parts.append(f"button seat {button}")
    if "carry_in" in per_hand:
        parts.append(f"a pot of {format_cents(int(per_hand['carry_in']))} carried in")
    stacks = per_hand.get("stacks")
    if isinstance(stacks, Mapping) and stacks:
        parts.append(", ".join(f"seat {s} {format_cents(int(n))}" for s, n in stacks.items()))
    return "; ".join(parts) or f"a new {game.title} hand"


def refusal(table: str, last: FaultyLast, what: str) -> str:
    """What the dealer is told when the table's last hand cannot be read: the hand, why, what
    the next hand would start from, and what to do."""
    state = "settled" if last.settled else "left open (it cannot be finished)"
    return (f"hand {last.number} at {table} cannot be read ({last.why}); it is {state}, and "
            "verify names its record. The next hand cannot take its button, stacks and pot "
            f"from it: a floor person approves starting from {what} with their PIN (or give "
            "the stacks and the carry-in to start from)")

"""A table's next hand from the floor's seating: which seats are dealt, and the buy-in of each
player seated since the last hand, so the dealer never types them again.

Pure: the dealer's screen asks with the last hand's start (its time and seats) and starts the
hand with what comes back (the stacks rule is unchanged: a seat that played keeps its chips).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from dealer_assist.money import format_cents
from dealer_assist.services.floorboard.state import RoomState


@dataclass(frozen=True, slots=True)
class NextSeating:
    """The seats of the next hand by the floor's record, and what changed since the last."""

    seats: tuple[int, ...]
    #: A buy-in (or chips brought) for each seat whose player sat down since the last hand.
    stacks: dict[int, int] = field(default_factory=dict)
    #: For the dealer's screen: "Seat 4: new player, buy-in $200", "Seat 2: free".
    changes: tuple[str, ...] = ()
    #: A seat change at the table: the new seat -> the seat whose chips it takes.
    moved: dict[int, int] = field(default_factory=dict)


def next_seating(state: RoomState, table_id: int, *, last_start: datetime | None,
                 last_seats: Sequence[int]) -> NextSeating | None:
    """The next hand's seating at ``table_id``; None when the floor does not seat that table
    (the room runs without the board, or the table is not open on it): the dealer types seats
    as before."""
    if not state.rules.board or state.table_status(table_id) == "closed":
        return None
    seated = state.seated(table_id)
    seats = tuple(sorted(seated))
    stacks: dict[int, int] = {}
    changes: list[str] = []
    moved: dict[int, int] = {}
    for seat in seats:
        p = seated[seat]
        new = last_start is None or p.since > last_start or seat not in last_seats
        if not new:
            continue
        if p.from_table == table_id and p.from_seat is not None and p.amount is None:
            moved[seat] = p.from_seat
            changes.append(f"Seat {seat}: {p.player} moved from seat {p.from_seat}, with "
                           "their chips")
            continue
        if p.amount is not None:
            stacks[seat] = p.amount
        money = "" if p.amount is None else (
            f", brings {format_cents(p.amount)}" if p.from_table is not None
            else f", buy-in {format_cents(p.amount)}")
        changes.append(f"Seat {seat}: new player {p.player}{money}")
    for seat in last_seats:
        if seat not in seated and seat not in moved.values():
            changes.append(f"Seat {seat}: free")
    return NextSeating(seats=seats, stacks=stacks, changes=tuple(changes), moved=moved)

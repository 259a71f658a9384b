"""What verify holds a hand to: the seats at its start are the seating the floor's records
give at that moment (for a table the floor had open, in a room that runs the board).

The records are folded once, in time order, with the hands' starts merged in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from dealer_assist.services.floorboard.records import FloorEntry
from dealer_assist.services.floorboard.state import RoomState, step


@dataclass(frozen=True, slots=True)
class HandStart:
    table_id: int
    number: int
    started_at: datetime
    seats: tuple[int, ...]


def seat_faults(entries: Sequence[FloorEntry], hands: Iterable[HandStart],
                names: Mapping[int, str]) -> list[str]:
    """Each hand whose seats at its start differ from the floor's seating then, named."""
    faults: list[str] = []
    state = RoomState()
    i = 0
    for h in sorted(hands, key=lambda h: (h.started_at, h.table_id, h.number)):
        while i < len(entries) and entries[i].at <= h.started_at:
            step(state, entries[i])
            i += 1
        if not state.rules.board or state.table_status(h.table_id) == "closed":
            continue
        floor = tuple(sorted(state.seated(h.table_id)))
        dealt = tuple(sorted(h.seats))
        if floor != dealt:
            where = names.get(h.table_id, f"table {h.table_id}")
            faults.append(
                f"{where} hand {h.number}: dealt to seats {', '.join(map(str, dealt))}, but "
                f"the floor's record seats {', '.join(map(str, floor)) or 'nobody'} then — "
                "the seats were changed behind the floor board's record")
    return faults

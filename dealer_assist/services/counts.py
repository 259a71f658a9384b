"""Use cases for the room's clock and the drop count (see :mod:`dealer_assist.services.room`).

Each writes one entry to the chained audit log and nothing else, so a count or a change of the
room's clock is appended, chained, signed by who entered it, and never edited.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from dealer_assist.errors import BadInput
from dealer_assist.services.app import Services
from dealer_assist.services.errors import NotAllowed, NotFound
from dealer_assist.services.model import PERMISSIONS, AuditEntry, Session
from dealer_assist.services.ports import Store
from dealer_assist.services.room import (
    COUNT_ACTION,
    ROOM_ACTION,
    Count,
    RoomClock,
    count_detail,
    read_count,
    read_room,
    room_detail,
)


def _may(session: Session, permission: str, what: str) -> None:
    if session.role not in PERMISSIONS[permission]:
        raise NotAllowed(f"{session.name} is a {session.role}: only a floor or admin user can "
                         f"{what}")


def room_clock_of(store: Store) -> RoomClock:
    """The room clock in force: the latest readable room-settings entry (UTC, day from
    midnight, no named shifts until one is set)."""
    for e in reversed(store.audit_log(action=ROOM_ACTION)):
        clock = read_room(e.detail)
        if clock is not None:
            return clock
    return RoomClock()


def set_room_clock(svc: Services, session: Session, clock: RoomClock) -> AuditEntry:
    """Record the room's time zone, gaming-day start and named shifts (floor or admin)."""
    _may(session, "configure", "set the room's clock")
    return svc.log(session, ROOM_ACTION, room_detail(clock))


@dataclass(frozen=True, slots=True)
class CountEntry:
    """A count as recorded: its audit entry number, when, who entered it, and the count."""

    number: int
    at: datetime
    by: str
    count: Count


def counts(store: Store) -> list[CountEntry]:
    """Every recorded count and correction, in the order they were entered."""
    out = []
    for e in store.audit_log(action=COUNT_ACTION):
        c = read_count(e.detail)
        if c is not None:
            out.append(CountEntry(e.seq or e.id, e.at, e.actor or "", c))
    return out


def record_count(svc: Services, session: Session, count: Count) -> AuditEntry:
    """Enter a drop count (or a correction of one) for a table's shift (floor or admin)."""
    _may(session, "configure", "enter a drop count")
    shift = svc.store.get_shift(count.shift_id)
    if shift is None:
        raise NotFound(f"there is no shift {count.shift_id}")
    if shift.table_id != count.table_id:
        raise BadInput(f"shift {shift.id} is not a shift of that table")
    if count.corrects is not None:
        earlier = {c.number: c for c in counts(svc.store)}
        first = earlier.get(count.corrects)
        if first is None or first.count.shift_id != count.shift_id:
            raise BadInput(f"entry {count.corrects} is not a count of shift {count.shift_id}: "
                           "name the count being corrected by its entry number")
    return svc.log(session, COUNT_ACTION, count_detail(count), table_id=count.table_id)

"""The room's records as typed rows (schema 0022): drop counts, drop boxes, count sign-offs and
the room's clock, each kind in a sealed table of its own (:mod:`dealer_assist.services.sealed`),
one column per fact, so the readers in :mod:`dealer_assist.services.counts` and the reports read
columns, never an audit entry's sentence.

Each record is still an audit entry as well (the same detail as before, so the audit report and
the day archive do not change); its row's ``entry`` is that entry's number, the one people see
and type (``--corrects N``). :class:`RoomRecords` is the narrow port that writes the two in one
transaction and reads a kind's rows back.

The few values that are lists are kept as text in one fixed form:

- ``team``: the counters' full names, one per line, in the order given;
- ``denominations``: one line per denomination, ``<value in cents>x<pieces>``, by value from
  the smallest (``25x4`` then ``10000x12``); empty when only the total was entered;
- ``shifts``: one line per named room shift, ``<name>=<start hour>``, in the order set.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from dealer_assist.services.model import AuditEntry
from dealer_assist.services.ports import Store
from dealer_assist.services.room import (
    BOX_ACTION,
    COUNT_ACTION,
    DROP_ACTION,
    ROOM_ACTION,
    SIGNOFF_ACTION,
    Count,
    RoomClock,
    read_box,
    read_count,
    read_room,
    read_signoff,
)
from dealer_assist.services.sealed import SealedRow

#: The sealed tables, and the audit actions whose records each holds.
DROP_COUNTS = "drop_counts"
DROP_BOXES = "drop_boxes"
COUNT_SIGNOFFS = "count_signoffs"
ROOM_CLOCKS = "room_clocks"
KIND_OF: dict[str, str] = {
    COUNT_ACTION: DROP_COUNTS,
    BOX_ACTION: DROP_BOXES,
    DROP_ACTION: DROP_BOXES,
    SIGNOFF_ACTION: COUNT_SIGNOFFS,
    ROOM_ACTION: ROOM_CLOCKS,
}
KINDS = (DROP_BOXES, DROP_COUNTS, COUNT_SIGNOFFS, ROOM_CLOCKS)


@runtime_checkable
class RoomRecords(Protocol):
    """The room's typed records: a kind's rows in order, and a record written as its audit
    entry and its row together."""

    def room_records(self, kind: str) -> list[SealedRow]:
        """Every row of ``kind`` (one of :data:`KINDS`), in the order recorded."""
        ...

    def add_room_record(
        self, *, at: datetime, actor: str | None, action: str, detail: str, kind: str,
        values: Mapping[str, Any], table_id: int | None = None, token: str = "",
    ) -> AuditEntry:
        """Append the audit entry and, in the same transaction, ``kind``'s row of ``values``
        with ``entry`` set to the entry's number; the entry is returned. ``token``: the
        signed-in session's (PostgreSQL takes both only from that live sign-in)."""
        ...


def records_of(store: object) -> RoomRecords:
    """``store`` as the room records' port (every store the app builds is one)."""
    if not isinstance(store, RoomRecords):
        raise TypeError(f"{type(store).__name__} does not keep the room's typed records")
    return store


# --- the fixed text forms -------------------------------------------------------------------
def lines_text(items: Sequence[str]) -> str:
    return "\n".join(items)


def text_lines(text: str) -> tuple[str, ...]:
    return tuple(line for line in text.split("\n") if line)


def denominations_text(denominations: Mapping[int, int]) -> str:
    return "\n".join(f"{int(k)}x{int(v)}" for k, v in sorted(denominations.items()))


def text_denominations(text: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for line in text_lines(text):
        value, _, pieces = line.partition("x")
        out[int(value)] = int(pieces)
    return out


def shifts_text(shifts: Sequence[tuple[str, int]]) -> str:
    return "\n".join(f"{name}={hour}" for name, hour in shifts)


def text_shifts(text: str) -> tuple[tuple[str, int], ...]:
    out = []
    for line in text_lines(text):
        name, _, hour = line.rpartition("=")
        out.append((name, int(hour)))
    return tuple(out)


# --- records to columns and back ------------------------------------------------------------
def count_values(count: Count) -> dict[str, Any]:
    return {
        "table_id": count.table_id, "shift_id": count.shift_id, "box": count.box,
        "counted": count.counted, "team": lines_text(count.team),
        "denominations": denominations_text(count.denominations),
        "corrects": count.corrects, "reason": count.reason, "started": count.started,
        "ended": count.ended, "boxes": count.boxes, "independence": count.independence,
    }


def count_of(row: SealedRow) -> Count:
    v = row.values
    return Count(table_id=int(v["table_id"]), shift_id=int(v["shift_id"]), box=str(v["box"]),
                 counted=int(v["counted"]), team=text_lines(str(v["team"])),
                 denominations=text_denominations(str(v["denominations"])),
                 corrects=None if v["corrects"] is None else int(v["corrects"]),
                 reason=str(v["reason"]), started=v["started"], ended=v["ended"],
                 boxes=int(v["boxes"]), independence=str(v["independence"]))


def box_values(box: str, table_id: int, shift_id: int | None = None) -> dict[str, Any]:
    """A box registered to its table (``shift_id`` None) or its drop for a shift."""
    return {"box": box, "table_id": table_id, "shift_id": shift_id}


def signoff_values(entry: int, explanation: str, *, follows: int | None = None,
                   reason: str = "") -> dict[str, Any]:
    return {"count_entry": entry, "explanation": explanation, "follows": follows,
            "reason": reason if follows is not None else ""}


def clock_values(clock: RoomClock) -> dict[str, Any]:
    return {"zone": clock.zone, "day_starts": clock.day_starts,
            "shifts": shifts_text(clock.shifts), "paper": clock.paper,
            "retention_years": clock.retention_years,
            "tolerance_minutes": clock.tolerance_minutes}


def clock_of(row: SealedRow) -> RoomClock:
    v = row.values
    return RoomClock(zone=str(v["zone"]), day_starts=int(v["day_starts"]),
                     shifts=text_shifts(str(v["shifts"])), paper=str(v["paper"]),
                     retention_years=int(v["retention_years"]),
                     tolerance_minutes=int(v["tolerance_minutes"]))


def values_of(action: str, detail: str) -> tuple[str, dict[str, Any]] | None:
    """The typed row an audit entry of a room record holds: its table and columns (without
    ``entry``); ``None`` when the detail cannot be read (such an entry has no row)."""
    if action == COUNT_ACTION:
        c = read_count(detail)
        return None if c is None else (DROP_COUNTS, count_values(c))
    if action in (BOX_ACTION, DROP_ACTION):
        b = read_box(detail)
        if b is None or (b.shift_id is None) != (action == BOX_ACTION):
            return None
        return DROP_BOXES, box_values(b.box, b.table_id, b.shift_id)
    if action == SIGNOFF_ACTION:
        so = read_signoff(detail)
        return None if so is None else (COUNT_SIGNOFFS, signoff_values(
            so.entry, so.explanation, follows=so.follows, reason=so.reason))
    if action == ROOM_ACTION:
        r = read_room(detail)
        return None if r is None else (ROOM_CLOCKS, clock_values(r))
    return None


def add_record(
    store: Store, *, at: datetime, actor: str | None, action: str, detail: str,
    values: Mapping[str, Any] | None = None, table_id: int | None = None, token: str = "",
) -> AuditEntry:
    """Write a room record: its audit entry and its typed row in one transaction. ``values``:
    the row's columns as the use case has them (else read from ``detail``); a detail that
    cannot be read is kept as an audit entry alone (verify notes it)."""
    kind = KIND_OF[action]
    if values is None:
        found = values_of(action, detail)
        if found is None:
            return store.add_audit(at=at, actor=actor, action=action, detail=detail,
                                   table_id=table_id, token=token)
        kind, values = found
    return records_of(store).add_room_record(
        at=at, actor=actor, action=action, detail=detail, kind=kind, values=values,
        table_id=table_id, token=token)

"""A table's drop count from the recorded counts and drop boxes, and the exceptions it raises: a
variance against the hands' fees, a count that is missing, unsigned or out of time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from dealer_assist.money import format_cents
from dealer_assist.reports.build.common import when_text
from dealer_assist.reports.data.counts import CountLine, CountSignoff, DropCount, DropRecord
from dealer_assist.reports.data.records import ExceptionLine, FeeTotal
from dealer_assist.reports.source import person
from dealer_assist.services.chain import utc
from dealer_assist.services.model import Shift
from dealer_assist.services.reads import Reads


def count_entries(store: Reads, names: dict[str, str]) -> dict[int, list[CountLine]]:
    """Every drop count entry, by shift id, in the order entered."""
    from dealer_assist.services.counts import counts

    out: dict[int, list[CountLine]] = {}
    for e in counts(store):
        c = e.count
        out.setdefault(c.shift_id, []).append(CountLine(
            e.number, utc(e.at), person(names, e.by), c.box, c.counted, c.team,
            tuple(sorted(c.denominations.items(), reverse=True)), c.corrects, c.reason,
            started=c.started, ended=c.ended, boxes=c.boxes, independence=c.independence))
    return out


def drop_count(store: Reads, names: dict[str, str], shift_id: int, table: str,
               expected: tuple[FeeTotal, ...], entries: Sequence[CountLine]) -> DropCount:
    """A shift's drop: the expected figures, its count entries, the box's registration and
    drop, and the sign-off of the count in force."""
    from dealer_assist.services.counts import box_entries, signoffs

    boxes = box_entries(store)
    numbers = {e.number for e in entries}
    signed = tuple(CountSignoff(so.number, utc(so.at), person(names, so.by), so.explanation,
                                so.entry, so.follows, so.reason)
                   for so in signoffs(store) if so.entry in numbers)
    drop = None
    if entries:
        box = entries[-1].box
        reg = next((b for b in boxes if b.box == box and b.shift_id is None), None)
        dropped = next((b for b in boxes if b.box == box and b.shift_id == shift_id), None)
        drop = DropRecord(box, utc(reg.at) if reg else None,
                          person(names, reg.by) if reg else "",
                          utc(dropped.at) if dropped else None,
                          person(names, dropped.by) if dropped else "")
    else:
        dropped = next((b for b in boxes if b.shift_id == shift_id), None)
        if dropped is not None:
            drop = DropRecord(dropped.box, None, "", utc(dropped.at),
                              person(names, dropped.by))
    return DropCount(table, shift_id, expected, tuple(entries), signoffs=signed, drop=drop)


def count_exceptions(drop: DropCount, prefix: str = "", shift: Shift | None = None,
                     tolerance: timedelta = timedelta(minutes=5)) -> list[ExceptionLine]:
    """What a count (or its absence) leaves to check: a count that differs from the records
    (with both figures and whether the variance was explained and signed off), a closed shift
    whose box was never counted, a count entered while its shift was still open, a count
    team of one person, a count whose times lie before its shift opened or its box's drop or
    after it was entered, and a sign-off made before the count it signs off had ended."""
    out: list[ExceptionLine] = []
    out += _count_time_exceptions(drop, prefix, shift, tolerance)
    closed = utc(shift.closed_at) if shift is not None and shift.closed_at else None
    if shift is not None and closed is not None and not drop.entries:
        out.append(ExceptionLine(None, f"{prefix}shift {drop.shift_id} closed at "
                                 f"{when_text(closed)} and its drop box was never counted",
                                 "count"))
    for e in drop.entries:
        if shift is not None and (closed is None or e.at < closed):
            out.append(ExceptionLine(None, f"{prefix}count entry {e.number} (drop box {e.box}) "
                                     f"was entered at {when_text(e.at)}, while shift "
                                     f"{drop.shift_id} was still open", "count"))
        if len(e.team) < 2:
            out.append(ExceptionLine(None, f"{prefix}count entry {e.number} (drop box {e.box}) "
                                     f"was counted by one person ({', '.join(e.team)}): a "
                                     "count team has at least two", "count"))
    c, v = drop.in_force, drop.variance
    if c is None or not v:
        return out
    word = f"over by {format_cents(v)}" if v > 0 else f"SHORT by {format_cents(-v)}"
    signed = drop.signoff
    tail = (f"; explained ({signed.explanation}) and signed off by {signed.by}" if signed
            else "; NOT YET EXPLAINED AND SIGNED OFF by a second person")
    out.append(ExceptionLine(None, f"{prefix}drop box {c.box} (shift {drop.shift_id}) counted "
                             f"{format_cents(c.counted)} where the records give "
                             f"{format_cents(drop.expected_total)}: {word} (count entry "
                             f"{c.number}){tail}", "count"))
    return out


def count_tolerance(store: Reads) -> timedelta:
    """The room clock's tolerance: how far a count may be recorded as ending after it was
    entered (the stations' clocks differ a little) before the report names it."""
    from dealer_assist.services.counts import room_clock_of

    return room_clock_of(store).tolerance


def _count_time_exceptions(drop: DropCount, prefix: str, shift: Shift | None,
                           tolerance: timedelta) -> list[ExceptionLine]:
    """The rules a count's times keep at input (docs/reports.md, Drop count), re-checked on the
    records: whatever let a count in, the report names it."""
    out: list[ExceptionLine] = []

    def minute(t: datetime) -> datetime:
        return utc(t).replace(second=0, microsecond=0)

    dropped = drop.drop.dropped_at if drop.drop is not None else None
    by_number = {e.number: e for e in drop.entries}
    for e in drop.entries:
        if e.started is None or e.ended is None:
            continue
        what = f"{prefix}count entry {e.number} (drop box {e.box}) ran {when_text(e.started)} " \
               f"to {when_text(e.ended)}"
        if utc(e.ended) > utc(e.at) + tolerance:
            out.append(ExceptionLine(None, f"{what}, yet was entered at {when_text(e.at)}: "
                                     "it ends after it was entered", "count"))
        if shift is not None and utc(e.started) < minute(shift.opened_at):
            out.append(ExceptionLine(None, f"{what}: it starts before shift {drop.shift_id} "
                                     f"opened ({when_text(utc(shift.opened_at))})", "count"))
        if dropped is not None and utc(e.started) < minute(dropped):
            out.append(ExceptionLine(None, f"{what}: it starts before the box's drop "
                                     f"({when_text(dropped)})", "count"))
    for so in drop.signoffs:
        c = by_number.get(so.entry)
        if c is not None and c.ended is not None and utc(so.at) < utc(c.ended):
            out.append(ExceptionLine(None, f"{prefix}sign-off entry {so.number} of count entry "
                                     f"{c.number} was made at {when_text(so.at)}, before the "
                                     f"count ended ({when_text(c.ended)})", "count"))
    return out


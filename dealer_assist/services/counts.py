"""Use cases for the room's clock and the drop count (see :mod:`dealer_assist.services.room`).

Each writes one entry to the chained audit log and, in the same transaction, its typed row
(:mod:`dealer_assist.services.room_rows`), so a count or a change of the room's clock is
appended, chained, signed by who entered it, and never edited. The readers here read the typed
rows' columns, never the audit entries' text.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from dealer_assist.errors import BadInput
from dealer_assist.services.app import Services
from dealer_assist.services.base import Approval
from dealer_assist.services.chain import utc
from dealer_assist.services.errors import NotAllowed, NotFound
from dealer_assist.services.model import AuditEntry, HandFilter, Session, Shift
from dealer_assist.services.reads import Reads
from dealer_assist.services.room import (
    BOX_ACTION,
    COUNT_ACTION,
    DROP_ACTION,
    ROOM_ACTION,
    SIGNOFF_ACTION,
    Count,
    RoomClock,
    box_detail,
    count_detail,
    drop_detail,
    room_detail,
    signoff_detail,
)
from dealer_assist.services.room_rows import (
    COUNT_SIGNOFFS,
    DROP_BOXES,
    DROP_COUNTS,
    ROOM_CLOCKS,
    add_record,
    box_values,
    clock_of,
    clock_values,
    count_of,
    count_values,
    records_of,
    signoff_values,
)
from dealer_assist.services.rulecheck import shift_people


def room_clock_of(store: Reads) -> RoomClock:
    """The room clock in force: the latest one recorded (UTC, day from midnight, no named
    shifts until one is set)."""
    rows = records_of(store).room_records(ROOM_CLOCKS)
    return clock_of(rows[-1]) if rows else RoomClock()


def _record(svc: Services, session: Session, action: str, detail: str, values: dict[str, Any],
            *, table_id: int | None = None) -> AuditEntry:
    """A room record written as its audit entry and its typed row, in one transaction, held
    to the sign-in of the person writing it."""
    return add_record(svc.store, at=svc.clock(), actor=session.name, action=action,
                      detail=detail, values=values, table_id=table_id, token=session.token)


@dataclass(frozen=True, slots=True)
class ClockSpan:
    """A room clock and the gaming days it keeps: from ``first_day`` on, that day beginning at
    ``since`` (UTC: where the day before it ended, by the clock before). ``None``: from the
    room's first record."""

    clock: RoomClock
    first_day: date | None = None
    since: datetime | None = None


def clock_spans(store: Reads) -> list[ClockSpan]:
    """Each room clock with the days it keeps. A change applies from the next gaming day that
    has not started when it is made: the day running then, every day over and every day
    archived keep their bounds. The first day kept by the new clock begins where the day before
    it ended (it may run a little longer or shorter than a day: the change of clock); a second
    change before that day begins replaces the first."""
    from datetime import timedelta

    spans = [ClockSpan(RoomClock())]
    for row in records_of(store).room_records(ROOM_CLOCKS):
        clock = clock_of(row)
        t = utc(row.at)
        spans = [x for x in spans if x.since is None or x.since <= t]
        now = spans[-1]
        running = _label(now, t)
        _, old_end = now.clock.day_bounds(running)
        first = running + timedelta(days=1)
        while utc(clock.day_bounds(first)[1]) <= utc(old_end):
            first += timedelta(days=1)
        spans.append(ClockSpan(clock, first, utc(old_end)))
    return spans


def _label(span: ClockSpan, t: datetime) -> date:
    day = span.clock.gaming_day(t)
    return span.first_day if span.first_day is not None and day < span.first_day else day


def _span_at(spans: list[ClockSpan], t: datetime) -> ClockSpan:
    found = spans[0]
    for x in spans:
        if x.since is None or x.since <= utc(t):
            found = x
    return found


def room_clock_at(store: Reads, t: datetime) -> RoomClock:
    """The room clock that keeps the gaming day ``t`` falls in (before any clock was set, the
    room ran on UTC from midnight)."""
    return _span_at(clock_spans(store), t).clock


def gaming_day_of(store: Reads, t: datetime) -> date:
    """The gaming day ``t`` belongs to, by the clock that keeps that day."""
    return _label(_span_at(clock_spans(store), t), t)


def day_bounds_of(store: Reads, day: date) -> tuple[datetime, datetime, RoomClock]:
    """A gaming day's start and end (UTC) and the clock that keeps it: a day over or archived
    keeps the bounds it had, whatever clock is set later."""
    spans = clock_spans(store)
    span = spans[0]
    for x in spans:
        if x.first_day is None or x.first_day <= day:
            span = x
    start, end = span.clock.day_bounds(day)
    begins = span.since if span.first_day == day and span.since is not None else utc(start)
    return begins, utc(end), span.clock


def clock_for_day(store: Reads, day: date) -> RoomClock:
    """The clock a gaming day is kept by (:func:`day_bounds_of`)."""
    return day_bounds_of(store, day)[2]


def room_time(store: Reads, text: str, what: str = "time") -> datetime:
    """``2026-11-24T06:10`` (or ``2026-11-24 06:10``) in the room's zone, or with its own
    offset, as UTC."""
    from datetime import UTC

    try:
        t = datetime.fromisoformat(text.strip())
    except ValueError as exc:
        raise BadInput(f"{what}: {text.strip()!r} is not a time: write it like 2026-11-24 06:10 "
                       f"(room time, {room_clock_of(store).zone})") from exc
    if t.tzinfo is None:
        t = t.replace(tzinfo=room_clock_of(store).tz)
    return t.astimezone(UTC)


def count_times(store: Reads, started: str, ended: str) -> tuple[datetime, datetime]:
    """When a count began and ended (both required, room time), as UTC: every count entered,
    at the console or from the command line, carries them."""
    if not started.strip() or not ended.strip():
        raise BadInput("give the count's start and end time, room time: e.g. started "
                       "2026-11-24 06:10, ended 2026-11-24 06:40")
    return (room_time(store, started, "count started"),
            room_time(store, ended, "count ended"))


def set_room_clock(svc: Services, session: Session, clock: RoomClock) -> AuditEntry:
    """Record the room's time zone, gaming-day start and named shifts (floor or admin)."""
    svc.authorizer.require(session, "configure", "set the room's clock")
    return _record(svc, session, ROOM_ACTION, room_detail(clock), clock_values(clock))


@dataclass(frozen=True, slots=True)
class CountEntry:
    """A count as recorded: its audit entry number, when, who entered it, and the count."""

    number: int
    at: datetime
    by: str
    count: Count


def counts(store: Reads) -> list[CountEntry]:
    """Every recorded count and correction, in the order they were entered."""
    return [CountEntry(int(r["entry"]), r.at, r.actor, count_of(r))
            for r in records_of(store).room_records(DROP_COUNTS)]


@dataclass(frozen=True, slots=True)
class BoxEntry:
    """A box registration or drop as recorded: entry number, when, who."""

    number: int
    at: datetime
    by: str
    box: str
    table_id: int
    shift_id: int | None


def box_entries(store: Reads) -> list[BoxEntry]:
    """Every box registration and drop, in the order entered."""
    out = [BoxEntry(int(r["entry"]), r.at, r.actor, str(r["box"]), int(r["table_id"]),
                    None if r["shift_id"] is None else int(r["shift_id"]))
           for r in records_of(store).room_records(DROP_BOXES)]
    return sorted(out, key=lambda b: b.number)


@dataclass(frozen=True, slots=True)
class SignoffEntry:
    """A variance sign-off as recorded; a later one of the same count names the sign-off it
    follows and the reason (the earlier one stays on the record)."""

    number: int
    at: datetime
    by: str
    entry: int
    explanation: str
    follows: int | None = None
    reason: str = ""


def signoffs(store: Reads) -> list[SignoffEntry]:
    """Every variance sign-off, in the order entered."""
    return [SignoffEntry(int(r["entry"]), r.at, r.actor, int(r["count_entry"]),
                         str(r["explanation"]),
                         None if r["follows"] is None else int(r["follows"]), str(r["reason"]))
            for r in records_of(store).room_records(COUNT_SIGNOFFS)]


def _table_name(svc: Services, table_id: int) -> str:
    t = svc.store.get_table(table_id)
    return t.name if t is not None else f"table record {table_id}"


def register_box(svc: Services, session: Session, *, table_id: int, box: str) -> AuditEntry:
    """Register a drop box to its table (floor or admin): a box is counted only for the
    table it is registered to."""
    svc.authorizer.require(session, "configure", "register a drop box")
    box = box.strip()
    if not box:
        raise BadInput("name the drop box (the number on the box, e.g. T2-0523)")
    if svc.store.get_table(table_id) is None:
        raise NotFound(f"there is no table record {table_id}")
    for b in box_entries(svc.store):
        if b.box == box and b.shift_id is None:
            if b.table_id == table_id:
                raise BadInput(f"drop box {box} is already registered to "
                               f"{_table_name(svc, table_id)} (entry {b.number})")
            raise BadInput(f"drop box {box} is registered to {_table_name(svc, b.table_id)} "
                           f"(entry {b.number}): a box belongs to one table")
    return _record(svc, session, BOX_ACTION, box_detail(box, table_id),
                   box_values(box, table_id), table_id=table_id)


def _registered(svc: Services, box: str, table_id: int) -> None:
    regs = [b for b in box_entries(svc.store) if b.box == box and b.shift_id is None]
    if not regs:
        raise BadInput(f"drop box {box} is not registered to any table: register it to "
                       f"{_table_name(svc, table_id)} first (Register box in the drop count, "
                       f"or dealer-assist drop-box --table {_table_name(svc, table_id)!r} "
                       f"--box {box})")
    if regs[0].table_id != table_id:
        raise BadInput(f"drop box {box} is registered to {_table_name(svc, regs[0].table_id)}, "
                       f"not {_table_name(svc, table_id)}: count each box for its own table")


def record_drop(svc: Services, session: Session, *, shift_id: int, box: str) -> AuditEntry:
    """Record a drop box taken off its table for a shift: when (now) and who (the person
    signed in). The box must be registered to that shift's table, and dropped once."""
    svc.authorizer.require(session, "configure", "record a drop")
    shift = svc.store.get_shift(shift_id)
    if shift is None:
        raise NotFound(f"there is no shift {shift_id}")
    box = box.strip()
    _registered(svc, box, shift.table_id)
    for b in box_entries(svc.store):
        if b.box == box and b.shift_id == shift_id:
            raise BadInput(f"drop box {box} was already dropped for shift {shift_id} "
                           f"(entry {b.number})")
    return _record(svc, session, DROP_ACTION, drop_detail(box, shift.table_id, shift_id),
                   box_values(box, shift.table_id, shift_id), table_id=shift.table_id)


def shift_approvers(store: Reads, shift_id: int) -> set[str]:
    """User names of the floor people who approved a void or misdeal of the shift's hands or
    ruled on one of its disputes."""
    hands = {h.id for h in store.list_hands(HandFilter(shift_id=shift_id, limit=None))}
    out = {e.actor for e in store.audit_log(action="approval")
           if e.hand_id in hands and e.actor}
    out |= {d.floor for d in store.disputes() if d.hand_id in hands and d.floor}
    return out


def record_count(svc: Services, session: Session, count: Count, *,
                 approval: Approval | None = None) -> AuditEntry:
    """Enter a drop count (or a correction of one) for a table's shift (floor or admin).

    The box must be registered to the shift's table and, once any drop of it is recorded,
    dropped for this shift; a box already counted for the shift is counted again only as a
    correction (``corrects`` and a reason). A team member who approved the shift's voids,
    misdeals or disputes may sign its count only with a second floor person's approval
    (``approval``: name and PIN), recorded in the count."""
    svc.authorizer.require(session, "configure", "enter a drop count")
    shift = svc.store.get_shift(count.shift_id)
    if shift is None:
        raise NotFound(f"there is no shift {count.shift_id}")
    if shift.table_id != count.table_id:
        raise BadInput(f"shift {shift.id} is not a shift of that table")
    _registered(svc, count.box, shift.table_id)
    drops = [b for b in box_entries(svc.store) if b.box == count.box and b.shift_id is not None]
    if drops and all(b.shift_id != shift.id for b in drops):
        raise BadInput(f"drop box {count.box} was dropped for shift "
                       f"{', '.join(str(b.shift_id) for b in drops)}, not shift {shift.id}: "
                       "count the box dropped for this shift")
    earlier = {c.number: c for c in counts(svc.store)}
    if count.corrects is None:
        same = [c for c in earlier.values()
                if c.count.shift_id == shift.id and c.count.box == count.box]
        if same:
            raise BadInput(f"drop box {count.box} of shift {shift.id} was already counted "
                           f"(entry {same[-1].number}): a second count is a correction: give "
                           f"--corrects {same[-1].number} --reason ...")
    else:
        first = earlier.get(count.corrects)
        if first is None or first.count.shift_id != count.shift_id:
            raise BadInput(f"entry {count.corrects} is not a count of shift {count.shift_id}: "
                           "name the count being corrected by its entry number")
    _count_in_time(svc, shift, count, drops)
    names = {u.name: u.full_name for u in svc.store.list_users()}
    people = {names.get(n, n): why for n, why in
              shift_people(shift, shift_approvers(svc.store, shift.id)).items()}
    conflicted = sorted(n for n in count.team if n in people)
    if conflicted:
        if approval is None:
            words = {"approved": "approved voids, misdeals or disputes of", "dealer": "dealt",
                     "floor": "was the floor person of"}
            said = "; ".join(f"{n} {words[people[n]]} shift {shift.id}" for n in conflicted)
            raise NotAllowed(
                f"{said}: the count team must be independent of the shift; choose another "
                "counter, or have a second floor person approve with their name and PIN "
                "(Second approval in the drop count, or --approved-by NAME)")
        asked = approval.name.strip().lower()
        if asked != session.name and names.get(asked, asked) in count.team:  # before the PIN
            raise NotAllowed(f"{names.get(asked, asked)} cannot give the second approval: they "
                             "are on the count team; another floor person types their name and "
                             "PIN")
        # the one approval rule: never the person entering the count (refused and logged
        # before the PIN is tried), a floor person's right PIN, the approval logged
        who = svc.approve(approval, what=f"count of drop box {count.box}, shift {shift.id}, by "
                          f"{', '.join(conflicted)} (not independent)", table_id=shift.table_id,
                          session=session)
        if who.full_name in count.team:  # (a full name shared with a counter)
            raise NotAllowed(f"{who.full_name} cannot give the second approval: they are on the "
                             "count team")
        count = replace(count, independence=f"{who.full_name} ({who.name})")
    return _record(svc, session, COUNT_ACTION, count_detail(count), count_values(count),
                   table_id=count.table_id)


def _minute(t: datetime) -> datetime:
    """A recorded time to the minute: count times are typed to the minute, so a count begun
    in the minute of its box's drop is not before it."""
    return utc(t).replace(second=0, microsecond=0)


def _count_in_time(svc: Services, shift: Shift, count: Count, drops: list[BoxEntry]) -> None:
    """A count's start and end lie after the shift opened and after its box's drop, and no
    later than now (within the room's clock tolerance)."""
    if count.started is None or count.ended is None:
        return
    clock = room_clock_of(svc.store)
    now = utc(svc.clock())
    started, ended = utc(count.started), utc(count.ended)

    def at(t: datetime) -> str:
        return f"{clock.local(t):%Y-%m-%d %H:%M} {clock.zone}"

    if ended > now + clock.tolerance:
        raise BadInput(f"the count ends at {at(ended)}, after now ({at(now)}): enter a count "
                       "once it has ended, with the times the team began and finished")
    opened = _minute(shift.opened_at)
    if started < opened:
        raise BadInput(f"the count starts at {at(started)}, before shift {shift.id} opened "
                       f"({at(utc(shift.opened_at))}): check the count's start time")
    mine = [b for b in drops if b.shift_id == shift.id]
    if mine and started < _minute(mine[0].at):
        raise BadInput(f"the count starts at {at(started)}, before drop box {count.box} was "
                       f"dropped ({at(utc(mine[0].at))}, entry {mine[0].number}): a box is "
                       "counted after its drop")


def signoff_count(svc: Services, session: Session, *, entry: int,
                  explanation: str, reason: str = "") -> AuditEntry:
    """Explain a count's variance and sign it off: by a second person (floor, auditor or
    admin), not the one who entered the count, once the count has ended. A count already
    signed off is signed off again only as a new entry with a reason; every sign-off stays."""
    svc.authorizer.require(session, "audit", "sign off a count")
    text = " ".join(explanation.split())
    if not text:
        raise BadInput("explain the variance: what the count team found, in words")
    found = {c.number: c for c in counts(svc.store)}.get(entry)
    if found is None:
        raise NotFound(f"entry {entry} is not a drop count: name the count by its entry number")
    if found.by == session.name:
        raise NotAllowed(f"{session.name} entered count entry {entry}: a second person signs "
                         "off its variance")
    ended = found.count.ended
    if ended is not None and utc(svc.clock()) < utc(ended):
        clock = room_clock_of(svc.store)
        raise BadInput(f"count entry {entry} runs until {clock.local(utc(ended)):%Y-%m-%d %H:%M}"
                       f" {clock.zone}: sign off its variance after the count has ended")
    earlier = [so for so in signoffs(svc.store) if so.entry == entry]
    why = " ".join(reason.split())
    if earlier and not why:
        last = earlier[-1]
        raise BadInput(f"count entry {entry} was already signed off (entry {last.number}): a "
                       "later sign-off is a new entry and needs a reason (--reason ...); the "
                       "earlier one stays on the record")
    follows = earlier[-1].number if earlier else None
    return _record(svc, session, SIGNOFF_ACTION,
                   signoff_detail(entry, text, follows=follows, reason=why),
                   signoff_values(entry, text, follows=follows, reason=why),
                   table_id=found.count.table_id)

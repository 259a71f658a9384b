"""The room's own records kept in the audit log: its clock (time zone, gaming day, named shifts)
and the drop count of each table's shift.

Both are appended to the chained audit log like every other sensitive input, never edited: the
latest room-settings entry is the one in force, and a count correction is a new entry naming the
one it corrects, so the original stays on the record beside it with who changed it. Their
detail is canonical JSON after a short prefix, so the audit report can print them in words.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, tzinfo
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from dealer_assist.errors import BadInput
from dealer_assist.money import format_cents

#: Audit actions of these records.
ROOM_ACTION = "room-settings"
COUNT_ACTION = "count"
#: A drop box registered to its table; a box's drop (its removal from the table) for a shift;
#: a count variance explained and signed off by a second person; a report printed (or the
#: print cancelled).
BOX_ACTION = "drop-box"
DROP_ACTION = "drop"
SIGNOFF_ACTION = "count-signoff"
PRINT_ACTION = "print"
#: Years a room keeps its records unless it sets its own (the longest of docs/store.md's
#: list: California's accounting records), and the fewest it may set.
KEEP_YEARS = 7
MIN_KEEP_YEARS = 3
#: Minutes a count's typed end time may run ahead of the station's clock when it is entered
#: (stations' clocks and a wall clock differ a little), unless the room sets its own.
TOLERANCE_MINUTES = 5
MAX_TOLERANCE_MINUTES = 60
ARCHIVE_ACTION = "archive"
#: The room records held to their writer: who may write each (the services check it, and
#: PostgreSQL's audit guard takes them only from that person's live sign-in, schema 0021;
#: verify names one whose writer did not hold such a role then).
SIGNED_ROLES: dict[str, tuple[str, ...]] = {
    COUNT_ACTION: ("floor", "admin"),
    BOX_ACTION: ("floor", "admin"),
    DROP_ACTION: ("floor", "admin"),
    ROOM_ACTION: ("floor", "admin"),
    SIGNOFF_ACTION: ("floor", "auditor", "admin"),
}
_ROOM_PREFIX = "room clock "
_COUNT_PREFIX = "drop count "
_BOX_PREFIX = "drop box "
_DROP_PREFIX = "drop of box "
_SIGNOFF_PREFIX = "count sign-off "


@dataclass(frozen=True, slots=True)
class RoomClock:
    """How the room keeps time: its zone, the hour its gaming day starts (local time), and its
    named shifts, each from a local hour to the next one's start.

    Records stay in UTC; reports turn them into the room's local time with the zone printed.
    """

    zone: str = "UTC"
    day_starts: int = 0
    shifts: tuple[tuple[str, int], ...] = ()
    #: The reports' paper: "A4", "Letter", or "" for the zone's custom (Letter in the
    #: Americas' US and Canadian zones, A4 elsewhere).
    paper: str = ""
    #: How many years the room keeps its records (0: the default, :data:`KEEP_YEARS`).
    retention_years: int = 0
    #: How far (minutes) a count's end may lie after the moment it is entered (-1: the
    #: default, :data:`TOLERANCE_MINUTES`).
    tolerance_minutes: int = -1

    @property
    def tolerance(self) -> timedelta:
        """The clock tolerance for typed times (a count's end against the station's clock)."""
        n = TOLERANCE_MINUTES if self.tolerance_minutes < 0 else self.tolerance_minutes
        return timedelta(minutes=n)

    @property
    def keep_years(self) -> int:
        return self.retention_years or KEEP_YEARS

    @property
    def paper_size(self) -> str:
        if self.paper:
            return self.paper
        letter = ("America/", "US/", "Canada/", "Pacific/Honolulu")
        return "Letter" if self.zone.startswith(letter) else "A4"

    @property
    def tz(self) -> tzinfo:
        return ZoneInfo(self.zone)

    def local(self, t: datetime) -> datetime:
        return t.astimezone(self.tz)

    def gaming_day(self, t: datetime) -> date:
        """The gaming day ``t`` belongs to: a time before the day's start hour is the previous
        day's (a room whose day starts at 06:00 counts 02:00 on the 24th as the 23rd)."""
        lt = self.local(t)
        return (lt - timedelta(hours=self.day_starts)).date()

    def day_bounds(self, day: date) -> tuple[datetime, datetime]:
        """The gaming day's start and end as aware local times (a daylight-saving change makes
        the day 23 or 25 hours long)."""
        start = datetime.combine(day, time(self.day_starts), tzinfo=self.tz)
        end = datetime.combine(day + timedelta(days=1), time(self.day_starts), tzinfo=self.tz)
        return start, end

    def shift_of(self, t: datetime) -> str:
        """The name of the room shift ``t`` falls in ("" when the room names no shifts)."""
        if not self.shifts:
            return ""
        hour = self.local(t).hour
        starts = sorted(self.shifts, key=lambda s: s[1])
        current = starts[-1][0]  # before the first start: the last shift of the night
        for name, h in starts:
            if hour >= h:
                current = name
        return current

    def describe(self) -> str:
        shifts = ", ".join(f"{n} from {h:02d}:00" for n, h in sorted(self.shifts,
                                                                       key=lambda s: s[1]))
        return (f"time zone {self.zone}; gaming day starts {self.day_starts:02d}:00"
                + (f"; shifts: {shifts}" if shifts else "")
                + f"; paper {self.paper_size}; records kept {self.keep_years} years"
                + f"; clock tolerance {int(self.tolerance.total_seconds()) // 60} min")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"zone": self.zone, "day_starts": self.day_starts,
                               "shifts": [[n, h] for n, h in self.shifts]}
        if self.paper:
            out["paper"] = self.paper
        if self.retention_years:
            out["retention_years"] = self.retention_years
        if self.tolerance_minutes >= 0:
            out["tolerance_minutes"] = self.tolerance_minutes
        return out


def room_clock(*, zone: str, day_starts: int = 0,
               shifts: Sequence[tuple[str, int]] = (), paper: str = "",
               retention_years: int = 0, tolerance_minutes: int = -1) -> RoomClock:
    """A checked room clock: a known IANA zone, hours 0-23, distinct shift names and hours."""
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise BadInput(f"unknown time zone {zone!r}: use a name like America/Los_Angeles") from exc
    if not 0 <= day_starts <= 23:
        raise BadInput("the gaming day's start hour must be 0 to 23")
    names = [n.strip() for n, _ in shifts]
    hours = [h for _, h in shifts]
    if any(not n for n in names) or len(set(names)) != len(names):
        raise BadInput("each room shift needs its own name (e.g. day, swing, grave)")
    if any(not 0 <= h <= 23 for h in hours) or len(set(hours)) != len(hours):
        raise BadInput("each room shift starts at its own hour, 0 to 23")
    papers = {"a4": "A4", "letter": "Letter", "": ""}
    if paper.strip().lower() not in papers:
        raise BadInput(f"paper {paper!r}: choose A4 or Letter")
    if retention_years and not MIN_KEEP_YEARS <= retention_years <= 99:
        raise BadInput(f"records are kept {MIN_KEEP_YEARS} to 99 years: the boards ask for "
                       f"{MIN_KEEP_YEARS} or more (docs/store.md, Keeping records)")
    if tolerance_minutes > MAX_TOLERANCE_MINUTES:
        raise BadInput(f"the clock tolerance is 0 to {MAX_TOLERANCE_MINUTES} minutes: a count "
                       "may end only a little after the station's clock when it is entered")
    return RoomClock(zone, day_starts, tuple(zip(names, hours, strict=True)),
                     papers[paper.strip().lower()], retention_years, max(-1, tolerance_minutes))


def parse_shifts(text: str) -> tuple[tuple[str, int], ...]:
    """``day=6,swing=14,grave=22`` as (name, start hour) pairs."""
    out = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        name, _, hour = part.partition("=")
        try:
            out.append((name.strip(), int(hour)))
        except ValueError as exc:
            raise BadInput(f"room shift {part!r}: write name=hour, e.g. day=6,swing=14,grave=22"
                           ) from exc
    return tuple(out)


def room_detail(clock: RoomClock) -> str:
    return _ROOM_PREFIX + json.dumps(clock.to_json(), sort_keys=True, separators=(",", ":"))


def read_room(detail: str) -> RoomClock | None:
    """A room-settings entry's clock (``None`` when the entry cannot be read)."""
    if not detail.startswith(_ROOM_PREFIX):
        return None
    try:
        obj = json.loads(detail[len(_ROOM_PREFIX):])
        return RoomClock(str(obj["zone"]), int(obj["day_starts"]),
                         tuple((str(n), int(h)) for n, h in obj.get("shifts", [])),
                         str(obj.get("paper", "")), int(obj.get("retention_years", 0)),
                         int(obj.get("tolerance_minutes", -1)))
    except (ValueError, KeyError, TypeError):
        return None


@dataclass(frozen=True, slots=True)
class Count:
    """What the count team counted from one table's drop box for one shift.

    ``denominations`` maps a chip or note value in cents to how many were counted (empty when
    only the total was entered). ``corrects`` is the audit entry number of the count this one
    replaces; the original stays on the record.
    """

    table_id: int
    shift_id: int
    box: str
    counted: int
    team: tuple[str, ...]
    denominations: Mapping[int, int] = field(default_factory=dict)
    corrects: int | None = None
    reason: str = ""
    #: When the count began and ended (UTC), and how many boxes were counted in that session.
    started: datetime | None = None
    ended: datetime | None = None
    boxes: int = 0
    #: The second floor approval that let a member who approved the shift's voids, misdeals
    #: or disputes sign its count: "Full Name (user)" ("" when none was needed).
    independence: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "table": self.table_id, "shift": self.shift_id, "box": self.box,
            "counted": self.counted, "team": list(self.team),
            "denominations": {str(k): v for k, v in sorted(self.denominations.items())},
        }
        if self.corrects is not None:
            out["corrects"] = self.corrects
            out["reason"] = self.reason
        if self.started is not None:
            out["started"] = self.started.isoformat()
        if self.ended is not None:
            out["ended"] = self.ended.isoformat()
        if self.boxes:
            out["boxes"] = self.boxes
        if self.independence:
            out["independence"] = self.independence
        return out

    def describe(self) -> str:
        text = (f"drop box {self.box}, shift {self.shift_id}: counted "
                f"{format_cents(self.counted)} by {', '.join(self.team)}")
        if self.started is not None and self.ended is not None:
            text += (f"; count from {self.started:%Y-%m-%d %H:%M} to {self.ended:%H:%M} UTC"
                     + (f", {self.boxes} boxes" if self.boxes else ""))
        if self.independence:
            text += f"; team member's approvals in the shift: count approved by " \
                    f"{self.independence}"
        if self.corrects is not None:
            text += f"; corrects entry {self.corrects}: {self.reason}"
        return text


#: The most one drop count may be (cents): far above any box, far below the database's 64 bits.
MAX_COUNT = 10**11


def new_count(*, table_id: int, shift_id: int, box: str, counted: int | None,
              team: Sequence[str], denominations: Mapping[int, int] | None = None,
              corrects: int | None = None, reason: str = "",
              started: datetime | None = None, ended: datetime | None = None,
              boxes: int = 0) -> Count:
    """A checked count: a drop box name, a count team of at least two people by full name, a
    total that agrees with the denominations when both are given, the count's start before
    its end, and a reason for a correction."""
    box = box.strip()
    if not box:
        raise BadInput("name the drop box (the number on the box, e.g. T2-0523)")
    names = tuple(" ".join(n.split()) for n in team if n.strip())
    if not names:
        raise BadInput("name the count team: every counter's full name")
    for n in names:
        if " " not in n:
            raise BadInput(f"{n!r}: write each counter's full name (first and last)")
    if len(set(names)) < 2:
        raise BadInput("a count team has at least two people: name every counter (a count by "
                       "one person is not accepted)")
    if started is not None and ended is not None and ended < started:
        raise BadInput("the count's end time is before its start time: check both")
    if boxes < 0:
        raise BadInput("the number of boxes counted cannot be negative")
    denoms = {int(k): int(v) for k, v in (denominations or {}).items() if int(v)}
    for value, pieces in denoms.items():
        if value <= 0 or pieces < 0:
            raise BadInput(f"denomination {format_cents(value)} x {pieces}: values and counts "
                           "must be positive")
    by_denoms = sum(k * v for k, v in denoms.items())
    if counted is None:
        if not denoms:
            raise BadInput("give the amount counted, or the count by denomination")
        counted = by_denoms
    if counted < 0:
        raise BadInput("the amount counted cannot be negative")
    if counted > MAX_COUNT or by_denoms > MAX_COUNT:
        raise BadInput(f"{format_cents(max(counted, by_denoms))} is more than any drop box "
                       f"holds (at most {format_cents(MAX_COUNT)}): check the amount")
    if denoms and by_denoms != counted:
        raise BadInput(f"the denominations add up to {format_cents(by_denoms)}, not the "
                       f"{format_cents(counted)} entered: check the count")
    if corrects is not None and not reason.strip():
        raise BadInput("a correction needs a reason (what was wrong with the first count)")
    return Count(table_id, shift_id, box, counted, names, denoms, corrects,
                 " ".join(reason.split()), started, ended, boxes)


def parse_denominations(text: str) -> dict[int, int]:
    """``100x12, 25x4, 5x20`` (dollars x pieces; ``0.25x4`` for quarters) as cents -> count."""
    from dealer_assist.money import parse_cents

    out: dict[int, int] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        value, _, n = part.lower().replace("×", "x").partition("x")
        try:
            cents = parse_cents(value.strip())
            pieces = int(n)
        except (ValueError, BadInput) as exc:
            raise BadInput(f"denomination {part!r}: write value x pieces, e.g. 100x12, 5x20"
                           ) from exc
        out[cents] = out.get(cents, 0) + pieces
    return out


def count_detail(count: Count) -> str:
    return _COUNT_PREFIX + json.dumps(count.to_json(), sort_keys=True, separators=(",", ":"))


def read_count(detail: str) -> Count | None:
    """A count entry's count (``None`` when the entry cannot be read)."""
    if not detail.startswith(_COUNT_PREFIX):
        return None
    try:
        obj = json.loads(detail[len(_COUNT_PREFIX):])
        return Count(int(obj["table"]), int(obj["shift"]), str(obj["box"]),
                     int(obj["counted"]), tuple(str(n) for n in obj["team"]),
                     {int(k): int(v) for k, v in obj.get("denominations", {}).items()},
                     None if obj.get("corrects") is None else int(obj["corrects"]),
                     str(obj.get("reason", "")),
                     _time(obj.get("started")), _time(obj.get("ended")),
                     int(obj.get("boxes", 0)), str(obj.get("independence", "")))
    except (ValueError, KeyError, TypeError):
        return None


def _time(text: object) -> datetime | None:
    return datetime.fromisoformat(text) if isinstance(text, str) else None


def _json(prefix: str, obj: dict[str, Any]) -> str:
    return prefix + json.dumps(obj, sort_keys=True, separators=(",", ":"))


def _read(prefix: str, detail: str) -> dict[str, Any] | None:
    if not detail.startswith(prefix):
        return None
    try:
        obj = json.loads(detail[len(prefix):])
    except ValueError:
        return None
    return obj if isinstance(obj, dict) else None


@dataclass(frozen=True, slots=True)
class BoxRecord:
    """A drop box registered to a table (``shift`` None), or its drop for a shift."""

    box: str
    table_id: int
    shift_id: int | None = None


def box_detail(box: str, table_id: int) -> str:
    return _json(_BOX_PREFIX, {"box": box, "table": table_id})


def drop_detail(box: str, table_id: int, shift_id: int) -> str:
    return _json(_DROP_PREFIX, {"box": box, "table": table_id, "shift": shift_id})


def read_box(detail: str) -> BoxRecord | None:
    """A drop-box or drop entry's record (``None`` when it cannot be read)."""
    for prefix in (_BOX_PREFIX, _DROP_PREFIX):
        obj = _read(prefix, detail)
        if obj is not None:
            try:
                return BoxRecord(str(obj["box"]), int(obj["table"]),
                                 None if obj.get("shift") is None else int(obj["shift"]))
            except (KeyError, TypeError, ValueError):
                return None
    return None


@dataclass(frozen=True, slots=True)
class Signoff:
    """A count's variance explained and signed off. A later sign-off of the same count is a
    new entry naming the sign-off it follows (``follows``) and why it was needed."""

    entry: int
    explanation: str
    follows: int | None = None
    reason: str = ""


def signoff_detail(entry: int, explanation: str, *, follows: int | None = None,
                   reason: str = "") -> str:
    obj: dict[str, Any] = {"entry": entry, "explanation": explanation}
    if follows is not None:
        obj["follows"] = follows
        obj["reason"] = reason
    return _json(_SIGNOFF_PREFIX, obj)


def read_signoff(detail: str) -> Signoff | None:
    obj = _read(_SIGNOFF_PREFIX, detail)
    try:
        return None if obj is None else Signoff(
            int(obj["entry"]), str(obj["explanation"]),
            None if obj.get("follows") is None else int(obj["follows"]),
            str(obj.get("reason", "")))
    except (KeyError, TypeError, ValueError):
        return None


def describe_entry(action: str, detail: str) -> str | None:
    """A room record's detail in words (``None``: not one of these records)."""
    if action == COUNT_ACTION:
        c = read_count(detail)
        return c.describe() if c is not None else None
    if action == ROOM_ACTION:
        r = read_room(detail)
        return r.describe() if r is not None else None
    if action in (BOX_ACTION, DROP_ACTION):
        b = read_box(detail)
        if b is None:
            return None
        return (f"drop box {b.box} registered to table record {b.table_id}" if b.shift_id is None
                else f"drop box {b.box} removed from the table (shift {b.shift_id})")
    if action == SIGNOFF_ACTION:
        so = read_signoff(detail)
        if so is None:
            return None
        text = f"count entry {so.entry} signed off: {so.explanation}"
        if so.follows is not None:
            text += f"; a later sign-off after entry {so.follows}: {so.reason}"
        return text
    return None

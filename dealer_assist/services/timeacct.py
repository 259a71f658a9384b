"""A table's time account from its stored table-level events (seat_in, seat_out, period).

The fee engine's fold (:mod:`dealer_assist.fees.time`) runs over the events with the times the
store recorded. Each settings version starts a new account: an event belongs to the latest
version created at or before its time, and a table whose settings change starts again with
nobody seated (the dealer seats the players again). The services record what this derives, and
verify derives it again from the chain and compares, line by line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from dealer_assist.errors import BadInput, DealerAssistError, RuleViolation
from dealer_assist.events import Event, Period, SeatIn, SeatOut, Void, event_from_json
from dealer_assist.fees import FeePolicy, TimeState, time_apply, time_start
from dealer_assist.services.model import LedgerLine, SettingsVersion, StoredEvent
from dealer_assist.settings import parse_table_settings

#: The table-level event types (they have no hand); a ``void`` corrects one of the marks.
TIME_EVENTS = ("seat_in", "seat_out", "period", "void")


def is_time_event(event: Event) -> bool:
    return isinstance(event, SeatIn | SeatOut | Period)


def time_policy_of(settings: SettingsVersion) -> FeePolicy | None:
    """The settings version's fee policy if it is a time collection, else None."""
    try:
        parsed = parse_table_settings(settings.document, source=f"settings {settings.version}")
        policy = parsed.fee_policy
    except DealerAssistError:
        return None
    return policy if policy is not None and policy.kind == "time" else None


def smallest_chip_of(settings: SettingsVersion) -> int:
    chip = settings.document.get("smallest_chip", 1)
    return chip if isinstance(chip, int) and not isinstance(chip, bool) and chip > 0 else 1


def version_at(versions: Sequence[SettingsVersion], row: StoredEvent) -> SettingsVersion | None:
    """The settings version in force when ``row`` was recorded."""
    found: SettingsVersion | None = None
    for v in sorted(versions, key=lambda v: v.version):
        if v.created_at <= row.time:
            found = v
    return found


@dataclass(frozen=True, slots=True)
class TimeProblem:
    """The first table-level event the fold refuses: its seq and why."""

    seq: int
    message: str
    #: The refusal alone, for the dealer (``message`` says which event it is about).
    reason: str = ""


@dataclass(frozen=True, slots=True)
class TimeMark:
    """One table-level event as the Seats dialog lists it: its table-level number, when, what
    ("seat 4 in", "period 3", "void of mark 2"), who entered it, and the number of the void
    that voided it (None while it counts)."""

    number: int
    seq: int
    at: datetime
    actor: str
    what: str
    is_void: bool = False
    voided_by: int | None = None
    version: int | None = None


@dataclass(frozen=True, slots=True)
class TimeFold:
    """The fold of the running account (the current settings version's events), and every
    line derived from all of the table's table-level events, each tagged with its event."""

    settings: SettingsVersion | None
    policy: FeePolicy | None
    state: TimeState | None
    lines: tuple[LedgerLine, ...]
    events: int
    problem: TimeProblem | None = None
    marks: tuple[TimeMark, ...] = ()


def start_state(settings: SettingsVersion, policy: FeePolicy, table: str) -> TimeState:
    return time_start(policy, smallest_chip=smallest_chip_of(settings), table=table)


def new_lines(
    before: TimeState, after: TimeState, *, table_id: int, seq: int
) -> list[LedgerLine]:
    """The collections the last event added, as ledger lines tagged with its seq."""
    out = []
    for x in after.lines[len(before.lines):]:
        assert x.from_seat is not None and x.period is not None and x.at is not None
        out.append(LedgerLine.time_line(
            table_id=table_id, seat=x.from_seat, amount=x.amount, period=x.period, seq=seq,
            at=x.at,
        ))
    return out


def mark_text(event: Event, period: int | None = None) -> str:
    """A mark in the dealer's words: "seat 4 in", "seat 4 out", "period 3", "void of mark 2"."""
    if isinstance(event, SeatIn):
        return f"seat {event.seat} in"
    if isinstance(event, SeatOut):
        return f"seat {event.seat} out"
    if isinstance(event, Period):
        return "period mark" if period is None else f"period {period}"
    if isinstance(event, Void):
        return f"void of mark {event.target}"
    return event.TYPE


@dataclass(slots=True)
class _Segment:
    """One settings version's account while folding: where it starts (table-level number and
    index into the lines), its marks by number with their times, and the voided numbers."""

    settings: SettingsVersion
    policy: FeePolicy
    first: int
    first_line: int
    marks: dict[int, tuple[datetime, Event]]
    voided: set[int]


def _void_problem(
    seg: _Segment, number: int, event: Void, seen: dict[int, tuple[Event, int]],
    start: TimeState, at: datetime, last_at: datetime | None,
) -> tuple[TimeState, str | None]:
    """The segment's account re-folded without ``event.target`` (the state, or a refusal)."""
    t = event.target

    def text(n: int) -> str:
        ev, period = seen[n]
        return mark_text(ev, period)

    if not 1 <= t < number:
        return start, f"void names mark {t}, which is not an earlier mark of this table"
    if isinstance(seen[t][0], Void):
        return start, f"mark {t} is itself a void: a void cannot be voided"
    if t < seg.first:
        return start, (
            f"mark {t} ({text(t)}) was recorded under an earlier settings "
            f"version (the account started again with settings version {seg.settings.version}): "
            "it cannot be voided; record a dispute for the floor instead"
        )
    if t in seg.voided:
        return start, f"mark {t} ({text(t)}) is already void"
    if last_at is not None and at < last_at:
        return start, (
            f"the void at {at:%H:%M:%S} is earlier than the previous mark ({last_at:%H:%M:%S}): "
            "events must be in time order"
        )
    state = start
    for n, (when, ev) in seg.marks.items():
        if n == t or n in seg.voided:
            continue
        try:
            state = time_apply(state, when, ev)
        except RuleViolation as exc:
            return start, (
                f"without mark {t} ({text(t)}), mark {n} ({text(n)} "
                f"at {when:%H:%M:%S}) would make no sense ({exc}): void mark {n} first"
            )
    return state, None


def void_lines(
    owed: TimeState, collected: Sequence[LedgerLine], *, table_id: int, seq: int, at: datetime
) -> list[LedgerLine]:
    """A void's own lines: per seat, what the re-folded account says is owed so far less what
    was collected so far (negative: give back; positive: collect), in the account's running
    period after the void."""
    diff = owed.by_seat()
    for x in collected:
        if x.seat is not None:
            diff[x.seat] = diff.get(x.seat, 0) - x.amount
    return [
        LedgerLine.time_line(table_id=table_id, seat=seat, amount=amount, period=owed.period,
                             seq=seq, at=at)
        for seat, amount in sorted(diff.items()) if amount != 0
    ]


def fold_time(
    table_id: int, table: str, versions: Sequence[SettingsVersion], rows: Sequence[StoredEvent],
    current: SettingsVersion | None, *, marks: bool = False,
) -> TimeFold:
    """Fold ``rows`` (the table's table-level events in seq order); the account of ``current``
    (the latest version) is what :attr:`TimeFold.state` holds.

    A ``void`` row names an earlier mark by its table-level number (its position in ``rows``,
    1-based). The settings version's account is then folded again without the voided marks,
    and the void's lines (tagged with its seq) settle the difference per seat between what
    that account says is owed and what was collected. ``marks`` also lists every row as a
    :class:`TimeMark` (for the screen)."""
    lines: list[LedgerLine] = []
    seg: _Segment | None = None
    state: TimeState | None = None
    policy: FeePolicy | None = None
    #: Every row read so far by number: its event and the running period after it.
    seen: dict[int, tuple[Event, int]] = {}
    listed: list[TimeMark] = []

    def stop(row: StoredEvent, message: str, reason: str = "") -> TimeFold:
        return TimeFold(current, None, None, tuple(lines), len(rows),
                        TimeProblem(row.seq, message, reason or message), tuple(listed))

    for number, row in enumerate(rows, start=1):
        v = version_at(versions, row)
        if v is None:
            return stop(row, "the table had no settings when this seat or period event was "
                        "recorded")
        if seg is None or v.id != seg.settings.id:
            policy = time_policy_of(v)
            if policy is None:
                return stop(row, f"settings version {v.version} has no time collection, yet a "
                            f"{row.body.get('type')} event was recorded under it")
            seg = _Segment(v, policy, number, len(lines), {}, set())
            state = start_state(v, policy, table)
        assert state is not None
        kind = row.body.get("type")
        try:
            event = event_from_json(row.body)
        except (DealerAssistError, BadInput, ValueError) as exc:
            return stop(row, f"the {kind} event does not fold: {exc}")
        if isinstance(event, Void):
            fresh = start_state(seg.settings, seg.policy, table)
            owed, refused = _void_problem(seg, number, event, seen, fresh, row.time,
                                          state.last_at)
            if refused is not None:
                return stop(row, f"the void of mark {event.target} does not stand: {refused}",
                            refused)
            seg.voided.add(event.target)
            made = void_lines(owed, lines[seg.first_line:], table_id=table_id, seq=row.seq,
                              at=row.time)
            lines.extend(made)
            state = replace(owed, last_at=row.time)
            if marks:
                listed = [replace(m, voided_by=number) if m.number == event.target else m
                          for m in listed]
        else:
            try:
                after = time_apply(state, row.time, event)
            except (DealerAssistError, BadInput, ValueError) as exc:
                return stop(row, f"the {kind} event does not fold: {exc}", str(exc))
            lines.extend(new_lines(state, after, table_id=table_id, seq=row.seq))
            seg.marks[number] = (row.time, event)
            state = after
        seen[number] = (event, state.period)
        if marks:
            listed.append(TimeMark(number, row.seq, row.time, row.actor,
                                   mark_text(event, state.period),
                                   is_void=isinstance(event, Void), version=v.version))
    if current is not None and (seg is None or seg.settings.id != current.id):
        policy = time_policy_of(current)
        state = start_state(current, policy, table) if policy is not None else None
    return TimeFold(current, policy, state, tuple(lines), len(rows), marks=tuple(listed))


def compare_time_lines(
    derived: Sequence[LedgerLine], stored: Sequence[LedgerLine]
) -> TimeProblem | None:
    """The first event whose recorded time collections differ from the fold's."""
    want: dict[int, list[tuple[int, int, int, int]]] = {}
    have: dict[int, list[tuple[int, int, int, int]]] = {}
    for x in derived:
        want.setdefault(x.seq or 0, []).append(x.time_key())
    for x in stored:
        have.setdefault(x.seq or 0, []).append(x.time_key())
    for seq in sorted(set(want) | set(have)):
        a, b = sorted(want.get(seq, [])), sorted(have.get(seq, []))
        if a != b:
            return TimeProblem(seq, "the time collections recorded for this event do not match "
                               f"the seat and period events: {_show(a, 'events give')}; "
                               f"{_show(b, 'ledger has')}")
    return None


def _show(keys: list[tuple[int, int, int, int]], what: str) -> str:
    if not keys:
        return f"{what} nothing"
    parts = [f"seat {seat} period {period} {amount}" for _, seat, period, amount in keys]
    return f"{what} " + ", ".join(parts)

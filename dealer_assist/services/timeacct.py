"""A table's time account from its stored table-level events (seat_in, seat_out, period).

The fee engine's fold (:mod:`dealer_assist.fees.time`) runs over the events with the times the
store recorded. Each settings version starts a new account: an event belongs to the latest
version created at or before its time, and a table whose settings change starts again with
nobody seated (the dealer seats the players again). The services record what this derives, and
verify derives it again from the chain and compares, line by line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from dealer_assist.errors import BadInput, DealerAssistError
from dealer_assist.events import Event, Period, SeatIn, SeatOut, event_from_json
from dealer_assist.fees import FeePolicy, TimeState, time_apply, time_start
from dealer_assist.services.model import LedgerLine, StoredEvent, TableSettings
from dealer_assist.settings import parse_table_settings

#: The table-level event types (they have no hand).
TIME_EVENTS = ("seat_in", "seat_out", "period")


def is_time_event(event: Event) -> bool:
    return isinstance(event, SeatIn | SeatOut | Period)


def time_policy_of(settings: TableSettings) -> FeePolicy | None:
    """The settings version's fee policy if it is a time collection, else None."""
    try:
        parsed = parse_table_settings(settings.document, source=f"settings {settings.version}")
        policy = parsed.fee_policy
    except DealerAssistError:
        return None
    return policy if policy is not None and policy.kind == "time" else None


def smallest_chip_of(settings: TableSettings) -> int:
    chip = settings.document.get("smallest_chip", 1)
    return chip if isinstance(chip, int) and not isinstance(chip, bool) and chip > 0 else 1


def version_at(versions: Sequence[TableSettings], row: StoredEvent) -> TableSettings | None:
    """The settings version in force when ``row`` was recorded."""
    found: TableSettings | None = None
    for v in sorted(versions, key=lambda v: v.version):
        if v.created_at <= row.time:
            found = v
    return found


@dataclass(frozen=True, slots=True)
class TimeProblem:
    """The first table-level event the fold refuses: its seq and why."""

    seq: int
    message: str


@dataclass(frozen=True, slots=True)
class TimeFold:
    """The fold of the running account (the current settings version's events), and every
    line derived from all of the table's table-level events, each tagged with its event."""

    settings: TableSettings | None
    policy: FeePolicy | None
    state: TimeState | None
    lines: tuple[LedgerLine, ...]
    events: int
    problem: TimeProblem | None = None


def start_state(settings: TableSettings, policy: FeePolicy, table: str) -> TimeState:
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


def fold_time(
    table_id: int, table: str, versions: Sequence[TableSettings], rows: Sequence[StoredEvent],
    current: TableSettings | None,
) -> TimeFold:
    """Fold ``rows`` (the table's table-level events in seq order); the account of ``current``
    (the latest version) is what :attr:`TimeFold.state` holds."""
    lines: list[LedgerLine] = []
    seg: TableSettings | None = None
    state: TimeState | None = None
    policy: FeePolicy | None = None
    for row in rows:
        v = version_at(versions, row)
        if v is None:
            return TimeFold(current, None, None, tuple(lines), len(rows), TimeProblem(
                row.seq, "the table had no settings when this seat or period event was recorded"))
        if seg is None or v.id != seg.id:
            seg, policy = v, time_policy_of(v)
            if policy is None:
                return TimeFold(current, None, None, tuple(lines), len(rows), TimeProblem(
                    row.seq, f"settings version {v.version} has no time collection, yet a "
                    f"{row.body.get('type')} event was recorded under it"))
            state = start_state(v, policy, table)
        assert state is not None
        try:
            event = event_from_json(row.body)
            after = time_apply(state, row.time, event)
        except (DealerAssistError, BadInput, ValueError) as exc:
            return TimeFold(current, None, None, tuple(lines), len(rows), TimeProblem(
                row.seq, f"the {row.body.get('type')} event does not fold: {exc}"))
        lines.extend(new_lines(state, after, table_id=table_id, seq=row.seq))
        state = after
    if current is not None and (seg is None or seg.id != current.id):
        policy = time_policy_of(current)
        state = start_state(current, policy, table) if policy is not None else None
    return TimeFold(current, policy, state, tuple(lines), len(rows))


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

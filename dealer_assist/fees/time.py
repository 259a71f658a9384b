"""Time collection: a fold over the table's seat_in / seat_out / period events.

The core never reads the wall clock: every event comes with the time the store recorded for it.
Two billings (the ruling is in docs/fees.md):

- ``whole`` (the default, as a cardroom collects): at each ``period`` mark the dealer collects one
  whole period, in advance, from every occupied seat. A player who sits in while more than half of
  the running period is left pays that period at once; with half or less left, the rest of the
  period is free and the player pays at the next mark. Leaving refunds nothing, and a player who
  comes back in a period already paid does not pay it again.
- ``prorated``: each seat pays, in arrears, for the whole minutes it was seated: at each mark for
  the minutes since the previous mark (or since it sat in), and when it leaves. Each amount is
  rounded down to the table's smallest chip.

A mark entered by mistake is corrected by a table-level void, never edited: the account is
folded again without it and the void gives back or collects the difference, seat by seat
(:func:`dealer_assist.services.timeacct.fold_time`; the ruling is in docs/fees.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from types import MappingProxyType

from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Period, SeatIn, SeatOut
from dealer_assist.fees.collect import down_to_chip
from dealer_assist.fees.ledger import LedgerLine
from dealer_assist.fees.policy import FeePolicy, fund_of
from dealer_assist.money import format_cents


@dataclass(frozen=True, slots=True)
class TimeState:
    """The table's time account after some events: who sits where since when, and the lines.

    ``period`` is the number of the running period (0 before the first mark); ``since`` maps each
    occupied seat to the time its unbilled time started; ``paid`` holds the seats that have paid
    the running period (whole billing).
    """

    policy: FeePolicy
    chip: int = 1
    table: str | None = None
    period: int = 0
    period_start: datetime | None = None
    last_at: datetime | None = None
    since: Mapping[int, datetime] = field(default_factory=lambda: MappingProxyType({}))
    paid: frozenset[int] = frozenset()
    lines: tuple[LedgerLine, ...] = ()

    @property
    def seated(self) -> tuple[int, ...]:
        return tuple(sorted(self.since))

    @property
    def period_length(self) -> timedelta:
        return timedelta(minutes=self.policy.period_minutes)

    def total(self) -> int:
        return sum(line.amount for line in self.lines)

    def by_seat(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for line in self.lines:
            if line.from_seat is not None:
                out[line.from_seat] = out.get(line.from_seat, 0) + line.amount
        return dict(sorted(out.items()))

    def accrued(self, now: datetime) -> dict[int, int]:
        """Prorated billing: what each seat would owe if it left at ``now`` (for the screen)."""
        return {seat: self._prorate(seat, now) for seat in self.seated}

    def _prorate(self, seat: int, at: datetime) -> int:
        minutes = max(0, int((at - self.since[seat]).total_seconds()) // 60)
        return down_to_chip(self.policy.amount * minutes // self.policy.period_minutes, self.chip)


def time_start(
    policy: FeePolicy, *, smallest_chip: int = 1, table: str | None = None
) -> TimeState:
    """An empty time account for a table whose fee is a time collection."""
    if policy.kind != "time":
        raise RuleViolation(
            f"this table's fee is {policy.describe()}, not a time collection: "
            "seat and period events collect nothing"
        )
    chip = policy.chip if policy.chip is not None else smallest_chip
    if chip <= 0:
        raise RuleViolation(f"the smallest chip must be at least 1 cent, not {chip}")
    return TimeState(policy=policy, chip=chip, table=table)


def time_check(state: TimeState, at: datetime, event: Event) -> None:
    """Raise :class:`RuleViolation` with a dealer-facing reason if ``event`` makes no sense now."""
    if state.last_at is not None and at < state.last_at:
        raise RuleViolation(
            f"{event.TYPE} at {at:%H:%M:%S} is earlier than the previous event "
            f"({state.last_at:%H:%M:%S}): events must be in time order"
        )
    if isinstance(event, SeatIn):
        if event.seat in state.since:
            raise RuleViolation(f"seat {event.seat} is already seated")
    elif isinstance(event, SeatOut):
        if event.seat not in state.since:
            raise RuleViolation(f"seat {event.seat} is not seated")
    elif not isinstance(event, Period):
        raise RuleViolation(
            f'"{event.TYPE}" is not a time event: time collection follows seat_in, '
            "seat_out and period"
        )


def _line(state: TimeState, seat: int, amount: int, period: int, at: datetime,
          note: str) -> LedgerLine:
    return LedgerLine(
        kind="time",
        amount=amount,
        from_seat=seat,
        fund=fund_of("time"),
        period=period,
        at=at,
        table=state.table,
        note=note,
    )


def time_apply(state: TimeState, at: datetime, event: Event) -> TimeState:
    """The account after ``event`` at time ``at`` (checked first)."""
    time_check(state, at, event)
    if state.policy.billing == "whole":
        return replace(_apply_whole(state, at, event), last_at=at)
    return replace(_apply_prorated(state, at, event), last_at=at)


def _apply_whole(state: TimeState, at: datetime, event: Event) -> TimeState:
    fee = state.policy.amount
    since = dict(state.since)
    if isinstance(event, Period):
        n = state.period + 1
        new = tuple(
            _line(state, seat, fee, n, at, f"time, period {n}: {format_cents(fee)}")
            for seat in sorted(since)
            if fee > 0
        )
        return replace(
            state, period=n, period_start=at, paid=frozenset(since), lines=state.lines + new
        )
    if isinstance(event, SeatIn):
        since[event.seat] = at
        paid, lines = state.paid, state.lines
        if (
            state.period_start is not None
            and event.seat not in paid
            and (at - state.period_start) * 2 < state.period_length
        ):
            paid = paid | {event.seat}
            if fee > 0:
                note = f"time, period {state.period}: sat in with more than half the period left"
                lines = (*lines, _line(state, event.seat, fee, state.period, at, note))
        return replace(state, since=MappingProxyType(since), paid=paid, lines=lines)
    assert isinstance(event, SeatOut)
    del since[event.seat]
    return replace(state, since=MappingProxyType(since))


def _apply_prorated(state: TimeState, at: datetime, event: Event) -> TimeState:
    since = dict(state.since)
    if isinstance(event, Period):
        new = []
        for seat in sorted(since):
            amount = state._prorate(seat, at)
            if amount > 0:
                minutes = int((at - since[seat]).total_seconds()) // 60
                note = f"time, period {state.period}: {minutes} minutes"
                new.append(_line(state, seat, amount, state.period, at, note))
            since[seat] = at
        return replace(
            state,
            period=state.period + 1,
            period_start=at,
            since=MappingProxyType(since),
            lines=state.lines + tuple(new),
        )
    if isinstance(event, SeatIn):
        since[event.seat] = at
        return replace(state, since=MappingProxyType(since))
    assert isinstance(event, SeatOut)
    amount = state._prorate(event.seat, at)
    lines = state.lines
    if amount > 0:
        minutes = int((at - since[event.seat]).total_seconds()) // 60
        note = f"time, period {state.period}: {minutes} minutes, left the seat"
        lines = (*lines, _line(state, event.seat, amount, state.period, at, note))
    del since[event.seat]
    return replace(state, since=MappingProxyType(since), lines=lines)


def time_fees(
    policy: FeePolicy,
    timed: Iterable[tuple[datetime, Event]],
    *,
    smallest_chip: int = 1,
    table: str | None = None,
) -> TimeState:
    """Fold a table's time events (each with the time the store recorded) into its account."""
    state = time_start(policy, smallest_chip=smallest_chip, table=table)
    for at, event in timed:
        state = time_apply(state, at, event)
    return state


def timed_events(lines: Iterable[str]) -> list[tuple[datetime, Event]]:
    """Read a table's time events from JSON Lines whose ``"at"`` is the recorded ISO time."""
    from dealer_assist.bounded import json_lines
    from dealer_assist.errors import BadInput, HandLogError
    from dealer_assist.events import event_from_json

    out: list[tuple[datetime, Event]] = []
    for n, obj in json_lines(lines):
        at_text = obj.get("at")
        try:
            at = datetime.fromisoformat(at_text) if isinstance(at_text, str) else None
        except ValueError:
            at = None
        if at is None:
            raise HandLogError(n, 'a time event needs "at": the recorded ISO time, e.g. '
                                  '"2026-01-31T20:00:00"')
        try:
            out.append((at, event_from_json(obj)))
        except BadInput as exc:
            raise HandLogError(n, str(exc)) from exc
    return out

"""A table's fee schedules in force in a window, and its time collections folded again from the
seat and period events and compared with the time ledger.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from dealer_assist.errors import DealerAssistError
from dealer_assist.money import format_cents
from dealer_assist.reports.build.common import when_text
from dealer_assist.reports.data.lines import VoidLine
from dealer_assist.reports.data.records import (
    ExceptionLine,
    FeeSchedule,
    TimeCollection,
    table_label,
)
from dealer_assist.reports.source import person
from dealer_assist.services.chain import utc
from dealer_assist.services.model import LedgerLine, StoredEvent, Table
from dealer_assist.services.reads import Reads
from dealer_assist.services.timeacct import TimeMark, compare_time_lines, fold_time


def fee_schedules(store: Reads, table: Table, since: datetime, until: datetime | None,
                  names: dict[str, str]) -> tuple[FeeSchedule, ...]:
    """The table's fee schedule in force at ``since`` and every change before ``until``."""
    from dealer_assist.fees import parse_fee_policy

    versions = store.settings_versions(table.id)
    out: list[FeeSchedule] = []
    for i, v in enumerate(versions):
        starts = utc(v.created_at)
        ends = utc(versions[i + 1].created_at) if i + 1 < len(versions) else None
        if (ends is not None and ends <= utc(since)) or (until is not None
                                                          and starts >= utc(until)):
            continue
        doc = v.document
        try:
            policy = parse_fee_policy(doc.get("fee"))
            fee = policy.describe() if policy is not None else "no house fee"
        except DealerAssistError as e:
            fee = f"unreadable fee settings: {e}"
        out.append(FeeSchedule(table.name, v.version, starts, person(names, v.created_by), fee,
                               str(doc.get("preset") or "")))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class TimeFigures:
    """A table's time collections in a window: by folding its seat and period events again,
    and as the ledger recorded them (a difference is an exception line)."""

    derived: tuple[TimeCollection, ...]
    ledger_total: int
    ledger_count: int
    exception: ExceptionLine | None = None
    #: The seat and period marks voided in the window, and an exception line for each.
    voids: tuple[VoidLine, ...] = ()
    void_exceptions: tuple[ExceptionLine, ...] = ()


def time_figures(store: Reads, table: Table, since: datetime, until: datetime | None,
                 names: dict[str, str] | None = None) -> TimeFigures:
    """Fold the table's seat and period events; keep the collections made in the window."""
    rows = store.table_level_events(table.id)
    stored = store.time_ledger(table.id, since=since, until=until)
    if not rows and not stored:
        return TimeFigures((), 0, 0)
    fold = fold_time(table.id, table.name, store.settings_versions(table.id), rows, None,
                     marks=True)

    def inside(at: datetime | None) -> bool:
        return at is not None and utc(since) <= utc(at) and (until is None or utc(at) < utc(until))

    derived = [x for x in fold.lines if inside(x.at)]
    exception = None
    problem = fold.problem or compare_time_lines(derived, stored)
    if problem is not None:
        exception = ExceptionLine(None, f"time collection, event {problem.seq}: "
                                  f"{problem.message}", "ledger")
    voids, void_exc = _time_voids(store, table, fold.marks, rows, derived, inside, names or {})
    return TimeFigures(
        tuple(TimeCollection(utc(x.at), x.seat or 0, x.amount, x.period or 0)
              for x in derived if x.at is not None),
        sum(x.amount for x in stored), len(stored), exception, voids, void_exc,
    )


def _time_voids(
    store: Reads, table: Table, marks: Sequence[TimeMark], rows: Sequence[StoredEvent],
    derived: Sequence[LedgerLine], inside: Callable[[datetime | None], bool],
    names: dict[str, str],
) -> tuple[tuple[VoidLine, ...], tuple[ExceptionLine, ...]]:
    """The voided seat and period marks of the window: a void line each (what, why, who, the
    floor's approval) and an exception line naming the money the void moved."""
    what = {m.number: m.what for m in marks}
    approved: dict[int, str] = {}
    pat = re.compile(r"^table mark (\d+) .*; approved by (\S+)$")
    for e in store.audit_log(action="void"):
        if e.table_id == table.id and e.hand_id is None:
            m = pat.match(e.detail)
            if m:
                approved[int(m.group(1))] = m.group(2)
    voids: list[VoidLine] = []
    exc: list[ExceptionLine] = []
    for row in rows:
        if row.body.get("type") != "void" or not inside(row.time):
            continue
        target, reason = row.body.get("target"), row.body.get("reason")
        if not isinstance(target, int) or not isinstance(reason, str):
            continue  # unreadable: the fold names it
        floor = approved.get(target, "")
        voids.append(VoidLine(None, utc(row.time), person(names, row.actor), target, reason,
                              person(names, floor) if floor else "", f"mark {target}"))
        moved = [x for x in derived if x.seq == row.seq]
        money = "; ".join(
            f"seat {x.seat} {'given back' if x.amount < 0 else 'collected'} "
            f"{format_cents(abs(x.amount))}" for x in moved) or "no money moved"
        exc.append(ExceptionLine(
            None, f"{table_label(table.name)} time mark {target} "
            f"({what.get(target, 'a mark')}) voided at {when_text(row.time)} by "
            f"{person(names, row.actor)}: {reason}; {money}"
            + (f"; approved by {person(names, floor)}" if floor else ""), "void"))
    return tuple(voids), tuple(exc)


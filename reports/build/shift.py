"""The shift report's data: a table's shift, start to close, every hand re-derived and checked."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from dealer_assist.money import format_cents
from dealer_assist.reports.build.common import (
    TEXT_ZONE,
    clock_at,
    dispute_line,
    game_title,
    gaming_day_at,
    named_in_full,
    own_zone,
    reveal_line,
    void_approvals,
)
from dealer_assist.reports.build.counts import (
    count_entries,
    count_exceptions,
    count_tolerance,
    drop_count,
)
from dealer_assist.reports.build.figures import replay_vs_ledger
from dealer_assist.reports.build.replays import all_figures
from dealer_assist.reports.build.schedules import fee_schedules, time_figures
from dealer_assist.reports.data.lines import HandLine, StackChange, VoidLine, fees_by_kind
from dealer_assist.reports.data.records import (
    ChainCheck,
    ExceptionLine,
    FeeTotal,
    Generated,
    Signature,
)
from dealer_assist.reports.data.shift import ShiftReport
from dealer_assist.reports.funds import drop_funds
from dealer_assist.reports.source import find_shift, full_names, person, shift_hands
from dealer_assist.services.chain import utc
from dealer_assist.services.errors import NotFound
from dealer_assist.services.model import Shift
from dealer_assist.services.reads import Reads


@own_zone
def build_shift(
    store: Reads, *, shift_id: int | None = None, table: str | None = None, by: str,
    at: datetime, cage: str = "",
) -> ShiftReport:
    """The shift report of ``shift_id`` (default: the latest shift of ``table``, or of any)."""

    shift = find_shift(store, shift_id, table)
    tbl = store.get_table(shift.table_id)
    if tbl is None:
        raise NotFound(f"shift {shift.id} names a table that does not exist")
    room = clock_at(store, utc(shift.opened_at))
    TEXT_ZONE.set(room.tz)
    names = full_names(store)
    hands = shift_hands(store, shift)
    ids = [h.id for h in hands]
    approvals = void_approvals(store, set(ids))
    scan, figures = all_figures(store, tbl, hands, names, approvals)
    lines: list[HandLine] = []
    exc: list[ExceptionLine] = []
    voids: list[VoidLine] = []
    ledger_fee_lines: list[FeeTotal] = []
    revealed = {e.hand_id for e in store.audit_log(action="reveal")}
    for f in figures:
        lines.append(replace(f.line, revealed=True) if f.line.hand_id in revealed else f.line)
        exc.extend(f.exceptions)
        voids.extend(f.voids)
        ledger_fee_lines.extend(f.ledger_fees)
    exc[:0] = _shift_exceptions(shift, scan.head)
    tf = time_figures(store, tbl, shift.opened_at, shift.closed_at, names)
    if tf.exception is not None:
        exc.append(tf.exception)
    exc.extend(tf.void_exceptions)
    voids.extend(tf.voids)
    if tf.ledger_count:
        ledger_fee_lines.append(FeeTotal("time", tf.ledger_total, tf.ledger_count))
    number = {h.id: h.number for h in hands}
    disputes = tuple(dispute_line(d, number[d.hand_id], names) for d in store.disputes()
                     if d.hand_id in number)
    for d in disputes:
        if d.adjustments:
            moved = sum(a for _, a, _ in d.adjustments if a > 0)
            exc.append(ExceptionLine(d.hand_number, f"dispute {d.dispute_id} ruling moved "
                                     f"{format_cents(moved)} outside the hand's settlement",
                                     "adjustment"))
    reveals = tuple(
        reveal_line(number[e.hand_id], e, names)
        for e in store.audit_log(action="reveal") if e.hand_id in number
    )
    stack_changes = _stack_changes(store, number, names)
    exc.extend(ExceptionLine(c.hand_number, f"started with {c.changes}, approved by "
                             f"{c.approved_by}", "carry")
               for c in stack_changes if c.approved_by)
    dealers = list(dict.fromkeys([shift.dealer, *(h.started_by for h in hands),
                                  *([shift.closed_by] if shift.closed_by else [])]))
    floors = list(dict.fromkeys([shift.floor, *([shift.closed_floor] if shift.closed_floor
                                                 else [])]))
    drop = drop_count(store, names, shift.id, tbl.name, fees_by_kind(
        [*(f for line in lines for f in line.fees),
         *(FeeTotal("time", c.amount, 1) for c in tf.derived)]),
        count_entries(store, names).get(shift.id, ()))
    exc.extend(count_exceptions(drop, shift=shift, tolerance=count_tolerance(store)))
    funds, fund_exc = drop_funds(store, shift.opened_at, shift.closed_at or at)
    exc.extend(fund_exc)
    exc.extend(replay_vs_ledger(funds, shift.table_id, tbl.name, lines))
    return ShiftReport(
        cardroom=store.cardroom_name(), table=tbl.name, game=game_title(h.game for h in hands),
        shift_id=shift.id, opened_at=utc(shift.opened_at),
        closed_at=utc(shift.closed_at) if shift.closed_at else None,
        dealers=tuple(person(names, d) for d in dealers),
        floor=tuple(person(names, f) for f in floors),
        hands=tuple(lines), chain=scan.head, generated=Generated(utc(at), by, zone=room.zone),
        signatures=(
            Signature("Dealer", named_in_full(names, shift.closed_by or shift.dealer)),
            Signature("Floor", named_in_full(names, shift.closed_floor or shift.floor)),
            Signature("Cage", cage),
        ),
        voids=tuple(voids), disputes=disputes, reveals=reveals, exceptions=tuple(exc),
        ledger_fees=fees_by_kind(ledger_fee_lines), time=tf.derived,
        stack_changes=stack_changes,
        schedules=fee_schedules(store, tbl, shift.opened_at, shift.closed_at, names),
        gaming_day=gaming_day_at(store, utc(shift.opened_at)),
        room_shift=room.shift_of(utc(shift.opened_at)),
        count=drop, drop_funds=funds,
    )


def _stack_changes(
    store: Reads, number: dict[int, int], names: dict[str, str],
) -> tuple[StackChange, ...]:
    """The ``stacks`` entries of the shift's hands (``number``: hand id to number): what each
    hand started with other than the last hand left it, and the floor person who approved a
    change that needs one ("...; approved by fran")."""
    out: list[StackChange] = []
    for e in store.audit_log(action="stacks"):
        if e.hand_id not in number:
            continue
        text = e.detail.split(": ", 1)[1] if ": " in e.detail else e.detail
        changes, sep, who = text.rpartition("; approved by ")
        if not sep:
            changes, who = text, ""
        out.append(StackChange(number[e.hand_id], utc(e.at), person(names, e.actor or ""),
                               changes, person(names, who) if who else ""))
    return tuple(out)


def _shift_exceptions(shift: Shift, head: ChainCheck) -> list[ExceptionLine]:
    out = []
    if not head.verified:
        out.append(ExceptionLine(None, f"the event chain failed verification: {head.message}",
                                 "integrity"))
    if shift.closed_at is None:
        out.append(ExceptionLine(None, "the shift is still open: figures are as of the report "
                                 "time", "open shift"))
    return out


"""The day summary's data: every table's hands in a gaming day by the room's clock, with the
room's totals, drop counts and imported hands; and reading a day typed by a person.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, datetime

from dealer_assist.errors import BadInput
from dealer_assist.money import format_cents
from dealer_assist.reports.build.common import (
    TEXT_ZONE,
    game_title,
    named_in_full,
    own_zone,
    void_approvals,
    when_text,
)
from dealer_assist.reports.build.counts import (
    count_entries,
    count_exceptions,
    count_tolerance,
    drop_count,
)
from dealer_assist.reports.build.replays import all_figures
from dealer_assist.reports.build.schedules import fee_schedules, time_figures
from dealer_assist.reports.data.counts import DropCount
from dealer_assist.reports.data.day import DayReport, ImportedHand, TableDay
from dealer_assist.reports.data.lines import (
    AdjustmentLine,
    FundBalance,
    HandLine,
    fees_by_kind,
    fund_balance,
)
from dealer_assist.reports.data.records import (
    ChainCheck,
    ExceptionLine,
    FeeSchedule,
    FeeTotal,
    Generated,
    Signature,
    table_label,
)
from dealer_assist.reports.source import full_names, person
from dealer_assist.services.chain import utc
from dealer_assist.services.errors import NotFound
from dealer_assist.services.model import Hand, HandFilter, Table
from dealer_assist.services.reads import Reads


def latest_day(store: Reads) -> date:
    """The gaming day of the most recent hand, by the room's clock."""
    from dealer_assist.services.counts import gaming_day_of

    last = store.list_hands(HandFilter(limit=1))
    if not last:
        raise NotFound("no hand has been dealt yet: nothing to report")
    return gaming_day_of(store, utc(last[0].started_at))


@own_zone
def build_day(
    store: Reads, *, day: date | None = None, by: str, at: datetime, cage: str = "",
) -> DayReport:
    """Every table's hands started in the gaming day ``day`` (from the room's day-start hour,
    local time, to the next; UTC midnight when no room clock is set), with the room's totals."""

    from dealer_assist.services.counts import day_bounds_of

    day = day or latest_day(store)
    since, until, room = day_bounds_of(store, day)
    TEXT_ZONE.set(room.tz)
    names = full_names(store)
    hands = sorted(store.list_hands(HandFilter(since=since, until=until, limit=None)),
                   key=lambda h: (h.table_id, h.number))
    imported = [h for h in hands if h.imported]  # their own section, outside every total
    hands = [h for h in hands if not h.imported]
    by_table: dict[int, list[Hand]] = {}
    for h in hands:
        by_table.setdefault(h.table_id, []).append(h)
    for x in store.time_ledger(since=since, until=until):  # tables that only collected time
        if x.table_id is not None:
            by_table.setdefault(x.table_id, [])
    by_table = dict(sorted(by_table.items()))
    tables = {t.id: t for t in store.list_tables()}
    all_disputes = store.disputes()
    reveals = store.audit_log(action="reveal")
    approvals = void_approvals(store, {h.id for h in hands})
    rows: list[TableDay] = []
    chains: list[ChainCheck] = []
    exc: list[ExceptionLine] = []
    fee_lines: list[FeeTotal] = []
    shift_lines: list[tuple[str, int, datetime, datetime | None, str, int, int]] = []
    schedules: list[FeeSchedule] = []
    drops: list[DropCount] = []
    by_room_shift: dict[str, list[int]] = {}
    entries = count_entries(store, names)
    floors: list[str] = []
    funds: list[FundBalance] = []
    adjustments: list[AdjustmentLine] = []
    for table_id, th in by_table.items():
        t = tables[table_id]
        ids = [h.id for h in th]
        scan, figs = all_figures(store, t, th, names, approvals)
        chains.append(scan.head)
        if not scan.head.verified:
            exc.append(ExceptionLine(None, f"{table_label(t.name)}: the event chain failed "
                                     f"verification: {scan.head.message}", "integrity"))
        for f in figs:
            exc.extend(ExceptionLine(x.hand_number, f"{table_label(t.name)}: {x.text}", x.severity)
                       for x in f.exceptions)
            fee_lines.extend(f.line.fees)
        lines = [f.line for f in figs]
        idset = set(ids)
        number = {h.id: h.number for h in th}
        for d in all_disputes:
            if d.hand_id in idset and d.adjustments:
                moved = sum(a.amount for a in d.adjustments if a.amount > 0)
                exc.append(ExceptionLine(
                    number[d.hand_id], f"{table_label(t.name)}: dispute {d.id} ruling moved "
                    f"{format_cents(moved)} outside the hand's settlement", "adjustment"))
        tf = time_figures(store, t, since, until, names)
        if tf.exception is not None:
            exc.append(replace(tf.exception, text=f"{table_label(t.name)}: {tf.exception.text}"))
        exc.extend(tf.void_exceptions)
        fee_lines.extend(FeeTotal("time", c.amount, 1) for c in tf.derived)
        per_shift: dict[int, list[HandLine]] = {}
        for h, line in zip(th, lines, strict=True):
            per_shift.setdefault(h.shift_id, []).append(line)
        shifts = {s.id: s for s in store.list_shifts(t.id)
                  if utc(s.opened_at) < until and (s.closed_at is None
                                                   or utc(s.closed_at) > since)}
        for sid in sorted(set(per_shift) | set(shifts)):
            sh = shifts.get(sid) or store.get_shift(sid)
            if sh is None:
                continue
            sl = per_shift.get(sid, [])
            opened, closed = utc(sh.opened_at), utc(sh.closed_at) if sh.closed_at else None
            in_shift = [c for c in tf.derived
                        if opened <= c.at and (closed is None or c.at < closed)]
            timed = sum(c.amount for c in in_shift)
            if closed is None and utc(at) >= until and opened < until:
                exc.append(ExceptionLine(None, f"{table_label(t.name)}: shift {sid} is still "
                                         f"open after its gaming day ended at "
                                         f"{when_text(until)}", "open shift"))
            if not sl and not timed and sid not in entries:
                continue
            floors.append(sh.closed_floor or sh.floor)
            shift_lines.append((t.name, sid, opened, closed, person(names, sh.dealer), len(sl),
                                sum(x.fee for x in sl) + timed))
            drops.append(drop_count(store, names, sid, t.name, fees_by_kind(
                [*(f for x in sl for f in x.fees),
                 *(FeeTotal("time", c.amount, 1) for c in in_shift)]),
                entries.get(sid, ())))
            exc.extend(count_exceptions(drops[-1], f"{table_label(t.name)}: ", sh,
                                        count_tolerance(store)))
        schedules.extend(fee_schedules(store, t, since, until, names))
        for line in lines:
            name = room.shift_of(line.ended_at or line.started_at) or "all day"
            got = by_room_shift.setdefault(name, [0, 0, 0])
            got[0] += 1
            got[1] += line.fee
        for c in tf.derived:
            name = room.shift_of(c.at) or "all day"
            by_room_shift.setdefault(name, [0, 0, 0])[2] += c.amount
        day_fund = fund_balance(t.name, None, lines)
        if day_fund is not None:
            funds.append(day_fund)
            for sid2, sl2 in sorted(per_shift.items()):
                shift_fund = fund_balance(t.name, sid2, sl2)
                if shift_fund is not None:
                    funds.append(shift_fund)
        adjustments.extend(
            AdjustmentLine(t.name, number[d.hand_id], d.id, a.seat, a.amount, a.note)
            for d in all_disputes if d.hand_id in idset for a in d.adjustments)
        rows.append(TableDay(
            table=t.name, game=game_title(h.game for h in th), shifts=len(per_shift),
            hands=len(lines), put_in=sum(x.put_in for x in lines),
            carried_in=sum(x.carry_in for x in lines), pushed=sum(x.pushed for x in lines),
            carried_out=sum(x.carry_out for x in lines),
            house_fees=sum(x.house_fee for x in lines),
            jackpot_drop=sum(x.fund_drop for x in lines),
            voids=sum(len(f.voids) for f in figs) + len(tf.voids),
            disputes=sum(1 for d in all_disputes if d.hand_id in idset),
            reveals=sum(1 for e in reveals if e.hand_id in idset
                        and since <= utc(e.at) < until),
            time_fees=sum(c.amount for c in tf.derived),
        ))
    sigs = [Signature("Floor", named_in_full(names, f)) for f in dict.fromkeys(floors)]
    sigs.append(Signature("Cage", cage))
    return DayReport(
        imported=tuple(_imported_line(store, tables, h, names) for h in imported),
        cardroom=store.cardroom_name(), day=day, tables=tuple(rows),
        fees=fees_by_kind(fee_lines), chains=tuple(chains),
        generated=Generated(utc(at), by, zone=room.zone),
        signatures=tuple(sigs), exceptions=tuple(exc), shift_lines=tuple(shift_lines),
        schedules=tuple(schedules), counts=tuple(drops), period=(since, until),
        clock=room.describe(), funds=tuple(funds), adjustments=tuple(adjustments),
        room_shifts=tuple((n, by_room_shift[n][0], by_room_shift[n][1], by_room_shift[n][2])
                          for n in
                          [*(x for x, _ in sorted(room.shifts, key=lambda s: s[1])
                             if x in by_room_shift),
                           *(["all day"] if "all day" in by_room_shift else [])]),
    )


def _imported_line(store: Reads, tables: dict[int, Table], h: Hand,
                   names: dict[str, str]) -> ImportedHand:
    """An imported hand as the day summary lists it: what its log says came in, and its fee."""
    lines = store.ledger(h.id)
    t = tables.get(h.table_id)
    return ImportedHand(
        table=t.name if t is not None else f"#{h.table_id}", number=h.number, game=h.game,
        imported_by=person(names, h.started_by), at=utc(h.started_at), status=h.status,
        money_in=sum(x.amount for x in lines if x.kind in ("put_in", "carry_in")),
        fees=sum(x.amount for x in lines if x.kind == "fee"),
    )


def parse_day(text: str) -> date:
    try:
        day = date.fromisoformat(text)
    except ValueError as exc:
        raise BadInput(f"{text!r} is not a day: write it like 2026-11-21") from exc
    if not 1970 <= day.year <= 9998:
        raise BadInput(f"{text!r} is not a day the room can have records for: write a year "
                       "from 1970 to 9998")
    return day


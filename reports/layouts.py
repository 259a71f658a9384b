"""The four reports laid out as pages: shift, hand history / dispute, audit, day summary.

Each ``render_*`` takes a report-data object and an output (path or binary file) and returns the
page count. Sections a reviewer needs are always present; an empty one says "None" rather than
disappearing, so a missing section is never mistaken for a clean one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph

from dealer_assist.gc_pause import paused_gc
from dealer_assist.reports.data import (
    AdjustmentLine,
    AuditReport,
    ChainCheck,
    CountLine,
    DayReport,
    DisputeLine,
    DropCount,
    ExceptionLine,
    FeeSchedule,
    FundBalance,
    HandReport,
    ShiftReport,
    Signature,
    Snapshot,
    table_label,
)
from dealer_assist.reports.floor_section import floor_kinds_story, floor_story
from dealer_assist.reports.render import (
    LongTable,
    PageInfo,
    Styles,
    begin,
    build_pdf,
    card,
    cards,
    chain_line,
    clock,
    clock_on,
    dash,
    data_table,
    day_text,
    esc,
    fees_chart,
    fields_table,
    fonts,
    hash_groups,
    heading,
    local,
    money,
    paragraph,
    signature_block,
    spacer,
    styles,
    when,
    zone_name,
)

PORTRAIT_W = 180 * mm
LANDSCAPE_W = 267 * mm

Out = str | Path | Any


def _kind(kind: str) -> str:
    return kind.replace("_", " ").replace("-", " ").capitalize()


def _none(st: Styles, text: str = "None.") -> Paragraph:
    return paragraph(text, st.note)


def _chain_section(chains: tuple[ChainCheck, ...], st: Styles, width: float) -> list[Flowable]:
    out = heading("Integrity: event chain", st)
    out.append(paragraph(
        "Every recorded input is chained to the one before it by a hash. The figures in this "
        "report were built from the chain heads below, after re-checking each chain from its "
        "first event.", st.small))
    out.append(spacer(1.5))
    if not chains:
        out.append(_none(st, "No events recorded in this period."))
        return out
    rows = [[c.table, str(c.last_seq), Paragraph(hash_groups(c.head_hash) or dash(), st.mono),
             "intact" if c.verified else "FAILED", c.message or ""] for c in chains]
    flagged = [i for i, c in enumerate(chains) if not c.verified]
    widths = [20 * mm, 16 * mm, 92 * mm, 14 * mm]
    widths.append(width - sum(widths))
    out.append(data_table(["Table", "Last seq.", "Head hash (SHA-256)", "Verify", "Detail"],
                          rows, widths, right=[1], flagged=flagged, st=st))
    return out


def _exceptions(items: tuple[ExceptionLine, ...], st: Styles, width: float) -> list[Flowable]:
    out = heading("Exceptions", st)
    if not items:
        out.append(_none(st, "None: every hand settled, conserved chips and matched the ledger."))
        return out
    rows = [[str(e.hand_number) if e.hand_number is not None else dash(), e.severity, e.text]
            for e in items]
    out.append(data_table(["Hand", "Kind", "What a reviewer should check"], rows,
                          [16 * mm, 22 * mm, width - 38 * mm], st=st))
    return out


def _schedules(items: tuple[FeeSchedule, ...], st: Styles, width: float, *,
               tables: bool) -> list[Flowable]:
    """The fee schedule in force, then each change with its time and who made it."""
    out = heading("Fee schedule in force, and every change", st)
    if not items:
        out.append(_none(st, "No settings recorded."))
        return out
    head = ["Table"] if tables else []
    rows = [[*([table_label(s.table)] if tables else []), str(s.version), when(s.at),
             s.by, s.fee, s.preset or "none"] for s in items]
    widths = [*([22 * mm] if tables else []), 16 * mm, 48 * mm, 40 * mm, 0.0, 30 * mm]
    widths[-2] = width - sum(widths)
    out.append(data_table([*head, "Version", "In force from", "Set by", "Fee schedule (caps)",
                           "Jurisdiction preset"], rows, widths,
                          right=[1 if tables else 0], st=st))
    out.append(paragraph(
        "The first line is the schedule in force at the start; each later line is a change, "
        "from the time it was made, by the person signed in who made it.", st.small))
    return out


def _variance(d: DropCount) -> str:
    v = d.variance
    if v is None:
        return "not counted"
    return "none" if v == 0 else (f"over {money(v)}" if v > 0 else f"SHORT {money(-v)}")


def _ran(c: CountLine) -> str:
    """When a count ran, start to end ("not recorded" for an entry without its times)."""
    if c.started is None or c.ended is None:
        return "not recorded"
    end = when(c.ended, seconds=False)
    if local(c.started).date() == local(c.ended).date():
        end = end.split(" ", 1)[1]
    return f"{when(c.started, seconds=False)} to {end}"


def _count_entries(d: DropCount, st: Styles, width: float) -> list[Flowable]:
    """Every entry of a box's count, the original first, each with the times it ran: a
    correction never hides the count it replaces."""
    rows = []
    for i, c in enumerate(d.entries):
        later = d.entries[i + 1] if i + 1 < len(d.entries) else None
        state = "in force" if later is None else f"replaced by entry {later.number}"
        what = "first count" if c.corrects is None else f"corrects entry {c.corrects}: {c.reason}"
        rows.append([str(c.number), when(c.at), c.by, _ran(c), money(c.counted),
                     f"{what} ({state})"])
    return [data_table(["Entry", "Entered", "By", "Count ran", "Counted", "What"], rows,
                       [13 * mm, 40 * mm, 30 * mm, 40 * mm, 22 * mm, width - 145 * mm],
                       right=[0, 4], flagged=[i for i, c in enumerate(d.entries)
                                              if c.corrects is not None], st=st)]


def _signoffs(d: DropCount, st: Styles, width: float) -> list[Flowable]:
    """Every sign-off of the count, in the order entered: a later one never hides the one
    before it."""
    if not d.signoffs:
        return []
    rows = [[str(so.number), when(so.at, seconds=False), so.by, str(so.entry),
             so.explanation + (f" (after sign-off {so.follows}: {so.reason})"
                               if so.follows is not None else "")] for so in d.signoffs]
    return [paragraph("Variance sign-offs, in the order entered (a later sign-off is a new "
                      "entry with its reason; the one before stays listed):", st.small),
            data_table(["Entry", "Signed off", "By", "Count", "Explanation"], rows,
                       [13 * mm, 36 * mm, 36 * mm, 14 * mm, width - 99 * mm],
                       right=[0, 3], flagged=[i for i, so in enumerate(d.signoffs)
                                              if so.follows is not None], st=st)]


def _drop_count(d: DropCount | None, st: Styles, width: float) -> list[Flowable]:
    """The shift's drop box: expected by fee kind beside what was counted, the variance, the
    denominations, the entries (corrections keep the original), and the count team's lines."""
    out = heading("Drop count", st)
    if d is None:
        out.append(_none(st))
        return out
    c = d.in_force
    b = d.drop
    out.append(fields_table([
        ("Drop box", c.box if c else (b.box if b else "not counted yet")),
        ("Registered", f"{when(b.registered_at)} by {b.registered_by}" if b and b.registered_at
         else ("NOT REGISTERED to this table" if c else dash())),
        ("Dropped", f"{when(b.dropped_at)} by {b.dropped_by}" if b and b.dropped_at
         else "no drop recorded"),
        ("Count", (f"{when(c.started, seconds=False)} to {when(c.ended, seconds=False)}"
                   + (f", {c.boxes} box{'es' if c.boxes != 1 else ''} counted" if c.boxes
                      else "")) if c and c.started and c.ended else
         ("start and end not recorded" if c else dash())),
        ("Entered", f"{when(c.at)} by {c.by}" if c else dash()),
        ("Count team", "\n".join(c.team) if c else dash()),
        ("Independence", (f"a team member approved this shift's voids, misdeals or disputes; "
                          f"count approved by {c.independence}") if c and c.independence
         else ("no team member approved this shift's voids, misdeals or disputes" if c
               else dash())),
        ("Variance sign-off", _signoff(d)),
    ], width, st=st))
    out.append(spacer(1.5))
    rows = [[_kind(f.kind), str(f.count), money(f.amount)] for f in d.expected]
    rows.append(["Expected in the box (records)", "", money(d.expected_total)])
    rows.append(["Counted", "", money(c.counted) if c else dash()])
    flagged = [len(rows)] if d.variance else []
    out.append(data_table(["Fee kind", "Collections", "Amount"], rows,
                          [80 * mm, 30 * mm, 36 * mm], right=[1, 2], flagged=flagged,
                          total=["Variance (counted less expected)", "", _variance(d)], st=st))
    if c is not None and c.denominations:
        out.append(spacer(1.5))
        out.append(data_table(
            ["Denomination", "Pieces", "Amount"],
            [[money(v), str(n), money(v * n)] for v, n in c.denominations], [40 * mm, 24 * mm,
                                                                            36 * mm],
            right=[0, 1, 2], total=["Total", str(sum(n for _, n in c.denominations)),
                                    money(sum(v * n for v, n in c.denominations))], st=st))
    if d.entries:
        out.append(spacer(1.5))
        out.append(KeepTogether([
            paragraph("Count entries, in the order entered (a correction is a new entry; the one "
                      "it replaces stays listed):", st.small),
            *_count_entries(d, st, width)]))
    if d.signoffs:
        out.append(spacer(1.5))
        out.append(KeepTogether(_signoffs(d, st, width)))
    if c is not None:
        out.append(signature_block([Signature("Count team", n) for n in c.team], width, st,
                                   title="Count team signatures", figures=[("Drop box", c.box),
                                            ("Expected", money(d.expected_total)),
                                            ("Counted", money(c.counted)),
                                            ("Variance", _variance(d))]))
    return out


def _funds(items: tuple[FundBalance, ...], st: Styles, width: float, *,
           moves: bool) -> list[Flowable]:
    """Each carried fund's opening balance, what went in and out, and its closing balance;
    with ``moves``, every hand that moved it."""
    out = heading("Funds carried between hands", st)
    if not items:
        out.append(_none(st, "None: no hand carried money to the next."))
        return out
    rows = [[table_label(f.table), str(f.shift_id) if f.shift_id is not None else "whole day",
             money(f.opening), money(f.paid_in), money(f.paid_out), money(f.closing),
             "yes" if f.continuous else "NO"] for f in items]
    out.append(data_table(["Table", "Shift", "Opening balance", "Paid in", "Paid out",
                           "Closing balance", "Continuous"], rows,
                          [26 * mm, 20 * mm, 30 * mm, 26 * mm, 26 * mm, 30 * mm, 22 * mm],
                          right=[2, 3, 4, 5], flagged=[i for i, f in enumerate(items)
                                                       if not f.continuous], st=st))
    out.append(paragraph("Opening balance: carried into the first hand; closing: carried out "
                         "of the last. Continuous: each hand carried in what the one before "
                         "carried out (opening + paid in - paid out = closing).", st.small))
    if moves:
        for f in items:
            out.append(spacer(1.5))
            out.append(LongTable(
                ["Hand", "Ended", "Balance before", "Change", "Balance after"],
                [[str(m.hand_number), when(m.at), money(m.before),
                  ("+" if m.change > 0 else "") + money(m.change), money(m.after)]
                 for m in f.moves], [16 * mm, 50 * mm, 34 * mm, 30 * mm, 34 * mm],
                right=[0, 2, 3, 4]))
    return out


def _drop_funds(items: tuple[Any, ...], st: Styles, width: float) -> list[Flowable]:
    """Each jackpot or promotional fund over the period: opening, drops in by table, payouts
    out, closing, and the check that closing = opening + in - out."""
    from dealer_assist.reports.funds import PAYOUTS_NOT_RECORDED

    out = heading("Jackpot and promotional funds", st)
    if not items:
        out.append(_none(st, "None: no jackpot or promotional drop has been recorded."))
        return out
    rows: list[list[str]] = []
    flagged = []
    for f in items:
        name = f"{f.fund} fund"
        rows.append([name, "Opening balance", when(f.since, seconds=False), money(f.opening)])
        for d in f.drops:
            rows.append([name, f"Drops in: {table_label(d.table)}",
                         f"{d.hands} hand{'s' if d.hands != 1 else ''}", money(d.amount)])
        if not f.drops:
            rows.append([name, "Drops in", "none in the period", money(0)])
        rows.append([name, "Payouts out", "not recorded by the app", money(f.paid_out)])
        if not f.balanced:
            flagged.append(len(rows))
        rows.append([name, "Closing balance", when(f.until, seconds=False), money(f.closing)])
        rows.append([name, "Closing = opening + in - out",
                     f"{money(f.opening)} + {money(f.dropped)} - {money(f.paid_out)}",
                     "yes" if f.balanced else "NO"])
    out.append(data_table(["Fund", "Line", "When / how many", "Amount"], rows,
                          [34 * mm, 62 * mm, 54 * mm, 30 * mm], right=[3], flagged=flagged,
                          st=st))
    out.append(paragraph(
        "A fund is the room's: its balance is every drop recorded into it before that time, "
        "from every table's hands. The opening balance is carried from the period before; "
        f"{PAYOUTS_NOT_RECORDED}. A carry that does not match the report that closed the fund "
        "before, or drops no report showed, are listed under Exceptions.", st.small))
    return out


def _adjustments(items: tuple[AdjustmentLine, ...], st: Styles, width: float,
                 house_fees: int, time: int) -> list[Flowable]:
    """Money dispute rulings moved, per seat and for the house, and the house's net (every
    house fee: hands' fees and rake and time collected, with the house's adjustments)."""
    out = heading("Dispute adjustments", st)
    if not items:
        out.append(_none(st))
        return out
    rows = [[table_label(a.table), str(a.hand_number), str(a.dispute_id),
             "house" if a.seat is None else f"seat {a.seat}", money(a.amount), a.note]
            for a in items]
    house = sum(a.amount for a in items if a.seat is None)
    out.append(data_table(["Table", "Hand", "Dispute", "To", "Amount", "Note"], rows,
                          [26 * mm, 16 * mm, 18 * mm, 20 * mm, 26 * mm, width - 106 * mm],
                          right=[1, 2, 4], st=st))
    out.append(paragraph(f"House fees and rake {money(house_fees)}, time collected from seats "
                         f"{money(time)}, dispute adjustments to the house {money(house)}: "
                         f"house net {money(house_fees + time + house)}.", st.body))
    return out


def _signoff(d: DropCount) -> str:
    """A variance's explanation and its second person's sign-off, in words."""
    if not d.variance:
        return "no variance" if d.in_force else dash()
    so = d.signoff
    if so is None:
        return "NOT SIGNED OFF: the variance has no explanation yet"
    return f"{so.explanation} (signed off by {so.by}, {when(so.at, seconds=False)})"


def _day_counts(items: tuple[DropCount, ...], st: Styles, width: float) -> list[Flowable]:
    out = heading("Drop count", st)
    if not items:
        out.append(_none(st))
        return out
    rows = []
    for d in items:
        c = d.in_force
        rows.append([table_label(d.table), str(d.shift_id), c.box if c else dash(),
                     money(d.expected_total), money(c.counted) if c else dash(), _variance(d),
                     ", ".join(c.team) if c else dash(), str(max(0, len(d.entries) - 1)),
                     _signoff(d)])
    out.append(data_table(["Table", "Shift", "Drop box", "Expected", "Counted", "Variance",
                           "Count team", "Corrections", "Explanation and sign-off"], rows,
                          [20 * mm, 13 * mm, 24 * mm, 22 * mm, 22 * mm, 24 * mm,
                           50 * mm, 22 * mm, width - 197 * mm], right=[1, 3, 4, 7],
                          flagged=[i for i, d in enumerate(items)
                                   if d.variance or d.in_force is None], st=st))
    out.append(paragraph("Expected: the fees, drops and time collections the records give for "
                         "the shift's part of the day. Every count entry and correction is in "
                         "the shift report and the audit log.", st.small))
    for d in items:
        if len(d.entries) > 1:
            out.append(spacer(1))
            out.append(paragraph(f"{table_label(d.table)}, shift {d.shift_id}:", st.body))
            out += _count_entries(d, st, width)
    for d in items:
        if len(d.signoffs) > 1:
            out.append(spacer(1))
            out.append(paragraph(f"{table_label(d.table)}, shift {d.shift_id}:", st.body))
            out += _signoffs(d, st, width)
    return out


def _time_collections(r: ShiftReport, st: Styles, width: float) -> list[Flowable]:
    out = heading("Time collections by seat and period", st)
    if not r.time:
        out.append(_none(st, "No time collected in this shift."))
        return out
    rows = [[when(c.at), str(c.seat), str(c.period) if c.period else dash(), money(c.amount)]
            for c in r.time]
    out.append(data_table(["Collected", "Seat", "Period", "Amount"], rows,
                          [50 * mm, 20 * mm, 20 * mm, 30 * mm], right=[1, 2, 3],
                          total=["Total", "", "", money(r.time_total)], st=st))
    return out


def _disputes(items: tuple[DisputeLine, ...], st: Styles, width: float, *,
              full: bool) -> list[Flowable]:
    out = heading("Disputes", st)
    if not items:
        out.append(_none(st))
        return out
    if not full:
        rows = [[str(d.dispute_id), str(d.hand_number), when(d.opened_at, seconds=False),
                 d.opened_by, d.status, d.ruling or dash(), d.ruled_by or dash()] for d in items]
        widths = [10 * mm, 12 * mm, 27 * mm, 32 * mm, 15 * mm, 0.0, 32 * mm]
        widths[5] = width - sum(widths)
        out.append(data_table(["No.", "Hand", "Opened", "By", "Status", "Ruling", "Ruled by"],
                              rows, widths, right=[0, 1], st=st))
        return out
    for d in items:
        block: list[Flowable] = [paragraph(
            f"Dispute {d.dispute_id} on hand {d.hand_number}: opened {when(d.opened_at)} by "
            f"{d.opened_by}; {d.status}.", st.body), spacer(1)]
        # Notes are free text of any length: paragraphs, which can run over a page break.
        for n in d.notes:
            block.append(Paragraph(f"<b>Note, {esc(when(n.at))}, {esc(n.by)}:</b> "
                                   + esc(n.text).replace("\n", "<br/>"), st.body))
        if not d.notes:
            block.append(_none(st, "No notes recorded."))
        block.append(spacer(1.5))
        ruling = d.ruling or "No ruling yet."
        by = f" ({d.ruled_by}, {when(d.ruled_at)})" if d.ruling else ""
        block.append(Paragraph(f"<b>Ruling:</b> {esc(ruling)}{esc(by)}", st.body))
        if d.adjustments:
            adj = [[str(s) if s is not None else "house", money(a), why]
                   for s, a, why in d.adjustments]
            block.append(spacer(1))
            block.append(data_table(["Seat", "Adjustment", "Reason"], adj,
                                    [20 * mm, 26 * mm, width - 46 * mm], right=[1], st=st))
        block.append(spacer(3))
        short = sum(len(n.text) for n in d.notes) < 1500
        out.extend([KeepTogether(block)] if short else block)
    return out


# --- shift report ------------------------------------------------------------------------------


def shift_story(r: ShiftReport, st: Styles) -> list[Flowable]:
    w = PORTRAIT_W
    story: list[Flowable] = [
        paragraph("Shift report", st.title),
        paragraph(f"{table_label(r.table)} · {r.game} · shift {r.shift_id} · gaming day "
                  f"{day_text(r.gaming_day or local(r.opened_at).date())}"
                  + (f" · {r.room_shift} shift" if r.room_shift else ""),
                  st.subtitle),
        fields_table([
            ("Cardroom", r.cardroom), ("Table", r.table), ("Game", r.game),
            ("Gaming day", day_text(r.gaming_day or local(r.opened_at).date())
             + (f", {r.room_shift} shift" if r.room_shift else "")),
            ("Time zone", f"{zone_name()} (records kept in UTC)"),
            ("Shift opened", when(r.opened_at)),
            ("Shift closed", when(r.closed_at) if r.closed_at else "still open"),
            ("Dealers", "\n".join(r.dealers) or dash()),
            ("Floor", "\n".join(r.floor) or dash()),
        ], w, st=st),
    ]
    story += heading("Summary", st)
    balance = ("balanced: in = pushed + carried + collected" if r.conserved
               else "DOES NOT BALANCE: in is not pushed + carried + collected")
    summary = [
        ("Hands dealt", str(r.hands_dealt)),
        ("Money put in by players", money(r.put_in)),
        ("Pushed to players", money(r.pushed)),
        ("Carried fund: opened / closed", (f"{money(r.fund.opening)} / "
                                           f"{money(r.fund.closing)}") if r.fund else "none"),
        ("House fees and rake (hands)", money(r.house_fees)),
        ("Time collected from seats", money(r.time_total)),
        *([("of which given back (voided marks)", money(-r.time_given_back))]
          if r.time_given_back else []),
        ("Dispute adjustments (house)", money(r.house_adjustments)),
        ("House net", money(r.house_net)),
        ("Jackpot / promotional drop", money(r.jackpot_drop)),
        ("Balance check", balance),
        ("Voids and corrections", str(len(r.voids))),
        ("Stack and carry changes", str(len(r.stack_changes))),
        ("Disputes", f"{len(r.disputes)} ({sum(d.status == 'open' for d in r.disputes)} open)"),
        ("Reveals of hidden cards", str(len(r.reveals))),
        ("Exceptions", str(len(r.exceptions))),
        ("Drop count", (f"{money(r.count.in_force.counted)} counted, variance "
                        f"{_variance(r.count)}") if r.count and r.count.in_force
         else "not counted yet"),
    ]
    story.append(fields_table(summary, w, st=st, label_w=54 * mm))
    story += heading("Fees and rake by kind", st)
    fees = r.fees_by_kind
    if fees:
        ledger = {f.kind: f.amount for f in r.ledger_fees}
        rows = [[_kind(f.kind), "fund" if f.fund else "house", str(f.count),
                 money(f.base) if f.base else dash(), money(f.amount),
                 money(ledger[f.kind]) if f.kind in ledger else dash()] for f in fees]
        mism = [i for i, f in enumerate(fees) if ledger.get(f.kind) != f.amount]
        total_ledger = sum(ledger.values())
        story.append(data_table(
            ["Kind", "Goes to", "Collections", "Taken from pots of", "By replay", "In ledger"],
            rows, [40 * mm, 20 * mm, 24 * mm, 36 * mm, 30 * mm, 30 * mm], right=[2, 3, 4, 5],
            flagged=mism,
            total=["Total", "", str(sum(f.count for f in fees)), "",
                   money(r.fees_total + r.time_total), money(total_ledger)], st=st))
        story.append(paragraph(
            "Taken from pots of: the chips called in the pots each rake or collection was taken "
            "from (chips returned uncalled are never raked); the hands table gives it per hand.",
            st.small))
    else:
        story.append(_none(st, "No fees collected."))
    story += _funds((r.fund,) if r.fund else (), st, w, moves=True)
    story += _drop_funds(r.drop_funds, st, w)
    story += _adjustments(r.adjustments, st, w, r.house_fees, r.time_total)
    story += _drop_count(r.count, st, w)
    story += _schedules(r.schedules, st, w, tables=False)
    story += _time_collections(r, st, w)
    story.append(KeepTogether([
        *heading("Fees per hour", st)[1:],
        paragraph("House fees and jackpot drops collected in each clock hour of the shift, by "
                  "the time each hand ended, and time collected from seats by the time it was "
                  "collected.", st.small),
        fees_chart(r.fees_per_hour(), w, title="")]))
    story += _exceptions(r.exceptions, st, w)
    story += heading("Voids and corrections", st)
    if r.voids:
        rows = [[str(v.hand_number) if v.hand_number is not None else dash(), when(v.at),
                 v.actor, v.what or str(v.target), v.reason, v.approved_by or dash()]
                for v in r.voids]
        story.append(data_table(["Hand", "Time", "By", "Event", "Reason", "Approved by"], rows,
                                [12 * mm, 42 * mm, 34 * mm, 12 * mm, 46 * mm, 34 * mm],
                                right=[0, 3], st=st))
    else:
        story.append(_none(st))
    story += heading("Stack and carry changes", st)
    if r.stack_changes:
        rows = [[str(c.hand_number), when(c.at), c.by, c.changes, c.approved_by or dash()]
                for c in r.stack_changes]
        story.append(data_table(["Hand", "Time", "By", "Changed", "Approved by"], rows,
                                [12 * mm, 42 * mm, 30 * mm, w - 118 * mm, 34 * mm],
                                right=[0], st=st))
        story.append(paragraph(
            "What a hand started with other than what the last hand left it: a rebuy is the "
            "dealer's; chips taken off the table while a pot carries, a carry-in changed and a "
            "new game are approved by a floor person.", st.small))
    else:
        story.append(_none(st))
    story += _disputes(r.disputes, st, w, full=False)
    story += heading("Reveals of destroyed or folded hands", st)
    if r.reveals:
        rows = [[str(x.hand_number), str(x.after_event) if x.after_event else dash(),
                 when(x.at), x.by, x.reason or dash()] for x in r.reveals]
        story.append(data_table(["Hand", "After event", "Time", "Authorised by", "Reason"],
                                rows, [14 * mm, 18 * mm, 44 * mm, 40 * mm, w - 116 * mm],
                                right=[0, 1], st=st))
    else:
        story.append(_none(st))
    story += heading(f"Hands ({r.hands_dealt})", st, need=70)
    story.append(paragraph(
        f"Times are {zone_name()} (+1d: the next day). Pot is what the players put in plus "
        "any carry-in; "
        "it leaves as pushes, carry-out and collections. Raked on is the amount the hand's "
        "rake or collection was taken from: the pot less any chips returned uncalled. "
        "Winners are seat: amount pushed (chips returned uncalled included). "
        "Flags: V void, D dispute, R reveal, M misdeal (refunds, no winner), X exception.",
        st.small))
    story.append(spacer(1))
    exc_hands = {e.hand_number for e in r.exceptions}
    rows = []
    flagged = []
    for i, h in enumerate(r.hands):
        flags = ("V" if h.voids else "") + ("D" if h.disputed else "") + (
            "R" if h.revealed else "") + ("M" if h.misdeal else "") + (
            "X" if h.number in exc_hands else "")
        if "D" in flags or "X" in flags:
            flagged.append(i)
        winners = ("misdeal: all returned" if h.misdeal
                   else ", ".join(f"{s}: {money(a)}" for s, a in h.winners) or dash())
        rows.append([str(h.number), clock_on(h.started_at, local(r.opened_at).date()),
                     str(h.players), money(h.pot),
                     money(h.raked_from) if h.raked_from else dash(), money(h.fee),
                     money(h.pushed), money(h.carry_out), winners, flags])
    late = 7 * mm if any("+" in row[1] for row in rows) else 0.0  # room for "+1d"
    if rows:
        story.append(LongTable(
            ["Hand", "Time", "Players", "Pot", "Raked on", "Fee", "Pushed", "Carry", "Winners",
             "Flags"],
            rows, [12 * mm, 18 * mm + late, 17 * mm, 21 * mm, 19 * mm, 14 * mm, 21 * mm,
                   15 * mm, 31 * mm - late, 12 * mm],
            right=[0, 2, 3, 4, 5, 6, 7], flagged=flagged,
            total=["Total", "", "", money(r.put_in + r.carried_in),
                   money(sum(h.raked_from for h in r.hands)), money(r.fees_total),
                   money(r.pushed), money(r.carried_out), "", ""]))
    else:
        story.append(_none(st, "No hands were dealt in this shift."))
    story += floor_story(r.floor_board, st, w)
    story += _chain_section((r.chain,), st, w)
    story.append(signature_block(r.signatures, w, st, figures=[
        ("Table and shift", f"{table_label(r.table)}, shift {r.shift_id}"),
        ("Hands dealt", str(r.hands_dealt)),
        ("Put in / pushed", f"{money(r.put_in)} / {money(r.pushed)}"),
        ("House fees and rake", money(r.house_fees)),
        ("Time collected from seats", money(r.time_total)),
        ("House net (fees, rake, time, adjustments)", money(r.house_net)),
        ("Jackpot drop", money(r.jackpot_drop)),
        ("Balance", "balanced" if r.conserved else "DOES NOT BALANCE"),
        ("Exceptions", str(len(r.exceptions))),
        ("Chain head", f"#{r.chain.last_seq} {hash_groups(r.chain.head_hash[:16])}"),
    ]))
    return story


def render_shift(r: ShiftReport, out: Out) -> int:
    begin(r.generated)
    info = PageInfo(r.cardroom, "Shift report", f"{table_label(r.table)}, shift {r.shift_id}",
                    r.generated, chain_line((r.chain,)))
    with paused_gc():
        return build_pdf(out, info, shift_story(r, styles()))


# --- hand history / dispute --------------------------------------------------------------------


def _snapshot(s: Snapshot, st: Styles, width: float, revealed: bool) -> list[Flowable]:
    out: list[Flowable] = [Paragraph(f"<b>After event {s.after_event}:</b> {esc(s.label)}",
                                     st.body)]
    if s.board:
        out.append(paragraph(f"Board: {cards(s.board)}", st.body))
    rows = []
    flagged = []
    for i, seat in enumerate(s.seats):
        shown = cards(seat.cards)
        if seat.withheld:
            shown = f"{seat.withheld} card{'s' if seat.withheld > 1 else ''} withheld"
        elif seat.face_down:
            shown = (shown + " + " if shown else "") + f"{seat.face_down} face down"
        if seat.revealed:
            shown += "  [REVEALED]"
            flagged.append(i)
        rows.append([str(seat.seat), shown or dash(), seat.status or dash(),
                     money(seat.put_in), seat.detail or ""])
    out.append(data_table(["Seat", "Cards", "Status", "Put in", "Detail"], rows,
                          [12 * mm, 52 * mm, 34 * mm, 20 * mm, width - 118 * mm], right=[3],
                          flagged=flagged, st=st))
    if s.pots or s.info:
        extra = [f"{name}: {money(a)}" for name, a in s.pots] + list(s.info)
        out.append(paragraph("; ".join(extra), st.small))
    out.append(spacer(2))
    return [KeepTogether(out)] if len(s.seats) < 14 else out


def hand_story(r: HandReport, st: Styles) -> list[Flowable]:
    w = PORTRAIT_W
    sep = " · " if fonts().symbols else " - "
    story: list[Flowable] = [
        paragraph(r.title, st.title),
        paragraph(sep.join([table_label(r.table), r.game, f"hand {r.number}",
                            day_text(local(r.started_at).date())]), st.subtitle),
        fields_table([
            ("Cardroom", r.cardroom), ("Table", r.table), ("Game", r.game),
            ("Hand", f"{r.number} (record {r.hand_id})"),
            ("Shift", str(r.shift_id) if r.shift_id is not None else dash()),
            ("Dealer", r.dealer or dash()),
            ("Started", when(r.started_at)), ("Ended", when(r.ended_at) if r.ended_at
                                                 else "not finished"),
        ], w, st=st),
    ]
    if r.revealed is not None:
        story.append(spacer(2))
        story.append(Paragraph(
            f"<b>Hidden cards revealed.</b> Destroyed and folded hands are shown below, marked "
            f"REVEALED, as authorised by {esc(r.revealed.by)} at {esc(when(r.revealed.at))}"
            + (f" ({esc(r.revealed.reason)})" if r.revealed.reason else "") + ".", st.body))
    else:
        story.append(spacer(2))
        story.append(paragraph(
            "Cards of destroyed and folded hands are withheld. A floor person can reveal them, "
            "giving a reason that is logged: in the floor console (a reason, Reveal, then Hand "
            "PDF) or with dealer-assist report hand --reveal --reason; that is the dispute "
            "report.", st.note))
    story += heading("Events", st)
    rows = []
    flagged = []
    for i, e in enumerate(r.events):
        text = e.text if "(voided" in e.text or not e.voided else e.text + "  (voided)"
        if e.voided or e.kind == "void":
            flagged.append(i)
        rows.append([str(e.n), str(e.seq), clock(e.at), e.actor, e.kind, text])
    tz = local(r.started_at).tzname() or zone_name()
    story.append(data_table(["No.", "Seq.", f"Time ({tz})", "By", "Input", "What happened"], rows,
                            [10 * mm, 14 * mm, 18 * mm, 30 * mm, 18 * mm, w - 90 * mm],
                            right=[0, 1], flagged=flagged, st=st))
    story += heading("The table after key steps", st)
    if r.snapshots:
        for snap in r.snapshots:
            story += _snapshot(snap, st, w, r.revealed is not None)
    else:
        story.append(_none(st))
    story += heading("Settlement (re-derived by replaying the events)", st)
    s = r.settlement
    if s is None:
        story.append(_none(st, "The hand is not finished: nothing settled."))
    else:
        seats = sorted(set(s.put_in) | set(s.payouts))
        rows = [[str(seat), money(s.put_in.get(seat, 0)), money(s.payouts.get(seat, 0)),
                 money(s.payouts.get(seat, 0) - s.put_in.get(seat, 0))] for seat in seats]
        story.append(data_table(
            ["Seat", "Put in", "Pushed", "Net"], rows, [20 * mm, 30 * mm, 30 * mm, 30 * mm],
            right=[1, 2, 3], total=["Total", money(sum(s.put_in.values())),
                                    money(sum(s.payouts.values())),
                                    money(sum(s.payouts.values()) - sum(s.put_in.values()))],
            st=st))
        story.append(spacer(1.5))
        lines = [f"Carried in {money(s.carry_in)}", f"carried out {money(s.carry_out)}"]
        by_kind: dict[str, list[tuple[int, int | None, str]]] = {}
        for k, a, seat, note in s.fees:
            by_kind.setdefault(k, []).append((a, seat, note))
        for k, items in by_kind.items():
            payers = [str(seat) for _, seat, _ in items if seat is not None]
            notes = [n for _, seat, n in items if seat is None and n]
            lines.append(f"{_kind(k)} {money(sum(a for a, _, _ in items))}"
                         + (f" (seat{'s' if len(payers) > 1 else ''} {', '.join(payers)})"
                            if payers else "")
                         + (f" ({'; '.join(notes)})" if notes else ""))
        state = "chips conserved" if s.conserved else "CHIPS NOT CONSERVED"
        story.append(paragraph("; ".join(lines) + f". In {money(s.total_in)} = out "
                               f"{money(s.total_out)}: {state}.", st.body))
        if s.steps:
            story.append(spacer(1.5))
            story.append(data_table(["Step", "Push", "Amount"],
                                    [[str(n), t, money(a) if a else dash()] for n, t, a in s.steps],
                                    [12 * mm, w - 40 * mm, 28 * mm], right=[0, 2], st=st))
    story += heading("Ledger lines", st)
    if r.ledger:
        rows = [[_kind(x.kind), str(x.seat) if x.seat is not None else dash(), money(x.amount),
                 x.note] for x in r.ledger]
        story.append(data_table(["Kind", "Seat", "Amount", "Note"], rows,
                                [40 * mm, 14 * mm, 26 * mm, w - 80 * mm], right=[1, 2], st=st))
    else:
        story.append(_none(st))
    story += _disputes(r.disputes, st, w, full=True)
    story += _exceptions(r.exceptions, st, w)
    story += _chain_section((r.chain,), st, w)
    figures = [("Hand", f"{table_label(r.table)}, hand {r.number}"),
               ("Exceptions", str(len(r.exceptions)))]
    if r.settlement is not None:
        s = r.settlement
        figures[1:1] = [
            ("Put in / pushed", f"{money(sum(s.put_in.values()))} / "
                                f"{money(sum(s.payouts.values()))}"),
            ("Fees", money(sum(f[1] for f in s.fees))),
            ("Chips", "conserved" if s.conserved else "NOT CONSERVED"),
        ]
    figures.append(("Chain head", f"#{r.chain.last_seq} {hash_groups(r.chain.head_hash[:16])}"))
    story.append(signature_block(r.signatures, w, st, figures=figures))
    return story


def render_hand(r: HandReport, out: Out) -> int:
    begin(r.generated)
    info = PageInfo(r.cardroom, r.title, f"{table_label(r.table)}, hand {r.number}", r.generated,
                    chain_line((r.chain,)))
    with paused_gc():
        return build_pdf(out, info, hand_story(r, styles()))


# --- audit -------------------------------------------------------------------------------------


def audit_story(r: AuditReport, st: Styles) -> list[Flowable]:
    w = LANDSCAPE_W
    story: list[Flowable] = [
        paragraph("Audit report: sensitive actions", st.title),
        paragraph(f"{when(r.period_from)} to {when(r.period_to)}", st.subtitle),
        fields_table([("Cardroom", r.cardroom), ("From", when(r.period_from)),
                      ("To", when(r.period_to)), ("Entries", str(len(r.entries)))], w, st=st),
    ]
    story += floor_kinds_story(r.floor_board, st, w)
    story += heading("Actions by kind", st)
    counts = r.counts()
    if counts:
        story.append(data_table(["Action", "Count"], [[_kind(a), str(n)] for a, n in counts],
                                [70 * mm, 24 * mm], right=[1],
                                total=["Total", str(len(r.entries))], st=st))
    else:
        story.append(_none(st, "No sensitive actions were logged in this period."))
    story += _drop_funds(r.drop_funds, st, 180 * mm)
    if r.drop_funds or r.exceptions:
        story += _exceptions(r.exceptions, st, 180 * mm)
    story += heading("Log", st)
    if r.entries:
        rows = [[str(e.number), when(e.at), e.user, e.role, _kind(e.action), e.target,
                 e.detail] for e in r.entries]
        flagged = [i for i, e in enumerate(r.entries)
                   if e.action.lower() in {"lockout", "login_failed", "reveal"}]
        story.append(paragraph(
            "No. is the entry's number in the audit log's chain, and a report's serial number "
            "is the entry that records it. The entries that record rows (record-*) are counted "
            "by kind with their numbers in the next section; "
            + ("with them, the numbers of the period run without a gap."
               if not r.gaps else f"numbers MISSING from the period: {r.gaps}."), st.small))
        story.append(LongTable(["No.", "Time", "User", "Role", "Action", "Subject", "Detail"],
                               rows, [14 * mm, 48 * mm, 40 * mm, 17 * mm, 26 * mm, 48 * mm,
                                      w - 193 * mm], right=[0], flagged=flagged))
    else:
        story.append(_none(st))
    story += heading("Record entries, counted by kind", st)
    if r.records:
        story.append(data_table(["Kind", "Entries", "Entry numbers"],
                                [[k, str(n), nums] for k, n, nums in r.records],
                                [50 * mm, 20 * mm, w - 70 * mm], right=[1],
                                total=["Total", str(sum(n for _, n, _ in r.records)), ""],
                                st=st))
        story.append(paragraph("Each records a row of the database (a user, table, settings "
                               "version, shift, dispute...) on the chain; verify compares them "
                               "with the rows.", st.small))
    else:
        story.append(_none(st))
    audit = (r.audit_chain,) if r.audit_chain is not None else ()
    story += _chain_section((*r.chains, *audit), st, w)
    figures = [("Period", f"{when(r.period_from)} to {when(r.period_to)}"),
               ("Entries", str(len(r.entries)))]
    if r.entries:
        figures.append(("Entry numbers", f"{r.entries[0].number} to {r.entries[-1].number}"))
    if r.audit_chain is not None:
        figures.append(("Audit log head", f"#{r.audit_chain.last_seq} "
                        f"{hash_groups(r.audit_chain.head_hash[:16])}"))
    story.append(signature_block(r.signatures, w, st, figures=figures))
    return story


def render_audit(r: AuditReport, out: Out) -> int:
    begin(r.generated, wide=True)
    info = PageInfo(r.cardroom, "Audit report",
                    f"{when(r.period_from, seconds=False)} to {when(r.period_to, seconds=False)}",
                    r.generated, chain_line(r.chains))
    with paused_gc():
        return build_pdf(out, info, audit_story(r, styles()), wide=True)


# --- day summary -------------------------------------------------------------------------------


def _imported_section(r: DayReport, st: Styles) -> list[Flowable]:
    """Hands imported that day (training, disputes): listed apart, never in a total."""
    if not r.imported:
        return []
    out = heading("Imported hands (not in the day's totals)", st)
    out.append(data_table(
        ["Table", "Hand", "Game", "Imported by", "At", "Status", "Money in (per its log)",
         "Fee (per its log)"],
        [[x.table, str(x.number), x.game, x.imported_by, when(x.at, seconds=False), x.status,
          money(x.money_in), money(x.fees)] for x in r.imported],
        [22 * mm, 14 * mm, 30 * mm, 50 * mm, 44 * mm, 18 * mm, 40 * mm, 34 * mm],
        right=[1, 6, 7], st=st))
    out.append(paragraph("An imported hand was loaded from a hand log: its chips were never on "
                         "the room's tables, so it counts in no table's hands, fees or "
                         "balance above.", st.small))
    return out


def day_story(r: DayReport, st: Styles) -> list[Flowable]:
    w = LANDSCAPE_W
    story: list[Flowable] = [
        paragraph("Day summary: all tables", st.title),
        paragraph(f"{r.cardroom} · gaming day {day_text(r.day)}" if fonts().symbols
                  else f"{r.cardroom} - gaming day {day_text(r.day)}", st.subtitle),
    ]
    if r.period is not None:
        a, b = r.period
        story.append(fields_table([
            ("Gaming day", day_text(r.day)),
            ("From", f"{when(a, seconds=False)} ({a:%Y-%m-%d %H:%M} UTC)"),
            ("To", f"{when(b, seconds=False)} ({b:%Y-%m-%d %H:%M} UTC)"),
            ("Room clock", r.clock or "UTC"),
        ], w, st=st))
    story += heading("Tables", st)
    if r.tables:
        rows = [[t.table, t.game, str(t.shifts), str(t.hands), money(t.put_in),
                 money(t.carried_in), money(t.pushed), money(t.carried_out), money(t.house_fees),
                 money(t.jackpot_drop), money(t.time_fees), str(t.voids), str(t.disputes),
                 str(t.reveals),
                 "yes" if t.conserved else "NO"] for t in r.tables]
        flagged = [i for i, t in enumerate(r.tables) if not t.conserved]
        tot = ["All tables", "", str(r.total("shifts")), str(r.total("hands")),
               money(r.total("put_in")), money(r.total("carried_in")), money(r.total("pushed")),
               money(r.total("carried_out")), money(r.total("house_fees")),
               money(r.total("jackpot_drop")), money(r.total("time_fees")),
               str(r.total("voids")), str(r.total("disputes")),
               str(r.total("reveals")), ""]
        story.append(data_table(
            ["Table", "Game", "Shifts", "Hands", "Put in", "Carried in", "Pushed", "Carried out",
             "House fees", "Jackpot", "Time", "Voids", "Disp.", "Rev.", "Bal."], rows,
            [16 * mm, 25 * mm, 14 * mm, 14 * mm, 25 * mm, 20 * mm, 25 * mm, 21 * mm, 22 * mm,
             19 * mm, 18 * mm, 13 * mm, 13 * mm, 12 * mm, 10 * mm],
            right=list(range(2, 14)), flagged=flagged, total=tot, st=st))
        story.append(paragraph("Disp.: disputes; Rev.: reveals of hidden cards made this day; "
                               "Bal.: put in + carried in = pushed + carried out + fees.",
                               st.small))
    else:
        story.append(_none(st, "No hands were dealt on this day."))
    story += _imported_section(r, st)
    story += heading("Fees and rake by kind, all tables", st)
    if r.fees:
        story.append(data_table(
            ["Kind", "Goes to", "Collections", "Taken from pots of", "Amount"],
            [[_kind(f.kind), "fund" if f.fund else "house", str(f.count),
              money(f.base) if f.base else dash(), money(f.amount)]
             for f in r.fees], [60 * mm, 26 * mm, 26 * mm, 40 * mm, 34 * mm], right=[2, 3, 4],
            total=["Total", "", str(sum(f.count for f in r.fees)), "",
                   money(sum(f.amount for f in r.fees))], st=st))
    else:
        story.append(_none(st, "No fees collected."))
    story += heading("Shifts", st)
    if r.shift_lines:
        rows = [[t, str(sid), when(a, seconds=False), when(b, seconds=False) if b else "open",
                 dealer, str(n), money(fee)] for t, sid, a, b, dealer, n, fee in r.shift_lines]
        story.append(data_table(["Table", "Shift", "Opened", "Closed", "Dealers", "Hands",
                                 "Fees and time"],
                                rows, [22 * mm, 14 * mm, 44 * mm, 44 * mm, w - 182 * mm, 18 * mm,
                                       40 * mm], right=[1, 5, 6], st=st))
        story.append(paragraph("Fees and time: the house fees, drops and time collections of "
                               "the shift's part of the day.", st.small))
    else:
        story.append(_none(st))
    story += heading("By room shift", st)
    if r.room_shifts:
        story.append(data_table(
            ["Room shift", "Hands", "House fees and drops", "Time collected", "Total"],
            [[name, str(n), money(fees), money(timed), money(fees + timed)]
             for name, n, fees, timed in r.room_shifts],
            [40 * mm, 24 * mm, 44 * mm, 40 * mm, 36 * mm], right=[1, 2, 3, 4],
            total=["All shifts", str(sum(x[1] for x in r.room_shifts)),
                   money(sum(x[2] for x in r.room_shifts)),
                   money(sum(x[3] for x in r.room_shifts)),
                   money(sum(x[2] + x[3] for x in r.room_shifts))], st=st))
        story.append(paragraph(f"Each hand counts in the room shift it ended in, each time "
                               f"collection in the one it was made in ({zone_name()}).",
                               st.small))
    else:
        story.append(_none(st))
    story += _funds(r.funds, st, w, moves=False)
    story += _adjustments(r.adjustments, st, w, r.total("house_fees"), r.total("time_fees"))
    story += _day_counts(r.counts, st, w)
    story += floor_story(r.floor_board, st, w)
    story += _schedules(r.schedules, st, w, tables=True)
    story += _exceptions(r.exceptions, st, w)
    story += _chain_section(r.chains, st, w)
    story.append(signature_block(r.signatures, w, st, figures=[
        ("Day", day_text(r.day)),
        ("Tables / hands", f"{len(r.tables)} / {r.total('hands')}"),
        ("Put in / pushed", f"{money(r.total('put_in'))} / {money(r.total('pushed'))}"),
        ("House fees and rake", money(r.total("house_fees"))),
        ("Time collected from seats", money(r.total("time_fees"))),
        ("House net (fees, rake, time, adjustments)", money(r.house_net)),
        ("Jackpot drop", money(r.total("jackpot_drop"))),
        ("Exceptions", str(len(r.exceptions))),
    ]))
    return story


def render_day(r: DayReport, out: Out) -> int:
    begin(r.generated, wide=True)
    info = PageInfo(r.cardroom, "Day summary", day_text(r.day), r.generated,
                    chain_line(r.chains))
    with paused_gc():
        return build_pdf(out, info, day_story(r, styles()), wide=True)


__all__ = ["card", "render_audit", "render_day", "render_hand", "render_shift"]

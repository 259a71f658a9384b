"""The sections several reports share: the chains, exceptions, fee schedules, funds and drops,
adjustments, time collections and disputes; an empty one says "None" rather than disappearing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, Paragraph

from dealer_assist.reports.data.lines import AdjustmentLine, DisputeLine, FundBalance
from dealer_assist.reports.data.records import ChainCheck, ExceptionLine, FeeSchedule, table_label
from dealer_assist.reports.data.shift import ShiftReport
from dealer_assist.reports.render.blocks import heading, paragraph, spacer
from dealer_assist.reports.render.longtable import LongTable
from dealer_assist.reports.render.style import Styles
from dealer_assist.reports.render.tables import data_table
from dealer_assist.reports.render.text import dash, esc, hash_groups, money, when

PORTRAIT_W = 180 * mm


LANDSCAPE_W = 267 * mm


Out = str | Path | Any


def kind_text(kind: str) -> str:
    """A fee or ledger kind as a heading prints it (``carry_in`` -> ``Carry in``)."""
    return kind.replace("_", " ").replace("-", " ").capitalize()


def none_note(st: Styles, text: str = "None.") -> Paragraph:
    """What an empty section says, so it is never mistaken for a missing one."""
    return paragraph(text, st.note)


def chain_section(chains: tuple[ChainCheck, ...], st: Styles, width: float) -> list[Flowable]:
    """The integrity section: every chain the report rests on, and whether it held."""
    out = heading("Integrity: event chain", st)
    out.append(paragraph(
        "Every recorded input is chained to the one before it by a hash. The figures in this "
        "report were built from the chain heads below, after re-checking each chain from its "
        "first event.", st.small))
    out.append(spacer(1.5))
    if not chains:
        out.append(none_note(st, "No events recorded in this period."))
        return out
    rows = [[c.table, str(c.last_seq), Paragraph(hash_groups(c.head_hash) or dash(), st.mono),
             "intact" if c.verified else "FAILED", c.message or ""] for c in chains]
    flagged = [i for i, c in enumerate(chains) if not c.verified]
    widths = [20 * mm, 16 * mm, 92 * mm, 14 * mm]
    widths.append(width - sum(widths))
    out.append(data_table(["Table", "Last seq.", "Head hash (SHA-256)", "Verify", "Detail"],
                          rows, widths, right=[1], flagged=flagged, st=st))
    return out


def exceptions_section(items: tuple[ExceptionLine, ...], st: Styles,
                       width: float) -> list[Flowable]:
    """The exceptions section: every line that did not add up, with its severity."""
    out = heading("Exceptions", st)
    if not items:
        out.append(none_note(
            st, "None: every hand settled, conserved chips and matched the ledger."))
        return out
    rows = [[str(e.hand_number) if e.hand_number is not None else dash(), e.severity, e.text]
            for e in items]
    out.append(data_table(["Hand", "Kind", "What a reviewer should check"], rows,
                          [16 * mm, 22 * mm, width - 38 * mm], st=st))
    return out


def schedules_section(items: tuple[FeeSchedule, ...], st: Styles, width: float, *,
                      tables: bool) -> list[Flowable]:
    """The fee schedule in force, then each change with its time and who made it."""
    out = heading("Fee schedule in force, and every change", st)
    if not items:
        out.append(none_note(st, "No settings recorded."))
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


def funds_section(items: tuple[FundBalance, ...], st: Styles, width: float, *,
                  moves: bool) -> list[Flowable]:
    """Each carried fund's opening balance, what went in and out, and its closing balance;
    with ``moves``, every hand that moved it."""
    out = heading("Funds carried between hands", st)
    if not items:
        out.append(none_note(st, "None: no hand carried money to the next."))
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


def drop_funds_section(items: tuple[Any, ...], st: Styles, width: float) -> list[Flowable]:
    """Each jackpot or promotional fund over the period: opening, drops in by table, payouts
    out, closing, and the check that closing = opening + in - out."""
    from dealer_assist.reports.funds import PAYOUTS_NOT_RECORDED

    out = heading("Jackpot and promotional funds", st)
    if not items:
        out.append(none_note(st, "None: no jackpot or promotional drop has been recorded."))
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


def adjustments_section(items: tuple[AdjustmentLine, ...], st: Styles, width: float,
                        house_fees: int, time: int) -> list[Flowable]:
    """Money dispute rulings moved, per seat and for the house, and the house's net (every
    house fee: hands' fees and rake and time collected, with the house's adjustments)."""
    out = heading("Dispute adjustments", st)
    if not items:
        out.append(none_note(st))
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


def time_collections_section(r: ShiftReport, st: Styles, width: float) -> list[Flowable]:
    """The time collected from each seat and period in the shift, with its total."""
    out = heading("Time collections by seat and period", st)
    if not r.time:
        out.append(none_note(st, "No time collected in this shift."))
        return out
    rows = [[when(c.at), str(c.seat), str(c.period) if c.period else dash(), money(c.amount)]
            for c in r.time]
    out.append(data_table(["Collected", "Seat", "Period", "Amount"], rows,
                          [50 * mm, 20 * mm, 20 * mm, 30 * mm], right=[1, 2, 3],
                          total=["Total", "", "", money(r.time_total)], st=st))
    return out


def disputes_section(items: tuple[DisputeLine, ...], st: Styles, width: float, *,
                     full: bool) -> list[Flowable]:
    """The disputes section: a line each, or (``full``) each dispute's notes, ruling and
    adjustments."""
    out = heading("Disputes", st)
    if not items:
        out.append(none_note(st))
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
            block.append(none_note(st, "No notes recorded."))
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


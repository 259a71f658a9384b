"""The day summary laid out as pages: every table's day and the room's totals."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from dealer_assist.gc_pause import paused_gc
from dealer_assist.reports.data.day import DayReport
from dealer_assist.reports.dealer_story import dealer_story
from dealer_assist.reports.floor_section import floor_story
from dealer_assist.reports.layouts.counts import day_counts_section
from dealer_assist.reports.layouts.sections import (
    LANDSCAPE_W,
    Out,
    adjustments_section,
    chain_section,
    exceptions_section,
    funds_section,
    kind_text,
    none_note,
    schedules_section,
)
from dealer_assist.reports.render.blocks import heading, paragraph, signature_block
from dealer_assist.reports.render.page import PageInfo, begin, build_pdf
from dealer_assist.reports.render.style import Styles, fonts, styles
from dealer_assist.reports.render.tables import data_table, fields_table
from dealer_assist.reports.render.text import chain_line, dash, day_text, money, when, zone_name


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
        story.append(none_note(st, "No hands were dealt on this day."))
    story += _imported_section(r, st)
    story += heading("Fees and rake by kind, all tables", st)
    if r.fees:
        story.append(data_table(
            ["Kind", "Goes to", "Collections", "Taken from pots of", "Amount"],
            [[kind_text(f.kind), "fund" if f.fund else "house", str(f.count),
              money(f.base) if f.base else dash(), money(f.amount)]
             for f in r.fees], [60 * mm, 26 * mm, 26 * mm, 40 * mm, 34 * mm], right=[2, 3, 4],
            total=["Total", "", str(sum(f.count for f in r.fees)), "",
                   money(sum(f.amount for f in r.fees))], st=st))
    else:
        story.append(none_note(st, "No fees collected."))
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
        story.append(none_note(st))
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
        story.append(none_note(st))
    story += funds_section(r.funds, st, w, moves=False)
    story += adjustments_section(r.adjustments, st, w, r.total("house_fees"), r.total("time_fees"))
    story += day_counts_section(r.counts, st, w)
    story += floor_story(r.floor_board, st, w)
    story += schedules_section(r.schedules, st, w, tables=True)
    story += exceptions_section(r.exceptions, st, w)
    story += dealer_story(r.dealer_box, st, w)
    story += chain_section(r.chains, st, w)
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


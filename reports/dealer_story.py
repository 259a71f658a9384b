"""The dealer box's pages of the shift and day reports (:mod:`dealer_assist.reports.
dealer_hours` builds them): dealer hours, each dealer's totals, late pushes, breaks and the
toke split. Every table is also written to the CSV files beside the PDF."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Flowable

from dealer_assist.reports.dealer_hours import DealerSection
from dealer_assist.reports.render import (
    Styles,
    clock,
    dash,
    data_table,
    heading,
    money,
    paragraph,
)

_SPLITS = {"minutes": "minutes dealt", "downs": "downs dealt", "equal": "equal shares"}


def _rate(x: float) -> str:
    return f"{x:.1f}"


def dealer_story(section: DealerSection | None, st: Styles, width: float) -> list[Flowable]:
    """The dealer box's sections (nothing when the room keeps no downs)."""
    if section is None:
        return []
    r = section.rules
    out: list[Flowable] = heading("Dealer hours", st)
    out.append(paragraph(
        f"Push every {r.push_minutes} min, a {r.break_minutes} min break after "
        f"{r.break_after_minutes} min dealing; a push is late after {r.push_minutes} + "
        f"{r.grace_minutes} min. Hands per hour beside the table's and the game's average over "
        "the same period.", st.small))
    rows = [[d.dealer, d.table, d.game, clock(d.start), clock(d.end), str(d.minutes),
             str(d.hands), _rate(d.per_hour), _rate(d.table_per_hour), _rate(d.game_per_hour)]
            for d in section.downs]
    if rows:
        out.append(data_table(
            ["Dealer", "Table", "Game", "From", "To", "Min", "Hands", "Hands/h", "Table avg/h",
             "Game avg/h"], rows,
            [20 * mm, 18 * mm, 27 * mm, 17 * mm, 17 * mm, 11 * mm, 16 * mm, 16 * mm, 19 * mm,
             19 * mm], right=[5, 6, 7, 8, 9], st=st))
    else:
        out.append(paragraph("No downs in this period.", st.note))
    out += heading("Dealers", st)
    out.append(data_table(
        ["Dealer", "Minutes dealt", "Downs", "Hands", "Breaks", "Break min", "Late pushes",
         "Voids", "Misdeals"],
        [[t.dealer, str(t.minutes), str(t.downs), str(t.hands), str(t.breaks),
          str(t.break_minutes), str(t.late_pushes), str(t.voids), str(t.misdeals)]
         for t in section.totals],
        [28 * mm, 22 * mm, 16 * mm, 16 * mm, 16 * mm, 18 * mm, 22 * mm, 16 * mm, 20 * mm],
        right=[1, 2, 3, 4, 5, 6, 7, 8],
        flagged=[i for i, t in enumerate(section.totals) if t.late_pushes], st=st))
    if section.late:
        out += heading("Late pushes", st)
        out.append(data_table(
            ["Dealer", "Table", "Down from", "Minutes over the interval"],
            [[x.dealer, x.table, clock(x.start), str(x.over_minutes)] for x in section.late],
            [40 * mm, 40 * mm, 40 * mm, 50 * mm], right=[3], st=st))
    if section.breaks:
        out += heading("Breaks", st)
        out.append(data_table(
            ["Dealer", "From", "To", "Minutes"],
            [[b.dealer, clock(b.start), clock(b.end), str(b.minutes)] for b in section.breaks],
            [50 * mm, 40 * mm, 40 * mm, 30 * mm], right=[3], st=st))
    for t in section.tokes:
        out += heading(t.title, st)
        odd = ", ".join(t.odd_cents) or "none"
        out.append(paragraph(
            f"Toke box counted {money(t.amount)} by {t.team[0]} and {t.team[1]}; split by "
            f"{_SPLITS.get(t.rule, t.rule)}; the odd cents went to: {odd}.", st.body))
        if t.shares:
            out.append(data_table(
                ["Dealer", "Weight", "Share", "Odd cent"],
                [[s.dealer, str(s.weight), money(s.cents), "1" if s.odd_cent else dash()]
                 for s in t.shares],
                [50 * mm, 30 * mm, 40 * mm, 30 * mm], right=[1, 2, 3],
                total=["Total", str(sum(s.weight for s in t.shares)),
                       money(sum(s.cents for s in t.shares)), str(len(t.odd_cents))], st=st))
        else:
            nobody = ("No dealer dealt in this room shift" if t.day is not None
                      else "No dealer was down at this table in the shift")
            out.append(paragraph(f"{nobody}: nothing split.", st.note))
    del width
    return out

"""The drop count sections: a table's counts, sign-offs and variance on the shift report, and
every table's count on the day summary.
"""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether

from dealer_assist.reports.data.counts import CountLine, DropCount
from dealer_assist.reports.data.records import Signature, table_label
from dealer_assist.reports.layouts.sections import kind_text, none_note
from dealer_assist.reports.render.blocks import heading, paragraph, signature_block, spacer
from dealer_assist.reports.render.style import Styles
from dealer_assist.reports.render.tables import data_table, fields_table
from dealer_assist.reports.render.text import dash, local, money, when


def variance_text(d: DropCount) -> str:
    """A count's variance in words: none, over, SHORT, or not counted."""
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


def drop_count_section(d: DropCount | None, st: Styles, width: float) -> list[Flowable]:
    """The shift's drop box: expected by fee kind beside what was counted, the variance, the
    denominations, the entries (corrections keep the original), and the count team's lines."""
    out = heading("Drop count", st)
    if d is None:
        out.append(none_note(st))
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
    rows = [[kind_text(f.kind), str(f.count), money(f.amount)] for f in d.expected]
    rows.append(["Expected in the box (records)", "", money(d.expected_total)])
    rows.append(["Counted", "", money(c.counted) if c else dash()])
    flagged = [len(rows)] if d.variance else []
    out.append(data_table(["Fee kind", "Collections", "Amount"], rows,
                          [80 * mm, 30 * mm, 36 * mm], right=[1, 2], flagged=flagged,
                          total=["Variance (counted less expected)", "", variance_text(d)], st=st))
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
                                            ("Variance", variance_text(d))]))
    return out


def _signoff(d: DropCount) -> str:
    """A variance's explanation and its second person's sign-off, in words."""
    if not d.variance:
        return "no variance" if d.in_force else dash()
    so = d.signoff
    if so is None:
        return "NOT SIGNED OFF: the variance has no explanation yet"
    return f"{so.explanation} (signed off by {so.by}, {when(so.at, seconds=False)})"


def day_counts_section(items: tuple[DropCount, ...], st: Styles, width: float) -> list[Flowable]:
    """The day summary's drop count: each table's count in force, its variance and sign-off."""
    out = heading("Drop count", st)
    if not items:
        out.append(none_note(st))
        return out
    rows = []
    for d in items:
        c = d.in_force
        rows.append([table_label(d.table), str(d.shift_id), c.box if c else dash(),
                     money(d.expected_total), money(c.counted) if c else dash(), variance_text(d),
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


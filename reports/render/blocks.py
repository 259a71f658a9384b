"""The building blocks of a report's story: headings never left alone at a page's foot, paragraphs,
the unsigned warning, the appendix of values printed whole, signature lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from dealer_assist.reports.data.records import Signature
from dealer_assist.reports.render.longtable import LongTable
from dealer_assist.reports.render.state import current, scaled
from dealer_assist.reports.render.style import INK, Styles, fonts, styles
from dealer_assist.reports.render.tables import fields_table
from dealer_assist.reports.render.text import esc


def heading(text: str, st: Styles, *, need: float = 30) -> list[Flowable]:
    """A section heading that is never left alone at the bottom of a page (``need``: the mm
    it wants below it on the same page)."""
    current().section = text
    return [CondPageBreak(need * mm), Paragraph(esc(text), st.h2)]


def unsigned_story(unsigned: str, st: Styles) -> list[Flowable]:
    """The warning of a report built with no signed checkpoint, printed whole (the page
    header can hold only a short form of it)."""
    if not unsigned:
        return []
    text = unsigned[:1].upper() + unsigned[1:]
    return [Paragraph(f"<b>Not signed.</b> {esc(text)}. The figures are built from the records "
                      "as they stand; no checkpoint signed by the room's key vouches for them.",
                      st.body), Spacer(1, 3 * mm)]


def appendix_story(st: Styles, width: float) -> list[Flowable]:
    """The values summarised in their cells, each in full (its rows go on across pages)."""
    notes = list(current().appendix)
    if not notes:
        return []
    out = heading("Appendix: values in full", st)
    out.append(paragraph("Values too long for their table cell are shortened there and printed "
                         "here whole, by the note number the cell gives.", st.small))
    rows = [[str(i), where, text] for i, (where, text) in enumerate(notes, start=1)]
    out.append(LongTable(["Note", "Where", "Value in full"], rows,
                         [14 * mm, 50 * mm, width - 64 * mm], right=[0], collect=False,
                         row_lines=10))
    return out


def signature_block(signatures: Sequence[Signature], width: float,
                    st: Styles | None = None, *,
                    figures: Sequence[tuple[str, str]] = (),
                    title: str = "Signatures") -> Flowable:
    """Lines to sign: role, the full name printed under the line, and a date/time line.

    ``figures`` repeats the totals being signed for right above the lines, and the block is
    kept on one page, so a signature never stands on a page apart from what it attests."""
    st = st or styles()
    rows: list[list[Any]] = []
    cmds: list[tuple[Any, ...]] = [("VALIGN", (0, 0), (-1, -1), "BOTTOM")]
    nominal, width = width, scaled([width])[0]
    for i, s in enumerate(signatures):
        r = i * 2
        rows.append([Paragraph(f"<b>{esc(s.role)}</b>", st.cell), "", "", ""])
        name = s.name or "(name not recorded: print the full name)"
        rows.append(["", Paragraph(f"Signature — {esc(name)}" if fonts().symbols
                                   else f"Signature - {esc(name)}", st.small),
                     "", Paragraph("Date and time", st.small)])
        cmds += [
            ("LINEBELOW", (1, r), (1, r), 0.7, INK),
            ("LINEBELOW", (3, r), (3, r), 0.7, INK),
            ("TOPPADDING", (0, r), (-1, r), 22),
            ("BOTTOMPADDING", (0, r + 1), (-1, r + 1), 4),
        ]
    t = Table(rows, colWidths=[28 * mm, width * 0.5, 8 * mm, width * 0.5 - 36 * mm - 2],
              style=TableStyle(cmds), hAlign="LEFT")
    attest: list[Flowable] = []
    if figures:
        attest = [Paragraph("The undersigned attest to these figures:", st.body), spacer(1),
                  fields_table(list(figures), nominal, st=st, label_w=44 * mm), spacer(1)]
    return KeepTogether([*heading(title, st)[1:], *attest, t])


def paragraph(text: str, style: ParagraphStyle) -> Paragraph:
    return Paragraph(esc(text), style)


def spacer(h: float = 4) -> Spacer:
    return Spacer(1, h * mm)


Layout = Callable[..., list[Flowable]]


"""Tables that never run over the margin: headers set smaller before they break, numbers kept
whole, long cells wrapped, and label-value field tables.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from reportlab.lib import colors
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from dealer_assist.reports.render.state import collect_table, current, scaled, summarised
from dealer_assist.reports.render.style import (
    FLAG_BG,
    HEAD_BG,
    INK,
    RULE,
    TABLE_LEADING,
    TABLE_PT,
    ZEBRA,
    Styles,
    fonts,
    styles,
)
from dealer_assist.reports.render.text import esc, plain, text_width

#: The smallest a column heading is ever set (the body is 9 pt): a word still wider than its
#: column at this size is broken with a hyphen onto the next line instead.
HEAD_PT_FLOOR = 7.5


def head_cell(text: str, width: float, st: Styles, *, right: bool = False) -> Paragraph:
    """A column heading that wraps between words; a word wider than its column is set smaller,
    down to :data:`HEAD_PT_FLOOR`, and only a word too wide even then is broken, with a hyphen
    ("Adjust- / ments"), never set smaller still."""
    base = st.cell_right if right else st.cell
    bold = fonts().bold
    words = plain(text).split()
    widest = max((stringWidth(w, bold, base.fontSize) for w in words), default=0)
    room = width - 6
    size = base.fontSize
    if widest > room > 0:
        size = max(HEAD_PT_FLOOR, base.fontSize * room / widest)
        base = ParagraphStyle(f"{base.name}-{size:.2f}", parent=base, fontSize=size,
                              leading=size + 2)
    if room > 0 and any(stringWidth(w, bold, size) > room for w in words):
        lines = [piece for w in words for piece in _hyphenated(w, bold, size, room)]
        return Paragraph("<b>" + "<br/>".join(_joined(lines, bold, size, room)) + "</b>", base)
    return Paragraph(f"<b>{esc(text)}</b>", base)


def _hyphenated(word: str, font: str, size: float, room: float) -> list[str]:
    """``word`` in pieces that each fit ``room`` (every piece but the last ends in "-")."""
    out: list[str] = []
    while stringWidth(word, font, size) > room and len(word) > 2:
        cut = len(word) - 1
        while cut > 1 and stringWidth(word[:cut] + "-", font, size) > room:
            cut -= 1
        out.append(word[:cut] + "-")
        word = word[cut:]
    return [*out, word]


def _joined(pieces: list[str], font: str, size: float, room: float) -> list[str]:
    """Heading lines: whole words (and word pieces) joined while they fit, escaped."""
    lines: list[str] = []
    for p in pieces:
        if lines and not lines[-1].endswith("-") and \
                stringWidth(f"{lines[-1]} {p}", font, size) <= room:
            lines[-1] = f"{lines[-1]} {p}"
        else:
            lines.append(p)
    return [esc(line) for line in lines]


#: A cell that must never wrap: an amount ("$11,080.38", "-$4", "SHORT $1"), a count, a time,
#: a table's name ("Table 10").
_RIGID = re.compile(r"^(?:[-+−]?\$?[\d,]+(?:\.\d+)?%?|(?:over|SHORT) \$[\d,.]+|"
                    r"Table \S{1,16}|\d\d:\d\d(?::\d\d)?)$")


def rigid(text: str, right: bool = False) -> bool:
    """A value read as one thing, never broken across lines: an amount, a count, a table."""
    text = text.strip()
    return bool(text) and "\n" not in text and (
        (right and " " not in text) or _RIGID.match(text) is not None)


def unbroken(widths: Sequence[float], rows: Sequence[Sequence[object]],
             total: Sequence[object] | None, right: Sequence[int],
             header: Sequence[object] = ()) -> list[float]:
    """Column widths in which no amount, count or table name wraps: a column whose widest such
    value (the total row in bold) would not fit is widened, the width taken from the columns of
    words, which wrap instead (each keeps at least two thirds of its width). What cannot be
    found so is left to :class:`OneLine`, which sets the value smaller."""
    f = fonts()
    out = list(widths)
    rset = set(right)
    need = [0.0] * len(out)
    words = [True] * len(out)
    #: the least a column of words keeps: two thirds of its width, and its longest word whole
    keep = [w * 2 / 3 for w in out]
    for i, h in enumerate(header[:len(out)]):
        for word in plain(str(h)).split():
            keep[i] = max(keep[i], text_width(word, f.bold, TABLE_PT) + 6.5)
    for bold, row in [*((False, r) for r in rows), *([(True, total)] if total else [])]:
        for i, v in enumerate(row[:len(out)]):
            if isinstance(v, Flowable):
                continue
            text = plain(str(v))
            if rigid(text, i in rset):
                wide = text_width(text, f.bold if bold else f.regular, TABLE_PT) + 6.5
                need[i] = max(need[i], wide)
                if not bold:
                    words[i] = False
            elif len(text) < 40:
                for word in text.split():
                    keep[i] = max(keep[i], text_width(word, f.regular, TABLE_PT) + 6.5)
    short = sum(max(0.0, need[i] - out[i]) for i in range(len(out)))
    if short <= 0:
        return out
    donors = [i for i in range(len(out)) if words[i] and i not in rset and need[i] <= out[i]
              and keep[i] < out[i]]
    spare = sum(out[i] - keep[i] for i in donors)
    take = min(short, spare)
    if take <= 0:
        return out
    for i in donors:
        out[i] -= take * (out[i] - keep[i]) / spare
    give = take / short
    for i in range(len(out)):
        if need[i] > widths[i]:
            out[i] += (need[i] - widths[i]) * give
    return out


class OneLine(Flowable):  # type: ignore[misc]
    """A value drawn on one line, set smaller to fit its cell rather than broken."""

    def __init__(self, text: str, font: str, size: float, *, right: bool) -> None:
        super().__init__()
        self.text, self.font, self.size, self.right = text, font, min(TABLE_PT, size), right

    def wrap(self, avail_width: float, avail_height: float) -> tuple[float, float]:
        self.width = avail_width
        return avail_width, TABLE_LEADING

    def draw(self) -> None:
        canv = self.canv
        canv.setFont(self.font, self.size)
        canv.setFillColor(INK)
        y = TABLE_LEADING - TABLE_PT
        if self.right:
            canv.drawRightString(self.width, y, self.text)
        else:
            canv.drawString(0, y, self.text)


class Cell:
    """A value as a table cell: plain text when it fits (fast), else a wrapping Paragraph; an
    amount, count or table name never wraps (:func:`unbroken`, :class:`OneLine`)."""

    def __init__(self, st: Styles, pad: float = 6.0, where: str = "") -> None:
        self.st = st
        self.pad = pad
        self.font = fonts().regular
        self.where = where or current().section

    def __call__(self, value: object, width: float, *, right: bool = False,
                 bold: bool = False) -> Any:
        if isinstance(value, Flowable):
            return value
        text = plain(str(value))
        font = fonts().bold if bold else self.font
        if "\n" not in text and stringWidth(text, font, TABLE_PT) <= width - self.pad:
            return text
        if rigid(text, right):  # a number or a table's name: set smaller, never broken
            return OneLine(text, font, TABLE_PT * (width - self.pad)
                           / stringWidth(text, font, TABLE_PT), right=right)
        text = summarised(text, self.where)
        style = self.st.cell_right if right else self.st.cell
        return Paragraph(esc(text).replace("\n", "<br/>"), style)


def data_table(
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    widths: Sequence[float],
    *,
    right: Sequence[int] = (),
    total: Sequence[object] | None = None,
    flagged: Sequence[int] = (),
    st: Styles | None = None,
) -> Table:
    """A ruled table with a repeated header row; ``right`` columns align right (money, counts).

    ``flagged`` row indexes get a highlight (exceptions, disputed hands); ``total`` is a bold
    last row. Every cell that would not fit wraps.
    """
    st = st or styles()
    f = fonts()
    make = Cell(st)
    widths = unbroken(scaled(widths), rows, total, right, header)
    collect_table(header, rows, total)
    head = [head_cell(h, widths[i], st, right=i in right) for i, h in enumerate(header)]
    body: list[list[Any]] = [head]
    rset = set(right)
    for r in rows:
        body.append([make(v, widths[i], right=i in rset) for i, v in enumerate(r)])
    if total is not None:
        body.append([make(v, widths[i], right=i in rset, bold=True)
                     for i, v in enumerate(total)])
    cmds: list[tuple[Any, ...]] = [
        ("FONT", (0, 0), (-1, -1), f.regular, TABLE_PT),
        ("LEADING", (0, 0), (-1, -1), TABLE_LEADING),
        ("TEXTCOLOR", (0, 0), (-1, -1), INK),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, INK),
        ("LINEABOVE", (0, 0), (-1, 0), 0.8, INK),
        ("LINEBELOW", (0, -1), (-1, -1), 0.8, INK),
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
    ]
    for i in right:
        cmds.append(("ALIGN", (i, 1), (i, -1), "RIGHT"))
    cmds.append(("ROWBACKGROUNDS", (0, 1), (-1, -1), [colors.white, ZEBRA]))
    for i in flagged:
        cmds.append(("BACKGROUND", (0, i + 1), (-1, i + 1), FLAG_BG))
    if total is not None:
        cmds += [("FONT", (0, -1), (-1, -1), f.bold, TABLE_PT),
                 ("LINEABOVE", (0, -1), (-1, -1), 0.8, INK),
                 ("BACKGROUND", (0, -1), (-1, -1), colors.white)]
    return Table(body, colWidths=list(widths), rowHeights=_row_heights(body, widths),
                 repeatRows=1, style=TableStyle(cmds), hAlign="LEFT")


#: Height of a one-line row: the leading plus 2 pt padding above and below.
LINE_ROW = TABLE_LEADING + 4.0


def _row_heights(body: list[list[Any]], widths: Sequence[float]) -> list[float]:
    """Each row's height, measured once: long tables then split across pages without
    re-measuring every remaining cell at every page break."""
    out = []
    for row in body:
        h = LINE_ROW
        for value, w in zip(row, widths, strict=False):
            if isinstance(value, Flowable):
                h = max(h, value.wrap(w - 6, 10_000)[1] + 4)
        out.append(h)
    return out


def fields_table(pairs: Sequence[tuple[str, str]], width: float, *, columns: int = 2,
                 st: Styles | None = None, label_w: float = 32 * mm) -> Table:
    """Label/value pairs laid out in ``columns`` column pairs (the identification block)."""
    st = st or styles()
    width, label_w = scaled([width, label_w])
    per = (len(pairs) + columns - 1) // columns
    value_w = width / columns - label_w
    rows: list[list[Any]] = []
    for r in range(per):
        row: list[Any] = []
        for c in range(columns):
            k = c * per + r
            if k < len(pairs):
                label, value = pairs[k]
                value = summarised(value, f"{current().section or 'Heading'}, {label}")
                row += [Paragraph(f"<b>{esc(label)}</b>", st.cell),
                        Paragraph(esc(value).replace("\n", "<br/>"), st.cell)]
            else:
                row += ["", ""]
        rows.append(row)
    t = Table(rows, colWidths=[label_w, value_w] * columns, hAlign="LEFT")
    t.setStyle(TableStyle([
        ("VALIGN", (0, 0), (-1, -1), "TOP"),
        ("BOX", (0, 0), (-1, -1), 0.6, RULE),
        ("LINEBELOW", (0, 0), (-1, -2), 0.25, colors.HexColor("#CCCCCC")),
        ("BACKGROUND", (0, 0), (0, -1), ZEBRA),
        *([("BACKGROUND", (2, 0), (2, -1), ZEBRA)] if columns > 1 else []),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
    ]))
    return t


"""A long table drawn straight onto the canvas: split across pages with its header row
repeated, rows too tall for a page carried on, each line written as PDF text directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from reportlab.lib.rl_accel import fp_str
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable

from dealer_assist.reports.render.state import (
    CELL_LINES,
    ROW_LINES,
    appendix_note,
    collect_table,
    current,
    scaled,
)
from dealer_assist.reports.render.style import (
    FLAG_BG,
    HEAD_BG,
    INK,
    TABLE_LEADING,
    TABLE_PT,
    ZEBRA,
    fonts,
)
from dealer_assist.reports.render.tables import unbroken
from dealer_assist.reports.render.text import plain, text_width, wrap_lines


class LongTable(Flowable):  # type: ignore[misc]
    """A long ruled table drawn directly (hands of a shift, events, the audit log).

    It looks like :func:`data_table` but measures each row once and splits at a page end by
    slicing, so a 5,000-row table costs about as much per row as a 50-row one. Text that does not
    fit its column wraps onto more lines of the same row; the header row repeats on every page.
    """

    PAD = 2.0
    LEADING = TABLE_LEADING
    SIZE = TABLE_PT

    def __init__(
        self,
        header: Sequence[str],
        rows: Sequence[Sequence[object]],
        widths: Sequence[float],
        *,
        right: Sequence[int] = (),
        total: Sequence[object] | None = None,
        flagged: Sequence[int] = (),
        collect: bool = True,
        row_lines: int = 0,
        _prepared: tuple[Any, ...] | None = None,
    ) -> None:
        super().__init__()
        self.row_lines = row_lines or ROW_LINES
        self.widths = (list(widths) if _prepared is not None
                       else unbroken(scaled(widths), rows, total, right, header))
        self.right = frozenset(right)
        if _prepared is not None:
            self.head, self.rows, self.first, self.total_h = _prepared
            return
        if collect:
            collect_table(header, rows, total)
        self.where = current().section
        self.summarise = collect
        f = fonts()
        self.head = self._row(self._cells(header, f.bold, header), False, False)
        flags = set(flagged)
        prepared: list[tuple[Any, ...]] = []
        for i, r in enumerate(rows):
            prepared += self._rows(self._cells(r, f.regular, header), i in flags, False)
        if total is not None:
            prepared.append(self._row(self._cells(total, f.bold, header), False, True))
        self.rows = prepared
        self.first = 0
        self.total_h = self.head[3] + sum(r[3] for r in prepared)

    def _row(self, cells: list[list[str]], flag: bool, is_total: bool) -> tuple[Any, ...]:
        """(cells as lines, highlighted, total row, height)."""
        return (cells, flag, is_total, max(len(c) for c in cells) * self.LEADING + 2 * self.PAD)

    def _rows(self, cells: list[list[str]], flag: bool, is_total: bool) -> list[tuple[Any, ...]]:
        """A row, carried on in rows of its own when it has more than ``ROW_LINES`` lines
        (so no row is ever taller than a page)."""
        tall = max(len(c) for c in cells)
        step = self.row_lines
        if tall <= step:
            return [self._row(cells, flag, is_total)]
        return [self._row([c[k : k + step] or [""] for c in cells], flag, is_total)
                for k in range(0, tall, step)]

    def _cells(self, values: Sequence[object], font: str,
               header: Sequence[object] = ()) -> list[list[str]]:
        out = []
        for k, (v, w) in enumerate(zip(values, self.widths, strict=False)):
            text = plain(str(v))
            avail = w - 2 * 3
            if "\n" not in text and text_width(text, font, self.SIZE) <= avail:
                out.append([text])
                continue
            lines = [ln for part in text.split("\n")
                     for ln in (wrap_lines(part, font, self.SIZE, avail) or [""])]
            if self.summarise and len(lines) > CELL_LINES:
                col = str(header[k]) if k < len(header) else ""
                where = f"{self.where}, {col}" if col else self.where
                n = appendix_note(where, text)
                short = (" ".join(lines[:CELL_LINES - 3]) + f" … [{len(text):,} characters: "
                         f"in full in appendix note {n}]")
                lines = wrap_lines(plain(short), font, self.SIZE, avail)
            out.append(lines)
        return out or [[""]]

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        self.width, self.height = sum(self.widths), self.total_h
        return self.width, self.height

    def split(self, aw: float, ah: float) -> list[Flowable]:
        room = ah - self.head[3]
        n, used = 0, 0.0
        for r in self.rows:
            if used + r[3] > room:
                break
            used += r[3]
            n += 1
        few = min(3, len(self.rows))
        if n == 0 or (n < few and used < 80):
            return []  # not even a few rows fit: start on the next page
        if n >= len(self.rows):
            return [self]
        return [self._part(self.rows[:n], self.first, self.head[3] + used),
                self._part(self.rows[n:], self.first + n, self.total_h - used)]

    def _part(self, rows: list[Any], first: int, height: float) -> LongTable:
        return LongTable((), (), self.widths, right=sorted(self.right),
                         _prepared=(self.head, rows, first, height))

    def draw(self) -> None:
        c = self.canv
        f = fonts()
        width = sum(self.widths)
        y = self.height
        bands: list[tuple[float, float, Any]] = []
        placed: list[tuple[float, tuple[Any, ...]]] = []
        hh = self.head[3]
        bands.append((y - hh, hh, HEAD_BG))
        placed.append((y, self.head))
        y -= hh
        for i, row in enumerate(self.rows):
            h = row[3]
            if row[1]:
                bands.append((y - h, h, FLAG_BG))
            elif (self.first + i) % 2 == 1 and not row[2]:
                bands.append((y - h, h, ZEBRA))
            placed.append((y, row))
            y -= h
        c.saveState()
        for colour in dict.fromkeys(b[2] for b in bands):  # one colour change per colour
            c.setFillColor(colour)
            for by, bh, band in bands:
                if band is colour:
                    c.rect(0, by, width, bh, stroke=0, fill=1)
        c.setStrokeColor(INK)
        c.setLineWidth(0.8)
        c.line(0, self.height, width, self.height)
        c.line(0, self.height - hh, width, self.height - hh)
        c.line(0, 0, width, 0)
        if self.rows and self.rows[-1][2]:
            c.line(0, self.rows[-1][3], width, self.rows[-1][3])
        c.setFillColor(INK)
        t = c.beginText()
        put = _TextWriter(c, t)
        right = self.right
        face = ""
        for top, (cells, _flag, is_total, _h) in placed:
            font = f.bold if is_total or top == self.height else f.regular
            if font != face:  # the face holds from row to row until it changes
                t.setFont(font, self.SIZE, self.LEADING)
                face = font
            x = 0.0
            for k, lines in enumerate(cells):
                w = self.widths[k]
                base = top - self.PAD - self.SIZE
                for line in lines:
                    if line:
                        if k in right:
                            put(x + w - 3 - text_width(line, font, self.SIZE), base, line)
                        else:
                            put(x + 3, base, line)
                    base -= self.LEADING
                x += w
        c.drawText(t)
        c.restoreState()


class _TextWriter:
    """``t.setTextOrigin(x, y); t.textOut(text)`` for thousands of table cells, cheaply.

    The operators written are exactly reportlab's (the same page content); what is saved is
    recomputing them. Each number's PDF form is remembered, and each text's encoded form in
    the document's font subsets: whole texts (amounts, names and flags repeat from row to row),
    and single characters, so that a text never seen before (a hand number, a time) is put
    together from its characters when they all sit in the font subset already in use (the
    encoding and the escaping are character by character). What is remembered belongs to one
    document (its canvas): a font's subsets are the document's. Where the text object is not
    the one this was written against, it falls back to the two public calls.
    """

    def __init__(self, canv: Canvas, t: Any) -> None:
        self.t = t
        self.fast = (getattr(canv, "bottomup", 0) == 1 and hasattr(t, "_formatText")
                     and isinstance(getattr(t, "_code", None), list))
        cache = canv.__dict__.get("_dealer_assist_text")
        if cache is None:
            cache = canv.__dict__["_dealer_assist_text"] = ({}, {}, {})
        self.numbers: dict[float, str] = cache[0]
        self.texts: dict[tuple[Any, ...], tuple[str, Any]] = cache[1]
        self.chars: dict[tuple[Any, ...], dict[str, str | None]] = cache[2]

    def _num(self, v: float) -> str:
        got = self.numbers.get(v)
        if got is None:
            got = self.numbers[v] = fp_str(v)
        return got

    def __call__(self, x: float, y: float, text: str) -> None:
        t = self.t
        if not self.fast:
            t.setTextOrigin(x, y)
            t.textOut(text)
            return
        code = t._code
        code.append(f"1 0 0 1 {self._num(x)} {self._num(y)} Tm")
        font = (t._fontname, t._fontsize, t._leading, getattr(t, "_curSubset", None))
        key = (*font, text)
        hit = self.texts.get(key)
        if hit is None:
            hit = self.texts[key] = self._encode(font, text)
        elif hit[1] is not None:
            t._curSubset = hit[1]
        code.append(hit[0])
        t._x0 = t._x = x
        t._y0 = t._y = y

    def _encode(self, font: tuple[Any, ...], text: str) -> tuple[str, Any]:
        """``text`` as reportlab writes it in the subset in use, and the subset after it."""
        t = self.t
        known = self.chars.get(font)
        if known is None:
            known = self.chars[font] = {}
        pieces = [known.get(c) for c in text]
        if pieces and None not in pieces:
            return f"({''.join(pieces)}) Tj", font[3]  # type: ignore[arg-type]
        out = t._formatText(text), getattr(t, "_curSubset", None)
        after = out[1]
        for c in set(text):  # now every character has its code: learn them
            if c not in known:
                t._curSubset = font[3]
                alone = t._formatText(c)
                simple = (alone.startswith("(") and alone.endswith(") Tj")
                          and getattr(t, "_curSubset", None) == font[3])
                known[c] = alone[1:-4] if simple else None  # None: always as a whole text
        t._curSubset = after
        return out


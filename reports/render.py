"""Page layout shared by every report: fonts, styles, the page frame, tables, chart, signatures.

A report leaves the room, so every page says what it is (cardroom, report, table, shift), when and
by whom it was generated, the chain head it was built from, and "Page N of M" (a two-pass canvas
counts the pages before it numbers them). Long tables split across pages with their header row
repeated; cells that might not fit wrap instead of running over the margin.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from contextvars import ContextVar, copy_context
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, tzinfo
from functools import lru_cache, wraps
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from reportlab import rl_config
from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.shapes import Drawing, String
from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.rl_accel import fp_str
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepTogether,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)

from dealer_assist.cards import SUIT_SYMBOL
from dealer_assist.gc_pause import paused_gc
from dealer_assist.money import format_cents
from dealer_assist.reports.data import ChainCheck, Generated, Signature
from dealer_assist.version import version_line

DEJAVU_DIR = Path(os.environ.get("DEALER_ASSIST_FONT_DIR", "/usr/share/fonts/truetype/dejavu"))
INK = colors.HexColor("#111111")
GREY = colors.HexColor("#555555")
RULE = colors.HexColor("#888888")
HEAD_BG = colors.HexColor("#E4E4E4")
ZEBRA = colors.HexColor("#F5F5F5")
FLAG_BG = colors.HexColor("#FFF2CC")
BAD = colors.HexColor("#9C0006")
#: Table text size and leading: report body text is never below 9 pt.
TABLE_PT = 9.0
TABLE_LEADING = 11.0


@dataclass(frozen=True, slots=True)
class Fonts:
    """The faces in use; ``symbols`` is False on the Helvetica fallback (suits become letters)."""

    regular: str
    bold: str
    italic: str
    mono: str
    symbols: bool


_FONTS: Fonts | None = None


def fonts() -> Fonts:
    """DejaVu Sans when installed (it has ♠♥♦♣ and €), else the PDF base fonts."""
    global _FONTS
    if _FONTS is not None:
        return _FONTS
    files = {
        "DejaVuSans": "DejaVuSans.ttf",
        "DejaVuSans-Bold": "DejaVuSans-Bold.ttf",
        "DejaVuSans-Oblique": "DejaVuSans-Oblique.ttf",
        "DejaVuSansMono": "DejaVuSansMono.ttf",
    }
    if all((DEJAVU_DIR / f).is_file() for f in files.values()):
        try:
            for name, f in files.items():
                if name not in pdfmetrics.getRegisteredFontNames():
                    pdfmetrics.registerFont(TTFont(name, str(DEJAVU_DIR / f)))
            pdfmetrics.registerFontFamily(
                "DejaVuSans", normal="DejaVuSans", bold="DejaVuSans-Bold",
                italic="DejaVuSans-Oblique", boldItalic="DejaVuSans-Bold",
            )
            _FONTS = Fonts("DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique",
                           "DejaVuSansMono", True)
            return _FONTS
        except Exception:  # a damaged font file must not stop a report
            pass
    _FONTS = Fonts("Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Courier", False)
    return _FONTS


def use_fallback_fonts() -> None:
    """Force the Helvetica fallback (for rooms without DejaVu, and to test that path)."""
    global _FONTS
    _FONTS = Fonts("Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Courier", False)


def reset_fonts() -> None:
    global _FONTS
    _FONTS = None


# --- text formatting: the only place report values become text --------------------------------


def money(cents: int) -> str:
    return format_cents(cents)


def card(code: str) -> str:
    """``Td`` -> ``10♦`` with DejaVu; ``10d`` on the fallback fonts (no suit glyphs there)."""
    if len(code) != 2 or code == "Jk":
        return "Joker" if code == "Jk" else code
    rank = "10" if code[0] == "T" else code[0]
    suit = code[1]
    if fonts().symbols and suit in SUIT_SYMBOL:
        return rank + SUIT_SYMBOL[suit]
    return rank + suit


def cards(codes: Sequence[str]) -> str:
    return " ".join(card(c) for c in codes)


@dataclass(slots=True)
class ReportState:
    """What one report holds while its story is laid out: the zone its times are printed in
    (the room's; records stay UTC), the scale of its paper, the section being laid out, the
    values printed whole in its appendix, and every table as data (for its CSV files).

    Each report has its own (:func:`begin` starts one, :func:`own_report` keeps it apart from
    the caller's): two reports built at once on two threads, one inside another, or one after
    a failed one never share a note, a table or a zone."""

    zone: tzinfo = UTC
    scale: float = 1.0
    section: str = ""
    appendix: list[tuple[str, str]] = field(default_factory=list)
    #: Every table of the report as data: (section, header, rows, total row or None).
    tables: list[tuple[str, list[str], list[list[str]], list[str] | None]] = field(
        default_factory=list)


_CURRENT: ContextVar[ReportState | None] = ContextVar("dealer_assist_report", default=None)
_P = ParamSpec("_P")
_R = TypeVar("_R")


def current() -> ReportState:
    """The state of the report being laid out in this context (a fresh one outside any)."""
    st = _CURRENT.get()
    if st is None:
        st = ReportState()
        _CURRENT.set(st)
    return st


def own_report(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """Run ``fn`` (a report's render) in a context of its own: the report state it starts
    never replaces its caller's (a report written while another is being laid out)."""

    @wraps(fn)
    def run(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        return copy_context().run(fn, *args, **kwargs)

    return run


def rendered(render: Callable[..., Any], *args: Any) -> tuple[Any, ReportState]:
    """``render(*args)`` in a context of its own, and the state that report left (its
    tables, for the CSV files written beside the PDF)."""
    ctx = copy_context()
    out = ctx.run(render, *args)
    return out, ctx.run(current)


def zone_name() -> str:
    return str(current().zone)


def local(t: datetime) -> datetime:
    """``t`` in the room's time zone (a naive time is taken as UTC)."""
    if t.tzinfo is None:
        t = t.replace(tzinfo=UTC)
    return t.astimezone(current().zone)


def when(t: datetime | None, *, seconds: bool = True) -> str:
    if t is None:
        return "—" if fonts().symbols else "-"
    t = local(t)
    text = t.strftime("%Y-%m-%d %H:%M:%S" if seconds else "%Y-%m-%d %H:%M")
    tz = t.tzname()
    return f"{text} {tz}" if tz else text


def clock(t: datetime | None) -> str:
    if t is None:
        return "-"
    return local(t).strftime("%H:%M:%S")


def clock_on(t: datetime, day: date) -> str:
    """The local time of day; a time on a later day than ``day`` says so (``00:12:05 +1d``)."""
    t = local(t)
    text = t.strftime("%H:%M:%S")
    extra = (t.date() - day).days
    return f"{text} +{extra}d" if extra > 0 else text


def day_text(d: date) -> str:
    return d.strftime("%A %d %B %Y")


def dash() -> str:
    return "—" if fonts().symbols else "-"


_ASCII = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c", "—": "-", "–": "-",
                        "·": "-", "…": "...", "€": "EUR", "×": "x", "≥": ">=", "≤": "<="})


def plain(text: str) -> str:
    """Text the fonts in use can draw: on the fallback fonts suits become letters."""
    return text if fonts().symbols else text.translate(_ASCII)


def esc(text: str) -> str:
    """Escape text for a Paragraph (which reads a little markup); fit it to the fonts."""
    return plain(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# --- styles ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Styles:
    title: ParagraphStyle
    subtitle: ParagraphStyle
    h2: ParagraphStyle
    body: ParagraphStyle
    small: ParagraphStyle
    cell: ParagraphStyle
    cell_bold: ParagraphStyle
    cell_right: ParagraphStyle
    note: ParagraphStyle
    mono: ParagraphStyle


def styles() -> Styles:
    f = fonts()
    body = ParagraphStyle("body", fontName=f.regular, fontSize=9, leading=12, textColor=INK)
    return Styles(
        title=ParagraphStyle("title", parent=body, fontName=f.bold, fontSize=17, leading=21,
                             spaceAfter=2),
        subtitle=ParagraphStyle("subtitle", parent=body, fontSize=10.5, leading=14,
                                textColor=GREY, spaceAfter=8),
        h2=ParagraphStyle("h2", parent=body, fontName=f.bold, fontSize=11.5, leading=15,
                          spaceBefore=10, spaceAfter=4),
        body=body,
        small=ParagraphStyle("small", parent=body, fontSize=9, leading=11.5, textColor=GREY),
        cell=ParagraphStyle("cell", parent=body, fontSize=9, leading=11, alignment=TA_LEFT),
        cell_bold=ParagraphStyle("cellb", parent=body, fontName=f.bold, fontSize=9, leading=11),
        cell_right=ParagraphStyle("cellr", parent=body, fontSize=9, leading=11, alignment=2),
        note=ParagraphStyle("note", parent=body, fontName=f.italic, fontSize=9, leading=11.5,
                            textColor=GREY),
        mono=ParagraphStyle("mono", parent=body, fontName=f.mono, fontSize=9, leading=11),
    )


# --- the page frame ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PageInfo:
    """What every page of one report repeats in its header and footer."""

    cardroom: str
    title: str
    subject: str
    generated: Generated
    chain: str

    @property
    def serial(self) -> str:
        """The report's serial number: its entry in the audit log ("" when not logged)."""
        n = self.generated.serial
        return f"Serial no. {n} (audit log entry {n})" if n else ""


class NumberedCanvas(Canvas):  # type: ignore[misc]
    """Holds every page until the end so each can say "Page N of M" (two passes over pages)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._pages: list[dict[str, Any]] = []

    def showPage(self) -> None:
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self) -> None:
        total = len(self._pages)
        for state in self._pages:
            self.__dict__.update(state)
            self._draw_page_number(total)
            super().showPage()
        super().save()

    def _draw_page_number(self, total: int) -> None:
        f = fonts()
        width = self._pagesize[0]
        self.setFont(f.bold, 8)
        self.setFillColor(INK)
        self.drawRightString(width - 15 * mm, 10 * mm, f"Page {self._pageNumber} of {total}")


#: The paper sizes a room can choose (``dealer-assist room --paper``).
PAPERS = {"a4": A4, "letter": LETTER}
#: The width the layouts are drawn for (A4 less the margins); on narrower paper every table,
#: chart and block is scaled to the frame by the report's ``scale``.
NOMINAL = {False: 180 * mm, True: 267 * mm}


def scaled(widths: Sequence[float]) -> list[float]:
    """Column widths drawn for A4, fitted to the paper in use."""
    k = current().scale
    return list(widths) if k == 1.0 else [w * k for w in widths]


def begin(generated: Generated, *, wide: bool = False) -> ReportState:
    """Start one report's own state: its zone, its paper, and nothing collected yet."""
    start_report()
    use_zone(generated.zone)
    paper = PAPERS.get(generated.paper.lower(), A4)
    frame = (landscape(paper)[0] if wide else paper[0]) - 30 * mm
    st = current()
    st.scale = min(1.0, frame / NOMINAL[wide])
    return st


class ReportDoc(BaseDocTemplate):  # type: ignore[misc]
    """A4 (landscape for wide reports) with a running header and footer on every page."""

    def __init__(self, out: Any, info: PageInfo, *, wide: bool = False) -> None:
        paper = PAPERS.get(info.generated.paper.lower(), A4)
        size = landscape(paper) if wide else paper
        super().__init__(
            out, pagesize=size, leftMargin=15 * mm, rightMargin=15 * mm, topMargin=22 * mm,
            bottomMargin=20 * mm, title=f"{info.title} - {info.subject}", author=info.generated.by,
            subject=info.subject, creator="Dealer Assist",
        )
        self.info = info
        frame = Frame(self.leftMargin, self.bottomMargin, self.width, self.height, id="body",
                      leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
        self.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=self._decorate)])

    def _decorate(self, canv: Canvas, doc: BaseDocTemplate) -> None:
        f = fonts()
        w, h = self.pagesize
        left, right = self.leftMargin, w - self.rightMargin
        info = self.info
        canv.saveState()
        canv.setFillColor(INK)
        canv.setFont(f.bold, 9)
        canv.drawString(left, h - 12 * mm, fit(info.cardroom, f.bold, 9, (right - left) / 2))
        canv.setFont(f.regular, 9)
        subject = f"{info.title} · {info.subject}"
        canv.drawRightString(right, h - 12 * mm, fit(subject, f.regular, 9, (right - left) / 2))
        canv.setStrokeColor(RULE)
        canv.setLineWidth(0.6)
        canv.line(left, h - 14 * mm, right, h - 14 * mm)
        canv.line(left, 14 * mm, right, 14 * mm)
        canv.setFont(f.regular, 8)
        canv.setFillColor(GREY)
        gen = f"Generated {when(info.generated.at)} by {info.generated.by}"
        gen += f" · {version_line()}"
        if info.generated.checkpoint is not None:  # under the header's rule, on the right
            canv.drawRightString(right, h - 17.5 * mm, fit(
                f"Built under signed checkpoint {info.generated.checkpoint} · room key "
                f"{info.generated.key}", f.regular, 8, right - left))
        elif info.generated.unsigned:
            canv.setFillColor(INK)
            text = info.generated.unsigned[:1].upper() + info.generated.unsigned[1:]
            if stringWidth(plain(text), f.regular, 8) > right - left:  # never cut: say where
                text = "No checkpoint signed: why, in full, at the top of page 1"
            canv.drawRightString(right, h - 17.5 * mm, fit(text, f.regular, 8, right - left))
            canv.setFillColor(GREY)
        _line(canv, left, 10 * mm, gen, f.regular, 8, (right - left) - 30 * mm)
        _line(canv, left, 6 * mm, info.chain, f.regular, 8, (right - left) - 75 * mm)
        if info.serial:
            canv.setFont(f.bold, 8)
            canv.setFillColor(INK)
            canv.drawRightString(right, 6 * mm, fit(info.serial, f.bold, 8, 72 * mm))
        canv.restoreState()


def _line(canv: Canvas, x: float, y: float, text: str, font: str, size: float,
          width: float) -> None:
    """A footer line drawn whole: set smaller (down to 6 pt) rather than cut; only a text
    that would not fit even then is shortened."""
    text = plain(text)
    wide = stringWidth(text, font, size)
    if wide > width:
        size = max(6.0, size * width / wide)
    canv.setFont(font, size)
    canv.drawString(x, y, fit(text, font, size, width))
    canv.setFont(font, 8)


def fit(text: str, font: str, size: float, width: float) -> str:
    """Shorten a one-line header or footer text with an ellipsis so it never runs over."""
    return _fit(text, font, size, width, fonts().symbols)


@lru_cache(maxsize=256)
def _fit(text: str, font: str, size: float, width: float, symbols: bool) -> str:
    """:func:`fit` (the same lines on every page: measured once)."""
    text = plain(text)
    if stringWidth(text, font, size) <= width:
        return text
    ell = "…" if symbols else "..."
    while text and stringWidth(text + ell, font, size) > width:
        text = text[:-1]
    return text + ell


def chain_line(chains: Sequence[ChainCheck]) -> str:
    """The footer's integrity line: the head(s) the report was built from and the verify result."""
    if not chains:
        return "No events recorded: nothing to verify"
    if len(chains) == 1:
        c = chains[0]
        state = "verified intact" if c.verified else "VERIFY FAILED"
        return f"Chain {c.table} head #{c.last_seq} {hash_groups(c.head_hash[:16])} ({state})"
    bad = [c for c in chains if not c.verified]
    last = sum(c.last_seq for c in chains)
    if bad:
        return f"{len(chains)} table chains, {last} events: VERIFY FAILED on {bad[0].table}"
    return f"{len(chains)} table chains, {last} events: all verified intact"


def hash_groups(text: str, size: int = 8) -> str:
    """A hash split in groups of ``size`` characters, so a reader can compare it by eye."""
    return " ".join(text[i : i + size] for i in range(0, len(text), size))


def build_pdf(out: str | Path | Any, info: PageInfo, story: list[Flowable], *,
              wide: bool = False) -> int:
    """Lay out ``story`` and write the PDF; returns the number of pages. A report built with
    no signed checkpoint says why, whole, before anything else."""
    story = [*unsigned_story(info.generated.unsigned, styles()), *story,
             *appendix_story(styles(), NOMINAL[wide])]
    doc = ReportDoc(str(out) if isinstance(out, Path) else out, info, wide=wide)
    counter: list[int] = []

    class _Counting(NumberedCanvas):
        def save(self) -> None:
            counter.append(len(self._pages))
            super().save()

    a85, checking = rl_config.useA85, rl_config.shapeChecking
    rl_config.useA85 = 0  # binary compressed streams: smaller, and no slow text encoding
    rl_config.shapeChecking = 0  # the chart's shapes are ours: no check of each assignment
    try:
        with paused_gc():
            doc.build(story, canvasmaker=_Counting)
    finally:
        rl_config.useA85, rl_config.shapeChecking = a85, checking
    return counter[-1] if counter else 0


def use_zone(name: str) -> None:
    """Print this report's times in the zone ``name``."""
    from zoneinfo import ZoneInfo

    current().zone = UTC if name == "UTC" else ZoneInfo(name)


# --- building blocks ---------------------------------------------------------------------------


def heading(text: str, st: Styles, *, need: float = 30) -> list[Flowable]:
    """A section heading that is never left alone at the bottom of a page (``need``: the mm
    it wants below it on the same page)."""
    current().section = text
    return [CondPageBreak(need * mm), Paragraph(esc(text), st.h2)]


# --- what one report collects while its story is laid out: notes in full, tables as data ------

#: A cell longer than this (characters) or than ``CELL_LINES`` lines is summarised, and its
#: whole value printed in the appendix: a table row is never taller than a page.
CELL_CHARS = 480
CELL_LINES = 8
#: A long-table row of more lines than this is carried on in rows of its own (``(cont.)``).
ROW_LINES = 24


def start_report() -> ReportState:
    """A new report's state in this context: nothing the last report collected is in it."""
    st = ReportState()
    _CURRENT.set(st)
    return st


def _note(where: str, text: str) -> int:
    notes = current().appendix
    notes.append((where, text))
    return len(notes)


def summarised(text: str, where: str, *, chars: int = CELL_CHARS) -> str:
    """``text`` itself when short; else its start and a pointer to the appendix, which prints
    it whole (a long value never makes a row taller than a page)."""
    if len(text) <= chars and text.count("\n") < CELL_LINES:
        return text
    head = " ".join(text[: chars * 2 // 3].split("\n")[:CELL_LINES - 2])
    cut = head.rfind(" ")
    if cut > len(head) // 2:
        head = head[:cut]
    n = _note(where, text)
    return f"{head} … [{len(text):,} characters: in full in appendix note {n}]"


def _collect(header: Sequence[str], rows: Sequence[Sequence[object]],
             total: Sequence[object] | None) -> None:
    def text(v: object) -> str:
        if isinstance(v, Paragraph):
            return " ".join(v.getPlainText().split())
        return "" if isinstance(v, Flowable) else str(v)

    st = current()
    st.tables.append((st.section, [str(h) for h in header], [[text(v) for v in r] for r in rows],
                   None if total is None else [text(v) for v in total]))


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
            keep[i] = max(keep[i], _width(word, f.bold, TABLE_PT) + 6.5)
    for bold, row in [*((False, r) for r in rows), *([(True, total)] if total else [])]:
        for i, v in enumerate(row[:len(out)]):
            if isinstance(v, Flowable):
                continue
            text = plain(str(v))
            if rigid(text, i in rset):
                wide = _width(text, f.bold if bold else f.regular, TABLE_PT) + 6.5
                need[i] = max(need[i], wide)
                if not bold:
                    words[i] = False
            elif len(text) < 40:
                for word in text.split():
                    keep[i] = max(keep[i], _width(word, f.regular, TABLE_PT) + 6.5)
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
    _collect(header, rows, total)
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


def nice_step(top: int, ticks: int = 5) -> int:
    """A round axis step in cents (1, 2 or 5 times a power of ten) giving about ``ticks`` ticks."""
    if top <= 0:
        return 100
    raw = -(-top // ticks)
    base = 1
    while base * 10 <= raw:
        base *= 10
    for m in (1, 2, 5, 10):
        if m * base >= raw:
            return m * base
    return 10 * base


def fees_chart(points: Sequence[tuple[datetime, int]], width: float, height: float = 50 * mm,
               title: str = "Fees and drops collected per hour") -> Drawing:
    """A bar chart of cents collected in each clock hour; axis labels in money."""
    f = fonts()
    width = scaled([width])[0]
    d = Drawing(width, height)
    if title:
        d.add(String(0, height - 10, plain(title), fontName=f.bold, fontSize=9, fillColor=INK))
    chart = VerticalBarChart()
    chart.x, chart.y = 18 * mm, 14 * mm
    chart.width, chart.height = width - 22 * mm, height - 14 * mm - (16 if title else 4)
    values = [int(v) for _, v in points] or [0]
    top = max(values)
    bottom = min(0, *values)  # an hour in which more time was given back than collected
    step = nice_step(max(top, -bottom))
    chart.data = [values]
    chart.categoryAxis.categoryNames = [local(t).strftime("%H:%M") for t, _ in points] or [""]
    chart.categoryAxis.labels.fontName = f.regular
    chart.categoryAxis.labels.fontSize = 7
    if len(points) > 16:
        chart.categoryAxis.labels.angle = 45
        chart.categoryAxis.labels.boxAnchor = "ne"
    chart.valueAxis.valueMin = -step * (-bottom // step + (1 if -bottom % step else 0))
    chart.valueAxis.valueMax = step * max(1, -(-top // step))
    chart.valueAxis.valueStep = step
    chart.valueAxis.labels.fontName = f.regular
    chart.valueAxis.labels.fontSize = 7
    chart.valueAxis.labelTextFormat = _axis_money
    chart.valueAxis.visibleGrid = True
    chart.valueAxis.gridStrokeColor = colors.HexColor("#DDDDDD")
    chart.bars[0].fillColor = colors.HexColor("#4A6FA5")
    chart.bars[0].strokeColor = None
    chart.barSpacing = 1
    d.add(chart)
    return d


def _axis_money(value: Any) -> str:
    return format_cents(round(value))


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
            _collect(header, rows, total)
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
            if "\n" not in text and _width(text, font, self.SIZE) <= avail:
                out.append([text])
                continue
            lines = [ln for part in text.split("\n")
                     for ln in (_split(part, font, self.SIZE, avail) or [""])]
            if self.summarise and len(lines) > CELL_LINES:
                col = str(header[k]) if k < len(header) else ""
                where = f"{self.where}, {col}" if col else self.where
                n = _note(where, text)
                short = (" ".join(lines[:CELL_LINES - 3]) + f" … [{len(text):,} characters: "
                         f"in full in appendix note {n}]")
                lines = _split(plain(short), font, self.SIZE, avail)
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
                            put(x + w - 3 - _width(line, font, self.SIZE), base, line)
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


@lru_cache(maxsize=16384)
def _width(text: str, font: str, size: float) -> float:
    """Text width, remembered: long tables repeat the same amounts and times many times."""
    return float(stringWidth(text, font, size))


def _split(text: str, font: str, size: float, width: float) -> list[str]:
    from reportlab.lib.utils import simpleSplit

    lines: list[str] = simpleSplit(text, font, size, width)
    out: list[str] = []
    for line in lines:  # a word wider than the column (a hash, a long code) is cut
        while _width(line, font, size) > width and len(line) > 1:
            cut = len(line) - 1
            while cut > 1 and _width(line[:cut], font, size) > width:
                cut -= 1
            out.append(line[:cut])
            line = line[cut:]
        out.append(line)
    return out

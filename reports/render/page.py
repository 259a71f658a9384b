"""The page furniture and the PDF writer: the paper and the scale of a report's tables on it,
the running header and footer with "Page N of M" on every page, and the PDF written from a story.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab import rl_config
from reportlab.lib.pagesizes import A4, LETTER, landscape
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate

from dealer_assist.gc_pause import paused_gc
from dealer_assist.reports.data.records import Generated
from dealer_assist.reports.render.blocks import appendix_story, unsigned_story
from dealer_assist.reports.render.state import ReportState, current, start_report, use_zone
from dealer_assist.reports.render.style import GREY, INK, RULE, fonts, styles
from dealer_assist.reports.render.text import fit, plain, when
from dealer_assist.version import version_line


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


"""The reports' look: colours, the fonts (DejaVu for suits and the euro sign where installed,
the PDF's own fonts otherwise) and the paragraph styles.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

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


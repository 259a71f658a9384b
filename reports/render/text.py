"""Text formatting, the only place report values become text: money, cards, times in the room's
zone, and text fitted to a width.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from functools import lru_cache

from reportlab.pdfbase.pdfmetrics import stringWidth

from dealer_assist.cards import SUIT_SYMBOL
from dealer_assist.money import format_cents
from dealer_assist.reports.data.records import ChainCheck
from dealer_assist.reports.render.state import current
from dealer_assist.reports.render.style import fonts


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


@lru_cache(maxsize=16384)
def text_width(text: str, font: str, size: float) -> float:
    """Text width, remembered: long tables repeat the same amounts and times many times."""
    return float(stringWidth(text, font, size))


def wrap_lines(text: str, font: str, size: float, width: float) -> list[str]:
    """``text`` broken into lines that fit ``width``; a word wider than the column (a hash, a
    long code) is cut, so no line runs over the margin."""
    return list(_wrapped(text, font, size, width))


@lru_cache(maxsize=16384)
def _wrapped(text: str, font: str, size: float, width: float) -> tuple[str, ...]:
    """:func:`wrap_lines`, remembered: a long listing wraps the same texts in the same
    columns many times, and reportlab measures every word of each again."""
    from reportlab.lib.utils import simpleSplit

    lines: list[str] = simpleSplit(text, font, size, width)
    out: list[str] = []
    for line in lines:  # a word wider than the column (a hash, a long code) is cut
        while text_width(line, font, size) > width and len(line) > 1:
            cut = len(line) - 1
            while cut > 1 and text_width(line[:cut], font, size) > width:
                cut -= 1
            out.append(line[:cut])
            line = line[cut:]
        out.append(line)
    return tuple(out)


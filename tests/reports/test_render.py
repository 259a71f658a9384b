"""The layout, from report-data built by hand: page numbering, repeated headers, signatures,
money and suit symbols, and the Helvetica fallback."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from reportlab.platypus import Paragraph

from dealer_assist.reports.data.hand import SeatLine, Snapshot
from dealer_assist.reports.layouts.shift import render_shift
from dealer_assist.reports.render import style, tables
from dealer_assist.reports.render.text import card, cards, plain

from .pdftext import pages
from .samples import shift_report


@pytest.fixture
def fallback_fonts() -> Iterator[None]:
    style.use_fallback_fonts()
    yield
    style.reset_fonts()


def test_every_page_says_page_n_of_m(tmp_path: Path) -> None:
    out = tmp_path / "shift.pdf"
    n = render_shift(shift_report(120), out)
    text = pages(out)
    assert n == len(text) >= 4
    for i, page in enumerate(text, start=1):
        assert f"Page {i} of {n}" in page


def test_the_hands_table_repeats_its_header_on_every_page_it_spans(tmp_path: Path) -> None:
    out = tmp_path / "shift.pdf"
    render_shift(shift_report(200), out)
    text = [" ".join(p.split()) for p in pages(out)]
    row = re.compile(r"(?:^| )(\d+) \d\d:\d\d:\d\d(?: \+1d)? 8 \$")
    with_rows = [p for p in text if row.search(p)]
    assert len(with_rows) >= 4
    for p in with_rows:
        assert "Hand Time Players Pot Raked on Fee Pushed Carry Winners Flags" in p
    numbers = [int(m) for p in with_rows for m in row.findall(p)]
    assert numbers == list(range(1, 201))  # every hand once, in order, across the pages
    assert "23:57:00 8" in " ".join(text) and "00:00:00 +1d 8" in " ".join(text)


def test_signature_lines_carry_full_names_and_roles(tmp_path: Path) -> None:
    out = tmp_path / "shift.pdf"
    render_shift(shift_report(5), out)
    last = pages(out)[-1]
    for role, name in (("Dealer", "Dana Dealer"), ("Floor", "Frank Floor"),
                       ("Cage", "Cora Cashier")):
        assert role in last
        assert f"Signature — {name}" in last


def test_totals_are_printed_as_money(tmp_path: Path) -> None:
    out = tmp_path / "shift.pdf"
    r = shift_report(120)
    render_shift(r, out)
    text = "\n".join(pages(out))
    assert r.put_in == 1632000
    assert "$16,320" in text  # money put in by players
    assert "$360" in text  # fees total 36,000 cents
    assert "Generated 2026-11-22 02:00:00 UTC by Alma Floorwalker (floor)" in text
    assert "verified intact" in text


def test_a_long_cell_wraps_instead_of_running_over_the_margin() -> None:
    cell = tables.Cell(style.styles())
    assert cell("$1,234", 60) == "$1,234"
    wrapped = cell("seat 1: $90, seat 4: $30, seat 8: $12, seat 2: $1,234.50, seat 7: $5", 60)
    assert isinstance(wrapped, Paragraph)
    _, h = wrapped.wrap(60 - 6, 1000)
    assert h > 20  # more than one line


def test_suits_are_symbols_with_dejavu(tmp_path: Path) -> None:
    if not style.fonts().symbols:
        pytest.skip("DejaVu Sans is not installed here")
    assert card("Td") == "10♦" and cards(("As", "Kh")) == "A♠ K♥"


def test_suits_become_letters_on_the_fallback_fonts(fallback_fonts: None,
                                                     tmp_path: Path) -> None:
    assert style.fonts().regular == "Helvetica"
    assert card("Td") == "10d" and cards(("As", "Kh")) == "As Kh"
    assert plain("3♥ 5♦ — ok") == "3h 5d - ok"
    out = tmp_path / "shift.pdf"
    r = shift_report(3)
    render_shift(replace(r, table="T1 ♠"), out)
    text = "\n".join(pages(out))
    assert "T1 s" in text and "♠" not in text


def test_snapshot_marks_revealed_cards() -> None:
    from dealer_assist.reports.layouts.hand import _snapshot

    snap = Snapshot(after_event=9, label="end of the hand", seats=(
        SeatLine(1, ("As", "Td"), status="destroyed", revealed=True),
        SeatLine(2, (), withheld=2, status="destroyed"),
        SeatLine(3, ("9h",), face_down=2, status=""),
    ))
    flow = _snapshot(snap, style.styles(), 500, True)
    table = flow[0]._content[1]  # KeepTogether([title, table])
    cells = [str(c) for row in table._cellvalues for c in row]
    assert any("A♠ 10♦  [REVEALED]" in c or "As 10d  [REVEALED]" in c for c in cells)
    assert "2 cards withheld" in cells
    assert any(c in ("9♥ + 2 face down", "9h + 2 face down") for c in cells)


def test_column_heading_never_below_the_floor_it_wraps_with_a_hyphen_instead() -> None:
    """docs/reports.md: a heading is set smaller only down to 7.5 pt (the body is 9 pt); a word
    still too wide is broken onto the next line with a hyphen, each line within the column."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    st = style.styles()
    bold = style.fonts().bold
    slightly = tables.head_cell("Corrections", 62, st)  # a little too wide: set smaller
    assert tables.HEAD_PT_FLOOR < slightly.style.fontSize < 9 and "<br/>" not in slightly.text
    narrow = tables.head_cell("Adjustments by seat", 34, st, right=True)
    assert narrow.style.fontSize == tables.HEAD_PT_FLOOR == 7.5
    lines = narrow.text.removeprefix("<b>").removesuffix("</b>").split("<br/>")
    assert len(lines) >= 3 and lines[0].endswith("-")
    assert "".join(w.rstrip("-") for w in " ".join(lines).split()).startswith("Adjustments")
    assert all(stringWidth(line, bold, 7.5) <= 34 - 6 for line in lines), lines
    wide = tables.head_cell("Hands", 80, st)
    assert wide.style.fontSize == 9 and wide.text == "<b>Hands</b>"

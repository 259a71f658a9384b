"""Numbers never break: on Letter paper a money cell (a total in bold above all) and a table's
name stay on one line; the column widens and a column of words gives up the room (it wraps
instead)."""

from __future__ import annotations

import subprocess
from dataclasses import replace
from datetime import date
from pathlib import Path

from dealer_assist.reports.data.day import DayReport, TableDay
from dealer_assist.reports.data.records import FeeTotal
from dealer_assist.reports.layouts.day import render_day
from dealer_assist.reports.layouts.shift import render_shift
from dealer_assist.reports.render.tables import rigid

from .samples import CHAIN, GEN, SIGS, shift_report


def _layout(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True,
                          text=True, check=True).stdout


def test_a_value_read_as_one_thing_is_rigid() -> None:
    assert all(rigid(t) for t in ("$11,080.38", "-$4", "SHORT $1", "Table 10", "23:54:00"))
    assert not rigid("7: $8,220, 2: $5,480") and not rigid("Francesca Floor")


def test_shift_report_totals_never_wrap_at_letter_size(tmp_path: Path) -> None:
    r = shift_report(120)
    hands = tuple(replace(h, put_in=h.put_in * 100, pushed=h.pushed * 100 + 29_700,
                          carry_in=h.carry_in * 100, carry_out=h.carry_out * 100)
                  for h in r.hands)
    r = replace(r, hands=hands, table="Table 10", generated=replace(GEN, paper="Letter"))
    out = tmp_path / "shift.pdf"
    render_shift(r, out)
    text = _layout(out)
    (total,) = [line.split() for line in text.splitlines() if line.startswith(" Total ")
                and "$1,653,600" in line]
    assert total == ["Total", "$1,653,600", "$0", "$360", "$1,632,840", "$20,400"]
    assert "$1,653,60\n" not in text and "Table 10, shift 7" in text


def test_day_report_table_names_and_money_never_wrap_at_letter_size(tmp_path: Path) -> None:
    tables = tuple(TableDay(f"Table {n}", "Crazy Pineapple Hi-Lo", 3, 100, 1_108_038_00,
                            1_200_00, 1_099_000_00, 1_200_00, 8_038_00, 1_000_00,
                            time_fees=13_000) for n in range(1, 17))
    r = DayReport(cardroom="Riverside Card Club", day=date(2026, 11, 21), tables=tables,
                  fees=(FeeTotal("rake", 16 * 8_038_00, 1600),),
                  chains=(CHAIN,),
                  generated=replace(GEN, paper="Letter"), signatures=SIGS)
    out = tmp_path / "day.pdf"
    render_day(r, out)
    lines = _layout(out).splitlines()
    for n in range(1, 17):
        assert any(line.split()[:2] == ["Table", str(n)] and "$1,108,038" in line
                   for line in lines if line.strip()), n
    assert not any(line.strip() in {"Table", "0", "00", ".00"} for line in lines)
    assert any("$17,728,608" in line for line in lines)  # the put-in total, whole

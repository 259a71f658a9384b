"""The CSV files written beside a report's PDF, for a board's own tools.

One file per table of the report, named by its section (``shift-05-drop-count-entries.csv``);
every row ends with the report it came from (kind, serial, table or shift or period, and the
chain head it was built from); amounts are plain numbers: dollars with a point and two decimals,
a minus for negatives, no currency sign or thousands separator ("11080.38", "-4.00"), in every
column whose heading says "($)". Nothing else of the printed table changes.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer_assist.errors import BadInput

#: An amount as the reports print it: "$11,080.38", "-$4", "$0.05".
_AMOUNT = re.compile(r"(?<![\w$])(-?)\$(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)")
#: A variance in words: "SHORT $1" (counted less than expected), "over $2".
_VARIANCE = re.compile(r"^(SHORT|over) \$([\d,]+(?:\.\d+)?)$")
#: A money cell with nothing in it, as printed.
_NOTHING = frozenset({"—", "-", "–", "none"})
#: What the columns added to every row are called.
REPORT_COLUMNS = ["Report", "Report serial", "Table, shift or period", "Chain head"]


@dataclass(frozen=True, slots=True)
class CsvSource:
    """Which report a CSV file's rows come from."""

    kind: str
    serial: int
    subject: str
    chain_head: str

    def columns(self) -> list[str]:
        return [self.kind, str(self.serial), self.subject, self.chain_head]


def _number(digits: str, minus: str) -> str:
    cents = round(float(digits.replace(",", "")) * 100)
    value = f"{cents // 100}.{cents % 100:02d}"
    return f"-{value}" if minus and cents else value


def plain_amounts(text: str) -> tuple[str, bool]:
    """``text`` with every amount as a plain number, and whether it held one."""
    m = _VARIANCE.match(text.strip())
    if m is not None:
        return _number(m.group(2), "-" if m.group(1) == "SHORT" else ""), True
    found = False

    def repl(a: re.Match[str]) -> str:
        nonlocal found
        found = True
        return _number(a.group(2), a.group(1))

    return _AMOUNT.sub(repl, text), found


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:48] or "table"


def file_names(stem: str, tables: Sequence[Any]) -> list[str]:
    """One distinct name per table: its number and its section (``day-07-drop-count``); a
    second table of the same section is named by its first headings as well."""
    seen: set[str] = set()
    out = []
    for n, (section, header, _rows, _total) in enumerate(tables, start=1):
        name = slug(section)
        if name in seen:
            name = slug(f"{section} {' '.join(str(h) for h in header[:2])}")
        while name in seen:
            name = f"{name}-{n}"
        seen.add(name)
        out.append(f"{stem}-{n:02d}-{name}.csv")
    return out


def write_tables(path: Path, tables: Sequence[Any], source: CsvSource) -> list[Path]:
    """Each table of a report as a CSV file beside ``path`` (its PDF)."""
    written = []
    for target_name, (section, header, rows, total) in zip(
            file_names(path.stem, tables), tables, strict=True):
        del section
        lines = [*rows, *([total] if total is not None else [])]
        plain = [[plain_amounts(str(v)) for v in line] for line in lines]
        money = {i for line in plain for i, (_, amount) in enumerate(line) if amount}
        plain = [[("", False) if i in money and text.strip() in _NOTHING else (text, a)
                  for i, (text, a) in enumerate(line)] for line in plain]
        head = [f"{h} ($)" if i in money else str(h) for i, h in enumerate(header)]
        target = path.with_name(target_name)
        try:
            with target.open("w", newline="", encoding="utf-8") as f:
                w = csv.writer(f)
                w.writerow([*head, *REPORT_COLUMNS])
                for line in plain:
                    w.writerow([*(text for text, _ in line), *source.columns()])
        except OSError as exc:
            raise BadInput(f"cannot write {target}: {exc.strerror or exc}") from exc
        written.append(target)
    return written


def source_of(report: Any) -> CsvSource:
    """Kind, serial, subject and chain head of any report."""
    from dealer_assist.reports.data.audit import AuditReport
    from dealer_assist.reports.data.day import DayReport
    from dealer_assist.reports.data.hand import HandReport
    from dealer_assist.reports.data.shift import ShiftReport

    gen = report.generated
    if isinstance(report, ShiftReport):
        return CsvSource("shift report", gen.serial,
                         f"table {report.table}, shift {report.shift_id}", _head(report.chain))
    if isinstance(report, HandReport):
        return CsvSource(report.title.lower(), gen.serial,
                         f"table {report.table}, hand {report.number}", _head(report.chain))
    if isinstance(report, DayReport):
        return CsvSource("day summary", gen.serial, f"gaming day {report.day.isoformat()}",
                         "; ".join(_head(c) for c in report.chains))
    if isinstance(report, AuditReport):
        chain = report.audit_chain
        return CsvSource("audit report", gen.serial,
                         f"{report.period_from:%Y-%m-%d %H:%M} to "
                         f"{report.period_to:%Y-%m-%d %H:%M} UTC",
                         _head(chain) if chain is not None else "")
    return CsvSource("game report", gen.serial, f"table {report.table}, hands {report.first} "
                     f"to {report.last}", _head(report.chain))


def _head(c: Any) -> str:
    return f"{c.table} #{c.last_seq} {c.head_hash}"

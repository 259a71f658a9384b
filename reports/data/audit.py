"""The audit report's records: the audit-log lines of a window and the chains they rest on."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dealer_assist.reports.data.records import (
    ChainCheck,
    ExceptionLine,
    Generated,
    Record,
    Signature,
)
from dealer_assist.services.floorboard.stats import FloorFigures


@dataclass(frozen=True, slots=True)
class AuditLine(Record):
    """One sensitive action: a login, lockout, reveal, void, export or report. ``number`` is
    its entry number in the audit log's chain (a report's serial is such a number)."""

    at: datetime
    user: str
    role: str
    action: str
    target: str
    detail: str = ""
    number: int = 0


@dataclass(frozen=True, slots=True)
class AuditReport(Record):
    cardroom: str
    period_from: datetime
    period_to: datetime
    entries: tuple[AuditLine, ...]
    chains: tuple[ChainCheck, ...]
    generated: Generated
    signatures: tuple[Signature, ...]
    #: The audit log's own chain (all of it, not only the period), walked for this report.
    audit_chain: ChainCheck | None = None
    #: The entries that record rows (``record-*``) in the period, by kind: (kind, how many,
    #: their entry numbers as ranges "812-815, 820").
    records: tuple[tuple[str, int, str], ...] = ()
    #: Entry numbers in the period neither printed nor counted ("" when none is missing).
    gaps: str = ""
    #: The jackpot and promotional funds over the period (``reports.funds.DropFund``), and
    #: the exceptions of their carry from the report that closed them before.
    drop_funds: tuple[Any, ...] = ()
    exceptions: tuple[ExceptionLine, ...] = ()
    #: The floor board's records in the period, by kind (reports/floor_section.py).
    floor_board: FloorFigures | None = None

    def counts(self) -> tuple[tuple[str, int], ...]:
        out: dict[str, int] = {}
        for e in self.entries:
            out[e.action] = out.get(e.action, 0) + 1
        return tuple(sorted(out.items()))


"""The plain report-data objects: what a report says, before any page layout.

Builders fill these from the store (read-only) and the renderer lays them out; neither knows the
other. Money is int cents, times are ``datetime`` and cards are their ASCII codes (``"Td"``):
formatting happens only in the renderer. Totals that can be derived from the lines are derived
here, so a report can never print a total its own lines contradict. One module per report
(``shift``, ``hand``, ``audit``, ``day``) over the shared ``records``, ``counts`` and ``lines``.
"""

from __future__ import annotations

from dealer_assist.reports.data.audit import AuditLine, AuditReport
from dealer_assist.reports.data.counts import CountLine, CountSignoff, DropCount, DropRecord
from dealer_assist.reports.data.day import DayReport, ImportedHand, TableDay
from dealer_assist.reports.data.hand import (
    EventLine,
    HandReport,
    LedgerEntry,
    SeatLine,
    SettlementData,
    Snapshot,
)
from dealer_assist.reports.data.lines import (
    AdjustmentLine,
    DisputeLine,
    DisputeNote,
    FundBalance,
    FundMove,
    HandLine,
    RevealLine,
    StackChange,
    VoidLine,
    fees_by_kind,
    fees_per_hour,
    fund_balance,
)
from dealer_assist.reports.data.records import (
    FUND_KINDS,
    ChainCheck,
    ExceptionLine,
    FeeSchedule,
    FeeTotal,
    Generated,
    Record,
    Signature,
    TimeCollection,
    is_fund_kind,
    table_label,
)
from dealer_assist.reports.data.shift import ShiftReport

__all__ = [
    "FUND_KINDS",
    "AdjustmentLine",
    "AuditLine",
    "AuditReport",
    "ChainCheck",
    "CountLine",
    "CountSignoff",
    "DayReport",
    "DisputeLine",
    "DisputeNote",
    "DropCount",
    "DropRecord",
    "EventLine",
    "ExceptionLine",
    "FeeSchedule",
    "FeeTotal",
    "FundBalance",
    "FundMove",
    "Generated",
    "HandLine",
    "HandReport",
    "ImportedHand",
    "LedgerEntry",
    "Record",
    "RevealLine",
    "SeatLine",
    "SettlementData",
    "ShiftReport",
    "Signature",
    "Snapshot",
    "StackChange",
    "TableDay",
    "TimeCollection",
    "VoidLine",
    "fees_by_kind",
    "fees_per_hour",
    "fund_balance",
    "is_fund_kind",
    "table_label",
]

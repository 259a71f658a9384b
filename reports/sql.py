"""The reports' bulk reads, taken through the read-side port.

A report over thousands of hands reads them in a few statements when the store offers a bulk
reader (the database store's, ``dealer_assist.db.bulk_reads``), and through the port a hand at
a time when it does not (the in-memory store, a station's journal).
"""

from __future__ import annotations

from dealer_assist.services.reads import BulkReads, LedgerRow, Reads, ledger_line

__all__ = ["BulkReads", "LedgerRow", "ledger_line", "sql_source"]


def sql_source(store: Reads) -> BulkReads | None:
    """The store's bulk reader, or ``None`` for a store without one."""
    return store.bulk_reads()

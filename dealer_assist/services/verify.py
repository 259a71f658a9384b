"""Verification: walk each table's hash chain, replay every hand through its game, and check
every settlement conserves chips and matches the ledger.

The checks are fed rows one at a time (:class:`TableCheck`, ``verify_table.py``), so the
database verifier can stream them; each hand is replayed and held to its ledger by
``verify_hand.py``; what verify finds is ``verify_report.py``'s. :func:`verify_store` runs the
same checks over any store. The names the database verifier, the reports and the tests read
are given here as before.
"""

from __future__ import annotations

from collections.abc import Iterable

from dealer_assist.services.audit_chain import check_audit_chain
from dealer_assist.services.chain import canonical
from dealer_assist.services.reads import Reads
from dealer_assist.services.verify_hand import (
    HandJob,
    HandNote,
    HandProblem,
    RecordFault,
    StoredLine,
    check_hand,
    ledger_diff,
    time_findings,
    unreadable,
)
from dealer_assist.services.verify_report import (
    HASH_BROKEN,
    LINK_BROKEN,
    HandInfo,
    Problem,
    VerifyReport,
)
from dealer_assist.services.verify_table import Part, TableCheck

__all__ = [
    "HASH_BROKEN",
    "LINK_BROKEN",
    "HandInfo",
    "HandJob",
    "HandNote",
    "HandProblem",
    "Part",
    "Problem",
    "RecordFault",
    "StoredLine",
    "TableCheck",
    "VerifyReport",
    "check_hand",
    "ledger_diff",
    "time_findings",
    "unreadable",
    "verify_store",
]


def verify_store(store: Reads, hands: Iterable[tuple[int, HandInfo]] | None = None) -> VerifyReport:
    """Verify every table of ``store`` (the in-memory store, or any store, row by row)."""
    report = VerifyReport()
    from dealer_assist.services.model import HandFilter

    info = dict(hands) if hands is not None else {
        h.id: HandInfo(h.table_id, h.number, h.status)
        for h in store.list_hands(HandFilter(limit=None))
    }
    for table in store.list_tables():
        report.tables += 1
        head = store.chain_head(table.id)
        check = TableCheck(table.id, table.name)
        for r in store.table_events(table.id):
            check.row(r.seq, r.hand_id, r.number, r.time, r.actor, canonical(r.body),
                      r.prev_hash, r.hash)
        report.events += check.rows
        ledgers = {h: store.ledger(h) for h, i in info.items() if i.table_id == table.id}
        report.hands += check.finish(info, ledgers)
        check.check_time(store.settings_versions(table.id), store.time_ledger(table.id))
        if head is not None and check.problem is None and head.seq != check.last_seq:
            check.problem = Problem(table.id, table.name, check.last_seq + 1, "chain head differs")
        report.add(check.problem)
        report.problems.extend(check.faults)
        report.notes.extend(check.notes)
    report.audit = check_audit_chain(store.audit_log(records=True), store.audit_head())
    return report

"""``dealer-assist verify``: the whole database checked, each table's chain in parts on every CPU.

The parts: :mod:`.reader` reads the rows in (on worker processes for a large database),
:mod:`.walk` plans the parts, joins them table by table and gathers the report of faults,
:mod:`.hand_rules` checks each hand against its settings and the hand before, and
:mod:`.records` compares the rows of users, tables, settings, shifts and disputes with their
records on the audit chain, re-checks the input rules and walks the audit log's chain.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from sqlalchemy.exc import DBAPIError

from dealer_assist.db.approvals_check import check_approvals_db
from dealer_assist.db.bootstrap import Database, unavailable
from dealer_assist.db.verify.aside import aside
from dealer_assist.db.verify.reader import driver_error
from dealer_assist.db.verify.records import (
    check_audit_log,
    check_records_db,
    check_rules_db,
    check_sealed_db,
    rule_records_db,
)
from dealer_assist.db.verify.walk import verify_all, verify_since
from dealer_assist.services.verify import VerifyReport

__all__ = [
    "check_audit_log", "check_records_db", "check_rules_db", "check_sealed_db", "rule_records_db",
    "verify_database",
]


def verify_database(
    db: Database,
    *,
    progress: Callable[[int, int], None] | None = None,
    workers: int | None = None,
    key: Any = None,
    anchors: Any = None,
    since_checkpoint: bool = False,
) -> VerifyReport:
    """Walk every chain, replay every hand, check every settlement against the ledger, every
    fee against its settings version and every hand against the one before; compare the rows
    of users, tables, settings, shifts and disputes with their records on the audit chain; and
    check the signed checkpoints (with ``key``, the room's :class:`~dealer_assist.db.keys.RoomKey`:
    their signatures) and an exported anchors file (``anchors``).

    Every faulty table is named, each at its first bad sequence number.
    ``since_checkpoint``: check only what came after the newest checkpoint that verifies (and
    the whole of a hand it cut); without a key to check its signature, everything.
    ``progress(hands_done, hands_total)`` is called as the parts are joined. The parts are
    checked on ``workers`` processes (default: every CPU, for large databases).
    """
    from dealer_assist.db.checkpoints import check_checkpoints
    from dealer_assist.db.floor_records import SeatsSince, floor_seat_faults
    from dealer_assist.db.room_records import check_room_rows

    try:
        with db.engine.connect() as conn:
            conn.execution_options(dealer_assist_read=True)
            anchored = check_checkpoints(conn, key, anchors, every=not since_checkpoint)
        # a checkpoint whose signature was not checked (no key here) is not trusted to start
        # from: without the room's key (or an anchors file's), verify in full
        # start only from a checkpoint signed after a check found everything intact (one
        # signed for a report vouches for nothing); the audit chain is walked whole (a few
        # thousand entries), so an entry changed before the checkpoint is named too
        # the sealed records and the floor's seating read the whole database on their own: a
        # full verify checks them while its workers check the chains' parts
        early: dict[str, list[str]] = {}
        if since_checkpoint and anchored.base is not None and anchored.signed:
            signed = anchored.base.data
            seats = SeatsSince(
                hands={int(t["id"]): int(t.get("hands", 0)) for t in signed.get("tables", ())},
                entries=int(signed.get("records", {}).get("floor_entries", {}).get("entries", 0)),
                at=anchored.base.at)
            # the sealed records and the seating are read whole: on a worker of their own
            # while this process walks the chains from the checkpoint (a large database)
            with aside(db, seats, workers) as whole:
                report = verify_since(db, anchored.base)
                report.since = anchored.base.number
                report.audit = check_audit_log(db)
            early["sealed"], early["seats"] = whole()
        else:
            def meanwhile() -> None:
                early["sealed"] = check_sealed_db(db)
                early["seats"] = floor_seat_faults(db)

            report = verify_all(db, progress, workers, meanwhile)
            report.audit = check_audit_log(db)
        report.findings.extend(check_records_db(db))
        report.findings.extend(early["sealed"] if "sealed" in early else check_sealed_db(db))
        check_room_rows(db, report)  # the room's records: audit entries and typed rows agree
        report.findings.extend(  # the floor board's seating
            early["seats"] if "seats" in early else floor_seat_faults(db))
        report.findings.extend(str(f) for f in check_rules_db(db))
        approvals, old = check_approvals_db(db)
        report.findings.extend(approvals)
        report.notes.extend(old)
        report.findings.extend(anchored.problems)
        report.anchored = anchored.summary()
        return report
    except DBAPIError as exc:
        raise unavailable(exc, db.describe()) from exc
    except Exception as exc:
        if driver_error(exc):
            raise unavailable(exc, db.describe()) from exc
        raise

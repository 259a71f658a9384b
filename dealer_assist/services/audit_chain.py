"""The audit log's own hash chain: every sensitive action (sign-ins, lockouts, reveals, voids,
exports, reports, user changes) is numbered and chained to the one before it, and the store
keeps the chain's head (how many entries, the last hash) beside it, so an entry changed,
deleted, inserted or reordered behind the app's back, or entries cut from the end, show.

The chain is one per database (the audit log is the cardroom's, not a table's).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from dealer_assist.services.chain import GENESIS, canonical, time_text
from dealer_assist.services.model import AuditEntry

__all__ = ["GENESIS", "AuditCheck", "AuditHead", "audit_hash", "check_audit_chain"]


@dataclass(frozen=True, slots=True)
class AuditHead:
    """What the store says of its audit chain: how many entries, and the last one's hash."""

    entries: int
    hash: str = GENESIS


def audit_hash(
    *, seq: int, at: datetime, actor: str | None, action: str, detail: str,
    table_id: int | None, hand_id: int | None, prev_hash: str,
) -> str:
    """sha256 over the canonical JSON of the entry's place, time, who, what and the previous
    entry's hash."""
    payload = canonical(
        [seq, time_text(at), actor, action, detail, table_id, hand_id, prev_hash]
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def entry_hash(entry: AuditEntry, prev_hash: str) -> str:
    return audit_hash(
        seq=entry.seq, at=entry.at, actor=entry.actor, action=entry.action,
        detail=entry.detail, table_id=entry.table_id, hand_id=entry.hand_id,
        prev_hash=prev_hash,
    )


@dataclass(frozen=True, slots=True)
class AuditCheck:
    """The audit chain walked: how many entries, and the first thing wrong (None: intact).

    ``entry_id`` names the stored entry at fault (its id in the audit log), when there is one.
    """

    entries: int
    problem: str | None = None
    entry_id: int | None = None

    @property
    def ok(self) -> bool:
        return self.problem is None

    def summary(self) -> str:
        if self.problem is None:
            return f"audit log intact: {self.entries} entries, every one chained"
        return f"audit log NOT INTACT: {self.problem}"


def check_audit_chain(
    entries: Iterable[AuditEntry], head: AuditHead | None,
    *, start: tuple[int, str] = (0, GENESIS),
) -> AuditCheck:
    """Walk the entries in the order they were stored; compare the end with ``head``.

    Each entry must be the next number, name the previous entry's hash and hash to what it
    stores; the last must be the head. ``head`` None: the store keeps no head (nothing to
    compare the end with). ``start``: the number and hash of the entry before the first given
    (a signed checkpoint's audit head, for an incremental check).
    """
    n, last = start
    for entry in entries:
        n += 1
        where = f"entry {n} (id {entry.id}, {entry.action} by {entry.actor or 'nobody'})"
        if entry.seq != n:
            what = "is missing (deleted)" if entry.seq > n else "appears twice or out of order"
            return AuditCheck(
                n - 1, f"audit entry {n} {what}; the next stored entry says it is {entry.seq}",
                entry.id,
            )
        if entry.prev_hash != last:
            return AuditCheck(
                n - 1, f"{where}: its previous-hash does not match the entry before it (an "
                "entry was deleted, inserted or reordered)", entry.id,
            )
        if entry_hash(entry, last) != entry.hash:
            return AuditCheck(
                n - 1, f"{where}: its hash does not match its content (it was changed after "
                "it was recorded)", entry.id,
            )
        last = entry.hash
    if head is not None:
        if head.entries != n:
            return AuditCheck(
                n, f"the audit chain's head says {head.entries} entries but {n} are stored "
                "(entries at the end were deleted)" if head.entries > n else
                f"the audit chain's head says {head.entries} entries but {n} are stored",
            )
        if head.hash != last:
            return AuditCheck(n, "the audit chain's head does not match its last entry")
    return AuditCheck(n)

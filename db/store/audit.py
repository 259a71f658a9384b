"""The audit log: its entries chained (each hash covers the one before) under one head row."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select, update

from dealer_assist.db.store.base import StoreBase
from dealer_assist.db.store.rows import AH, A, to_audit
from dealer_assist.services.audit_chain import AuditHead, audit_hash
from dealer_assist.services.chain import GENESIS, utc
from dealer_assist.services.model import AuditEntry


def append_audit(conn: Connection, rows: Sequence[Mapping[str, Any]]) -> list[AuditEntry]:
    """Chain and insert audit entries (``at, actor, action, detail, table_id, hand_id``) in the
    caller's transaction, and move the audit chain's head: the head row is locked first, so
    entries from several stations queue up in one order."""
    stmt = select(AH.c.entries, AH.c.head_hash).where(AH.c.id == 1)
    if conn.dialect.name == "postgresql":
        stmt = stmt.with_for_update(key_share=True)
    head = conn.execute(stmt).first()
    if head is None:  # the head row is gone: go on from the last entry (verify names it)
        tail = conn.execute(select(A.c.seq, A.c.hash).order_by(A.c.id.desc()).limit(1)).first()
        seq, last = (int(tail.seq or 0), tail.hash or GENESIS) if tail else (0, GENESIS)
        conn.execute(insert(AH).values(id=1, entries=seq, head_hash=last))
    else:
        seq, last = int(head.entries), head.head_hash
    entries: list[AuditEntry] = []
    for row in rows:
        seq += 1
        at = utc(row["at"])
        detail = row.get("detail") or ""
        h = audit_hash(
            seq=seq, at=at, actor=row["actor"], action=row["action"], detail=detail,
            table_id=row.get("table_id"), hand_id=row.get("hand_id"), prev_hash=last,
        )
        new_id = int(conn.execute(
            insert(A).values(
                at=at, actor=row["actor"], action=row["action"], detail=detail,
                table_id=row.get("table_id"), hand_id=row.get("hand_id"), seq=seq,
                prev_hash=last, hash=h,
            ).returning(A.c.id)
        ).scalar_one())
        entries.append(AuditEntry(
            id=new_id, at=at, actor=row["actor"], action=row["action"], detail=detail,
            table_id=row.get("table_id"), hand_id=row.get("hand_id"), seq=seq, prev_hash=last,
            hash=h,
        ))
        last = h
    conn.execute(update(AH).where(AH.c.id == 1).values(entries=seq, head_hash=last))
    return entries


class AuditStore(StoreBase):
    """The audit log part of :class:`~dealer_assist.db.store.SqlStore` (mixed in)."""

    def add_audit(
        self, *, at: datetime, actor: str | None, action: str, detail: str = "",
        table_id: int | None = None, hand_id: int | None = None, token: str = "",
    ) -> AuditEntry:
        with self._write() as conn:
            if token and self._pg:  # the sign-in the database holds this entry to (0021)
                conn.exec_driver_sql("SELECT set_config('da.token', %(t)s, true)",
                                     {"t": token})
            (entry,) = append_audit(conn, [{
                "at": at, "actor": actor, "action": action, "detail": detail,
                "table_id": table_id, "hand_id": hand_id,
            }])
        return entry

    def audit_head(self) -> AuditHead:
        with self._read() as conn:
            row = conn.execute(select(AH.c.entries, AH.c.head_hash).where(AH.c.id == 1)).first()
        return AuditHead(0) if row is None else AuditHead(int(row.entries), row.head_hash)

    def audit_log(
        self, *, since: datetime | None = None, until: datetime | None = None,
        action: str | None = None, hand_id: int | None = None, records: bool = False,
    ) -> list[AuditEntry]:
        """The audit log; the records of rows (``record-*``, see
        :mod:`dealer_assist.services.records`) only with ``records`` (the whole chain)."""
        stmt = select(A).order_by(A.c.id)
        if not records and action is None:
            stmt = stmt.where(~A.c.action.startswith("record-"))
        if since is not None:
            stmt = stmt.where(A.c.at >= utc(since))
        if until is not None:
            stmt = stmt.where(A.c.at < utc(until))
        if action is not None:
            stmt = stmt.where(A.c.action == action)
        if hand_id is not None:
            stmt = stmt.where(A.c.hand_id == hand_id)
        with self._read() as conn:
            return [to_audit(r) for r in conn.execute(stmt)]

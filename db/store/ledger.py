"""The ledger: each hand's settlements (the latest one counts) and the table-level lines of
seat and period events (time charges)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import and_, func, insert, select, update

from dealer_assist.db.store.base import StoreBase
from dealer_assist.db.store.rows import E, H, L, to_ledger, to_time_line
from dealer_assist.services.chain import utc
from dealer_assist.services.model import LedgerLine


class LedgerStore(StoreBase):
    """The ledger part of :class:`~dealer_assist.db.store.SqlStore` (mixed in)."""

    def time_ledger(
        self, table_id: int | None = None, *, since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[LedgerLine]:
        stmt = select(L, E.c.time).select_from(
            L.join(E, and_(E.c.table_id == L.c.table_id, E.c.seq == L.c.seq))
        ).where(L.c.hand_id.is_(None), L.c.table_id.is_not(None))
        if table_id is not None:
            stmt = stmt.where(L.c.table_id == table_id)
        if since is not None:
            stmt = stmt.where(E.c.time >= utc(since))
        if until is not None:
            stmt = stmt.where(E.c.time < utc(until))
        with self._read() as conn:
            return [to_time_line(r) for r in conn.execute(stmt.order_by(L.c.table_id, L.c.id))]

    def settle_hand(self, hand_id: int, lines: Sequence[LedgerLine]) -> None:
        with self._write() as conn:
            n = 1 + int(conn.execute(
                select(func.coalesce(func.max(L.c.settlement), 0)).where(L.c.hand_id == hand_id)
            ).scalar_one())
            if lines:
                conn.execute(insert(L), [
                    {"hand_id": hand_id, "settlement": n, "kind": x.kind, "detail": x.detail,
                     "seat": x.seat, "amount": x.amount} for x in lines
                ])
            conn.execute(update(H).where(H.c.id == hand_id).values(status="settled"))

    def reopen_hand(self, hand_id: int) -> None:
        with self._write() as conn:
            conn.execute(update(H).where(H.c.id == hand_id).values(status="open"))

    def ledger(self, hand_id: int) -> list[LedgerLine]:
        latest = (
            select(func.max(L.c.settlement)).where(L.c.hand_id == hand_id).scalar_subquery()
        )
        with self._read() as conn:
            rows = conn.execute(
                select(L).where(L.c.hand_id == hand_id, L.c.settlement == latest).order_by(L.c.id)
            )
            return [to_ledger(r) for r in rows]

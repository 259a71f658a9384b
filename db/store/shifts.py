"""Shifts and disputes: each opened, closed or ruled on recorded on the audit chain."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import insert, select, update

from dealer_assist.db.store.audit import append_audit
from dealer_assist.db.store.base import StoreBase
from dealer_assist.db.store.rows import ADJ, SH, D, to_shift
from dealer_assist.services.chain import utc
from dealer_assist.services.errors import NotFound
from dealer_assist.services.model import Adjustment, Dispute, Shift
from dealer_assist.services.records import dispute_state, record_entry, shift_state


class ShiftStore(StoreBase):
    """The shifts and disputes part of :class:`~dealer_assist.db.store.SqlStore` (mixed in)."""

    def open_shift(self, *, table_id: int, dealer: str, floor: str, at: datetime) -> Shift:
        with self._write() as conn:
            self._lock_table(conn, table_id)
            new_id = conn.execute(
                insert(SH).values(table_id=table_id, dealer=dealer, floor=floor, opened_at=at)
                .returning(SH.c.id)
            ).scalar_one()
            append_audit(conn, [record_entry("shift", shift_state(
                id=new_id, table_id=table_id, dealer=dealer, floor=floor, opened_at=at,
                closed_at=None, closed_by=None, closed_floor=None,
            ), at)])
        return Shift(id=int(new_id), table_id=table_id, dealer=dealer, floor=floor,
                     opened_at=utc(at))

    def close_shift(
        self, shift_id: int, *, dealer: str, floor: str, at: datetime,
        approval_id: int | None = None,
    ) -> Shift:
        with self._write() as conn:
            conn.execute(
                update(SH).where(SH.c.id == shift_id)
                .values(closed_at=at, closed_by=dealer, closed_floor=floor,
                        close_approval_id=approval_id)
            )
            r = conn.execute(select(SH).where(SH.c.id == shift_id)).first()
            if r is not None:
                append_audit(conn, [record_entry("shift", shift_state(
                    id=r.id, table_id=r.table_id, dealer=r.dealer, floor=r.floor,
                    opened_at=r.opened_at, closed_at=r.closed_at, closed_by=r.closed_by,
                    closed_floor=r.closed_floor,
                ), at)])
        if r is None:
            raise NotFound(f"there is no shift {shift_id}")
        return to_shift(r)

    def get_shift(self, shift_id: int) -> Shift | None:
        with self._read() as conn:
            r = conn.execute(select(SH).where(SH.c.id == shift_id)).first()
        return to_shift(r) if r else None

    def current_shift(self, table_id: int) -> Shift | None:
        with self._read() as conn:
            r = conn.execute(
                select(SH).where(SH.c.table_id == table_id, SH.c.closed_at.is_(None))
                .order_by(SH.c.id.desc()).limit(1)
            ).first()
        return to_shift(r) if r else None

    def list_shifts(self, table_id: int | None = None) -> list[Shift]:
        stmt = select(SH).order_by(SH.c.id)
        if table_id is not None:
            stmt = stmt.where(SH.c.table_id == table_id)
        with self._read() as conn:
            return [to_shift(r) for r in conn.execute(stmt)]

    # --- disputes ----------------------------------------------------------------------------
    def add_dispute(
        self, *, hand_id: int, notes: str, ruling: str, floor: str, at: datetime,
        adjustments: Sequence[Adjustment], approval_id: int | None = None,
    ) -> Dispute:
        with self._write() as conn:
            new_id = int(conn.execute(
                insert(D).values(hand_id=hand_id, notes=notes, ruling=ruling, floor=floor, at=at,
                                 approval_id=approval_id)
                .returning(D.c.id)
            ).scalar_one())
            if adjustments:
                conn.execute(insert(ADJ), [
                    {"dispute_id": new_id, "seat": a.seat, "amount": a.amount, "note": a.note}
                    for a in adjustments
                ])
            append_audit(conn, [record_entry("dispute", dispute_state(
                id=new_id, hand_id=hand_id, notes=notes, ruling=ruling, floor=floor, at=at,
                adjustments=[(a.seat, a.amount, a.note) for a in adjustments],
            ), at)])
        return Dispute(id=new_id, hand_id=hand_id, notes=notes, ruling=ruling, floor=floor,
                       at=utc(at), adjustments=tuple(adjustments))

    def disputes(self, hand_id: int | None = None) -> list[Dispute]:
        stmt = select(D).order_by(D.c.id)
        if hand_id is not None:
            stmt = stmt.where(D.c.hand_id == hand_id)
        with self._read() as conn:
            rows = conn.execute(stmt).all()
            ids = [r.id for r in rows]
            adj: dict[int, list[Adjustment]] = {i: [] for i in ids}
            if ids:
                for a in conn.execute(
                    select(ADJ).where(ADJ.c.dispute_id.in_(ids)).order_by(ADJ.c.id)
                ):
                    adj[a.dispute_id].append(Adjustment(amount=a.amount, seat=a.seat, note=a.note))
        return [
            Dispute(id=r.id, hand_id=r.hand_id, notes=r.notes, ruling=r.ruling, floor=r.floor,
                    at=r.at, adjustments=tuple(adj[r.id]))
            for r in rows
        ]

"""The hand log read back: hands, their events, each table's chain head and what is live
at each table now."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import and_, case, exists, func, select

from dealer_assist.db.store.base import StoreBase
from dealer_assist.db.store.rows import (
    HAND_COLUMNS,
    SH,
    D,
    E,
    H,
    Prefixed,
    T,
    to_event,
    to_hand,
    to_shift,
)
from dealer_assist.services.chain import utc
from dealer_assist.services.errors import NotFound
from dealer_assist.services.model import ChainHead, Hand, HandFilter, StoredEvent, Table, TableNow


class HandReadStore(StoreBase):
    """The hand log's reads, part of :class:`~dealer_assist.db.store.SqlStore` (mixed in)."""

    def table_level_events(self, table_id: int) -> list[StoredEvent]:
        with self._read() as conn:
            rows = conn.execute(
                select(E).where(E.c.table_id == table_id, E.c.hand_id.is_(None))
                .order_by(E.c.seq)
            )
            return [to_event(r) for r in rows]

    def _disputed(self) -> Any:
        return exists().where(D.c.hand_id == H.c.id)

    def get_hand(self, hand_id: int) -> Hand | None:
        with self._read() as conn:
            r = conn.execute(
                select(*HAND_COLUMNS, self._disputed().label("disputed")).where(H.c.id == hand_id)
            ).first()
        return to_hand(r, bool(r.disputed)) if r else None

    def last_hand(self, table_id: int) -> Hand | None:
        with self._read() as conn:
            r = conn.execute(
                select(*HAND_COLUMNS, self._disputed().label("disputed"))
                .where(H.c.table_id == table_id, H.c.settings_id.is_not(None))
                .order_by(H.c.number.desc()).limit(1)
            ).first()
        return to_hand(r, bool(r.disputed)) if r else None

    def list_hands(self, flt: HandFilter) -> list[Hand]:
        disputed = self._disputed()
        stmt = select(*HAND_COLUMNS, disputed.label("disputed")).select_from(
            H.join(SH, SH.c.id == H.c.shift_id)
        )
        conds = []
        if flt.table_id is not None:
            conds.append(H.c.table_id == flt.table_id)
        if flt.shift_id is not None:
            conds.append(H.c.shift_id == flt.shift_id)
        if flt.game is not None:
            conds.append(H.c.game == flt.game)
        if flt.dealer is not None:
            conds.append((H.c.started_by == flt.dealer) | (SH.c.dealer == flt.dealer))
        if flt.since is not None:
            conds.append(H.c.started_at >= utc(flt.since))
        if flt.until is not None:
            conds.append(H.c.started_at < utc(flt.until))
        if flt.disputed is not None:
            conds.append(disputed if flt.disputed else ~disputed)
        if flt.status is not None:
            conds.append(H.c.status == flt.status)
        if conds:
            stmt = stmt.where(and_(*conds))
        stmt = stmt.order_by(H.c.started_at.desc(), H.c.id.desc())
        if flt.limit is not None:
            stmt = stmt.limit(flt.limit)
        with self._read() as conn:
            return [to_hand(r, bool(r.disputed)) for r in conn.execute(stmt)]

    def tables_now(
        self, table_ids: Sequence[int], held: Mapping[int, int]
    ) -> dict[int, TableNow]:
        """Two reads for the whole batch: each table with its open shift and its last hand
        (outer joins), then the new events of those hands."""
        ids = sorted(set(table_ids))
        if not ids:
            return {}
        h2 = H.alias("h2")
        latest = (select(func.max(h2.c.number))
                  .where(h2.c.table_id == T.c.id, h2.c.settings_id.is_not(None))
                  .scalar_subquery())
        cols = [T.c.id.label("t_id"), T.c.name.label("t_name"),
                T.c.created_at.label("t_created_at")]
        cols += [c.label(f"s_{c.name}") for c in SH.c]
        cols += [c.label(f"h_{c.name}") for c in HAND_COLUMNS]
        cols.append(self._disputed().label("h_disputed"))
        joined = (T.outerjoin(SH, and_(SH.c.table_id == T.c.id, SH.c.closed_at.is_(None)))
                  .outerjoin(H, and_(H.c.table_id == T.c.id, H.c.number == latest)))
        rows_stmt = (select(*cols).select_from(joined).where(T.c.id.in_(ids))
                     .order_by(T.c.id, SH.c.id))
        out: dict[int, TableNow] = {}
        events: dict[int, list[StoredEvent]] = {}
        with self._read() as conn:
            for r in conn.execute(rows_stmt):  # a table's latest open shift comes last
                shift = hand = None
                if r.s_id is not None:
                    shift = to_shift(Prefixed(r, "s_"))
                if r.h_id is not None:
                    hand = to_hand(Prefixed(r, "h_"), bool(r.h_disputed))
                table = Table(id=int(r.t_id), name=r.t_name, created_at=r.t_created_at)
                out[table.id] = TableNow(table=table, shift=shift, hand=hand)
            new = {now.hand.id: held.get(now.hand.id, 0) for now in out.values()
                   if now.hand is not None and held.get(now.hand.id, 0) < now.hand.events}
            if new:
                after = (case(new, value=E.c.hand_id, else_=0) if any(new.values()) else 0)
                for r in conn.execute(select(E).where(E.c.hand_id.in_(sorted(new)),
                                                      E.c.number > after)
                                      .order_by(E.c.hand_id, E.c.number)):
                    events.setdefault(int(r.hand_id), []).append(to_event(r))
        for i, now in out.items():
            if now.hand is not None and now.hand.id in events:
                out[i] = replace(now, events=tuple(events[now.hand.id]))
        return out

    def hand_events(self, hand_id: int, *, after: int = 0) -> list[StoredEvent]:
        where = [E.c.hand_id == hand_id]
        if after:
            where.append(E.c.number > after)
        with self._read() as conn:
            rows = conn.execute(select(E).where(*where).order_by(E.c.number))
            out = [to_event(r) for r in rows]
        if not out and not after and self.get_hand(hand_id) is None:
            raise NotFound(f"there is no hand {hand_id}")
        return out

    def table_events(self, table_id: int) -> Iterator[StoredEvent]:
        with self._read() as conn:
            result = conn.execution_options(yield_per=2000).execute(
                select(E).where(E.c.table_id == table_id).order_by(E.c.seq)
            )
            for r in result:
                yield to_event(r)

    def chain_head(self, table_id: int) -> ChainHead | None:
        with self._read() as conn:
            r = conn.execute(select(T.c.head_seq, T.c.head_hash).where(T.c.id == table_id)).first()
        if r is None or not r.head_seq:
            return None
        return ChainHead(table_id=table_id, seq=int(r.head_seq), hash=r.head_hash)

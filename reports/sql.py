"""Bulk reads straight from the database store's tables, for reports over thousands of hands.

The store port reads a hand at a time; a 5,000-hand shift report would then make thousands of
round trips. These read-only queries fetch the same rows in a few statements. They are used only
when the store is the database store; any other store is read through the port.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import and_, func, select, text
from sqlalchemy.exc import DBAPIError

from dealer_assist.services.chain import time_text
from dealer_assist.services.model import LedgerLine

if TYPE_CHECKING:
    from dealer_assist.reports.source import Row

#: Hands per ``IN (...)`` list (well under every database's bound-parameter limit).
CHUNK = 900


class SqlSource:
    """Read-only bulk queries on a :class:`dealer_assist.db.store.SqlStore`."""

    def __init__(self, store: Any) -> None:
        from dealer_assist.db.bootstrap import unavailable
        from dealer_assist.db.models import EventRow, LedgerRow

        self.store = store
        self.engine = store.engine
        self.events = EventRow.__table__
        self.ledger = LedgerRow.__table__
        self._unavailable = unavailable

    def _fail(self, exc: DBAPIError) -> Exception:
        return self._unavailable(exc, self.store.db.describe())

    def chain_rows(self, table_id: int) -> Iterator[tuple[Row, str, str]]:
        """The chain straight from the driver (no ORM objects); on SQLite the stored time text
        is turned into the hashed form without building a datetime first."""
        from dealer_assist.reports.source import Row

        sqlite = self.engine.dialect.name == "sqlite"
        stmt = text("SELECT seq, hand_id, number, time, actor, body, prev_hash, hash "
                    "FROM events WHERE table_id = :t ORDER BY seq")
        try:
            with self.engine.connect() as conn:
                result = conn.execution_options(stream_results=True, yield_per=5000).execute(
                    stmt, {"t": table_id})
                for seq, hand_id, number, at, actor, body, prev, hash_ in result:
                    if sqlite and isinstance(at, str) and len(at) == 26:
                        stamp = f"{at[:10]}T{at[11:]}+00:00"
                    else:
                        stamp = time_text(at if isinstance(at, datetime)
                                          else datetime.fromisoformat(at))
                    yield Row(seq, hand_id, number, stamp, actor, body), prev, hash_
        except DBAPIError as exc:
            raise self._fail(exc) from exc

    def ledgers(self, hand_ids: Sequence[int]) -> dict[int, list[LedgerLine]]:
        lg = self.ledger
        out: dict[int, list[LedgerLine]] = {h: [] for h in hand_ids}
        try:
            with self.engine.connect() as conn:
                for i in range(0, len(hand_ids), CHUNK):
                    chunk = list(hand_ids[i:i + CHUNK])
                    latest = (select(lg.c.hand_id, func.max(lg.c.settlement).label("n"))
                              .where(lg.c.hand_id.in_(chunk)).group_by(lg.c.hand_id)
                              .subquery())
                    stmt = (select(lg).join(latest, and_(lg.c.hand_id == latest.c.hand_id,
                                                         lg.c.settlement == latest.c.n))
                            .order_by(lg.c.id))
                    for r in conn.execute(stmt):
                        out[r.hand_id].append(LedgerLine(
                            hand_id=r.hand_id, kind=r.kind, amount=int(r.amount), seat=r.seat,
                            detail=r.detail, settlement=r.settlement))
        except DBAPIError as exc:
            raise self._fail(exc) from exc
        return out


def sql_source(store: Any) -> SqlSource | None:
    """The bulk reader for a database store, or ``None`` for any other store."""
    try:
        from dealer_assist.db.store import SqlStore
    except ImportError:
        return None
    return SqlSource(store) if isinstance(store, SqlStore) else None

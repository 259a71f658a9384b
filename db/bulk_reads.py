"""Bulk reads straight from the database store's tables, for reports over thousands of hands.

The store port reads a hand at a time; a 5,000-hand shift report would then make thousands of
round trips. These read-only queries fetch the same rows in a few statements, through the
driver's own cursor (no ORM or SQLAlchemy row objects: at a hundred thousand rows they cost more
than the query). The database store offers them through the read-side port
(:meth:`dealer_assist.services.reads.Reads.bulk_reads`); any other store answers ``None`` and is
read through the port.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from dealer_assist.services.chain import time_text
from dealer_assist.services.model import LedgerLine
from dealer_assist.services.reads import ChainRow, FeeRow, LedgerRow, ledger_line

if TYPE_CHECKING:
    from dealer_assist.db.store import SqlStore

#: Hands per ``IN (...)`` list (well under every database's bound-parameter limit).
CHUNK = 900
#: Rows fetched from the driver at a time while streaming a chain.
BATCH = 5000


class SqlBulkReads:
    """Read-only bulk queries on a :class:`dealer_assist.db.store.SqlStore` (its
    :meth:`~dealer_assist.db.store.SqlStore.bulk_reads`)."""

    def __init__(self, store: SqlStore) -> None:
        from dealer_assist.db.bootstrap import unavailable

        self.store = store
        self.engine: Any = store.engine  # the driver's own cursor, below the typed API
        self.pg = self.engine.dialect.name == "postgresql"
        self._error: type[Exception] = self.engine.dialect.loaded_dbapi.Error
        self._unavailable: Callable[[BaseException, str], Exception] = unavailable

    def _fail(self, exc: Exception) -> Exception:
        return self._unavailable(exc, self.store.db.describe())

    def _batches(self, sql: str, params: Sequence[Any], *, stream: bool = False
                 ) -> Iterator[list[tuple[Any, ...]]]:
        """Rows of one read-only statement (``?`` placeholders) from a pooled connection, a
        batch at a time.

        On SQLite a bare SELECT runs in its own read transaction (no write lock is taken, so
        the tables keep recording); on PostgreSQL ``stream`` reads through a server-side cursor.
        """
        try:
            raw = self.engine.raw_connection()
        except Exception as exc:  # the pool wraps driver errors
            raise self._fail(exc) from exc
        try:
            if self.pg:
                sql = sql.replace("?", "%s")
                cur = (raw.driver_connection.cursor(name="dealer_assist_report") if stream
                       else raw.cursor())
            else:
                cur = raw.cursor()
            cur.execute(sql, tuple(params))
            while batch := cur.fetchmany(BATCH):
                yield batch
            cur.close()
        except self._error as exc:
            raise self._fail(exc) from exc
        finally:
            raw.close()  # back to the pool, which rolls back the read

    def chain_batches(self, table_id: int) -> Iterator[list[ChainRow]]:
        """The chain in sequence order, with each event's previous and own hash. On SQLite the
        database writes the stored time text in its hashed form (``T``, ``+00:00``) itself."""
        return self._chain(table_id, "", ())

    def part_starts(self, table_id: int, rows: int) -> list[int]:
        """Where to cut the chain into parts of about ``rows`` events: at the first event of a
        hand (its number 1) once the part holds that many; each part's first sequence number,
        then one past the last event. Only the sequence numbers are read."""
        seqs = [r for b in self._batches(
            "SELECT seq, CASE WHEN number = 1 AND hand_id IS NOT NULL THEN 1 ELSE 0 END "
            "FROM events WHERE table_id = ? ORDER BY seq", (table_id,)) for r in b]
        if not seqs:
            return []
        out = [seqs[0][0]]
        held = 0
        for seq, begins in seqs:
            if held >= rows and begins:
                out.append(seq)
                held = 0
            held += 1
        out.append(seqs[-1][0] + 1)
        return out

    def chain_part(self, table_id: int, first: int, end: int) -> Iterator[list[ChainRow]]:
        """:meth:`chain_batches` of the events ``first`` <= seq < ``end``."""
        return self._chain(table_id, " AND seq >= ? AND seq < ?", (first, end))

    def forked(self) -> None:
        """A forked process's own pool: the parent's connections are dropped here unclosed
        (SQLAlchemy's recipe for a pool inherited across ``fork``)."""
        self.engine.dispose(close=False)

    def _chain(self, table_id: int, where: str, params: tuple[int, ...]
               ) -> Iterator[list[ChainRow]]:
        if self.pg:
            sql = ("SELECT seq, hand_id, number, time, actor, body, prev_hash, hash FROM events "
                   f"WHERE table_id = ?{where} ORDER BY seq")
        else:
            sql = ("SELECT seq, hand_id, number, CASE WHEN length(time) = 26 THEN "
                   "substr(time, 1, 10) || 'T' || substr(time, 12) || '+00:00' ELSE time END, "
                   "actor, body, prev_hash, hash FROM events "
                   f"WHERE table_id = ?{where} ORDER BY seq")
        for batch in self._batches(sql, (table_id, *params), stream=True):
            if self.pg or any(len(r[3]) != 32 for r in batch):
                batch = [(seq, hand_id, number, _stamp(at), actor, body, prev, hash_)
                         for seq, hand_id, number, at, actor, body, prev, hash_ in batch]
            yield batch

    def ledger_rows(self, hand_ids: Sequence[int]) -> dict[int, list[LedgerRow]]:
        """Each hand's ledger lines of its latest settlement, in the order they were written."""
        out: dict[int, list[LedgerRow]] = {h: [] for h in hand_ids}
        ids = list(hand_ids)
        for i in range(0, len(ids), CHUNK):
            chunk = ids[i:i + CHUNK]
            marks = ",".join("?" * len(chunk))
            latest: dict[int, int] = {}
            for hand_id, settlement, kind, detail, seat, amount in (r for b in self._batches(
                "SELECT hand_id, settlement, kind, detail, seat, amount FROM ledger_lines "
                f"WHERE hand_id IN ({marks}) ORDER BY hand_id, settlement, id", chunk,
            ) for r in b):
                if latest.get(hand_id) != settlement:  # a later settlement replaces the earlier
                    latest[hand_id] = settlement
                    out[hand_id] = []
                out[hand_id].append((hand_id, kind, int(amount), seat, detail, settlement))
        return out

    def ledgers(self, hand_ids: Sequence[int]) -> dict[int, list[LedgerLine]]:
        return {h: [ledger_line(r) for r in rows]
                for h, rows in self.ledger_rows(hand_ids).items()}

    def fee_lines(self, details: Sequence[str], until: datetime
                  ) -> list[FeeRow]:
        """Each fee line whose detail is one of ``details`` in the latest settlement of a hand
        started before ``until``: (hand id, table id, the hand's start, detail, amount). One
        statement, however many hands the store holds (the funds' balances read all history)."""
        from sqlalchemy import and_, func, select

        from dealer_assist.db.models import HandRow
        from dealer_assist.db.models import LedgerRow as LedgerLineRow

        hands, lines = HandRow.__table__, LedgerLineRow.__table__
        later = lines.alias("later")
        latest = (select(func.max(later.c.settlement)).where(later.c.hand_id == lines.c.hand_id)
                  .scalar_subquery())
        stmt = (select(lines.c.hand_id, hands.c.table_id, hands.c.started_at, lines.c.detail,
                       lines.c.amount)
                .select_from(lines.join(hands, hands.c.id == lines.c.hand_id))
                .where(and_(lines.c.kind == "fee", lines.c.detail.in_(list(details)),
                            hands.c.started_at < until, lines.c.settlement == latest))
                .order_by(hands.c.started_at, lines.c.hand_id, lines.c.id))
        try:
            with self.engine.connect() as conn:
                return [(int(h), int(t), at, str(d), int(a))
                        for h, t, at, d, a in conn.execute(stmt)]
        except Exception as exc:  # the pool and the driver wrap their errors
            raise self._fail(exc) from exc


def _stamp(at: Any) -> str:
    """A stored time as hashed: ISO 8601, UTC, microseconds (already so: kept)."""
    if isinstance(at, str):
        if len(at) == 32 and at[10] == "T" and at.endswith("+00:00"):
            return at
        at = datetime.fromisoformat(at)
    return time_text(at)

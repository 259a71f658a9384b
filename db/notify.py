"""What tells the floor's live view that a table changed (the core's ``ChangeFeed``).

PostgreSQL: ``LISTEN dealer_assist_live`` on a connection of its own. The triggers of schema
0008 send the table's id from the transaction that records an event, moves a hand's status,
adds a dispute or an audit entry about the table, so a notification arrives only for what was
committed, as it commits. The first wait connects and answers None (rebuild every row: a
change made before LISTEN took hold is not notified); if the connection breaks (the server
restarted), the feed reconnects at its next wait and answers None again.

SQLite has no notifications: the feed polls each table's chain head and hand count, and the
newest dispute and audit entry, a few times a second (a handful of index reads).
"""

from __future__ import annotations

import re
import time
from contextlib import suppress
from typing import Any

from sqlalchemy import case, func, select
from sqlalchemy.engine import make_url

from dealer_assist.db.bootstrap import Database
from dealer_assist.db.models import AuditRow, DisputeRow, HandRow, TableRow
from dealer_assist.services.live import ChangeFeed

CHANNEL = "dealer_assist_live"
#: A payload the triggers send: a table's id, in ASCII digits (anything else is ignored, and
#: so is an id no table has: see :meth:`PgFeed._known`).
_TABLE_ID = re.compile(r"[0-9]{1,18}")


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as libpq takes it."""
    return str(make_url(url).set(drivername="postgresql").render_as_string(hide_password=False))


class PgFeed:
    """LISTEN on PostgreSQL; see the module's docstring."""

    def __init__(self, url: str, *, connect_timeout: int = 3) -> None:
        self.url = libpq_url(url)
        self.connect_timeout = connect_timeout
        self._conn: Any = None
        #: How many times the feed (re)connected: 1 after the first wait.
        self.connects = 0
        #: Notifications ignored because their payload is not the id of one of the room's tables
        #: (any role may send one on the channel: ``NOTIFY dealer_assist_live, '2147483648'``);
        #: the last one, shortened.
        self.ignored = 0
        self.last_ignored = ""

    def _connect(self) -> Any:
        import psycopg

        conn = psycopg.connect(self.url, autocommit=True, connect_timeout=self.connect_timeout)
        conn.execute(f"LISTEN {CHANNEL}")
        self.connects += 1
        return conn

    def wait(self, timeout: float) -> set[int] | None:
        import psycopg

        fresh = False
        if self._conn is None or self._conn.closed:
            try:
                self._conn = self._connect()
            except psycopg.Error:
                self._conn = None
                time.sleep(max(0.0, timeout))
                return set()
            fresh = True
        try:
            first = list(self._conn.notifies(timeout=max(0.0, timeout), stop_after=1))
            # and whatever else is already here, without waiting
            more = list(self._conn.notifies(timeout=0.0)) if first else []
            changed = self._known(self._tables(first + more))
        except psycopg.Error:
            self.close()
            return None
        # (re)connected: what changed before LISTEN took hold is unknown, so rebuild everything
        return None if fresh else changed

    def _tables(self, notes: list[Any]) -> set[int]:
        """The table ids the notifications name; any other payload is counted and ignored."""
        out: set[int] = set()
        for n in notes:
            payload = str(getattr(n, "payload", ""))
            if _TABLE_ID.fullmatch(payload):
                out.add(int(payload))
            else:
                self.ignored += 1
                self.last_ignored = payload[:40]
        return out

    def _known(self, ids: set[int]) -> set[int]:
        """Of the ids the payloads name, those the room's tables have; any other (a number past
        the column's range, a table that never was) is counted and ignored, so one bad payload
        never costs the real changes sent with it."""
        if not ids:
            return ids
        rows = self._conn.execute("SELECT id FROM card_tables WHERE id = ANY(%s::bigint[])",
                                  (sorted(ids),)).fetchall()
        known = {int(r[0]) for r in rows}
        for bad in sorted(ids - known):
            self.ignored += 1
            self.last_ignored = str(bad)[:40]
        return known

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with suppress(Exception):
                conn.close()


class PollFeed:
    """SQLite (or any database): compare a cheap signature of every table a few times a second."""

    def __init__(self, db: Database, *, interval: float = 0.2) -> None:
        self.db = db
        self.interval = interval
        self._tables: dict[int, tuple[int, int, int]] | None = None
        self._global: tuple[int, int] | None = None

    def _read(self) -> tuple[dict[int, tuple[int, int, int]], tuple[int, int]]:
        t, h = TableRow.__table__, HandRow.__table__
        settled = func.sum(case((h.c.status == "settled", 1), else_=0))
        with self.db.engine.connect() as conn:
            conn.execution_options(dealer_assist_read=True)
            heads = {int(r.id): int(r.head_seq or 0) for r in conn.execute(
                select(t.c.id, t.c.head_seq))}
            hands = {int(r.table_id): (int(r.n or 0), int(r.s or 0)) for r in conn.execute(
                select(h.c.table_id, func.count().label("n"), settled.label("s"))
                .group_by(h.c.table_id))}
            last_dispute = conn.execute(select(func.max(DisputeRow.id))).scalar() or 0
            last_audit = conn.execute(select(func.max(AuditRow.id))).scalar() or 0
        tables = {i: (seq, *hands.get(i, (0, 0))) for i, seq in heads.items()}
        return tables, (int(last_dispute), int(last_audit))

    def wait(self, timeout: float) -> set[int] | None:
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            try:
                tables, glob = self._read()
            except Exception:  # locked or unreachable: try again at the next wait
                time.sleep(min(self.interval, max(0.0, deadline - time.monotonic())))
                return set()
            if self._tables is None:
                self._tables, self._global = tables, glob
                return None
            before = self._tables
            changed = {i for i, sig in tables.items() if before.get(i) != sig}
            changed |= set(before) - set(tables)
            moved_global = glob != self._global
            self._tables, self._global = tables, glob
            if moved_global:
                return None
            if changed:
                return changed
            left = deadline - time.monotonic()
            if left <= 0:
                return set()
            time.sleep(min(self.interval, left))


    def close(self) -> None:
        """Nothing held between waits (each reads on a pooled connection)."""


def open_feed(db: Database, *, interval: float = 0.2) -> ChangeFeed:
    """The feed for this database: NOTIFY on PostgreSQL, polling elsewhere."""
    if db.dialect == "postgresql":
        return PgFeed(db.url)
    return PollFeed(db, interval=interval)

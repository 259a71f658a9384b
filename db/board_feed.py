"""What tells the players' board that the floor recorded something.

PostgreSQL: ``LISTEN dealer_assist_board``; schema 0020's trigger on ``floor_entries`` sends the
record's place from the transaction that writes it, so the board hears of it as it commits.
SQLite has no notifications: the feed reads the floor records' head (one indexed row) a few
times a second.
"""

from __future__ import annotations

import time
from contextlib import suppress
from typing import Any, Protocol

from sqlalchemy import select

from dealer_assist.db.bootstrap import Database
from dealer_assist.db.models import RecordHeadRow
from dealer_assist.db.notify import libpq_url

CHANNEL = "dealer_assist_board"
H = RecordHeadRow.__table__


class BoardFeed(Protocol):
    def wait(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds; True when the floor recorded something (or the
        feed cannot tell: the board reads again)."""
        ...

    def close(self) -> None: ...


class PgBoardFeed:
    def __init__(self, url: str) -> None:
        self.url = libpq_url(url)
        self._conn: Any = None

    def wait(self, timeout: float) -> bool:
        import psycopg

        if self._conn is None or self._conn.closed:
            try:
                self._conn = psycopg.connect(self.url, autocommit=True, connect_timeout=3)
                self._conn.execute(f"LISTEN {CHANNEL}")
            except psycopg.Error:
                self._conn = None
                time.sleep(max(0.0, timeout))
            return True  # (re)connected: what came before LISTEN is unknown
        try:
            got = list(self._conn.notifies(timeout=max(0.0, timeout), stop_after=1))
            if got:
                list(self._conn.notifies(timeout=0.0))
            return bool(got)
        except psycopg.Error:
            self.close()
            return True

    def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with suppress(Exception):
                conn.close()


class PollBoardFeed:
    def __init__(self, db: Database, *, interval: float = 0.2) -> None:
        self.db = db
        self.interval = interval
        self._seen: int | None = None

    def _head(self) -> int:
        with self.db.engine.connect() as conn:
            conn.execution_options(dealer_assist_read=True)
            n = conn.execute(select(H.c.entries).where(H.c.kind == "floor_entries")).scalar()
            return int(n or 0)

    def wait(self, timeout: float) -> bool:
        end = time.monotonic() + max(0.0, timeout)
        while True:
            try:
                n = self._head()
            except Exception:
                n = -1
            if n != self._seen:
                self._seen = n
                return True
            left = end - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(self.interval, left))

    def close(self) -> None:
        return None


def open_board_feed(db: Database) -> BoardFeed:
    if db.dialect == "postgresql":
        return PgBoardFeed(str(db.url))
    return PollBoardFeed(db)

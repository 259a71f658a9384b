"""The station's journal file: a SQLite file beside the app holding, in order, the inputs a
station made while its server did not answer (``ops``), which of them the server has
(``synced``: 0 not yet, 1 sent, 2 set aside by the floor), the tables stopped by a conflict
(``stops``) and hand ids reserved on the server for hands started offline (``reserved``).

WAL with ``synchronous=FULL``: an input is in the file before the dealer's screen changes, as
on the server. The file names the database it belongs to, so it is never sent to another.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import uuid
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from dealer_assist.errors import BadInput
from dealer_assist.services.chain import utc
from dealer_assist.services.model import Hand, StoredEvent

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS ops (id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL,"
    " kind TEXT NOT NULL, body TEXT NOT NULL, at TEXT NOT NULL, synced INTEGER NOT NULL DEFAULT 0)",
    "CREATE INDEX IF NOT EXISTS ops_unsynced ON ops (table_id, synced, id)",
    "CREATE TABLE IF NOT EXISTS stops (table_id INTEGER PRIMARY KEY, message TEXT NOT NULL,"
    " at TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS reserved (hand_id INTEGER PRIMARY KEY, table_id INTEGER NOT NULL)",
)


def row_json(r: StoredEvent) -> dict[str, Any]:
    return {"table_id": r.table_id, "seq": r.seq, "hand_id": r.hand_id, "number": r.number,
            "time": r.time.isoformat(), "actor": r.actor, "body": r.body,
            "prev_hash": r.prev_hash, "hash": r.hash}


def row_from(d: dict[str, Any]) -> StoredEvent:
    return StoredEvent(table_id=d["table_id"], seq=d["seq"], hand_id=d["hand_id"],
                       number=d["number"], time=datetime.fromisoformat(d["time"]),
                       actor=d["actor"], body=d["body"], prev_hash=d["prev_hash"],
                       hash=d["hash"])


def hand_json(h: Hand) -> dict[str, Any]:
    return {"id": h.id, "table_id": h.table_id, "shift_id": h.shift_id, "number": h.number,
            "game": h.game, "seats": list(h.seats), "started_at": h.started_at.isoformat(),
            "started_by": h.started_by, "settings_id": h.settings_id}


def hand_from(d: dict[str, Any]) -> Hand:
    return Hand(id=d["id"], table_id=d["table_id"], shift_id=d["shift_id"], number=d["number"],
                game=d["game"], seats=tuple(d["seats"]),
                started_at=datetime.fromisoformat(d["started_at"]), started_by=d["started_by"],
                settings_id=d["settings_id"], status="open", events=1)


#: The tables of a journal file: a file holding any other is not one (the room's database).
JOURNAL_TABLES = frozenset({"meta", "ops", "stops", "reserved"})


def _own_file(path: Path) -> None:
    """The journal is a regular file readable by this user only (it holds the hidden cards
    of hands dealt offline): made 0600, and an existing one narrowed to 0600."""
    if path.is_dir():
        raise BadInput(f"{path} is a folder, not a station's journal: name the journal file")
    if path.exists() and not path.is_file():
        raise BadInput(f"{path} is not a regular file (a device or a pipe): name the journal "
                       "file")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if os.fstat(fd).st_mode & 0o077:
                os.fchmod(fd, 0o600)
        finally:
            os.close(fd)
    except OSError as exc:
        raise BadInput(f"cannot open the station's journal {path}: {exc.strerror or exc}") \
            from exc


def _body(text: Any) -> Any:
    """An op's body; one that is not JSON (a damaged or edited file) reads as an empty body,
    which its sync refuses."""
    try:
        return json.loads(text)
    except (TypeError, ValueError):
        return {}


class Journal:
    """The journal file: ops in the order they were made, marked when the server has them."""

    def __init__(self, path: Path, *, database: str = "") -> None:
        self.path = path
        _own_file(path)
        try:
            self.con = sqlite3.connect(path, isolation_level=None, check_same_thread=False,
                                       timeout=5.0)
        except sqlite3.Error as exc:
            raise BadInput(f"cannot open the station's journal {path} ({exc})") from exc
        try:
            names = {str(r[0]) for r in self.con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'")}
            if names - JOURNAL_TABLES:
                raise BadInput(
                    f"{path} is not a station's journal (it holds other tables: "
                    f"{', '.join(sorted(names - JOURNAL_TABLES)[:4])}; is it a database?): "
                    "give the journal a file of its own; nothing was changed")
            self.con.execute("PRAGMA journal_mode=WAL")
            self.con.execute("PRAGMA synchronous=FULL")
            for sql in _SCHEMA:
                self.con.execute(sql)
        except sqlite3.DatabaseError as exc:
            self.con.close()
            raise BadInput(f"{path} is not a station's journal ({exc}): give the journal a "
                           "file of its own; nothing was changed") from exc
        except BadInput:
            self.con.close()
            raise
        row = self.con.execute("SELECT value FROM meta WHERE key = 'id'").fetchone()
        if row is None:
            self.con.execute("INSERT OR IGNORE INTO meta VALUES ('id', ?)", (uuid.uuid4().hex,))
            row = self.con.execute("SELECT value FROM meta WHERE key = 'id'").fetchone()
        self.id = str(row[0])
        self.lock = threading.RLock()
        self.closed = False
        if database:
            self.con.execute("INSERT OR IGNORE INTO meta VALUES ('database', ?)", (database,))
            kept = self.con.execute("SELECT value FROM meta WHERE key = 'database'").fetchone()[0]
            if kept != database:
                self.con.close()
                raise BadInput(
                    f"the station's journal {path} belongs to the database {kept}, not "
                    f"{database}: sync it there first, or give this database its own journal "
                    "(--journal FILE); nothing was changed")

    def add(self, table_id: int, kind: str, body: dict[str, Any], at: datetime) -> int:
        with self.lock:
            cur = self.con.execute(
                "INSERT INTO ops (table_id, kind, body, at) VALUES (?, ?, ?, ?)",
                (table_id, kind, json.dumps(body, sort_keys=True), utc(at).isoformat()))
            return int(cur.lastrowid or 0)

    def unsynced(self, table_id: int | None = None) -> list[tuple[int, int, str, dict[str, Any]]]:
        sql = "SELECT id, table_id, kind, body FROM ops WHERE synced = 0"
        args: tuple[Any, ...] = ()
        if table_id is not None:
            sql += " AND table_id = ?"
            args = (table_id,)
        with self.lock:
            rows = self.con.execute(sql + " ORDER BY id", args).fetchall()
        return [(int(i), int(t), str(k), _body(b)) for i, t, k, b in rows]

    def pending_tables(self) -> list[int]:
        with self.lock:
            rows = self.con.execute(
                "SELECT DISTINCT table_id FROM ops WHERE synced = 0 ORDER BY table_id").fetchall()
        return [int(r[0]) for r in rows]

    def count(self) -> int:
        with self.lock:
            return int(self.con.execute("SELECT count(*) FROM ops WHERE synced = 0").fetchone()[0])

    def mark(self, first: int, last: int, table_id: int) -> None:
        with self.lock:
            self.con.execute("UPDATE ops SET synced = 1 WHERE table_id = ? AND id BETWEEN ? AND ?",
                             (table_id, first, last))

    def stops(self) -> dict[int, str]:
        with self.lock:
            rows = self.con.execute("SELECT table_id, message FROM stops").fetchall()
        return {int(t): str(m) for t, m in rows}

    def stop(self, table_id: int, message: str, at: datetime) -> None:
        with self.lock:
            self.con.execute("INSERT OR REPLACE INTO stops VALUES (?, ?, ?)",
                             (table_id, message, utc(at).isoformat()))

    def set_aside(self, table_id: int) -> int:
        """The floor dealt with a stopped table: its unsynced ops are kept in the file but
        marked set aside (synced = 2), and the table deals again from the server's chain."""
        with self.lock:
            cur = self.con.execute(
                "UPDATE ops SET synced = 2 WHERE table_id = ? AND synced = 0", (table_id,))
            self.con.execute("DELETE FROM stops WHERE table_id = ?", (table_id,))
            return int(cur.rowcount)

    def reserved(self, table_id: int) -> list[int]:
        with self.lock:
            return [int(r[0]) for r in self.con.execute(
                "SELECT hand_id FROM reserved WHERE table_id = ? ORDER BY hand_id", (table_id,))]

    def reserve(self, table_id: int, ids: Sequence[int]) -> None:
        with self.lock:
            self.con.executemany("INSERT OR IGNORE INTO reserved VALUES (?, ?)",
                                 [(i, table_id) for i in ids])

    def use_reserved(self, hand_id: int) -> None:
        with self.lock:
            self.con.execute("DELETE FROM reserved WHERE hand_id = ?", (hand_id,))

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.con.close()

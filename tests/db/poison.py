"""An event appended to a SQLite room's file behind the app's back, with a correct hash and the
table's chain head moved to it: what an insider holding the file can write (issue 40, item 2).
"""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from dealer_assist.services.chain import row_hash, time_text

#: A body of 200,000 opening brackets: json.loads fails on it with RecursionError.
DEEP = "[" * 200_000
AT = datetime(2026, 11, 22, 3, 0, tzinfo=UTC)


def append_raw(path: str | Path, hand_id: int, body: str, *, actor: str = "dee") -> int:
    """Append ``body`` as the next event of hand ``hand_id`` (its table's next seq), hashed as
    the app hashes it; returns its seq."""
    con = sqlite3.connect(path)
    try:
        table_id, count = con.execute(
            "SELECT table_id, events FROM hands WHERE id = ?", (hand_id,)).fetchone()
        seq, prev = con.execute("SELECT head_seq, head_hash FROM card_tables WHERE id = ?",
                                (table_id,)).fetchone()
        seq = int(seq or 0) + 1
        digest = row_hash(table_id, seq, time_text(AT), actor, hand_id, body, prev)
        con.execute(
            "INSERT INTO events (table_id, seq, hand_id, number, time, actor, type, body, "
            "prev_hash, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, seq, hand_id, count + 1, AT.replace(tzinfo=None).isoformat(sep=" "),
             actor, "x", body, prev, digest))
        con.execute("UPDATE card_tables SET head_seq = ?, head_hash = ? WHERE id = ?",
                    (seq, digest, table_id))
        con.execute("UPDATE hands SET events = ? WHERE id = ?", (count + 1, hand_id))
        con.commit()
    finally:
        con.close()
    return seq

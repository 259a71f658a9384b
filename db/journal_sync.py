"""A station's journal sent to the server: each table's unsynced inputs in one transaction, in
order, or the table stopped when another station wrote it meanwhile
(:mod:`dealer_assist.db.journal` says how)."""

from __future__ import annotations

import json
from contextlib import suppress
from datetime import UTC, datetime
from functools import partial
from typing import Any

from sqlalchemy import func, insert, select, update

from dealer_assist.db.journal_check import BatchCheck, JournalRefused
from dealer_assist.db.journal_core import (
    JOURNAL_SYNC,
    JournalCore,
    JournalStatus,
    TableStopped,
    _Undo,
)
from dealer_assist.db.journal_file import hand_from, row_from
from dealer_assist.db.store.audit import append_audit
from dealer_assist.db.store.rows import A, E, H, L, T
from dealer_assist.services.chain import canonical
from dealer_assist.services.errors import NotFound, StoreUnavailable
from dealer_assist.services.live import SYNC_CONFLICT, SYNC_RESOLVED
from dealer_assist.services.model import StoredEvent, Table


class JournalSync(JournalCore):
    """The sync part of :class:`~dealer_assist.db.journal.JournalStore`."""

    def sync(self, table_id: int | None = None) -> int:
        """Send the unsynced inputs (of one table, or all) to the server; how many went.
        Raises StoreUnavailable when the server still does not answer (nothing changes) and
        TableStopped for a table whose journal conflicts with the server."""
        sent = 0
        with self._lock:
            tables = [table_id] if table_id is not None else self.journal.pending_tables()
            for t in tables:
                if t in self.journal.stops():
                    continue
                ops = self.journal.unsynced(t)
                if ops:
                    sent += self._server(partial(self._sync_table, t, ops))
        return sent

    def try_sync(self) -> JournalStatus:
        """The UI's timer: sync what can be synced, quietly; the status to show."""
        if not self.offline and self.journal.count():
            with suppress(StoreUnavailable, TableStopped):
                self.sync()
        return self.status()

    def _sync_table(self, table_id: int, ops: list[tuple[int, int, str, dict[str, Any]]]) -> int:
        first, last = ops[0][0], ops[-1][0]
        key = f"journal {self.journal.id} ops {first}-"
        conflict: str | None = None
        sent = 0
        try:
            sent = self._sync_batch(table_id, ops, key, first, last)
        except _Undo as undo:
            conflict = str(undo)
        if conflict is not None:
            self._stop(table_id, conflict)
            raise TableStopped(conflict)
        self.journal.mark(first, last, table_id)
        self.synced_batches += 1
        for key_ in [k for k in self._cache
                     if k[0] in ("last", "events", "hand", "head", "table-events", "time-ledger")]:
            self._cache.pop(key_, None)
        return sent

    def _sync_batch(self, table_id: int, ops: list[tuple[int, int, str, dict[str, Any]]],
                    key: str, first: int, last: int) -> int:
        """One server transaction; how many ops it wrote (0: the server had them all)."""
        with self.server._write() as conn:
            head = conn.execute(select(T.c.head_seq, T.c.head_hash).where(T.c.id == table_id)
                                .with_for_update(key_share=True)).first()
            if head is None:
                raise NotFound(f"there is no table {table_id}")
            done = conn.execute(select(A.c.detail).where(
                A.c.action == JOURNAL_SYNC, A.c.table_id == table_id,
                A.c.detail.like(f"%{key}%"))).first()
            if done is not None:  # this batch went in before the station could mark it
                upto = int(str(done.detail).split(key, 1)[1].split(":", 1)[0])
                if upto == last:
                    return 0
                ops = [o for o in ops if o[0] > upto]
                self.journal.mark(first, upto, table_id)
                first = ops[0][0]
                key = f"journal {self.journal.id} ops {first}-"
            try:
                BatchCheck(self.server, conn, table_id,
                           (int(head.head_seq or 0), str(head.head_hash))).run(ops)
            except JournalRefused as refused:
                raise _Undo(self._refused_text(table_id, str(refused))) from refused
            conflict = self._apply(conn, table_id, (int(head.head_seq), str(head.head_hash)),
                                   ops)
            if conflict is not None:
                raise _Undo(conflict)
            seqs = [o[3]["row"]["seq"] for o in ops if "row" in o[3]]
            span = f"events seq {seqs[0]}-{seqs[-1]}" if seqs else "no events"
            append_audit(conn, [{
                "at": datetime.now(UTC), "actor": None, "action": JOURNAL_SYNC,
                "detail": f"{self.station}: {key}{last}: {span}, {len(ops)} inputs",
                "table_id": table_id, "hand_id": None}])
            return len(ops)

    def _apply(self, conn: Any, table_id: int, head: tuple[int, str],
               ops: list[tuple[int, int, str, dict[str, Any]]]) -> str | None:
        """Write the ops in the caller's transaction; a conflict's message, or None."""
        seq, last_hash = head
        new_events: list[tuple[Any, ...]] = []
        cur = self.server._cursor(conn)
        for _op, _t, kind, body in ops:
            if kind == "table-event":
                row = row_from(body["row"])
                there = conn.execute(select(E.c.hash).where(
                    E.c.table_id == table_id, E.c.seq == row.seq)).first()
                if there is not None and there.hash == row.hash:
                    seq, last_hash = row.seq, row.hash
                    continue
                if there is not None or (seq, last_hash) != (row.seq - 1, row.prev_hash):
                    return self._conflict_text(table_id, row, seq)
                cur.execute(self.server._sql["insert"], (
                    table_id, row.seq, None, row.number, self.server._time(row.time),
                    row.actor, str(row.body.get("type", "")), canonical(row.body),
                    row.prev_hash, row.hash))
                if body["lines"]:
                    conn.execute(insert(L), [dict(x, hand_id=None, settlement=0,
                                                  table_id=table_id, seq=row.seq)
                                             for x in body["lines"]])
                seq, last_hash = row.seq, row.hash
                new_events.append((row.seq,))
            elif kind in ("start", "event"):
                row = row_from(body["row"])
                there = conn.execute(select(E.c.hash).where(
                    E.c.table_id == table_id, E.c.seq == row.seq)).first()
                if there is not None and there.hash == row.hash:
                    seq, last_hash = row.seq, row.hash
                    continue  # already on the server: sent before, or a lost answer
                if there is not None or (seq, last_hash) != (row.seq - 1, row.prev_hash):
                    return self._conflict_text(table_id, row, seq)
                if kind == "start":
                    h = hand_from(body["hand"])
                    taken = conn.execute(select(H.c.id).where(
                        (H.c.id == h.id) | ((H.c.table_id == table_id)
                                            & (H.c.number == h.number)))).first()
                    if taken is not None:
                        return self._conflict_text(table_id, row, seq)
                    conn.execute(insert(H).values(
                        id=h.id, table_id=table_id, shift_id=h.shift_id, number=h.number,
                        game=h.game, seats=json.dumps(list(h.seats)), started_at=h.started_at,
                        started_by=h.started_by, settings_id=h.settings_id, status="open",
                        events=0))
                moved = conn.execute(update(H).where(
                    H.c.id == row.hand_id, H.c.events == row.number - 1)
                    .values(events=row.number)).rowcount if row.hand_id is not None else 1
                if moved != 1:
                    return self._conflict_text(table_id, row, seq)
                cur.execute(self.server._sql["insert"], (
                    table_id, row.seq, row.hand_id, row.number, self.server._time(row.time),
                    row.actor, str(row.body.get("type", "")), canonical(row.body),
                    row.prev_hash, row.hash))
                seq, last_hash = row.seq, row.hash
                new_events.append((row.seq,))
            elif kind == "settle":
                hand_id = int(body["hand_id"])
                status = conn.execute(select(H.c.status).where(H.c.id == hand_id)).scalar()
                if status == "settled":
                    continue
                n = 1 + int(conn.execute(select(func.coalesce(func.max(L.c.settlement), 0))
                                         .where(L.c.hand_id == hand_id)).scalar_one())
                if body["lines"]:
                    conn.execute(insert(L), [dict(x, hand_id=hand_id, settlement=n)
                                             for x in body["lines"]])
                conn.execute(update(H).where(H.c.id == hand_id).values(status="settled"))
            elif kind == "reopen":
                conn.execute(update(H).where(H.c.id == int(body["hand_id"])).values(status="open"))
            elif kind == "audit":
                at = datetime.fromisoformat(body["at"])
                there = conn.execute(select(A.c.id).where(
                    A.c.at == at, A.c.action == body["action"], A.c.detail == body["detail"],
                    A.c.table_id == table_id)).first()
                if there is None:
                    append_audit(conn, [dict(body, at=at)])
        cur.close()
        if new_events:
            conn.execute(update(T).where(T.c.id == table_id)
                         .values(head_seq=seq, head_hash=last_hash))
        return None

    def _conflict_text(self, table_id: int, row: StoredEvent, server_seq: int) -> str:
        name = self._cache.get(("table", table_id))
        label = name.name if isinstance(name, Table) else f"table {table_id}"
        count = self.journal.count()
        return (f"{label} is stopped: another station recorded at it while this station was "
                f"offline (the server's chain is at seq {server_seq}; this station's "
                f"{count} unsent input{'s' if count != 1 else ''} follow seq {row.seq - 1}). "
                f"Nothing was forked; the inputs are kept in {self.journal.path}. Call the floor.")

    def _refused_text(self, table_id: int, why: str) -> str:
        name = self._cache.get(("table", table_id))
        label = name.name if isinstance(name, Table) else f"table {table_id}"
        return (f"{label} is stopped: the server refused this station's journal ({why}). "
                f"Nothing of it was recorded; the inputs are kept in {self.journal.path}. "
                "Call the floor.")

    def _stop(self, table_id: int, message: str) -> None:
        now = datetime.now(UTC)
        self.journal.stop(table_id, message, now)
        self._stopped_seen.add(table_id)
        with suppress(StoreUnavailable):
            self.server.add_audit(at=now, actor=None, action=SYNC_CONFLICT,
                                  detail=f"{self.station}: {message}", table_id=table_id)

    def set_aside(self, table_id: int, *, floor: str) -> int:
        """The floor has dealt with a stopped table: keep its unsent inputs in the journal file,
        set aside, and deal again from the server's chain. Written to the audit log."""
        n = self.journal.set_aside(table_id)
        self.server.add_audit(at=datetime.now(UTC), actor=floor, action=SYNC_RESOLVED,
                              detail=f"{self.station}: {n} unsent inputs set aside in "
                              f"{self.journal.path} (journal {self.journal.id})",
                              table_id=table_id)
        self._stopped_seen.discard(table_id)
        self._forget(table_id)
        return n

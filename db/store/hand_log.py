"""The hand log written: hands started and imported, events appended on each table's chain.

Each append locks its table's row (``BEGIN IMMEDIATE`` on SQLite, ``SELECT ... FOR NO KEY
UPDATE`` on PostgreSQL), takes the chain head from it, inserts the event with the next sequence
number and its hash, and moves the head, so a table's chain never forks. On PostgreSQL a dealer
input usually goes in as one statement instead: a compare-and-swap from the head the store wrote
last, which the locking path takes over when another station wrote since.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, func, insert, select
from sqlalchemy.exc import DBAPIError

from dealer_assist.db.store.audit import append_audit
from dealer_assist.db.store.base import free_held_locks, lock_timed_out
from dealer_assist.db.store.hands import HandReadStore
from dealer_assist.db.store.rows import SH, A, E, H, L
from dealer_assist.errors import BadInput
from dealer_assist.services.chain import canonical, event_hash, utc
from dealer_assist.services.errors import Conflict, NotFound
from dealer_assist.services.model import Hand, LedgerLine, NewEvent, StoredEvent
from dealer_assist.services.records import record_entry, shift_state

#: PostgreSQL's one-statement append: one round trip, its own transaction (autocommit). It is a
#: compare-and-swap on the chain head this store wrote last: the table's head moves only if it is
#: still that head and the hand still has ``expected`` events; the hand's count moves only if the
#: head did; the event goes in only if both did (a head moved without its hand would insert a
#: NULL number, which the column refuses, undoing the whole statement). No row back: another
#: station wrote at the table since, or the hand is not where the caller thinks; the locking path
#: then decides, with today's head.
_APPEND_ONE_PG = (
    "WITH t AS (UPDATE card_tables SET head_seq = %(seq)s, head_hash = %(hash)s::text"
    " WHERE id = %(table_id)s AND head_seq = %(head_seq)s AND head_hash = %(prev_hash)s::text"
    " AND EXISTS (SELECT 1 FROM hands WHERE id = %(hand_id)s AND table_id = %(table_id)s"
    " AND events = %(expected)s) RETURNING id),"
    " h AS (UPDATE hands SET events = %(number)s WHERE id = %(hand_id)s"
    " AND events = %(expected)s AND EXISTS (SELECT 1 FROM t) RETURNING events)"
    " INSERT INTO events (table_id, seq, hand_id, number, time, actor, type, body, prev_hash,"
    " hash, over_mark) SELECT t.id, %(seq)s, %(hand_id)s, h.events, %(time)s, %(actor)s::text,"
    " %(type)s::text, %(body)s::text, %(prev_hash)s::text, %(hash)s::text, %(over_mark)s::text"
    " FROM t LEFT JOIN h ON true RETURNING seq"
)
#: How many hands' tables a store remembers for that append (hands are dealt one after another).
_HANDS_REMEMBERED = 256


class HandLogStore(HandReadStore):
    """The hand log's writes, part of :class:`~dealer_assist.db.store.SqlStore` (mixed in)."""

    def _insert_event(
        self, cur: Any, *, table_id: int, head_seq: int, head_hash: str,
        hand_id: int | None,
        number: int, ev: NewEvent,
    ) -> StoredEvent:
        """Insert the event after the locked head on the driver cursor ``cur``; move the head."""
        seq = head_seq + 1
        at = utc(ev.time)
        body_text = canonical(ev.body)
        h = event_hash(
            table_id=table_id, seq=seq, time=at, actor=ev.actor, hand_id=hand_id,
            body=body_text, prev_hash=head_hash,
        )
        row = (table_id, seq, hand_id, number, self._time(at), ev.actor,
               str(ev.body.get("type", "")), body_text, head_hash, h)
        if ev.over_mark is not None:
            cur.execute(self._sql["insert_marked"], (*row, ev.approval_id, ev.over_mark))
        elif ev.approval_id is None:
            cur.execute(self._sql["insert"], row)
        else:
            cur.execute(self._sql["insert_approved"], (*row, ev.approval_id))
        cur.execute(self._sql["move"], (seq, h, table_id))
        return StoredEvent(
            table_id=table_id, seq=seq, hand_id=hand_id, number=number, time=at, actor=ev.actor,
            body=dict(ev.body), prev_hash=head_hash, hash=h,
        )

    def _remember(self, table_id: int, hand_id: int | None, seq: int, head_hash: str) -> None:
        """The chain head this store just committed at the table (and the hand it was for)."""
        if not self._pg:
            return
        self._heads[table_id] = (seq, head_hash)
        if hand_id is not None:
            if len(self._hand_table) >= _HANDS_REMEMBERED and hand_id not in self._hand_table:
                self._hand_table.clear()
            self._hand_table[hand_id] = table_id

    def _append_one_statement(
        self, hand_id: int, expected: int, event: NewEvent
    ) -> StoredEvent | None:
        """PostgreSQL: the append in one statement from the head this store wrote last, or None
        (nothing written) when that head is unknown or no longer the table's, or when another
        thread of this process is using the store's own connection."""
        if event.approval_id is not None:  # (rare: the locking path carries it)
            return None
        table_id = self._hand_table.get(hand_id)
        head = self._heads.pop(table_id, None) if table_id is not None else None
        if table_id is None or head is None:
            return None
        if not self._own_lock.acquire(blocking=False):
            return None
        try:
            seq, prev = head[0] + 1, head[1]
            at = utc(event.time)
            body_text = canonical(event.body)
            h = event_hash(
                table_id=table_id, seq=seq, time=at, actor=event.actor, hand_id=hand_id,
                body=body_text, prev_hash=prev,
            )
            try:
                done = self._own_connection().execute(_APPEND_ONE_PG, {
                    "table_id": table_id, "hand_id": hand_id, "head_seq": seq - 1, "seq": seq,
                    "prev_hash": prev, "hash": h, "expected": expected, "number": expected + 1,
                    "time": self._time(at), "actor": event.actor,
                    "type": str(event.body.get("type", "")), "body": body_text,
                    "over_mark": event.over_mark,
                }).fetchone()
            except (DBAPIError, self._driver_error) as exc:
                # Refused or cut off. The statement was undone, or (the connection dropped after
                # the server committed it) the locking path finds the hand moved: a Conflict.
                con = self._own
                if con is not None and (con.closed or con.broken):
                    self._drop_own()
                if lock_timed_out(exc):  # a session idle on the table: the locking path
                    free_held_locks(self.db)  # need not wait it out again
                return None
            except BaseException:
                self._drop_own()
                raise
        finally:
            self._own_lock.release()
        if done is None:
            return None
        self._heads[table_id] = (seq, h)
        self.one_statement_appends += 1
        return StoredEvent(
            table_id=table_id, seq=seq, hand_id=hand_id, number=expected + 1, time=at,
            actor=event.actor, body=dict(event.body), prev_hash=prev, hash=h,
        )

    def start_hand(
        self, *, table_id: int, shift_id: int, settings_id: int | None, game: str,
        seats: Sequence[int], start: NewEvent,
    ) -> tuple[Hand, StoredEvent]:
        at = utc(start.time)
        with self._write() as conn:
            head = self._lock_table(conn, table_id)
            number = 1 + int(conn.execute(
                select(func.coalesce(func.max(H.c.number), 0)).where(H.c.table_id == table_id)
            ).scalar_one())
            hand_id = int(conn.execute(
                insert(H).values(
                    table_id=table_id, shift_id=shift_id, number=number, game=game,
                    seats=json.dumps(list(seats)), started_at=at, started_by=start.actor,
                    settings_id=settings_id, status="open", events=1,
                ).returning(H.c.id)
            ).scalar_one())
            cur = self._cursor(conn)
            row = self._insert_event(
                cur, table_id=table_id, head_seq=head.head_seq, head_hash=head.head_hash,
                hand_id=hand_id, number=1, ev=start,
            )
            cur.close()
        self._remember(table_id, hand_id, row.seq, row.hash)
        hand = Hand(
            id=hand_id, table_id=table_id, shift_id=shift_id, number=number, game=game,
            seats=tuple(seats), started_at=at, started_by=start.actor, settings_id=settings_id,
            status="open", events=1,
        )
        return hand, row

    def _import_once(self, conn: Connection, note: str) -> None:
        """In the import's transaction: refuse a log already imported (its fingerprint in an
        earlier import's audit entry). On PostgreSQL imports take turns (an advisory lock, held
        to the commit), so two stations importing the same log at once cannot both pass."""
        from dealer_assist.services.imports import already_imported, fingerprint_in

        fingerprint = fingerprint_in(note)
        if fingerprint is None:
            return
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql("SELECT pg_advisory_xact_lock(hashtext('dealer-assist-import'))")
        row = conn.execute(select(A.c.hand_id).where(
            A.c.action == "import", A.c.detail.like(f"%{fingerprint}%")).limit(1)).first()
        if row is not None:
            raise BadInput(already_imported(self.get_hand(int(row.hand_id))
                                            if row.hand_id is not None else None))

    def import_hand(
        self, *, table_id: int, actor: str, at: datetime, game: str, seats: Sequence[int],
        events: Sequence[NewEvent], lines: Sequence[LedgerLine] | None, note: str,
    ) -> Hand:
        """An imported hand, whole, in one transaction: a shift of its own (opened and closed at
        once), the hand (no settings version: that marks it imported), its events on the
        table's chain, its ledger lines when it is settled, and its audit entry. A failure or a
        kill at any point leaves nothing of it."""
        with self._write() as conn:
            head = self._lock_table(conn, table_id)
            self._import_once(conn, note)
            shift_id = int(conn.execute(
                insert(SH).values(table_id=table_id, dealer=actor, floor=actor, opened_at=at,
                                  closed_at=at, closed_by=actor, closed_floor=actor)
                .returning(SH.c.id)
            ).scalar_one())
            append_audit(conn, [record_entry("shift", shift_state(
                id=shift_id, table_id=table_id, dealer=actor, floor=actor, opened_at=at,
                closed_at=at, closed_by=actor, closed_floor=actor,
            ), at)])
            number = 1 + int(conn.execute(
                select(func.coalesce(func.max(H.c.number), 0)).where(H.c.table_id == table_id)
            ).scalar_one())
            status = "open" if lines is None else "settled"
            hand_id = int(conn.execute(
                insert(H).values(
                    table_id=table_id, shift_id=shift_id, number=number, game=game,
                    seats=json.dumps(list(seats)), started_at=at, started_by=actor,
                    settings_id=None, status=status, events=len(events),
                ).returning(H.c.id)
            ).scalar_one())
            seq, prev = int(head.head_seq), str(head.head_hash)
            rows = []
            for n, ev in enumerate(events, start=1):
                seq += 1
                when = utc(ev.time)
                body = canonical(ev.body)
                h = event_hash(table_id=table_id, seq=seq, time=when, actor=ev.actor,
                               hand_id=hand_id, body=body, prev_hash=prev)
                rows.append((table_id, seq, hand_id, n, self._time(when), ev.actor,
                             str(ev.body.get("type", "")), body, prev, h))
                prev = h
            cur = self._cursor(conn)
            cur.executemany(self._sql["insert"], rows)
            cur.execute(self._sql["move"], (seq, prev, table_id))
            cur.close()
            if lines:
                conn.execute(insert(L), [
                    {"hand_id": hand_id, "settlement": 1, "kind": x.kind, "detail": x.detail,
                     "seat": x.seat, "amount": x.amount} for x in lines
                ])
            append_audit(conn, [{
                "at": at, "actor": actor, "action": "import", "detail": f"hand {number}: {note}",
                "table_id": table_id, "hand_id": hand_id,
            }])
        self._remember(table_id, None, seq, prev)
        return Hand(
            id=hand_id, table_id=table_id, shift_id=shift_id, number=number, game=game,
            seats=tuple(seats), started_at=utc(at), started_by=actor, settings_id=None,
            status=status, events=len(events),
        )

    def append_event(self, hand_id: int, *, expected: int, event: NewEvent) -> StoredEvent:
        """One dealer input: the hand must still have ``expected`` events. SQLite: the locking
        path on the driver connection. PostgreSQL: one statement from the head this store
        wrote last, else the locking path with the table's row locked."""
        if not self._pg:
            with self._driver_write() as cur:
                return self._append_locked(cur, hand_id, expected, event)
        row = self._append_one_statement(hand_id, expected, event)
        if row is not None:
            return row
        with self._write() as conn:
            cur = self._cursor(conn)
            row = self._append_locked(cur, hand_id, expected, event)
            cur.close()
        self._remember(row.table_id, hand_id, row.seq, row.hash)
        return row

    def _append_locked(
        self, cur: Any, hand_id: int, expected: int, event: NewEvent
    ) -> StoredEvent:
        """Read the hand's count and its table's head (locked), move the count, insert."""
        cur.execute(self._sql["head"], (hand_id,))
        head = cur.fetchone()
        if head is None:
            raise NotFound(f"there is no hand {hand_id}")
        table_id, events, head_seq, head_hash = head
        moved = 0
        if events == expected:
            cur.execute(self._sql["count"], (expected + 1, hand_id, expected))
            moved = cur.rowcount
        if moved != 1:
            raise Conflict(
                "the hand changed at another station: reload it and enter the input again"
            )
        return self._insert_event(
            cur, table_id=table_id, head_seq=head_seq, head_hash=head_hash,
            hand_id=hand_id, number=expected + 1, ev=event,
        )

    def append_table_event(
        self, table_id: int, *, expected: int, event: NewEvent, lines: Sequence[LedgerLine]
    ) -> tuple[StoredEvent, list[LedgerLine]]:
        with self._write() as conn:
            head = self._lock_table(conn, table_id)
            count = int(conn.execute(
                select(func.count()).select_from(E)
                .where(E.c.table_id == table_id, E.c.hand_id.is_(None))
            ).scalar_one())
            if count != expected:
                raise Conflict(
                    "the table's seats changed at another station: reload and enter it again"
                )
            cur = self._cursor(conn)
            row = self._insert_event(
                cur, table_id=table_id, head_seq=head.head_seq, head_hash=head.head_hash,
                hand_id=None, number=expected + 1, ev=event,
            )
            cur.close()
            done = [replace(x, hand_id=None, table_id=table_id, seq=row.seq, at=row.time)
                    for x in lines]
            if done:
                conn.execute(insert(L), [
                    {"hand_id": None, "settlement": 0, "kind": x.kind, "detail": x.detail,
                     "seat": x.seat, "amount": x.amount, "table_id": table_id,
                     "period": x.period, "seq": row.seq} for x in done
                ])
        self._remember(table_id, None, row.seq, row.hash)
        return row, done

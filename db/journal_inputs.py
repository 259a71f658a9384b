"""A station's inputs while the server does not answer: appended to the journal with the same
sequence number and hash they will have on the server (:mod:`dealer_assist.db.journal` says
which inputs go there and which wait for the server)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from dealer_assist.db.journal_core import RESERVE
from dealer_assist.db.journal_file import hand_json, row_json
from dealer_assist.db.journal_sync import JournalSync
from dealer_assist.services.chain import canonical, event_hash, utc
from dealer_assist.services.errors import Conflict, StoreUnavailable
from dealer_assist.services.model import AuditEntry, Hand, LedgerLine, NewEvent, StoredEvent


class JournalInputs(JournalSync):
    """The inputs part of :class:`~dealer_assist.db.journal.JournalStore`."""

    def _must_journal(self, table_id: int) -> bool:
        """True when the table's input has to go to the journal: its earlier inputs are still
        there and cannot be synced now, or the server is down."""
        if self.journal.unsynced(table_id):
            try:
                self.sync(table_id)
            except StoreUnavailable:
                return True
        return self.offline

    def _remember_row(self, row: StoredEvent) -> None:
        with self._lock:
            self._heads[row.table_id] = (row.seq, row.hash)
            if row.hand_id is None:
                return
            rows = self._rows.get(row.hand_id)
            if rows is not None and (not rows or rows[-1].number == row.number - 1):
                rows.append(row)
            elif rows is not None:
                self._rows.pop(row.hand_id, None)
            hand = self._hands.get(row.hand_id)
            if hand is not None:
                self._hands[row.hand_id] = replace(hand, events=row.number)

    def _next_row(self, table_id: int, hand_id: int | None, number: int,
                  event: NewEvent) -> StoredEvent:
        if event.approval_id is not None:  # the server checks it when written (schema 0016)
            raise StoreUnavailable(
                "the server does not answer: a change a floor person approved is recorded only "
                "on the server, with its approval; nothing was recorded; retry when the server "
                "is back (the floor approves again)")
        head = self._heads.get(table_id)
        if head is None:
            raise StoreUnavailable(
                "the server does not answer and this station has not written at this table yet: "
                "nothing was recorded; retry when the server is back")
        seq, prev = head[0] + 1, head[1]
        at = utc(event.time)
        h = event_hash(table_id=table_id, seq=seq, time=at, actor=event.actor, hand_id=hand_id,
                       body=canonical(event.body), prev_hash=prev)
        return StoredEvent(table_id=table_id, seq=seq, hand_id=hand_id, number=number, time=at,
                           actor=event.actor, body=dict(event.body), prev_hash=prev, hash=h)

    def start_hand(self, *, table_id: int, shift_id: int, settings_id: int | None, game: str,
                   seats: Sequence[int], start: NewEvent) -> tuple[Hand, StoredEvent]:
        self._check_stopped(table_id)
        with self._lock:
            if not self._must_journal(table_id):
                try:
                    hand, row = self._server(lambda: self.server.start_hand(
                        table_id=table_id, shift_id=shift_id, settings_id=settings_id,
                        game=game, seats=seats, start=start))
                except StoreUnavailable:
                    pass
                else:
                    self._hands[hand.id] = hand
                    self._rows[hand.id] = []
                    self._last[table_id] = hand.id
                    self._remember_row(row)
                    self._reserve(table_id)
                    return hand, row
            ids = self.journal.reserved(table_id)
            if not ids:
                raise StoreUnavailable(
                    "the server does not answer and this station has no hand number kept for "
                    "it: finish the hand in play; a new hand starts when the server is back")
            last = self._hands.get(self._last.get(table_id, -1))
            hand = Hand(id=ids[0], table_id=table_id, shift_id=shift_id,
                        number=(last.number if last else 0) + 1, game=game, seats=tuple(seats),
                        started_at=utc(start.time), started_by=start.actor,
                        settings_id=settings_id, status="open", events=1)
            row = self._next_row(table_id, hand.id, 1, start)
            self.journal.add(table_id, "start", {"hand": hand_json(hand), "row": row_json(row)},
                             start.time)
            self.journal.use_reserved(hand.id)
            self._hands[hand.id] = hand
            self._rows[hand.id] = []
            self._last[table_id] = hand.id
            self._remember_row(row)
            return hand, row

    def _reserve(self, table_id: int) -> None:
        """Keep a few hand ids taken from the server's sequence for hands started offline
        (PostgreSQL; a SQLite file has no sequence to share)."""
        if self.db.dialect != "postgresql" or len(self.journal.reserved(table_id)) >= RESERVE:
            return
        try:
            with self.server.engine.begin() as conn:
                ids = [int(r[0]) for r in conn.exec_driver_sql(
                    "SELECT nextval(pg_get_serial_sequence('hands', 'id')) "
                    "FROM generate_series(1, %s)", (RESERVE,))]
        except Exception:  # the next hand tries again
            return
        self.journal.reserve(table_id, ids)

    def append_event(self, hand_id: int, *, expected: int, event: NewEvent) -> StoredEvent:
        with self._lock:
            hand = self._hands.get(hand_id)
            if hand is not None:
                self._check_stopped(hand.table_id)
            if hand is None or not self._must_journal(hand.table_id):
                try:
                    row = self._server(lambda: self.server.append_event(
                        hand_id, expected=expected, event=event))
                except StoreUnavailable:
                    if hand is None:
                        raise
                else:
                    self._remember_row(row)
                    return row
            assert hand is not None
            hand = self._hands[hand_id]
            if hand.events != expected:
                raise Conflict(
                    "the hand changed at another station: reload it and enter the input again")
            row = self._next_row(hand.table_id, hand_id, expected + 1, event)
            self.journal.add(hand.table_id, "event", {"row": row_json(row)}, event.time)
            self._remember_row(row)
            return row

    def append_table_event(
        self, table_id: int, *, expected: int, event: NewEvent, lines: Sequence[LedgerLine]
    ) -> tuple[StoredEvent, list[LedgerLine]]:
        """A seat or period mark and the time it collects: the server's, or kept in the
        journal with its sequence number and hash like a hand's input."""
        self._check_stopped(table_id)
        with self._lock:
            if not self._must_journal(table_id):
                try:
                    row, done = self._server(lambda: self.server.append_table_event(
                        table_id, expected=expected, event=event, lines=lines))
                except StoreUnavailable:
                    pass
                else:
                    self._remember_table_row(row, done)
                    return row, done
            known = self._table_rows.get(table_id)
            if known is None:
                raise StoreUnavailable(self._last_error)
            if len(known) != expected:
                raise Conflict(
                    "the table's seats changed at another station: reload and enter it again")
            row = self._next_row(table_id, None, expected + 1, event)
            done = [replace(x, hand_id=None, table_id=table_id, seq=row.seq, at=row.time)
                    for x in lines]
            self.journal.add(table_id, "table-event", {"row": row_json(row), "lines": [
                {"kind": x.kind, "detail": x.detail, "seat": x.seat, "amount": x.amount,
                 "period": x.period} for x in done]}, event.time)
            self._remember_table_row(row, done)
            return row, done

    def _remember_table_row(self, row: StoredEvent, done: Sequence[LedgerLine]) -> None:
        self._heads[row.table_id] = (row.seq, row.hash)
        known = self._table_rows.get(row.table_id)
        if known is not None:
            known.append(row)
        lines = self._time_lines.get(row.table_id)
        if lines is not None:
            lines.extend(done)

    def settle_hand(self, hand_id: int, lines: Sequence[LedgerLine]) -> None:
        self._ledgers[hand_id] = list(lines)
        self._hand_op(hand_id, "settle", lambda: self.server.settle_hand(hand_id, lines), {
            "hand_id": hand_id,
            "lines": [{"kind": x.kind, "detail": x.detail, "seat": x.seat, "amount": x.amount}
                      for x in lines]}, status="settled")

    def reopen_hand(self, hand_id: int) -> None:
        self._hand_op(hand_id, "reopen", lambda: self.server.reopen_hand(hand_id),
                      {"hand_id": hand_id}, status="open")

    def _hand_op(self, hand_id: int, kind: str, online: Callable[[], None],
                 body: dict[str, Any], *, status: str) -> None:
        with self._lock:
            hand = self._hands.get(hand_id)
            if hand is not None:
                self._check_stopped(hand.table_id)
            if hand is None or not self._must_journal(hand.table_id):
                try:
                    self._server(online)
                except StoreUnavailable:
                    if hand is None:
                        raise
                else:
                    if hand is not None:
                        self._hands[hand_id] = replace(hand, status=status)
                    return
            assert hand is not None
            self.journal.add(hand.table_id, kind, body, datetime.now(UTC))
            self._hands[hand_id] = replace(self._hands[hand_id], status=status)

    def add_audit(self, *, at: datetime, actor: str | None, action: str, detail: str = "",
                  table_id: int | None = None, hand_id: int | None = None,
                  token: str = "") -> AuditEntry:
        with self._lock:
            if table_id is None or token or not self._must_journal(table_id):
                try:
                    return self._server(lambda: self.server.add_audit(
                        at=at, actor=actor, action=action, detail=detail, table_id=table_id,
                        hand_id=hand_id, token=token))
                except StoreUnavailable:
                    # a room record held to its writer's sign-in waits for the server
                    if table_id is None or token:
                        raise
            assert table_id is not None
            op = self.journal.add(table_id, "audit", {
                "at": utc(at).isoformat(), "actor": actor, "action": action, "detail": detail,
                "table_id": table_id, "hand_id": hand_id}, at)
            return AuditEntry(id=-op, at=utc(at), actor=actor, action=action, detail=detail,
                              table_id=table_id, hand_id=hand_id)

    def add_room_record(self, **record: Any) -> AuditEntry:
        """A room record (its audit entry and typed row) is held to its writer's sign-in: it
        waits for the server, never kept in the journal."""
        with self._lock:
            return self._server(lambda: self.server.add_room_record(**record))

"""A station that rides out a blip: the local journal, and its sync to the server.

:class:`JournalStore` stands in front of the station's :class:`~dealer_assist.db.store.SqlStore`.
While the server answers, everything goes straight to it, and the station remembers what it
needs to go on alone: each table's chain head, the hands it deals and their events, a few hand
ids reserved on the server, and the last answer to each read the dealing path makes. When the
server does not answer, a dealer's input (a hand's start, an event, a settlement, a void or
misdeal's reopening, an audit entry) is appended to a SQLite file beside the app, the
**journal**, with the same sequence number and hash it will have on the server: the station
extends the table's chain from the head it knows. From then on the table's inputs go to the
journal, in order, until it is synced.

Sync sends a table's unsynced inputs to the server in one transaction, in order, with the
table's row locked: each event goes in with its own sequence number and hash if the chain's head
is the one it follows; an event already there with the same table, sequence and hash (sent
before a crash, or committed by a write whose answer was lost) is passed over, so nothing is
recorded twice; a settlement goes in only if the hand is not settled already. If another
station wrote the table meanwhile (the head moved elsewhere, or the hand number was taken), the
table is **stopped**: nothing of the batch is written, the journal keeps it, an audit entry
(``sync-conflict``) tells the floor, and the station refuses further inputs at that table with a
message saying so, instead of forking the chain. Each batch also writes an audit entry
(``journal-sync``) naming the journal and the inputs it carried; a batch whose entry is already
on the server is not sent again.

Seat and period marks go the same way, with the time they collect. What waits for the server
(the dealer is told so): signing in, approvals with a floor PIN (a void in a finished hand, a
misdeal), shifts, settings and disputes.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import func, insert, select, update

from dealer_assist.db.journal_check import BatchCheck, JournalRefused
from dealer_assist.db.journal_file import Journal, hand_from, hand_json, row_from, row_json
from dealer_assist.db.store import A, E, H, L, SqlStore, T, append_audit
from dealer_assist.errors import DealerAssistError
from dealer_assist.services.chain import canonical, event_hash, utc
from dealer_assist.services.errors import Conflict, NotFound, StoreUnavailable
from dealer_assist.services.live import SYNC_CONFLICT, SYNC_RESOLVED
from dealer_assist.services.model import (
    AuditEntry,
    ChainHead,
    Hand,
    LedgerLine,
    NewEvent,
    SettingsVersion,
    Shift,
    StoredEvent,
    Table,
    UserSecret,
)

R = TypeVar("R")
#: The audit action of a synced batch.
JOURNAL_SYNC = "journal-sync"
#: How many hand ids a station keeps reserved per table for hands started while offline.
RESERVE = 4
#: After the server failed to answer, how long the station deals from the journal before it
#: tries the server again (so a dealer never waits on a dead connection for every input).
RETRY_AFTER_S = 2.0



class _Undo(Exception):
    """Roll the sync's transaction back (a conflict): nothing of the batch is written."""


class TableStopped(DealerAssistError):
    """The table's journal conflicts with the server: another station wrote the table while
    this one was offline. Nothing more is recorded at the table until the floor resolves it."""


@dataclass(frozen=True, slots=True)
class JournalStatus:
    """What the station's one line on screen says."""

    offline: bool
    pending: int
    stopped: dict[int, str]

    def line(self) -> str:
        if self.stopped:
            return "; ".join(self.stopped.values())
        if self.offline:
            return (f"Offline: the server does not answer. Dealing goes on; {self.pending} "
                    f"input{'s' if self.pending != 1 else ''} kept on this station, sent in "
                    "order when the server is back.")
        if self.pending:
            return f"Sending {self.pending} input{'s' if self.pending != 1 else ''} kept on " \
                   "this station to the server…"
        return ""


class JournalStore:
    """The station's store: the server's, with the journal behind it (see the module's
    docstring). Every method of the store port not named here goes to the server as is."""

    def __init__(self, server: SqlStore, journal: Path, *, station: str = "",
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.server = server
        self.db = server.db
        self.journal = Journal(journal, database=server.db.describe())
        self.station = station or journal.stem
        self._clock = clock
        self._down_until = 0.0
        self._last_error = "the server does not answer"
        self._lock = threading.RLock()
        #: What the station knows to go on alone.
        self._heads: dict[int, tuple[int, str]] = {}
        self._hands: dict[int, Hand] = {}
        self._rows: dict[int, list[StoredEvent]] = {}
        self._last: dict[int, int] = {}
        self._cache: dict[tuple[Any, ...], Any] = {}
        self._ledgers: dict[int, list[LedgerLine]] = {}
        #: Each table's seat and period events and their time collections, as far as known.
        self._table_rows: dict[int, list[StoredEvent]] = {}
        self._time_lines: dict[int, list[LedgerLine]] = {}
        self._stopped_seen: set[int] = set()
        self._load_journal()
        #: Batches synced (for the tests and the status line).
        self.synced_batches = 0
        #: Inputs sent by the sync made on opening (the station started again with a journal).
        self.sent_at_open = 0
        if self.journal.count():  # started again after a crash: send what was kept, if it can
            with suppress(StoreUnavailable, TableStopped):
                self.sent_at_open = self.sync()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.server, name)

    # --- state ---------------------------------------------------------------------------------
    def _load_journal(self) -> None:
        """After a restart while offline: the journal's unsynced ops rebuild what the station
        knew (hands, events, heads) on top of what the server has."""
        for _op, table_id, kind, body in self.journal.unsynced():
            try:
                self._load_op(table_id, kind, body)
            except (KeyError, TypeError, ValueError, AttributeError):
                continue  # a damaged input: its sync refuses it and stops the table

    def _load_op(self, table_id: int, kind: str, body: dict[str, Any]) -> None:
        if kind == "start":
            hand = hand_from(body["hand"])
            self._hands[hand.id] = hand
            self._rows[hand.id] = []
            self._last[table_id] = hand.id
        if kind in ("start", "event", "table-event"):
            row = row_from(body["row"])
            self._heads[table_id] = (row.seq, row.hash)
            if row.hand_id is not None:
                self._rows.setdefault(row.hand_id, []).append(row)
                if row.hand_id in self._hands:
                    h = self._hands[row.hand_id]
                    self._hands[row.hand_id] = replace(h, events=row.number)
        if kind == "settle":
            self._ledgers[body["hand_id"]] = [
                LedgerLine(hand_id=body["hand_id"], settlement=0, **x) for x in body["lines"]]
        if kind == "settle" and body["hand_id"] in self._hands:
            self._hands[body["hand_id"]] = replace(self._hands[body["hand_id"]],
                                                   status="settled")
        if kind == "reopen" and body["hand_id"] in self._hands:
            self._hands[body["hand_id"]] = replace(self._hands[body["hand_id"]],
                                                   status="open")

    def status(self) -> JournalStatus:
        return JournalStatus(offline=self._clock() < self._down_until,
                             pending=self.journal.count(), stopped=self.journal.stops())

    @property
    def offline(self) -> bool:
        return self._clock() < self._down_until

    def _went_down(self, exc: StoreUnavailable) -> None:
        self._down_until = self._clock() + RETRY_AFTER_S
        self._last_error = str(exc)

    def _server(self, fn: Callable[[], R]) -> R:
        """Call the server unless it failed a moment ago; note a failure."""
        if self.offline:
            raise StoreUnavailable(self._last_error)
        try:
            return fn()
        except StoreUnavailable as exc:
            self._went_down(exc)
            raise

    def _check_stopped(self, table_id: int) -> None:
        message = self.journal.stops().get(table_id)
        if message is not None:
            self._stopped_seen.add(table_id)
            raise TableStopped(message)
        if table_id in self._stopped_seen:  # set aside meanwhile (``dealer-assist journal``)
            self._stopped_seen.discard(table_id)
            self._forget(table_id)

    def _forget(self, table_id: int) -> None:
        """Drop what the station knew of the table: it deals again from the server's record."""
        with self._lock:
            self._heads.pop(table_id, None)
            for hand_id in [h for h, x in self._hands.items() if x.table_id == table_id]:
                self._hands.pop(hand_id, None)
                self._rows.pop(hand_id, None)
                self._ledgers.pop(hand_id, None)
            self._last.pop(table_id, None)
            self._table_rows.pop(table_id, None)
            self._time_lines.pop(table_id, None)
            self._cache = {k: v for k, v in self._cache.items() if k[1] != table_id}

    def _must_journal(self, table_id: int) -> bool:
        """True when the table's input has to go to the journal: its earlier inputs are still
        there and cannot be synced now, or the server is down."""
        if self.journal.unsynced(table_id):
            try:
                self.sync(table_id)
            except StoreUnavailable:
                return True
        return self.offline

    # --- reads the dealing path makes: the server's answer, else the last one -------------------
    def _read(self, key: tuple[Any, ...], fn: Callable[[], R]) -> R:
        try:
            value = self._server(fn)
        except StoreUnavailable:
            if key in self._cache:
                return self._cache[key]  # type: ignore[no-any-return]
            raise
        self._cache[key] = value
        return value

    def get_table(self, table_id: int) -> Table | None:
        return self._read(("table", table_id), lambda: self.server.get_table(table_id))

    def latest_settings(self, table_id: int) -> SettingsVersion | None:
        return self._read(("settings", table_id), lambda: self.server.latest_settings(table_id))

    def get_settings(self, settings_id: int) -> SettingsVersion | None:
        return self._read(("settings-id", settings_id),
                          lambda: self.server.get_settings(settings_id))

    def current_shift(self, table_id: int) -> Shift | None:
        return self._read(("shift", table_id), lambda: self.server.current_shift(table_id))

    def user_secret(self, name: str) -> UserSecret | None:
        return self._read(("user", name), lambda: self.server.user_secret(name))

    def chain_head(self, table_id: int) -> ChainHead | None:
        if self.journal.unsynced(table_id) or self.offline:
            head = self._heads.get(table_id)
            if head is not None:
                return ChainHead(table_id=table_id, seq=head[0], hash=head[1])
        return self._read(("head", table_id), lambda: self.server.chain_head(table_id))

    def _local_hand(self, hand_id: int) -> Hand | None:
        hand = self._hands.get(hand_id)
        return hand if hand is not None and self._journaled(hand.table_id) else None

    def _journaled(self, table_id: int) -> bool:
        return self.offline or bool(self.journal.unsynced(table_id))

    def last_hand(self, table_id: int) -> Hand | None:
        if self._journaled(table_id) and table_id in self._last:
            return self._hands[self._last[table_id]]
        hand = self._read(("last", table_id), lambda: self._last_from_server(table_id))
        if hand is not None and hand.id in self._hands:
            return self._hands[hand.id]
        return hand

    def _last_from_server(self, table_id: int) -> Hand | None:
        """The table's last hand, and what the next hand needs of it should the server then
        stop answering: the chain head, the hand's events, its ledger once settled."""
        hand = self.server.last_hand(table_id)
        head = self.server.chain_head(table_id)
        rows = self._rows.get(hand.id) if hand is not None else None
        if hand is not None and (rows is None or len(rows) != hand.events):
            rows = list(self.server.hand_events(hand.id))
        ledger = None
        if hand is not None and hand.status == "settled" and hand.id not in self._ledgers:
            ledger = self.server.ledger(hand.id)
        with self._lock:
            if head is not None:
                self._heads[table_id] = (head.seq, head.hash)
            if hand is not None:
                self._hands[hand.id] = hand
                self._last[table_id] = hand.id
                self._rows[hand.id] = list(rows or [])
                if ledger is not None:
                    self._ledgers[hand.id] = list(ledger)
        return hand

    def get_hand(self, hand_id: int) -> Hand | None:
        local = self._local_hand(hand_id)
        if local is not None:
            return local
        hand = self._read(("hand", hand_id), lambda: self.server.get_hand(hand_id))
        return hand

    def hand_events(self, hand_id: int, *, after: int = 0) -> list[StoredEvent]:
        if after:
            return [r for r in self.hand_events(hand_id) if r.number > after]
        local = self._local_hand(hand_id)
        rows = self._rows.get(hand_id)
        if local is not None and rows is not None and len(rows) == local.events:
            return list(rows)
        got = self._read(("events", hand_id), lambda: self.server.hand_events(hand_id))
        with self._lock:
            if hand_id in self._hands:
                self._rows[hand_id] = list(got)
        return got

    def ledger(self, hand_id: int) -> list[LedgerLine]:
        local = self._local_hand(hand_id)
        if local is not None and hand_id in self._ledgers:
            return list(self._ledgers[hand_id])
        return self._read(("ledger", hand_id), lambda: self.server.ledger(hand_id))

    def table_level_events(self, table_id: int) -> list[StoredEvent]:
        if self._journaled(table_id) and table_id in self._table_rows:
            return list(self._table_rows[table_id])
        rows = self._read(("table-events", table_id),
                          lambda: self.server.table_level_events(table_id))
        self._table_rows[table_id] = list(rows)
        return rows

    def time_ledger(self, table_id: int | None = None, *, since: datetime | None = None,
                    until: datetime | None = None) -> list[LedgerLine]:
        whole = table_id is not None and since is None and until is None
        if whole and self._journaled(table_id) and table_id in self._time_lines:  # type: ignore[arg-type]
            return list(self._time_lines[table_id])
        lines = self._read(("time-ledger", table_id, since, until),
                           lambda: self.server.time_ledger(table_id, since=since, until=until))
        if whole:
            self._time_lines[table_id] = list(lines)  # type: ignore[index]
        return lines

    def settings_versions(self, table_id: int) -> list[SettingsVersion]:
        return self._read(("versions", table_id), lambda: self.server.settings_versions(table_id))

    # --- writes ----------------------------------------------------------------------------------
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

    # --- sync --------------------------------------------------------------------------------
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

    @property
    def closed(self) -> bool:
        return self.journal.closed

    def close(self) -> None:
        self.journal.close()
        self.server.close()



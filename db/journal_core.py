"""A station's journal, its state: what the station knows to go on alone (each table's chain
head, the hands it deals and their events, the last answer to each read the dealing path
makes), rebuilt from the journal after a restart, and the reads it answers from it while the
server does not answer (:mod:`dealer_assist.db.journal` says how the journal works)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from dealer_assist.db.journal_file import Journal, hand_from, row_from
from dealer_assist.db.store import SqlStore
from dealer_assist.errors import DealerAssistError
from dealer_assist.services.errors import StoreUnavailable
from dealer_assist.services.model import (
    ChainHead,
    Hand,
    LedgerLine,
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

class JournalCore:
    """What :class:`~dealer_assist.db.journal.JournalStore` knows and reads; the inputs
    (:mod:`.journal_inputs`) and the sync (:mod:`.journal_sync`) build on it."""

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

"""An in-memory store: the whole port, in dicts, for tests and for trying the services out.

It keeps the same hash chain as the database store, so :func:`verify_store` works on it too.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from dealer_assist.services.audit_chain import AuditHead, audit_hash
from dealer_assist.services.chain import GENESIS, event_hash, utc
from dealer_assist.services.errors import Conflict, NotFound
from dealer_assist.services.model import (
    Adjustment,
    ApprovalSubject,
    AuditEntry,
    ChainHead,
    Dispute,
    Hand,
    HandFilter,
    LedgerLine,
    NewEvent,
    PinResult,
    PinTry,
    SettingsVersion,
    Shift,
    StoredEvent,
    Table,
    TableNow,
    User,
    UserSecret,
)
from dealer_assist.services.pins import counted_try
from dealer_assist.services.ports import PinHasher
from dealer_assist.services.sealed import SealedRow, row_hash


class InMemoryStore:
    """Implements :class:`~dealer_assist.services.ports.Store` without a database."""

    def __init__(self, cardroom: str = "Cardroom") -> None:
        self._cardroom = cardroom
        self._ids = itertools.count(1)
        self.users: dict[int, UserSecret] = {}
        #: Wrong tries on names nobody has: {name: (tries in a row, lockout end)}.
        self.name_tries: dict[str, tuple[int, datetime | None]] = {}
        self.tables: dict[int, Table] = {}
        self.settings: dict[int, SettingsVersion] = {}
        self.shifts: dict[int, Shift] = {}
        self.hands: dict[int, Hand] = {}
        self.events: dict[int, list[StoredEvent]] = {}  # by table, in seq order
        self.hand_rows: dict[int, list[StoredEvent]] = {}
        self.ledgers: dict[int, list[LedgerLine]] = {}
        self.time_lines: list[LedgerLine] = []
        self.dispute_rows: list[Dispute] = []
        self.audit: list[AuditEntry] = []
        #: The room's typed records (schema 0022): table -> rows, chained as the database's.
        self.room_rows: dict[str, list[SealedRow]] = {}

    def _id(self) -> int:
        return next(self._ids)

    # --- cardroom and users ------------------------------------------------------------------
    def bulk_reads(self) -> None:
        """None: the reports read this store through the port."""
        return None

    def reading(self) -> AbstractContextManager[None]:
        return nullcontext()

    def cardroom_name(self) -> str:
        return self._cardroom

    def set_cardroom_name(self, name: str, *, token: str = "") -> None:
        self._cardroom = name

    def count_users(self) -> int:
        return len(self.users)

    def end_sign_in(self, token: str) -> None:
        return None  # sign-ins live in the services' sessions here

    def add_user(
        self, *, name: str, full_name: str, role: str, pin_hash: str, at: datetime,
        token: str = "",
    ) -> User:
        user = User(id=self._id(), name=name, full_name=full_name, role=role)
        self.users[user.id] = UserSecret(user=user, pin_hash=pin_hash)
        return user

    def user_secret(self, name: str) -> UserSecret | None:
        return next((s for s in self.users.values() if s.user.name == name), None)

    def set_login_state(self, user_id: int, *, failed: int, locked_until: datetime | None) -> None:
        self.users[user_id] = replace(self.users[user_id], failed=failed, locked_until=locked_until)

    def claim_pin_try(
        self, user_id: int, *, now: datetime, limit: int, lockout: timedelta
    ) -> PinTry:
        s = self.users[user_id]
        until = None if s.locked_until is None else utc(s.locked_until)
        if until is not None and now < until:
            return PinTry(allowed=False, failed=s.failed, locked_until=until)
        failed = (0 if until is not None else s.failed) + 1
        lock = now + lockout if failed >= limit else None
        self.users[user_id] = replace(s, failed=0 if lock else failed, locked_until=lock)
        return PinTry(allowed=True, failed=failed, pin_hash=s.pin_hash, locked_until=lock)

    def try_pin(
        self, name: str, pin: str, hasher: PinHasher, *, now: datetime, limit: int,
        lockout: timedelta, action: str = "login", subject: ApprovalSubject | None = None,
    ) -> PinResult:
        return counted_try(self, name, pin, hasher, now=now, limit=limit, lockout=lockout)

    def claim_name_try(
        self, name: str, *, now: datetime, limit: int, lockout: timedelta
    ) -> PinTry:
        failed, until = self.name_tries.get(name, (0, None))
        if until is not None and now < until:
            return PinTry(allowed=False, failed=failed, locked_until=until)
        failed = (0 if until is not None else failed) + 1
        lock = now + lockout if failed >= limit else None
        self.name_tries[name] = (0 if lock else failed, lock)
        return PinTry(allowed=True, failed=failed, locked_until=lock)

    def pin_try_right(self, user_id: int, *, locked_until: datetime | None) -> None:
        s = self.users[user_id]
        running = None if s.locked_until is None else utc(s.locked_until)
        if running is None or running == locked_until:
            self.users[user_id] = replace(s, failed=0, locked_until=None)

    def set_pin_hash(self, user_id: int, pin_hash: str, *, token: str = "") -> None:
        self.users[user_id] = replace(self.users[user_id], pin_hash=pin_hash, failed=0,
                                      locked_until=None)
        self.name_tries.pop(self.users[user_id].user.name, None)

    def set_user_active(
        self, user_id: int, active: bool, *, by: int | None = None, token: str = ""
    ) -> bool:
        if by is not None and not self.users[by].user.active:
            return False
        s = self.users[user_id]
        self.users[user_id] = replace(s, user=replace(s.user, active=active))
        return True

    def list_users(self) -> list[User]:
        return sorted((s.user for s in self.users.values()), key=lambda u: u.name)

    # --- tables, settings, shifts ------------------------------------------------------------
    def add_table(self, *, name: str, at: datetime, token: str = "") -> Table:
        table = Table(id=self._id(), name=name, created_at=at)
        self.tables[table.id] = table
        self.events[table.id] = []
        return table

    def get_table(self, table_id: int) -> Table | None:
        return self.tables.get(table_id)

    def find_table(self, name: str) -> Table | None:
        return next((t for t in self.tables.values() if t.name == name), None)

    def list_tables(self) -> list[Table]:
        return sorted(self.tables.values(), key=lambda t: t.id)

    def add_settings(
        self, *, table_id: int, game: str, document: Mapping[str, Any], by: str, at: datetime,
        token: str = "",
    ) -> SettingsVersion:
        version = 1 + sum(1 for s in self.settings.values() if s.table_id == table_id)
        row = SettingsVersion(
            id=self._id(), table_id=table_id, version=version, game=game, document=dict(document),
            created_at=at, created_by=by,
        )
        self.settings[row.id] = row
        return row

    def latest_settings(self, table_id: int) -> SettingsVersion | None:
        rows = [s for s in self.settings.values() if s.table_id == table_id]
        return max(rows, key=lambda s: s.version) if rows else None

    def get_settings(self, settings_id: int) -> SettingsVersion | None:
        return self.settings.get(settings_id)

    def settings_versions(self, table_id: int) -> list[SettingsVersion]:
        return sorted((s for s in self.settings.values() if s.table_id == table_id),
                      key=lambda s: s.version)

    def open_shift(self, *, table_id: int, dealer: str, floor: str, at: datetime) -> Shift:
        shift = Shift(id=self._id(), table_id=table_id, dealer=dealer, floor=floor, opened_at=at)
        self.shifts[shift.id] = shift
        return shift

    def close_shift(
        self, shift_id: int, *, dealer: str, floor: str, at: datetime,
        approval_id: int | None = None,
    ) -> Shift:
        shift = replace(self.shifts[shift_id], closed_at=at, closed_by=dealer, closed_floor=floor)
        self.shifts[shift_id] = shift
        return shift

    def get_shift(self, shift_id: int) -> Shift | None:
        return self.shifts.get(shift_id)

    def current_shift(self, table_id: int) -> Shift | None:
        rows = [s for s in self.shifts.values() if s.table_id == table_id and s.open]
        return max(rows, key=lambda s: s.id) if rows else None

    def list_shifts(self, table_id: int | None = None) -> list[Shift]:
        return [s for s in self.shifts.values() if table_id is None or s.table_id == table_id]

    # --- hands and events --------------------------------------------------------------------
    def _append(
        self, table_id: int, hand_id: int | None, number: int, ev: NewEvent
    ) -> StoredEvent:
        chain = self.events[table_id]
        seq = len(chain) + 1
        prev = chain[-1].hash if chain else GENESIS
        at = utc(ev.time)
        h = event_hash(
            table_id=table_id, seq=seq, time=at, actor=ev.actor, hand_id=hand_id,
            body=ev.body, prev_hash=prev,
        )
        row = StoredEvent(
            table_id=table_id, seq=seq, hand_id=hand_id, number=number, time=at,
            actor=ev.actor, body=dict(ev.body), prev_hash=prev, hash=h,
        )
        chain.append(row)
        if hand_id is not None:
            self.hand_rows[hand_id].append(row)
        return row

    def append_table_event(
        self, table_id: int, *, expected: int, event: NewEvent, lines: Sequence[LedgerLine]
    ) -> tuple[StoredEvent, list[LedgerLine]]:
        if table_id not in self.tables:
            raise NotFound(f"no table {table_id}")
        if len(self.table_level_events(table_id)) != expected:
            raise Conflict("the table's seats changed at another station: reload and enter again")
        row = self._append(table_id, None, expected + 1, event)
        done = [replace(x, table_id=table_id, seq=row.seq, at=row.time, hand_id=None)
                for x in lines]
        self.time_lines.extend(done)
        return row, done

    def table_level_events(self, table_id: int) -> list[StoredEvent]:
        return [r for r in self.events.get(table_id, []) if r.hand_id is None]

    def time_ledger(
        self, table_id: int | None = None, *, since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[LedgerLine]:
        return [
            x for x in self.time_lines
            if (table_id is None or x.table_id == table_id)
            and (since is None or (x.at is not None and x.at >= utc(since)))
            and (until is None or (x.at is not None and x.at < utc(until)))
        ]

    def start_hand(
        self, *, table_id: int, shift_id: int, settings_id: int | None, game: str,
        seats: Sequence[int], start: NewEvent,
    ) -> tuple[Hand, StoredEvent]:
        number = 1 + sum(1 for h in self.hands.values() if h.table_id == table_id)
        hand = Hand(
            id=self._id(), table_id=table_id, shift_id=shift_id, number=number, game=game,
            seats=tuple(seats), started_at=utc(start.time), started_by=start.actor,
            settings_id=settings_id,
        )
        self.hands[hand.id] = hand
        self.hand_rows[hand.id] = []
        row = self._append(table_id, hand.id, 1, start)
        return self._hand(hand.id), row

    def append_event(self, hand_id: int, *, expected: int, event: NewEvent) -> StoredEvent:
        hand = self.hands.get(hand_id)
        if hand is None:
            raise NotFound(f"no hand {hand_id}")
        if len(self.hand_rows[hand_id]) != expected:
            raise Conflict("the hand changed at another station: reload it and enter again")
        return self._append(hand.table_id, hand_id, expected + 1, event)

    def _hand(self, hand_id: int) -> Hand:
        hand = self.hands[hand_id]
        return replace(
            hand, events=len(self.hand_rows[hand_id]),
            disputed=any(d.hand_id == hand_id for d in self.dispute_rows),
        )

    def get_hand(self, hand_id: int) -> Hand | None:
        return self._hand(hand_id) if hand_id in self.hands else None

    def import_hand(
        self, *, table_id: int, actor: str, at: datetime, game: str, seats: Sequence[int],
        events: Sequence[NewEvent], lines: Sequence[LedgerLine] | None, note: str,
    ) -> Hand:
        shift = Shift(id=self._id(), table_id=table_id, dealer=actor, floor=actor,
                      opened_at=utc(at), closed_at=utc(at), closed_by=actor, closed_floor=actor)
        self.shifts[shift.id] = shift
        hand, _ = self.start_hand(table_id=table_id, shift_id=shift.id, settings_id=None,
                                  game=game, seats=seats, start=events[0])
        for n, ev in enumerate(events[1:], start=1):
            self.append_event(hand.id, expected=n, event=ev)
        if lines is not None:
            self.settle_hand(hand.id, lines)
        self.add_audit(at=at, actor=actor, action="import", detail=f"hand {hand.number}: {note}",
                       table_id=table_id, hand_id=hand.id)
        return self._hand(hand.id)

    def last_hand(self, table_id: int) -> Hand | None:
        rows = [h for h in self.hands.values()
                if h.table_id == table_id and h.settings_id is not None]
        return self._hand(max(rows, key=lambda h: h.number).id) if rows else None

    def list_hands(self, flt: HandFilter) -> list[Hand]:
        out = []
        for h in sorted(self.hands.values(), key=lambda h: (h.started_at, h.id), reverse=True):
            hand = self._hand(h.id)
            shift = self.shifts[h.shift_id]
            if (
                (flt.table_id is not None and hand.table_id != flt.table_id)
                or (flt.shift_id is not None and hand.shift_id != flt.shift_id)
                or (flt.game is not None and hand.game != flt.game)
                or (flt.dealer is not None and flt.dealer not in (hand.started_by, shift.dealer))
                or (flt.since is not None and hand.started_at < utc(flt.since))
                or (flt.until is not None and hand.started_at >= utc(flt.until))
                or (flt.disputed is not None and hand.disputed != flt.disputed)
                or (flt.status is not None and hand.status != flt.status)
            ):
                continue
            out.append(hand)
            if flt.limit is not None and len(out) >= flt.limit:
                break
        return out

    def tables_now(
        self, table_ids: Sequence[int], held: Mapping[int, int]
    ) -> dict[int, TableNow]:
        out: dict[int, TableNow] = {}
        for i in table_ids:
            table = self.get_table(i)
            if table is None:
                continue
            hand = self.last_hand(i)
            events = () if hand is None else tuple(
                self.hand_events(hand.id, after=held.get(hand.id, 0)))
            out[i] = TableNow(table=table, shift=self.current_shift(i), hand=hand,
                              events=events)
        return out

    def hand_events(self, hand_id: int, *, after: int = 0) -> list[StoredEvent]:
        if hand_id not in self.hand_rows:
            raise NotFound(f"no hand {hand_id}")
        return [r for r in self.hand_rows[hand_id] if r.number > after]

    def table_events(self, table_id: int) -> Iterator[StoredEvent]:
        return iter(list(self.events.get(table_id, [])))

    def chain_head(self, table_id: int) -> ChainHead | None:
        chain = self.events.get(table_id)
        if not chain:
            return None
        return ChainHead(table_id=table_id, seq=chain[-1].seq, hash=chain[-1].hash)

    def settle_hand(self, hand_id: int, lines: Sequence[LedgerLine]) -> None:
        previous = self.ledgers.get(hand_id, [])
        n = 1 + max((line.settlement for line in previous), default=0)
        self.ledgers[hand_id] = [*previous, *(replace(x, settlement=n) for x in lines)]
        self.hands[hand_id] = replace(self.hands[hand_id], status="settled")

    def reopen_hand(self, hand_id: int) -> None:
        self.hands[hand_id] = replace(self.hands[hand_id], status="open")

    def ledger(self, hand_id: int) -> list[LedgerLine]:
        rows = self.ledgers.get(hand_id, [])
        last = max((x.settlement for x in rows), default=0)
        return [x for x in rows if x.settlement == last]

    # --- disputes and audit ------------------------------------------------------------------
    def add_dispute(
        self, *, hand_id: int, notes: str, ruling: str, floor: str, at: datetime,
        adjustments: Sequence[Adjustment], approval_id: int | None = None,
    ) -> Dispute:
        d = Dispute(
            id=self._id(), hand_id=hand_id, notes=notes, ruling=ruling, floor=floor, at=utc(at),
            adjustments=tuple(adjustments),
        )
        self.dispute_rows.append(d)
        return d

    def disputes(self, hand_id: int | None = None) -> list[Dispute]:
        return [d for d in self.dispute_rows if hand_id is None or d.hand_id == hand_id]

    def add_audit(
        self, *, at: datetime, actor: str | None, action: str, detail: str = "",
        table_id: int | None = None, hand_id: int | None = None, token: str = "",
    ) -> AuditEntry:
        prev = self.audit[-1].hash if self.audit else GENESIS
        seq = len(self.audit) + 1
        when = utc(at)
        entry = AuditEntry(
            id=self._id(), at=when, actor=actor, action=action, detail=detail,
            table_id=table_id, hand_id=hand_id, seq=seq, prev_hash=prev,
            hash=audit_hash(seq=seq, at=when, actor=actor, action=action, detail=detail,
                            table_id=table_id, hand_id=hand_id, prev_hash=prev),
        )
        self.audit.append(entry)
        return entry

    def add_room_record(
        self, *, at: datetime, actor: str | None, action: str, detail: str, kind: str,
        values: Mapping[str, Any], table_id: int | None = None, token: str = "",
    ) -> AuditEntry:
        """The audit entry and its typed row (:mod:`dealer_assist.services.room_rows`)."""
        entry = self.add_audit(at=at, actor=actor, action=action, detail=detail,
                               table_id=table_id, token=token)
        rows = self.room_rows.setdefault(kind, [])
        prev = rows[-1].hash if rows else GENESIS
        typed = {"entry": entry.seq, **values}
        seq = len(rows) + 1
        rows.append(SealedRow(kind=kind, seq=seq, at=entry.at, actor=actor or "", values=typed,
                              prev_hash=prev, hash=row_hash(kind, seq, entry.at, actor or "",
                                                            typed, prev), id=seq))
        return entry

    def room_records(self, kind: str) -> list[SealedRow]:
        return list(self.room_rows.get(kind, ()))

    def audit_head(self) -> AuditHead:
        return AuditHead(len(self.audit), self.audit[-1].hash if self.audit else GENESIS)

    def audit_log(
        self, *, since: datetime | None = None, until: datetime | None = None,
        action: str | None = None, hand_id: int | None = None, records: bool = False,
    ) -> list[AuditEntry]:
        return [
            e for e in self.audit
            if (since is None or e.at >= utc(since)) and (until is None or e.at < utc(until))
            and (action is None or e.action == action) and (hand_id is None or e.hand_id == hand_id)
        ]

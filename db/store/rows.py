"""The store's tables, and their rows read back as the services' model (shared by every part
of :class:`~dealer_assist.db.store.SqlStore` and by the journal)."""

from __future__ import annotations

import json
from typing import Any

from dealer_assist.db.models import (
    AdjustmentRow,
    AuditHeadRow,
    AuditRow,
    DisputeRow,
    EventRow,
    HandRow,
    LedgerRow,
    ShiftRow,
    TableRow,
    TableSettingsRow,
)
from dealer_assist.engine.bodies import read_body
from dealer_assist.errors import BadInput
from dealer_assist.services.model import (
    AuditEntry,
    Hand,
    LedgerLine,
    SettingsVersion,
    Shift,
    StoredEvent,
    Table,
)

T = TableRow.__table__
TS = TableSettingsRow.__table__
SH = ShiftRow.__table__
H = HandRow.__table__
E = EventRow.__table__
L = LedgerRow.__table__
D = DisputeRow.__table__
ADJ = AdjustmentRow.__table__
A = AuditRow.__table__
AH = AuditHeadRow.__table__

HAND_COLUMNS = (
    H.c.id, H.c.table_id, H.c.shift_id, H.c.number, H.c.game, H.c.seats, H.c.started_at,
    H.c.started_by, H.c.settings_id, H.c.status, H.c.events,
)


class Prefixed:
    """A joined row's columns of one table, read by their names without the prefix."""

    __slots__ = ("_prefix", "_row")

    def __init__(self, row: Any, prefix: str) -> None:
        self._row = row
        self._prefix = prefix

    def __getattr__(self, name: str) -> Any:
        return getattr(self._row, self._prefix + name)


def to_table(r: Any) -> Table:
    return Table(id=r.id, name=r.name, created_at=r.created_at)


def to_settings(r: Any) -> SettingsVersion:
    return SettingsVersion(
        id=r.id, table_id=r.table_id, version=r.version, game=r.game,
        document=json.loads(r.document), created_at=r.created_at, created_by=r.created_by,
    )


def to_shift(r: Any) -> Shift:
    return Shift(
        id=r.id, table_id=r.table_id, dealer=r.dealer, floor=r.floor, opened_at=r.opened_at,
        closed_at=r.closed_at, closed_by=r.closed_by, closed_floor=r.closed_floor,
    )


def to_hand(r: Any, disputed: bool = False) -> Hand:
    return Hand(
        id=r.id, table_id=r.table_id, shift_id=r.shift_id, number=r.number, game=r.game,
        seats=tuple(json.loads(r.seats)), started_at=r.started_at, started_by=r.started_by,
        settings_id=r.settings_id, status=r.status, events=r.events, disputed=disputed,
    )


def to_event(r: Any) -> StoredEvent:
    """A stored row; a body that cannot be read (out of bounds, not JSON) is kept as the
    row's ``fault`` rather than raised, so that the hand's other rows, and the other hands,
    are still read."""
    try:
        body, fault = read_body(r.body), ""
    except BadInput as exc:
        body, fault = {}, str(exc)
    return StoredEvent(
        table_id=r.table_id, seq=r.seq, hand_id=r.hand_id, number=r.number, time=r.time,
        actor=r.actor, body=body, prev_hash=r.prev_hash, hash=r.hash, fault=fault,
    )


def to_ledger(r: Any) -> LedgerLine:
    return LedgerLine(
        hand_id=r.hand_id, kind=r.kind, amount=r.amount, seat=r.seat, detail=r.detail,
        settlement=r.settlement,
    )


def to_time_line(r: Any) -> LedgerLine:
    return LedgerLine(
        hand_id=None, kind=r.kind, amount=r.amount, seat=r.seat, detail=r.detail,
        settlement=r.settlement, table_id=r.table_id, period=r.period, seq=r.seq, at=r.time,
    )


def to_audit(r: Any) -> AuditEntry:
    return AuditEntry(
        id=r.id, at=r.at, actor=r.actor, action=r.action, detail=r.detail,
        table_id=r.table_id, hand_id=r.hand_id, seq=r.seq or 0, prev_hash=r.prev_hash or "",
        hash=r.hash or "",
    )

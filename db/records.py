"""Recording what is stored: the audit chain's records of every row that affects money, rights
or signatures (:mod:`dealer_assist.services.records`), written at once for rows that came in
without them (a database upgraded to schema 0007, the demo's bulk inserts)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection

from dealer_assist.db.store.audit import append_audit
from dealer_assist.services.chain import canonical
from dealer_assist.services.records import (
    BASELINE,
    cardroom_state,
    dispute_state,
    record_entry,
    settings_state,
    shift_state,
    table_state,
    user_state,
)


def _aware(value: object) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    assert isinstance(value, datetime)
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def record_stored(
    bind: Connection, now: datetime, *, baseline: Mapping[int, int] | None = None,
    why: str = "",
) -> int:
    """Append a record of every user, table, settings version, shift, dispute and the
    cardroom's name as stored now to the audit chain, in the caller's transaction, and a
    baseline for each table of ``baseline`` (table id -> seq): the hands up to that seq are
    not held to the continuity of carries and stacks. Returns how many entries were added."""
    rows: list[dict[str, Any]] = []
    q = bind.exec_driver_sql
    for name, full, role, active, pin in q(
        "SELECT name, full_name, role, active, pin_hash FROM users ORDER BY id"
    ):
        rows.append(record_entry("user", user_state(
            name=name, full_name=full, role=role, active=bool(active), pin_hash=pin), now))
    cardroom = q("SELECT value FROM settings_kv WHERE key = 'cardroom'").scalar()
    if cardroom:
        rows.append(record_entry("cardroom", cardroom_state(cardroom), now))
    tables = list(q("SELECT id, name, head_seq FROM card_tables ORDER BY id"))
    for id_, name, _ in tables:
        rows.append(record_entry("table", table_state(id=id_, name=name), now))
    for id_, table_id, version, game, doc, at, by in q(
        "SELECT id, table_id, version, game, document, created_at, created_by "
        "FROM table_settings ORDER BY id"
    ):
        when = _aware(at)
        assert when is not None
        rows.append(record_entry("settings", settings_state(
            id=id_, table_id=table_id, version=version, game=game, document=doc,
            created_at=when, created_by=by), now))
    for id_, table_id, dealer, floor, opened, closed, by, cfloor in q(
        "SELECT id, table_id, dealer, floor, opened_at, closed_at, closed_by, closed_floor "
        "FROM shifts ORDER BY id"
    ):
        when = _aware(opened)
        assert when is not None
        rows.append(record_entry("shift", shift_state(
            id=id_, table_id=table_id, dealer=dealer, floor=floor, opened_at=when,
            closed_at=_aware(closed), closed_by=by, closed_floor=cfloor), now))
    adjustments: dict[int, list[tuple[int | None, int, str]]] = {}
    for dispute_id, seat, amount, note in q(
        "SELECT dispute_id, seat, amount, note FROM dispute_adjustments ORDER BY id"
    ):
        adjustments.setdefault(dispute_id, []).append((seat, int(amount), note or ""))
    for id_, hand_id, notes, ruling, floor, at in q(
        "SELECT id, hand_id, notes, ruling, floor, at FROM disputes ORDER BY id"
    ):
        when = _aware(at)
        assert when is not None
        rows.append(record_entry("dispute", dispute_state(
            id=id_, hand_id=hand_id, notes=notes, ruling=ruling, floor=floor, at=when,
            adjustments=adjustments.get(id_, [])), now))
    for id_, seq in sorted((baseline or {}).items()):
        rows.append({"at": now, "actor": None, "action": BASELINE, "table_id": id_,
                     "detail": canonical({"table_id": id_, "seq": int(seq), "why": why})})
    if rows:
        append_audit(bind, rows)
    return len(rows)

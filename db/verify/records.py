"""Verify's records check: the rows of users, tables, settings, shifts and disputes against
their records on the audit chain, the input rules re-checked on the rows, and the audit log's
own chain."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealer_assist.db.bootstrap import Database
from dealer_assist.db.dealer_box_verify import downs_since
from dealer_assist.db.verify.reader import aware
from dealer_assist.services.audit_chain import AuditCheck, AuditHead, check_audit_chain
from dealer_assist.services.chain import GENESIS
from dealer_assist.services.rulecheck import RuleFinding, RuleRecords, rule_findings


def check_sealed_db(db: Database) -> list[str]:
    """Every sealed table's records walked against their head (schema 0017)."""
    from dealer_assist.db.sealed import sealed_faults

    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        return sealed_faults(conn)


def check_records_db(db: Database) -> list[str]:
    """The rows of users, tables, settings, shifts, disputes and the cardroom's name compared
    with their records on the audit chain (:func:`dealer_assist.services.records.check_records`)."""
    from sqlalchemy import select

    from dealer_assist.db.models import (
        AdjustmentRow,
        AuditRow,
        DisputeRow,
        Setting,
        ShiftRow,
        TableRow,
        TableSettingsRow,
    )
    from dealer_assist.services import records as rec

    a = AuditRow.__table__
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        entries = [(r.action, r.detail) for r in conn.execute(
            select(a.c.action, a.c.detail).where(a.c.action.startswith(rec.PREFIX))
            .order_by(a.c.id)
        )]
        from dealer_assist.db.store.users import SHOWN, pin_digest

        users = [rec.user_state(name=r.name, full_name=r.full_name, role=r.role,
                                active=bool(r.active), pin=pin_digest(conn, r.name))
                 for r in conn.execute(select(*SHOWN))]
        t = TableRow.__table__
        tables = [rec.table_state(id=r.id, name=r.name) for r in conn.execute(select(t))]
        ts = TableSettingsRow.__table__
        settings = [rec.settings_state(id=r.id, table_id=r.table_id, version=r.version,
                                       game=r.game, document=r.document,
                                       created_at=r.created_at, created_by=r.created_by)
                    for r in conn.execute(select(ts))]
        sh = ShiftRow.__table__
        shifts = [rec.shift_state(id=r.id, table_id=r.table_id, dealer=r.dealer, floor=r.floor,
                                  opened_at=r.opened_at, closed_at=r.closed_at,
                                  closed_by=r.closed_by, closed_floor=r.closed_floor)
                  for r in conn.execute(select(sh))]
        adj: dict[int, list[tuple[int | None, int, str]]] = {}
        ad = AdjustmentRow.__table__
        for r in conn.execute(select(ad).order_by(ad.c.id)):
            adj.setdefault(r.dispute_id, []).append((r.seat, int(r.amount), r.note or ""))
        d = DisputeRow.__table__
        disputes = [rec.dispute_state(id=r.id, hand_id=r.hand_id, notes=r.notes,
                                      ruling=r.ruling, floor=r.floor, at=r.at,
                                      adjustments=adj.get(r.id, []))
                    for r in conn.execute(select(d))]
        kv = Setting.__table__
        name = conn.execute(select(kv.c.value).where(kv.c.key == "cardroom")).scalar()
    rows = {"user": users, "table": tables, "settings": settings, "shift": shifts,
            "dispute": disputes, "cardroom": [rec.cardroom_state(name)] if name else []}
    return list(rec.check_records(entries, rows).problems)


def rule_records_db(db: Database) -> RuleRecords:
    """The rows the input rules are re-checked on (:mod:`dealer_assist.services.rulecheck`),
    read with plain SQL: the whole audit log, shifts, users, tables, hands' shifts, disputes."""
    from sqlalchemy import select

    from dealer_assist.db.models import (
        AuditRow,
        DisputeRow,
        HandRow,
        ShiftRow,
        TableRow,
        UserRow,
    )
    from dealer_assist.db.room_records import counts_by_entry, room_clock_db
    from dealer_assist.services.model import AuditEntry, Shift

    a, sh, u, t, h, d = (AuditRow.__table__, ShiftRow.__table__, UserRow.__table__,
                         TableRow.__table__, HandRow.__table__, DisputeRow.__table__)
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        audit = [AuditEntry(id=r.id, at=aware(r.at), actor=r.actor, action=r.action,
                            detail=r.detail or "", table_id=r.table_id, hand_id=r.hand_id,
                            seq=r.seq or 0)
                 for r in conn.execute(select(a.c.id, a.c.at, a.c.actor, a.c.action, a.c.detail,
                                              a.c.table_id, a.c.hand_id, a.c.seq)
                                       .order_by(a.c.id))]
        shifts = [Shift(r.id, r.table_id, r.dealer, r.floor, aware(r.opened_at),
                        None if r.closed_at is None else aware(r.closed_at), r.closed_by,
                        r.closed_floor) for r in conn.execute(select(sh))]
        people = list(conn.execute(select(u.c.name, u.c.full_name, u.c.role, u.c.active)))
        names = {r.name: r.full_name for r in people}
        tables = {int(r.id): r.name for r in conn.execute(select(t.c.id, t.c.name))}
        hand_shift = {int(i): int(s) for i, s in conn.execute(select(h.c.id, h.c.shift_id))}
        floors = [(int(i), f) for i, f in conn.execute(select(d.c.hand_id, d.c.floor))]
    return RuleRecords(audit, shifts, names, tables, hand_shift, floors,
                       room_clock_db(db).tolerance,
                       {r.name: (r.role, bool(r.active)) for r in people},
                       counts=counts_by_entry(db), downs_since=downs_since(db))


def check_rules_db(db: Database) -> list[RuleFinding]:
    """The rules enforced at input, re-checked on the database's rows, each breach named."""
    return rule_findings(rule_records_db(db))


def check_audit_log(db: Database, *, after: Mapping[str, Any] | None = None) -> AuditCheck:
    """Walk the audit log's chain in the order it was recorded, and compare it with its head.

    ``after``: a checkpoint's audit head (``entries``, ``hash``): walk only the entries after
    it, from that hash."""
    from sqlalchemy import select

    from dealer_assist.db.models import AuditHeadRow, AuditRow
    from dealer_assist.services.model import AuditEntry

    a, h = AuditRow.__table__, AuditHeadRow.__table__
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        head = conn.execute(select(h.c.entries, h.c.head_hash).where(h.c.id == 1)).first()
        entries = [
            AuditEntry(
                id=r.id, at=r.at, actor=r.actor, action=r.action, detail=r.detail,
                table_id=r.table_id, hand_id=r.hand_id, seq=r.seq or 0,
                prev_hash=r.prev_hash or "", hash=r.hash or "",
            )
            for r in conn.execute(
                select(a).order_by(a.c.id) if after is None else
                select(a).where(a.c.seq > int(after.get("entries", 0))).order_by(a.c.id)
            )
        ]
    start = (0, GENESIS) if after is None else (int(after.get("entries", 0)),
                                                 str(after.get("hash", GENESIS)))
    return check_audit_chain(
        entries, AuditHead(0) if head is None else AuditHead(int(head.entries), head.head_hash),
        start=start,
    )

"""The room's records as typed rows: drop boxes, drop counts, count sign-offs, room clocks.

Until now each lived only as JSON inside an audit entry's detail, read back by parsing it. Now
each kind is a sealed table (:func:`dealer_assist.db.migrations.sealed_ddl.create_sealed_table`)
with one column per fact; the audit entry stays as it was (the audit report and the day
archives do not change) and the row's ``entry`` is its number. The upgrade moves every existing
entry of these kinds into its table, in the audit log's order, with the entry's time and writer;
an entry whose detail cannot be read gets no row (``verify`` lists it as a note).

Roles: a floor person or an admin writes them; a count's sign-off also an auditor.

The text forms (one fixed form each): ``team`` the counters' full names one per line;
``denominations`` ``<cents>x<pieces>`` one per line by value; ``shifts`` ``<name>=<hour>`` one
per line in the order set.

Revision ID: 0022
Revises: 0021
Create Date: 2026-11-28
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

from dealer_assist.db.migrations.sealed_ddl import create_sealed_table, drop_sealed_table

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None

FLOOR = ("floor", "admin")
KINDS = ("drop_boxes", "drop_counts", "count_signoffs", "room_clocks")
#: Audit action -> (the table its records move to, the detail's prefix).
MOVED = {
    "drop-box": ("drop_boxes", "drop box "),
    "drop": ("drop_boxes", "drop of box "),
    "count": ("drop_counts", "drop count "),
    "count-signoff": ("count_signoffs", "count sign-off "),
    "room-settings": ("room_clocks", "room clock "),
}


def _columns() -> dict[str, list[sa.Column[Any]]]:
    def entry() -> sa.Column[Any]:
        return sa.Column("entry", sa.BigInteger, nullable=False)

    return {
        "drop_boxes": [entry(), sa.Column("box", sa.Text, nullable=False),
                       sa.Column("table_id", sa.Integer, nullable=False),
                       sa.Column("shift_id", sa.Integer, nullable=True)],
        "drop_counts": [entry(), sa.Column("table_id", sa.Integer, nullable=False),
                        sa.Column("shift_id", sa.Integer, nullable=False),
                        sa.Column("box", sa.Text, nullable=False),
                        sa.Column("counted", sa.BigInteger, nullable=False),
                        sa.Column("team", sa.Text, nullable=False),
                        sa.Column("denominations", sa.Text, nullable=False),
                        sa.Column("corrects", sa.BigInteger, nullable=True),
                        sa.Column("reason", sa.Text, nullable=False),
                        sa.Column("started", sa.DateTime(timezone=False), nullable=True),
                        sa.Column("ended", sa.DateTime(timezone=False), nullable=True),
                        sa.Column("boxes", sa.Integer, nullable=False),
                        sa.Column("independence", sa.Text, nullable=False)],
        "count_signoffs": [entry(), sa.Column("count_entry", sa.BigInteger, nullable=False),
                           sa.Column("explanation", sa.Text, nullable=False),
                           sa.Column("follows", sa.BigInteger, nullable=True),
                           sa.Column("reason", sa.Text, nullable=False)],
        "room_clocks": [entry(), sa.Column("zone", sa.Text, nullable=False),
                        sa.Column("day_starts", sa.Integer, nullable=False),
                        sa.Column("shifts", sa.Text, nullable=False),
                        sa.Column("paper", sa.Text, nullable=False),
                        sa.Column("retention_years", sa.Integer, nullable=False),
                        sa.Column("tolerance_minutes", sa.Integer, nullable=False)],
    }


def _time(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    t = datetime.fromisoformat(value)
    return (t.replace(tzinfo=UTC) if t.tzinfo is None else t).astimezone(UTC)


def _values(action: str, obj: dict[str, Any]) -> dict[str, Any] | None:
    """An entry's detail (its JSON) as its row's columns, as the app wrote it at schema 0021;
    None: not a record of this kind."""
    if action in ("drop-box", "drop"):
        shift = None if obj.get("shift") is None else int(obj["shift"])
        if (shift is None) != (action == "drop-box"):
            return None
        return {"box": str(obj["box"]), "table_id": int(obj["table"]), "shift_id": shift}
    if action == "count":
        denoms = {int(k): int(v) for k, v in obj.get("denominations", {}).items()}
        corrects = None if obj.get("corrects") is None else int(obj["corrects"])
        return {"table_id": int(obj["table"]), "shift_id": int(obj["shift"]),
                "box": str(obj["box"]), "counted": int(obj["counted"]),
                "team": "\n".join(str(n) for n in obj["team"]),
                "denominations": "\n".join(f"{k}x{v}" for k, v in sorted(denoms.items())),
                "corrects": corrects, "reason": str(obj.get("reason", "")),
                "started": _time(obj.get("started")), "ended": _time(obj.get("ended")),
                "boxes": int(obj.get("boxes", 0)),
                "independence": str(obj.get("independence", ""))}
    if action == "count-signoff":
        follows = None if obj.get("follows") is None else int(obj["follows"])
        return {"count_entry": int(obj["entry"]), "explanation": str(obj["explanation"]),
                "follows": follows,
                "reason": str(obj.get("reason", "")) if follows is not None else ""}
    return {"zone": str(obj["zone"]), "day_starts": int(obj["day_starts"]),
            "shifts": "\n".join(f"{n}={int(h)}" for n, h in obj.get("shifts", [])),
            "paper": str(obj.get("paper", "")),
            "retention_years": int(obj.get("retention_years", 0)),
            "tolerance_minutes": int(obj.get("tolerance_minutes", -1))}


def _read(action: str, detail: str) -> dict[str, Any] | None:
    _, prefix = MOVED[action]
    if not detail.startswith(prefix):
        return None
    try:
        obj = json.loads(detail[len(prefix):])
        return _values(action, obj) if isinstance(obj, dict) else None
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _models(columns: dict[str, list[sa.Column[Any]]]) -> dict[str, sa.Table]:
    """The tables as the upgrade writes them (times aware UTC in, naive UTC stored)."""
    from dealer_assist.db.models import UTCDateTime

    meta = sa.MetaData()
    out = {}
    for name, cols in columns.items():
        typed = [sa.Column(c.name, UTCDateTime if isinstance(c.type, sa.DateTime) else c.type,
                           nullable=c.nullable) for c in cols]
        out[name] = sa.Table(
            name, meta, sa.Column("id", sa.Integer, primary_key=True),
            sa.Column("seq", sa.BigInteger), sa.Column("at", UTCDateTime),
            sa.Column("actor", sa.String(40)), sa.Column("prev_hash", sa.String(64)),
            sa.Column("hash", sa.String(64)), *typed)
    return out


def upgrade() -> None:
    from dealer_assist.db import sealed

    columns = _columns()
    for name in KINDS:
        roles = ("floor", "auditor", "admin") if name == "count_signoffs" else FLOOR
        create_sealed_table(name, *columns[name], roles=roles)
        op.create_index(f"ix_{name}_entry", name, ["entry"], unique=True)
    models = _models(_columns())
    bind = op.get_bind()
    audit = sa.table("audit_log", sa.column("id"), sa.column("seq"), sa.column("at"),
                     sa.column("actor"), sa.column("action"), sa.column("detail"))
    rows = bind.execute(sa.select(audit.c.seq, audit.c.at, audit.c.actor, audit.c.action,
                                  audit.c.detail).where(audit.c.action.in_(list(MOVED)))
                        .order_by(audit.c.id)).all()
    for r in rows:
        values = _read(r.action, r.detail or "")
        if values is None or r.seq is None:
            continue  # verify lists it: its detail cannot be read
        at = r.at if isinstance(r.at, datetime) else datetime.fromisoformat(str(r.at))
        sealed.append(bind, models[MOVED[r.action][0]], at=at.replace(tzinfo=UTC)
                      if at.tzinfo is None else at, actor=r.actor or "", token="",
                      values={"entry": int(r.seq), **values})


def downgrade() -> None:
    for name in reversed(KINDS):
        op.drop_index(f"ix_{name}_entry", table_name=name)
        drop_sealed_table(name)

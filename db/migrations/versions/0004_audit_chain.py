"""The audit log gets its own hash chain: each entry is numbered and linked to the one before
it, and a one-row ``audit_head`` keeps the count and the last hash, written in the same
transaction as each entry. The entries already stored are chained here, in the order they were
recorded (the append-only trigger is set aside for that one pass and put back).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

from dealer_assist.services.audit_chain import audit_hash

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

GENESIS = "0" * 64


def _sqlite_trigger(create: bool) -> None:
    if create:
        op.execute(
            "CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log "
            "BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: UPDATE refused; "
            "record a correction instead'); END"
        )
    else:
        op.execute("DROP TRIGGER IF EXISTS audit_log_no_update")


def _aware(value: object) -> datetime:
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    assert isinstance(value, datetime)
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def upgrade() -> None:
    bind = op.get_bind()
    sqlite = bind.dialect.name == "sqlite"
    op.add_column("audit_log", sa.Column("seq", sa.BigInteger, nullable=True))
    op.add_column("audit_log", sa.Column("prev_hash", sa.String(64), nullable=True))
    op.add_column("audit_log", sa.Column("hash", sa.String(64), nullable=True))
    op.create_table(
        "audit_head",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("entries", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("head_hash", sa.String(64), nullable=False, server_default=GENESIS),
    )
    rows = bind.exec_driver_sql(
        "SELECT id, at, actor, action, detail, table_id, hand_id FROM audit_log ORDER BY id"
    ).all()
    last = GENESIS
    if rows:
        if sqlite:
            _sqlite_trigger(create=False)
        else:
            op.execute("ALTER TABLE audit_log DISABLE TRIGGER audit_log_append_only")
        for n, (id_, at, actor, action, detail, table_id, hand_id) in enumerate(rows, start=1):
            h = audit_hash(
                seq=n, at=_aware(at), actor=actor, action=action, detail=detail or "",
                table_id=table_id, hand_id=hand_id, prev_hash=last,
            )
            bind.execute(
                sa.text("UPDATE audit_log SET seq = :seq, prev_hash = :prev, hash = :hash "
                        "WHERE id = :id"),
                {"seq": n, "prev": last, "hash": h, "id": id_},
            )
            last = h
        if sqlite:
            _sqlite_trigger(create=True)
        else:
            op.execute("ALTER TABLE audit_log ENABLE TRIGGER audit_log_append_only")
    bind.execute(
        sa.text("INSERT INTO audit_head (id, entries, head_hash) VALUES (1, :n, :h)"),
        {"n": len(rows), "h": last},
    )


def downgrade() -> None:
    op.drop_table("audit_head")
    # Plain DROP COLUMN (SQLite 3.35 and later too): the table and its triggers stay as they are.
    for column in ("hash", "prev_hash", "seq"):
        op.execute(f"ALTER TABLE audit_log DROP COLUMN {column}")

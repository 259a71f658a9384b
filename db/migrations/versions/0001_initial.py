"""The first schema: users, tables, versioned settings, shifts, hands, the chained event table,
ledger lines, disputes and the audit log; triggers keep the record tables append-only.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

APPEND_ONLY = ("events", "ledger_lines", "disputes", "dispute_adjustments", "audit_log")


def ts(name: str, nullable: bool = False) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=False), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "settings_kv",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(40), nullable=False, unique=True),
        sa.Column("full_name", sa.String(200), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("pin_hash", sa.String(200), nullable=False),
        sa.Column("failed", sa.Integer, nullable=False),
        ts("locked_until", True),
        sa.Column("active", sa.Boolean, nullable=False),
        ts("created_at"),
    )
    op.create_table(
        "card_tables",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(80), nullable=False, unique=True),
        ts("created_at"),
    )
    op.create_table(
        "table_settings",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("card_tables.id"), nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("document", sa.Text, nullable=False),
        ts("created_at"),
        sa.Column("created_by", sa.String(40), nullable=False),
        sa.UniqueConstraint("table_id", "version", name="uq_table_settings_table_id"),
    )
    op.create_table(
        "shifts",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("card_tables.id"), nullable=False),
        sa.Column("dealer", sa.String(40), nullable=False),
        sa.Column("floor", sa.String(40), nullable=False),
        ts("opened_at"),
        ts("closed_at", True),
        sa.Column("closed_by", sa.String(40)),
        sa.Column("closed_floor", sa.String(40)),
    )
    op.create_index("ix_shifts_table_id", "shifts", ["table_id"])
    op.create_table(
        "hands",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("card_tables.id"), nullable=False),
        sa.Column("shift_id", sa.Integer, sa.ForeignKey("shifts.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("seats", sa.String(200), nullable=False),
        ts("started_at"),
        sa.Column("started_by", sa.String(40), nullable=False),
        sa.Column("settings_id", sa.Integer, sa.ForeignKey("table_settings.id")),
        sa.Column("status", sa.String(16), nullable=False),
        sa.UniqueConstraint("table_id", "number", name="uq_hands_table_id"),
    )
    op.create_index("ix_hands_started_at", "hands", ["started_at"])
    op.create_index("ix_hands_shift_id", "hands", ["shift_id"])
    op.create_table(
        "events",
        sa.Column(
            "id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True
        ),
        sa.Column("table_id", sa.Integer, sa.ForeignKey("card_tables.id"), nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        ts("time"),
        sa.Column("actor", sa.String(40), nullable=False),
        sa.Column("type", sa.String(32), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.UniqueConstraint("table_id", "seq", name="uq_events_table_id"),
        sa.UniqueConstraint("hand_id", "number", name="uq_events_hand_id"),
    )
    op.create_table(
        "ledger_lines",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), nullable=False),
        sa.Column("settlement", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("detail", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("amount", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_ledger_lines_hand_id", "ledger_lines", ["hand_id"])
    op.create_table(
        "disputes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("hand_id", sa.Integer, sa.ForeignKey("hands.id"), nullable=False),
        sa.Column("notes", sa.Text, nullable=False),
        sa.Column("ruling", sa.Text, nullable=False),
        sa.Column("floor", sa.String(40), nullable=False),
        ts("at"),
    )
    op.create_index("ix_disputes_hand_id", "disputes", ["hand_id"])
    op.create_table(
        "dispute_adjustments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("dispute_id", sa.Integer, sa.ForeignKey("disputes.id"), nullable=False),
        sa.Column("seat", sa.Integer),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("note", sa.Text, nullable=False),
    )
    op.create_index("ix_dispute_adjustments_dispute_id", "dispute_adjustments", ["dispute_id"])
    op.create_table(
        "audit_log",
        sa.Column("id", sa.Integer, primary_key=True),
        ts("at"),
        sa.Column("actor", sa.String(40)),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("detail", sa.Text, nullable=False),
        sa.Column("table_id", sa.Integer),
        sa.Column("hand_id", sa.Integer),
    )
    op.create_index("ix_audit_log_at", "audit_log", ["at"])
    op.create_index("ix_audit_log_hand_id", "audit_log", ["hand_id"])
    create_append_only_triggers()


def create_append_only_triggers() -> None:
    """The database itself refuses UPDATE and DELETE on the record tables."""
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        for table in APPEND_ONLY:
            for verb in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_no_{verb.lower()} BEFORE {verb} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {verb} refused; "
                    "record a correction instead'); END"
                )
    elif bind.dialect.name == "postgresql":
        op.execute(
            "CREATE FUNCTION dealer_assist_append_only() RETURNS trigger AS $$ BEGIN "
            "RAISE EXCEPTION '% is append-only: % refused; record a correction instead', "
            "TG_TABLE_NAME, TG_OP; END $$ LANGUAGE plpgsql"
        )
        for table in APPEND_ONLY:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION dealer_assist_append_only()"
            )
            op.execute(
                f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
                "FOR EACH STATEMENT EXECUTE FUNCTION dealer_assist_append_only()"
            )


def downgrade() -> None:
    bind = op.get_bind()
    for table in reversed(APPEND_ONLY):
        if bind.dialect.name == "sqlite":
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_update")
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete")
        else:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")
    if bind.dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS dealer_assist_append_only()")
    for table in (
        "audit_log", "dispute_adjustments", "disputes", "ledger_lines", "events", "hands",
        "shifts", "table_settings", "card_tables", "users", "settings_kv",
    ):
        op.drop_table(table)

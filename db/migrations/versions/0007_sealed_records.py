"""Records that hold against an insider.

- ``checkpoints``: signed checkpoints of every chain head (append-only, like the records).
- SQLite: a ``BEFORE INSERT`` trigger on every sealed table refuses a row whose key exists, so
  ``INSERT OR REPLACE`` / ``REPLACE INTO`` cannot rewrite a row (its delete fires no trigger).
- The audit chain gets a record (``record-<kind>``) of every user, table, settings version,
  shift, dispute and the cardroom's name as stored now, and a baseline per table: the hands
  recorded so far are not held to the continuity of carries and stacks (nothing recorded
  rebuys before).

Revision ID: 0007
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0004"
branch_labels = None
depends_on = None

SEALED = ("events", "ledger_lines", "disputes", "dispute_adjustments", "audit_log",
          "checkpoints")
KEYS = {"events": (("table_id", "seq"), ("hand_id", "number")), "checkpoints": (("number",),)}


def no_replace_sql(table: str) -> str:
    """The SQLite trigger that refuses a row whose id or unique key is already stored."""
    tests = [f"EXISTS (SELECT 1 FROM {table} WHERE id = NEW.id)"]
    for cols in KEYS.get(table, ()):
        cond = " AND ".join(f"{c} = NEW.{c}" for c in cols)
        tests.append(f"EXISTS (SELECT 1 FROM {table} WHERE {cond})")
    return (
        f"CREATE TRIGGER {table}_no_replace BEFORE INSERT ON {table} "
        f"WHEN {' OR '.join(tests)} "
        f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: a row with this key is stored; "
        "REPLACE refused'); END"
    )


def _aware(value: object) -> datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    assert isinstance(value, datetime)
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def upgrade() -> None:
    bind = op.get_bind()
    sqlite = bind.dialect.name == "sqlite"
    op.create_table(
        "checkpoints",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=False), nullable=False),
        sa.Column("reason", sa.String(40), nullable=False),
        sa.Column("key_id", sa.String(64), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.Column("signature", sa.String(128), nullable=False),
        sa.UniqueConstraint("number", name="uq_checkpoints_number"),
    )
    # checkpoints name audit entries by their place in the chain
    op.create_index("ix_audit_log_seq", "audit_log", ["seq"])
    if sqlite:
        for verb in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER checkpoints_no_{verb.lower()} BEFORE {verb} ON checkpoints "
                f"BEGIN SELECT RAISE(ABORT, 'checkpoints is append-only: {verb} refused; "
                "record a correction instead'); END"
            )
        for table in SEALED:
            op.execute(no_replace_sql(table))
    else:
        op.execute(
            "CREATE TRIGGER checkpoints_append_only BEFORE UPDATE OR DELETE ON checkpoints "
            "FOR EACH ROW EXECUTE FUNCTION dealer_assist_append_only()"
        )
        op.execute(
            "CREATE TRIGGER checkpoints_no_truncate BEFORE TRUNCATE ON checkpoints "
            "FOR EACH STATEMENT EXECUTE FUNCTION dealer_assist_append_only()"
        )
    _record_what_is_stored(bind)


def _record_what_is_stored(bind: sa.Connection) -> None:
    from dealer_assist.db.records import record_stored

    tables = bind.exec_driver_sql("SELECT id, head_seq FROM card_tables").all()
    record_stored(bind, datetime.now(UTC),
                  baseline={int(i): int(seq or 0) for i, seq in tables if seq},
                  why="recorded before schema 0007")


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        for table in SEALED:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_no_replace")
    op.drop_index("ix_audit_log_seq", "audit_log")
    op.drop_table("checkpoints")

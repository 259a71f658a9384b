"""Table-level events: seat-in, seat-out and period marks belong to a table, not to a hand.

An event's hand may now be NULL: such an event still takes the table's next sequence number
and is hash-chained like every other, so verify walks it in the same chain. Ledger lines may
belong to a table instead of a hand (time collections): they say which table, which period and
the sequence number of the event that collected them. The append-only triggers are the same;
on SQLite the two tables are rebuilt (the only way to drop NOT NULL there), so their triggers
are dropped before and created again after.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

REBUILT = ("events", "ledger_lines")


def _sqlite_triggers(create: bool) -> None:
    for table in REBUILT:
        for verb in ("UPDATE", "DELETE"):
            name = f"{table}_no_{verb.lower()}"
            if create:
                op.execute(
                    f"CREATE TRIGGER {name} BEFORE {verb} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} is append-only: {verb} refused; "
                    "record a correction instead'); END"
                )
            else:
                op.execute(f"DROP TRIGGER IF EXISTS {name}")


def upgrade() -> None:
    sqlite = op.get_bind().dialect.name == "sqlite"
    if sqlite:
        _sqlite_triggers(create=False)
    with op.batch_alter_table("events") as batch:
        batch.alter_column("hand_id", existing_type=sa.Integer, nullable=True)
    with op.batch_alter_table("ledger_lines") as batch:
        batch.alter_column("hand_id", existing_type=sa.Integer, nullable=True)
        batch.add_column(sa.Column("table_id", sa.Integer, nullable=True))
        batch.add_column(sa.Column("period", sa.Integer, nullable=True))
        batch.add_column(sa.Column("seq", sa.BigInteger, nullable=True))
        batch.create_index("ix_ledger_lines_table_id", ["table_id"])
    if sqlite:
        _sqlite_triggers(create=True)


def downgrade() -> None:
    bind = op.get_bind()
    found = bind.exec_driver_sql("SELECT COUNT(*) FROM events WHERE hand_id IS NULL").scalar()
    if found:
        raise RuntimeError(
            f"cannot go back below schema 0003: {found} table-level events (seat and period "
            "marks) are recorded and the older schema has no place for them"
        )
    sqlite = bind.dialect.name == "sqlite"
    if sqlite:
        _sqlite_triggers(create=False)
    with op.batch_alter_table("ledger_lines") as batch:
        batch.drop_index("ix_ledger_lines_table_id")
        batch.drop_column("seq")
        batch.drop_column("period")
        batch.drop_column("table_id")
        batch.alter_column("hand_id", existing_type=sa.Integer, nullable=False)
    with op.batch_alter_table("events") as batch:
        batch.alter_column("hand_id", existing_type=sa.Integer, nullable=False)
    if sqlite:
        _sqlite_triggers(create=True)

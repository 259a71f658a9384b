"""The dealer box (schema 0019): downs, the dealer rules, the rotation and the toke counts,
each a sealed typed table of its own (append-only, chained, walked by ``verify``).

Who is down where is folded from ``dealer_downs`` in order; nothing here is updated.
A down is written by the dealer signing in (or the floor sending them on a break); the
rules, the rotation and the toke counts only by the floor or an admin.

Revision ID: 0019
Revises: 0020
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa

from dealer_assist.db.migrations.sealed_ddl import create_sealed_table, drop_sealed_table

revision = "0019"
down_revision = "0020"
branch_labels = None
depends_on = None

FLOOR = ("floor", "admin")


def upgrade() -> None:
    create_sealed_table(
        "dealer_downs",
        sa.Column("dealer", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("table_id", sa.Integer, nullable=True),
        roles=("dealer", "floor", "admin"),
    )
    create_sealed_table(
        "dealer_rules",
        sa.Column("push_minutes", sa.Integer, nullable=False),
        sa.Column("break_after_minutes", sa.Integer, nullable=False),
        sa.Column("break_minutes", sa.Integer, nullable=False),
        sa.Column("grace_minutes", sa.Integer, nullable=False),
        sa.Column("shift_minutes", sa.Integer, nullable=False),
        sa.Column("toke_rule", sa.String(16), nullable=False),
        roles=FLOOR,
    )
    create_sealed_table(
        "dealer_rotations",
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("dealer", sa.String(40), nullable=True),
        sa.Column("table_id", sa.Integer, nullable=True),
        roles=FLOOR,
    )
    create_sealed_table(
        "toke_counts",
        sa.Column("shift_id", sa.Integer, nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("counter_1", sa.String(80), nullable=False),
        sa.Column("counter_2", sa.String(80), nullable=False),
        roles=FLOOR,
    )


def downgrade() -> None:
    for name in ("toke_counts", "dealer_rotations", "dealer_rules", "dealer_downs"):
        drop_sealed_table(name)

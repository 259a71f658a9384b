"""The toke box per room shift (schema 0025): a room counts one toke box per room shift (a
gaming day and one of the room's named shifts, or the whole gaming day when it names none) and
splits it among every dealer who dealt in it, at any table.

A sealed typed table of its own, beside ``toke_counts`` (schema 0019, one box per table
shift), whose records stay on their chain and in the reports.

Revision ID: 0025
Revises: 0019
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa

from dealer_assist.db.migrations.sealed_ddl import create_sealed_table, drop_sealed_table

revision = "0025"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_sealed_table(
        "room_toke_counts",
        sa.Column("gaming_day", sa.String(10), nullable=False),
        sa.Column("room_shift", sa.String(40), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("counter_1", sa.String(80), nullable=False),
        sa.Column("counter_2", sa.String(80), nullable=False),
        roles=("floor", "admin"),
    )


def downgrade() -> None:
    drop_sealed_table("room_toke_counts")

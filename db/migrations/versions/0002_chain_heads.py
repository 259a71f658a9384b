"""Chain heads: each table row keeps its last sequence number and hash, each hand its event
count, both written in the same transaction as every append, so verify notices events deleted
from the end of a chain and two stations recording into one hand at once conflict cleanly.
Filled in from the events already stored.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

GENESIS = "0" * 64


def upgrade() -> None:
    op.add_column(
        "card_tables", sa.Column("head_seq", sa.BigInteger, nullable=False, server_default="0")
    )
    op.add_column(
        "card_tables",
        sa.Column("head_hash", sa.String(64), nullable=False, server_default=GENESIS),
    )
    op.add_column("hands", sa.Column("events", sa.Integer, nullable=False, server_default="0"))
    op.execute(
        "UPDATE card_tables SET "
        "head_seq = COALESCE((SELECT MAX(e.seq) FROM events e "
        "WHERE e.table_id = card_tables.id), 0), "
        f"head_hash = COALESCE((SELECT e.hash FROM events e WHERE e.table_id = card_tables.id "
        f"ORDER BY e.seq DESC LIMIT 1), '{GENESIS}')"
    )
    op.execute(
        "UPDATE hands SET events = "
        "(SELECT COUNT(*) FROM events e WHERE e.hand_id = hands.id)"
    )


def downgrade() -> None:
    for table, column in (("hands", "events"), ("card_tables", "head_hash"),
                          ("card_tables", "head_seq")):
        op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")

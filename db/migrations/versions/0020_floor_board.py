"""The floor board's records: one sealed typed table, ``floor_entries``, one row per floor
action (a table opened, closed or marked breaking; a player put on a list, called, seated,
not here, removed; a seat freed; an away mark, a chip pick-up; a must-move link; a board
setting). Written by the floor or an admin only (on PostgreSQL the table's signed-in-role
trigger holds it).

Revision ID: 0020
Revises: 0018
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from dealer_assist.db.migrations.sealed_ddl import create_sealed_table, drop_sealed_table

revision = "0020"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_sealed_table(
        "floor_entries",
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("table_id", sa.Integer, nullable=True),
        sa.Column("seat", sa.Integer, nullable=True),
        sa.Column("player", sa.String(40), nullable=True),
        sa.Column("game", sa.String(40), nullable=True),
        sa.Column("stakes", sa.String(40), nullable=True),
        sa.Column("entry", sa.BigInteger, nullable=True),
        sa.Column("amount", sa.BigInteger, nullable=True),
        sa.Column("minutes", sa.Integer, nullable=True),
        sa.Column("other_table", sa.Integer, nullable=True),
        sa.Column("setting", sa.String(24), nullable=True),
        sa.Column("value", sa.String(40), nullable=True),
        roles=("floor", "admin"),
    )
    if op.get_bind().dialect.name == "postgresql":
        # the players' board hears of each record as it commits (dealer_assist.db.board_feed)
        op.execute("CREATE OR REPLACE FUNCTION da_board_notify() RETURNS trigger "
                   "LANGUAGE plpgsql AS $$ BEGIN "
                   "PERFORM pg_notify('dealer_assist_board', NEW.seq::text); RETURN NEW; "
                   "END $$")
        op.execute("CREATE TRIGGER floor_entries_notify AFTER INSERT ON floor_entries "
                   "FOR EACH ROW EXECUTE FUNCTION da_board_notify()")


def downgrade() -> None:
    drop_sealed_table("floor_entries")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS da_board_notify()")

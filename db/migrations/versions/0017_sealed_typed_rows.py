"""Sealed typed rows: each room record in a table of its own, chained on its own.

Both dialects: ``record_heads`` holds each sealed table's head (how many records, the last
hash), moved in the same transaction as each record (:mod:`dealer_assist.db.sealed`). The
tables themselves are made by later migrations with
:func:`dealer_assist.db.migrations.sealed_ddl.create_sealed_table`.

PostgreSQL: ``da_sealed_signed(roles...)``, the trigger every sealed table gets, takes a row
from a station only when the transaction's ``da.token`` (set by the app from the sign-in) is a
live sign-in of one of the table's roles and the row's ``actor`` is that person: a station's
own login cannot write a record in a floor person's name, nor as a dealer where the floor is
needed. The owner (``db upgrade``, the room's own tools) writes as it likes.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

GENESIS = "0" * 64

SEALED_SIGNED = """CREATE OR REPLACE FUNCTION da_sealed_signed() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE me users;
BEGIN
  IF pg_has_role(session_user, (SELECT relowner FROM pg_class WHERE oid = TG_RELID),
                 'MEMBER') THEN
    RETURN NEW;  -- the owner: db upgrade, the demo, the room's own tools
  END IF;
  me := da_signed_in(nullif(current_setting('da.token', true), ''));
  IF NOT (me.role = ANY (TG_ARGV)) THEN
    RAISE EXCEPTION '% records are written by a % only (% is a %)', TG_TABLE_NAME,
      array_to_string(TG_ARGV, ' or '), me.name, me.role
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  IF NEW.actor IS DISTINCT FROM me.name THEN
    RAISE EXCEPTION 'a % record is written in the name of the person signed in (%), not %',
      TG_TABLE_NAME, me.name, NEW.actor USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN NEW;
END $$"""


def upgrade() -> None:
    op.create_table(
        "record_heads",
        sa.Column("kind", sa.String(64), primary_key=True),
        sa.Column("entries", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("head_hash", sa.String(64), nullable=False, server_default=GENESIS),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(SEALED_SIGNED)
        op.execute("REVOKE ALL ON FUNCTION da_sealed_signed() FROM PUBLIC")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS da_sealed_signed()")
    op.drop_table("record_heads")

"""The tables' mark for the floor's one-statement append (schema 0026): on PostgreSQL the
floor records' head row (``record_heads``, kind ``floor_entries``) carries ``tables_mark``,
moved by the database whenever a table is added or removed or a settings version is written.
A floor action decided on the tables as the board last read them is written only while the
mark is still the one read with them: checked on the very row its compare-and-swap moves,
where it was two sub-queries (the tables counted, the newest settings version) per action.

Only the owner moves it (the triggers run in the owner's ``da_table_add`` and
``da_settings_add``); the stations' role may update only a head's ``entries`` and
``head_hash``. SQLite keeps its check in the append's short transaction: nothing here.

Revision ID: 0026
Revises: 0025
Create Date: 2026-11-28
"""

from __future__ import annotations

from alembic import op

revision = "0026"
down_revision = "0025"
branch_labels = None
depends_on = None

_MARK = """CREATE OR REPLACE FUNCTION da_tables_mark() RETURNS trigger LANGUAGE plpgsql
SET search_path = public, pg_temp AS $$
BEGIN
  UPDATE record_heads SET tables_mark = tables_mark + 1 WHERE kind = 'floor_entries';
  RETURN NULL;
END $$"""

_TRIGGERS = (
    ("card_tables_mark", "AFTER INSERT OR DELETE OR TRUNCATE ON card_tables"),
    ("table_settings_mark", "AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON table_settings"),
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("ALTER TABLE record_heads ADD COLUMN tables_mark BIGINT NOT NULL DEFAULT 0")
    op.execute(_MARK)
    op.execute("REVOKE ALL ON FUNCTION da_tables_mark() FROM PUBLIC")
    for name, when in _TRIGGERS:
        op.execute(f"CREATE TRIGGER {name} {when} FOR EACH STATEMENT "
                   "EXECUTE FUNCTION da_tables_mark()")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for name, when in _TRIGGERS:
        op.execute(f"DROP TRIGGER IF EXISTS {name} ON {when.rsplit(' ', 1)[1]}")
    op.execute("DROP FUNCTION IF EXISTS da_tables_mark()")
    op.execute("ALTER TABLE record_heads DROP COLUMN IF EXISTS tables_mark")

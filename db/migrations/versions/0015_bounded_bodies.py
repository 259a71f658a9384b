"""An event's body is bounded by the database too: what a station writes directly.

PostgreSQL only (whoever holds a SQLite file can drop any check; there verify names an
unreadable body as its record's fault). The app holds every body it writes to the bounds of
:mod:`dealer_assist.engine.bodies` and reads it back by the game's reader first; a station's
login may still insert into ``events`` itself. So ``events`` gets a check, on every row
inserted from now on (``NOT VALID``: a row already stored stays, and verify names it):
``da_event_body_ok(body)`` is true only for a JSON object of at most ``MAX_BODY_CHARS``
characters nesting at most ``MAX_BODY_DEPTH`` levels. The station's role does not own the
table, so it can neither drop nor skip the check.

Revision ID: 0015
Revises: 0012
Create Date: 2026-11-28
"""

from __future__ import annotations

from alembic import op

revision = "0015"
down_revision = "0012"
branch_labels = None
depends_on = None

#: As dealer_assist.engine.bodies (copied: a migration keeps the numbers it was written with).
MAX_BODY_CHARS = 32_768
MAX_BODY_DEPTH = 16

_FUNCTION = f"""CREATE OR REPLACE FUNCTION da_event_body_ok(p_body text) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE SET search_path = public, pg_temp AS $$
DECLARE s text;
BEGIN
  IF p_body IS NULL OR length(p_body) > {MAX_BODY_CHARS} THEN
    RETURN false;
  END IF;
  -- nesting: more brackets than the bound allows levels, counted outside strings, each pass
  -- removing the innermost pairs; anything left after the bound's passes is nested deeper
  IF length(p_body) - length(translate(p_body, '[{{', '')) > {MAX_BODY_DEPTH} THEN
    s := regexp_replace(p_body, '"(\\\\.|[^"\\\\])*"', '', 'g');
    s := regexp_replace(s, '[^][{{}}]', '', 'g');
    FOR i IN 1..{MAX_BODY_DEPTH} LOOP
      EXIT WHEN s = '';
      s := replace(replace(s, '[]', ''), '{{}}', '');
    END LOOP;
    IF s <> '' THEN
      RETURN false;
    END IF;
  END IF;
  BEGIN
    RETURN json_typeof(p_body::json) = 'object';
  EXCEPTION WHEN others THEN  -- not JSON at all
    RETURN false;
  END;
END $$"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(_FUNCTION)
    op.execute("ALTER TABLE events ADD CONSTRAINT events_body_bounded "
               "CHECK (da_event_body_ok(body)) NOT VALID")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("ALTER TABLE events DROP CONSTRAINT IF EXISTS events_body_bounded")
    op.execute("DROP FUNCTION IF EXISTS da_event_body_ok(text)")

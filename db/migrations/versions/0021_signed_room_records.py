"""PostgreSQL: a room record on the audit chain is written only by the person signed in.

A drop count or its correction, a drop box registered or dropped, a count's sign-off and the
room's clock are audit entries a station's role may write (``STATION_AUDIT_ACTIONS``). Until
now the database took them in any name: a station's own login could record a count "entered by
fran" with no sign-in at all. ``da_audit_guard`` now takes such an entry from a station only
when the transaction's ``da.token`` (set by the app from the sign-in) is a live sign-in whose
name is the entry's actor, with a role that may write it: a floor person or an admin (a
sign-off: also an auditor). The owner (``db upgrade``, the demo, the room's own tools) writes
as before. ``da_sign_out`` ends a sign-in when its person signs out (it lasted its day), so a
signed-out token writes nothing more. SQLite has no roles (there, verify's rule checks apply).

Revision ID: 0021
Revises: 0017
Create Date: 2026-11-28
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from alembic import op

revision = "0021"
down_revision = "0017"
branch_labels = None
depends_on = None

#: The room records held to their writer's sign-in, and the roles that may write each.
SIGNED = {
    "count": ("floor", "admin"),
    "drop-box": ("floor", "admin"),
    "drop": ("floor", "admin"),
    "room-settings": ("floor", "admin"),
    "count-signoff": ("floor", "auditor", "admin"),
}


def _roles_case() -> str:
    arms = " ".join(
        f"WHEN '{action}' THEN ARRAY[{', '.join(repr(r) for r in roles)}]"
        for action, roles in SIGNED.items())
    return f"CASE NEW.action {arms} END"


GUARD = f"""CREATE OR REPLACE FUNCTION da_audit_guard() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
    DECLARE me users; allowed text[];
    BEGIN
      IF pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid =
                     'audit_log'::regclass), 'MEMBER') THEN
        RETURN NEW;
      END IF;
      IF NOT da_station_may_write(NEW.action) THEN
        RAISE EXCEPTION 'audit_log: the role % may not write "%" entries', current_user,
          NEW.action USING ERRCODE = 'insufficient_privilege';
      END IF;
      allowed := {_roles_case()};
      IF allowed IS NOT NULL THEN
        me := da_signed_in(nullif(current_setting('da.token', true), ''));
        IF NOT (me.role = ANY (allowed)) THEN
          RAISE EXCEPTION 'audit_log: a "%" entry is written by a % only (% is a %)',
            NEW.action, array_to_string(allowed, ' or '), me.name, me.role
            USING ERRCODE = 'insufficient_privilege';
        END IF;
        IF NEW.actor IS DISTINCT FROM me.name THEN
          RAISE EXCEPTION 'audit_log: a "%" entry is written in the name of the person signed '
            'in (%), not %', NEW.action, me.name, coalesce(NEW.actor, 'nobody')
            USING ERRCODE = 'insufficient_privilege';
        END IF;
      END IF;
      IF NEW.action = 'approval'
         AND NOT da_approval_take(NEW.actor, NEW.detail, NEW.table_id, NEW.hand_id, NEW.id) THEN
        RAISE EXCEPTION 'audit_log: an approval by % needs their PIN tried in the database '
          'just before for this very approval (da_approval_try with its subject: %)',
          coalesce(NEW.actor, 'nobody'), NEW.detail USING ERRCODE = 'insufficient_privilege';
      END IF;
      IF NEW.action IN ('record-user', 'record-shift', 'record-cardroom')
         AND NOT da_record_is_row(NEW.action, NEW.detail) THEN
        RAISE EXCEPTION 'audit_log: a % entry must be the row as stored', NEW.action
          USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN NEW;
    END $$"""


def _rev(number: str, name: str) -> ModuleType:
    path = Path(__file__).with_name(f"{number}_{name}.py")
    spec = importlib.util.spec_from_file_location(f"_da_rev_{number}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: Signing out ends the sign-in in the database too: its token writes nothing more.
SIGN_OUT = """CREATE OR REPLACE FUNCTION da_sign_out(p_token text) RETURNS void
    LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    DELETE FROM pin_sessions
      WHERE token_hash = encode(digest(coalesce(p_token, ''), 'sha256'), 'hex') $$"""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute(GUARD)
        op.execute(SIGN_OUT)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS da_sign_out(text)")
        older = _rev("0016", "approved_changes")
        for sql in older._FUNCTIONS:
            if "FUNCTION da_audit_guard(" in sql:
                op.execute(sql)

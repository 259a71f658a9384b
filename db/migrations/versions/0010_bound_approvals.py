"""A floor approval's ticket is bound to what it approves; the cardroom's name is the owner's.

PostgreSQL only (a SQLite file has no roles; nothing changes there):

- ``approval_tickets`` keeps the subject the station asked the ticket for: the approval entry's
  ``detail`` ("misdeal of hand 12"), ``table_id`` and ``hand_id``.
  ``da_approval_try(name, hash, detail, table_id, hand_id)`` replaces the two-argument one, and
  the ``audit_log`` trigger takes an ``approval`` entry only on an unused ticket of that actor,
  issued within ``TICKET_SECONDS``, whose subject is the entry's exactly: a ticket for a misdeal
  on hand 12 cannot carry a void on hand 40.
- The cardroom's name (``settings_kv``, printed on every report a board signs) changes only
  through ``da_cardroom_name(token, name)`` (``SECURITY DEFINER``): an active admin's session
  token, or none while the room was never named. A trigger refuses any other role's write to
  ``settings_kv`` (whatever grants it still holds), and a ``record-cardroom`` entry a station
  writes must be the name as stored.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

#: As in 0009: how long a ticket stays good, and the roles that approve.
TICKET_SECONDS = 120
_APPROVERS = "'floor'"

_DEFINER = "SECURITY DEFINER SET search_path = public, pg_temp"
_NOW = "(clock_timestamp() AT TIME ZONE 'UTC')"
_OWNER = ("pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = "
          "'{table}'::regclass), 'MEMBER')")

_FUNCTIONS = [
    # the ticket is asked for with the subject of the approval entry that will spend it
    f"""CREATE OR REPLACE FUNCTION da_approval_try(p_name text, p_secret text, p_detail text,
      p_table_id integer, p_hand_id integer)
    RETURNS TABLE(outcome text, user_id integer, failed integer, locked_until timestamp,
                  token text)
    LANGUAGE plpgsql {_DEFINER} AS $$
    #variable_conflict use_column
    DECLARE r record; who record; now_ timestamp := {_NOW};
    BEGIN
      SELECT * INTO r FROM da_pin_try(p_name, p_secret);
      IF r.outcome = 'right' THEN
        DELETE FROM pin_sessions WHERE token_hash = encode(digest(r.token, 'sha256'), 'hex');
        SELECT id, name, role, active INTO who FROM users WHERE id = r.user_id;
        IF who.active AND who.role IN ({_APPROVERS}) THEN
          DELETE FROM approval_tickets WHERE issued_at < now_ - interval '1 day';
          INSERT INTO approval_tickets (user_id, name, issued_at, detail, table_id, hand_id)
            VALUES (who.id, who.name, now_, coalesce(p_detail, ''), p_table_id, p_hand_id);
        END IF;
      END IF;
      RETURN QUERY SELECT r.outcome, r.user_id, r.failed, r.locked_until, NULL::text;
    END $$""",
    # an approval entry spends the approver's unused ticket for exactly that subject
    f"""CREATE OR REPLACE FUNCTION da_approval_take(p_actor text, p_detail text,
      p_table_id integer, p_hand_id integer) RETURNS boolean
    LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE now_ timestamp := {_NOW}; t integer;
    BEGIN
      UPDATE approval_tickets SET used_at = now_
        WHERE id = (SELECT id FROM approval_tickets
                    WHERE name = p_actor AND used_at IS NULL
                      AND issued_at >= now_ - interval '{TICKET_SECONDS} seconds'
                      AND detail = coalesce(p_detail, '')
                      AND table_id IS NOT DISTINCT FROM p_table_id
                      AND hand_id IS NOT DISTINCT FROM p_hand_id
                    ORDER BY issued_at LIMIT 1 FOR UPDATE)
          AND used_at IS NULL
        RETURNING id INTO t;
      RETURN t IS NOT NULL;
    END $$""",
    # the cardroom's name: an active admin's, or the first naming of a room never named
    f"""CREATE OR REPLACE FUNCTION da_cardroom_name(p_token text, p_name text)
    RETURNS void LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE me users; named text;
    BEGIN
      LOCK TABLE settings_kv IN SHARE ROW EXCLUSIVE MODE;
      SELECT value INTO named FROM settings_kv WHERE key = 'cardroom';
      IF coalesce(named, '') <> '' THEN
        me := da_signed_in(p_token);
        IF me.role <> 'admin' THEN
          RAISE EXCEPTION 'only an admin can rename the cardroom'
            USING ERRCODE = 'insufficient_privilege';
        END IF;
      END IF;
      IF coalesce(btrim(p_name), '') = '' THEN
        RAISE EXCEPTION 'the cardroom needs a name' USING ERRCODE = 'check_violation';
      END IF;
      UPDATE settings_kv SET value = p_name WHERE key = 'cardroom';
      IF NOT FOUND THEN
        INSERT INTO settings_kv (key, value) VALUES ('cardroom', p_name);
      END IF;
    END $$""",
    # settings_kv (the cardroom's name) is written by its owner only (da_cardroom_name)
    f"""CREATE OR REPLACE FUNCTION da_settings_kv_owner() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
    BEGIN
      IF NOT {_OWNER.format(table='settings_kv')} THEN
        RAISE EXCEPTION 'settings_kv: the role % may not change the cardroom''s name: an '
          'admin renames it in the app (da_cardroom_name)', current_user
          USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
    END $$""",
    # a record of a user, a shift or the cardroom written by a station must be the row as stored
    f"""CREATE OR REPLACE FUNCTION da_record_is_row(p_action text, p_detail text)
    RETURNS boolean LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE d jsonb;
    BEGIN
      BEGIN
        d := p_detail::jsonb;
      EXCEPTION WHEN others THEN RETURN false;
      END;
      IF p_action = 'record-user' THEN
        RETURN EXISTS (SELECT 1 FROM users u WHERE d = jsonb_build_object(
          'name', u.name, 'full_name', u.full_name, 'role', u.role, 'active', u.active,
          'pin', encode(digest(u.pin_hash, 'sha256'), 'hex')));
      ELSIF p_action = 'record-shift' THEN
        RETURN EXISTS (SELECT 1 FROM shifts s WHERE d = jsonb_build_object(
          'id', s.id, 'table_id', s.table_id, 'dealer', s.dealer, 'floor', s.floor,
          'opened_at', da_time(s.opened_at), 'closed_at', da_time(s.closed_at),
          'closed_by', s.closed_by, 'closed_floor', s.closed_floor));
      ELSIF p_action = 'record-cardroom' THEN
        RETURN EXISTS (SELECT 1 FROM settings_kv k WHERE k.key = 'cardroom'
                       AND d = jsonb_build_object('name', k.value));
      END IF;
      RETURN true;
    END $$""",
    f"""CREATE OR REPLACE FUNCTION da_audit_guard() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
    BEGIN
      IF {_OWNER.format(table='audit_log')} THEN
        RETURN NEW;
      END IF;
      IF NOT da_station_may_write(NEW.action) THEN
        RAISE EXCEPTION 'audit_log: the role % may not write "%" entries', current_user,
          NEW.action USING ERRCODE = 'insufficient_privilege';
      END IF;
      IF NEW.action = 'approval'
         AND NOT da_approval_take(NEW.actor, NEW.detail, NEW.table_id, NEW.hand_id) THEN
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
    END $$""",
]


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.add_column("approval_tickets", sa.Column("detail", sa.Text, nullable=False,
                                                server_default=""))
    op.add_column("approval_tickets", sa.Column("table_id", sa.Integer, nullable=True))
    op.add_column("approval_tickets", sa.Column("hand_id", sa.Integer, nullable=True))
    # tickets of the unbound kind are spent: none carries over to a bound approval
    op.execute("UPDATE approval_tickets SET used_at = issued_at WHERE used_at IS NULL")
    op.execute("DROP FUNCTION IF EXISTS da_approval_try(text, text)")
    op.execute("DROP FUNCTION IF EXISTS da_approval_take(text)")
    for sql in _FUNCTIONS:
        op.execute(sql)
    op.execute("CREATE TRIGGER settings_kv_owner BEFORE INSERT OR UPDATE OR DELETE ON "
               "settings_kv FOR EACH ROW EXECUTE FUNCTION da_settings_kv_owner()")


def _rev_0009() -> ModuleType:
    path = Path(__file__).with_name("0009_station_rights.py")
    spec = importlib.util.spec_from_file_location("_da_rev_0009", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER IF EXISTS settings_kv_owner ON settings_kv")
    op.execute("DROP FUNCTION IF EXISTS da_settings_kv_owner()")
    op.execute("DROP FUNCTION IF EXISTS da_cardroom_name(text, text)")
    op.execute("DROP FUNCTION IF EXISTS da_approval_try(text, text, text, integer, integer)")
    op.execute("DROP FUNCTION IF EXISTS da_approval_take(text, text, integer, integer)")
    older = _rev_0009()
    for sql in older._FUNCTIONS:
        if any(f"FUNCTION {name}(" in sql for name in (
                "da_approval_try", "da_approval_take", "da_record_is_row", "da_audit_guard")):
            op.execute(sql)
    op.execute("UPDATE approval_tickets SET used_at = issued_at WHERE used_at IS NULL")
    op.drop_column("approval_tickets", "hand_id")
    op.drop_column("approval_tickets", "table_id")
    op.drop_column("approval_tickets", "detail")

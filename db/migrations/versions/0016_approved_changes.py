"""Every approved change carries its approval, and on PostgreSQL the database checks it.

Both dialects: ``events.approval_id``, ``disputes.approval_id`` and
``shifts.close_approval_id`` hold the id of the ``approval`` audit entry of the change (a void
in a finished hand, a misdeal, a floor decision, a hand start that changes what the last hand
carries, dispute adjustments, a shift close). ``verify`` names every such change without its
approval, on SQLite too (where whoever has the file can write anything).

PostgreSQL only, for every role that does not own the tables (the stations):

- ``approval_tickets.audit_id`` is the approval entry that spent the ticket, and
  ``spent_on`` the change that then carried it: ``da_approval_spend`` spends it once, within
  ``TICKET_SECONDS``, on a change whose subject is the ticket's (the subject the services write,
  :mod:`dealer_assist.services.approvals`, built here in SQL from the row being written).
- A trigger on ``events``: a misdeal, a void in a settled hand and a floor decision
  (``game_rules.floor_events``) need their approval; a hand's start whose carry-in is not the
  last hand's carry-out, or that takes chips off a seat while a pot carries, needs the floor's
  approval of that start saying so. A settled hand reopens only after an approved void or
  misdeal (a trigger on ``hands``).
- Dispute adjustments need the second floor person's approval of exactly those amounts (checked
  at commit); a shift closes only with its floor person's approval of that close.
- Tables and settings versions are added only through ``da_table_add`` and ``da_settings_add``
  (``SECURITY DEFINER``), by a signed-in floor person's or admin's session token.
- ``game_rules`` (the owner's; filled by ``db upgrade --station-role`` from the games
  installed): each game's names for its carry-in and stacks, and its floor decisions.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28
"""

from __future__ import annotations

import importlib.util
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None

#: As in 0009/0010: how long a ticket stays good (from the PIN to the change it approves).
TICKET_SECONDS = 120

_DEFINER = "SECURITY DEFINER SET search_path = public, pg_temp"
_NOW = "(clock_timestamp() AT TIME ZONE 'UTC')"
_OWNER = ("pg_has_role(current_user, (SELECT relowner FROM pg_class WHERE oid = "
          "'{table}'::regclass), 'MEMBER')")
_SESSION_OWNER = ("pg_has_role(session_user, (SELECT relowner FROM pg_class WHERE oid = "
                  "'{table}'::regclass), 'MEMBER')")

_FUNCTIONS = [
    # money as the services write it (format_cents): $90, $90.50, -$6, $50,000
    """CREATE OR REPLACE FUNCTION da_money(c bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN c < 0 THEN '-' ELSE '' END || '$'
        || to_char(abs(c) / 100, 'FM999,999,999,999,999,990')
        || CASE WHEN abs(c) % 100 <> 0 THEN '.' || lpad((abs(c) % 100)::text, 2, '0')
                ELSE '' END $$""",
    # a text matched literally by LIKE
    """CREATE OR REPLACE FUNCTION da_like_text(t text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT replace(replace(replace(t, '\\', '\\\\'), '%', '\\%'), '_', '\\_') $$""",
    # the approval entry spends the approver's ticket, and the ticket remembers that entry
    f"""CREATE OR REPLACE FUNCTION da_approval_take(p_actor text, p_detail text,
      p_table_id integer, p_hand_id integer, p_audit_id integer) RETURNS boolean
    LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE now_ timestamp := {_NOW}; t integer;
    BEGIN
      UPDATE approval_tickets SET used_at = now_, audit_id = p_audit_id
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
    END $$""",
    # the one place an approval is spent on a change: once, soon, of that very subject
    f"""CREATE OR REPLACE FUNCTION da_approval_need(p_id integer, p_detail text,
      p_like boolean, p_table integer, p_hand integer, p_on text, p_name text, p_what text)
    RETURNS void LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE now_ timestamp := {_NOW}; t integer;
    BEGIN
      UPDATE approval_tickets SET spent_on = p_on
        WHERE p_id IS NOT NULL AND audit_id = p_id AND used_at IS NOT NULL AND spent_on IS NULL
          AND used_at >= now_ - interval '{TICKET_SECONDS} seconds'
          AND (detail = p_detail OR (p_like AND detail LIKE p_detail))
          AND table_id IS NOT DISTINCT FROM p_table AND hand_id IS NOT DISTINCT FROM p_hand
          AND (p_name IS NULL OR name = p_name)
        RETURNING id INTO t;
      IF t IS NULL THEN
        RAISE EXCEPTION '% needs a floor person''s approval of it (their PIN tried in the '
          'database for "%", spent on this change alone): approval entry % does not approve it',
          p_what, replace(p_detail, '\\', ''), coalesce(p_id::text, 'none')
          USING ERRCODE = 'insufficient_privilege';
      END IF;
    END $$""",
    # what a hand's event needs: the approval of a misdeal, a void in a settled hand, a floor
    # decision, a start that changes the carry-in or takes chips off while a pot carries
    f"""CREATE OR REPLACE FUNCTION da_event_approved(p_table integer, p_hand integer,
      p_type text, p_body text, p_approval integer) RETURNS void
    LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE h record; prev record; r record; d jsonb; pb jsonb; det text; tname text;
      out_ bigint := 0; carry bigint; last_ integer; parts text[] := '{{}}'; why text[] := '{{}}';
      part text; k text; v jsonb; left_ bigint; got numeric;
    BEGIN
      IF p_hand IS NULL THEN  -- a table mark's void: its approval is of that table
        IF p_approval IS NOT NULL THEN
          SELECT name INTO tname FROM card_tables WHERE id = p_table;
          PERFORM da_approval_need(p_approval, 'void of ' || da_like_text(tname) || ' mark %',
            true, p_table, NULL, 'mark-void', NULL, 'a void of a table mark');
        END IF;
        RETURN;
      END IF;
      SELECT number, status, game, settings_id INTO h FROM hands WHERE id = p_hand;
      IF NOT FOUND OR h.settings_id IS NULL THEN RETURN; END IF;  -- an imported hand
      BEGIN
        d := p_body::jsonb;
      EXCEPTION WHEN others THEN d := '{{}}'::jsonb;
      END;
      IF jsonb_typeof(d) <> 'object' THEN d := '{{}}'::jsonb; END IF;
      SELECT * INTO r FROM game_rules WHERE game = h.game;
      IF p_type = 'misdeal' THEN
        PERFORM da_approval_need(p_approval, 'misdeal of hand ' || h.number, false, p_table,
          p_hand, 'misdeal', NULL, 'a misdeal');
      ELSIF p_type = 'void' THEN
        IF h.status = 'settled' OR p_approval IS NOT NULL THEN
          PERFORM da_approval_need(p_approval, 'void of event ' || coalesce(d->>'target', '?')
            || ' in hand ' || h.number, false, p_table, p_hand, 'void',
            NULL, 'a void in a finished hand');
        END IF;
      ELSIF p_type = 'start' THEN
        SELECT id, number, game, status INTO prev FROM hands
          WHERE table_id = p_table AND settings_id IS NOT NULL AND number < h.number
          ORDER BY number DESC LIMIT 1;
        last_ := coalesce(prev.number, 0);
        IF prev.id IS NOT NULL AND prev.game = h.game AND prev.status = 'settled' THEN
          SELECT coalesce(sum(amount), 0) INTO out_ FROM ledger_lines
            WHERE hand_id = prev.id AND kind = 'carry_out' AND settlement =
              (SELECT max(settlement) FROM ledger_lines WHERE hand_id = prev.id);
        END IF;
        IF r.stacks_key IS NOT NULL AND out_ > 0 AND jsonb_typeof(d->r.stacks_key) = 'object'
        THEN
          SELECT body::jsonb INTO pb FROM events WHERE hand_id = prev.id AND number = 1;
          FOR k, v IN SELECT * FROM jsonb_each(d->r.stacks_key) LOOP
            CONTINUE WHEN jsonb_typeof(v) <> 'number'
              OR jsonb_typeof(pb->r.stacks_key->k) IS DISTINCT FROM 'number';
            left_ := (pb->r.stacks_key->>k)::numeric::bigint
              - coalesce((SELECT sum(amount) FROM ledger_lines WHERE hand_id = prev.id
                  AND kind = 'put_in' AND seat::text = k AND settlement =
                  (SELECT max(settlement) FROM ledger_lines WHERE hand_id = prev.id)), 0)
              + coalesce((SELECT sum(amount) FROM ledger_lines WHERE hand_id = prev.id
                  AND kind = 'push' AND seat::text = k AND settlement =
                  (SELECT max(settlement) FROM ledger_lines WHERE hand_id = prev.id)), 0);
            got := (v #>> '{{}}')::numeric;
            IF got < left_ THEN
              parts := parts || ('%seat ' || k || ' ' || da_like_text(da_money(got::bigint))
                                 || ' (%');
              why := why || ('seat ' || k || ' ' || da_money(got::bigint) || ' where it left '
                             || 'the last hand with ' || da_money(left_) || ' while '
                             || da_money(out_) || ' carries');
            END IF;
          END LOOP;
        END IF;
        IF r.carry_key IS NOT NULL THEN
          carry := CASE WHEN jsonb_typeof(d->r.carry_key) = 'number'
                        THEN (d->>r.carry_key)::numeric::bigint ELSE 0 END;
          IF carry <> out_ THEN
            parts := parts || ('%carry-in ' || da_like_text(da_money(carry)) || ' ('
                               || da_like_text(da_money(out_)) || ' carried%');
            why := why || ('carry-in ' || da_money(carry) || ' where the last hand carried out '
                           || da_money(out_));
          END IF;
        END IF;
        IF cardinality(parts) > 0 OR p_approval IS NOT NULL THEN
          SELECT name INTO tname FROM card_tables WHERE id = p_table;
          SELECT detail INTO det FROM approval_tickets WHERE audit_id = p_approval;
          FOREACH part IN ARRAY parts LOOP
            IF det IS NULL OR NOT det LIKE part THEN
              RAISE EXCEPTION 'a hand start that changes what the last hand left (%) needs a '
                'floor person''s approval saying so: approval entry % does not',
                array_to_string(why, '; '), coalesce(p_approval::text, 'none')
                USING ERRCODE = 'insufficient_privilege';
            END IF;
          END LOOP;
          PERFORM da_approval_need(p_approval, da_like_text('start at ' || tname
            || ' after hand ' || last_ || ': ') || '%', true, p_table, NULL, 'start', NULL,
            'a hand start that changes what the last hand left');
        END IF;
      ELSIF r.floor_events IS NOT NULL AND p_type = ANY(r.floor_events) THEN
        PERFORM da_approval_need(p_approval, p_type || ' in hand ' || h.number, false, p_table,
          p_hand, 'floor-decision', NULL, 'a floor decision');
      ELSIF p_approval IS NOT NULL THEN
        RAISE EXCEPTION 'events: a % needs no approval; none is taken on it', p_type
          USING ERRCODE = 'insufficient_privilege';
      END IF;
    END $$""",
    f"""CREATE OR REPLACE FUNCTION da_events_approval() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
    BEGIN
      IF NOT {_OWNER.format(table='events')} THEN
        PERFORM da_event_approved(NEW.table_id, NEW.hand_id, NEW.type, NEW.body,
                                  NEW.approval_id);
      END IF;
      RETURN NEW;
    END $$""",
    # a settled hand reopens only after an approved void or misdeal
    f"""CREATE OR REPLACE FUNCTION da_hands_reopen() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
    BEGIN
      IF OLD.status = 'settled' AND NEW.status IS DISTINCT FROM 'settled'
         AND NOT {_OWNER.format(table='hands')}
         AND NOT coalesce((SELECT type IN ('void', 'misdeal') AND approval_id IS NOT NULL
                           FROM events WHERE hand_id = NEW.id
                           ORDER BY number DESC LIMIT 1), false) THEN
        RAISE EXCEPTION 'hands: hand % is settled; it reopens only after a void or misdeal a '
          'floor person approved', OLD.number USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN NEW;
    END $$""",
    # dispute adjustments: the second floor person's approval of exactly those amounts
    f"""CREATE OR REPLACE FUNCTION da_disputes_approval() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
    DECLARE n integer; t integer;
    BEGIN
      IF NEW.approval_id IS NOT NULL AND NOT {_OWNER.format(table='disputes')} THEN
        SELECT number, table_id INTO n, t FROM hands WHERE id = NEW.hand_id;
        PERFORM da_approval_need(NEW.approval_id, 'adjustments in hand ' || n || ': %', true,
          t, NEW.hand_id, 'dispute', NULL, 'dispute adjustments');
      END IF;
      RETURN NEW;
    END $$""",
    f"""CREATE OR REPLACE FUNCTION da_adjustments_approved(p_dispute integer) RETURNS void
    LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE x record; want text;
    BEGIN
      SELECT d.approval_id, h.number INTO x FROM disputes d JOIN hands h ON h.id = d.hand_id
        WHERE d.id = p_dispute;
      SELECT 'adjustments in hand ' || x.number || ': ' || string_agg(
          CASE WHEN seat IS NULL THEN 'house' ELSE 'seat ' || seat END || ' '
          || CASE WHEN amount >= 0 THEN '+' ELSE '' END || da_money(amount), ', ' ORDER BY id)
        INTO want FROM dispute_adjustments WHERE dispute_id = p_dispute;
      IF x.approval_id IS NULL OR NOT EXISTS (
          SELECT 1 FROM approval_tickets WHERE audit_id = x.approval_id
            AND spent_on = 'dispute' AND detail = want) THEN
        RAISE EXCEPTION 'dispute_adjustments: % needs a second floor person''s approval of '
          'exactly those amounts', want USING ERRCODE = 'insufficient_privilege';
      END IF;
    END $$""",
    f"""CREATE OR REPLACE FUNCTION da_adjustments_check() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
    BEGIN
      IF NOT {_OWNER.format(table='dispute_adjustments')} THEN
        PERFORM da_adjustments_approved(NEW.dispute_id);
      END IF;
      RETURN NULL;
    END $$""",
    # a shift closes with its floor person's approval of that close
    f"""CREATE OR REPLACE FUNCTION da_shifts_approval() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
    BEGIN
      IF {_OWNER.format(table='shifts')} THEN
        RETURN NEW;
      END IF;
      IF OLD.closed_at IS NULL AND NEW.closed_at IS NOT NULL THEN
        PERFORM da_approval_need(NEW.close_approval_id, 'closing shift ' || NEW.id, false,
          NEW.table_id, NULL, 'shift-close', NEW.closed_floor, 'closing a shift');
      ELSIF NEW.close_approval_id IS DISTINCT FROM OLD.close_approval_id THEN
        RAISE EXCEPTION 'shifts: the approval of a shift''s close is written with the close'
          USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN NEW;
    END $$""",
    # tables and settings versions: only through the owner's functions below
    f"""CREATE OR REPLACE FUNCTION da_configured_only() RETURNS trigger LANGUAGE plpgsql
    SET search_path = public, pg_temp AS $$
    BEGIN
      IF NOT pg_has_role(current_user, (SELECT relowner FROM pg_class
                                        WHERE oid = TG_RELID), 'MEMBER') THEN
        RAISE EXCEPTION '%: the role % may not add rows: a floor person or admin signed in '
          'adds tables and settings in the app (da_table_add, da_settings_add)', TG_TABLE_NAME,
          current_user USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN NEW;
    END $$""",
    f"""CREATE OR REPLACE FUNCTION da_configurer(p_token text, p_table text) RETURNS text
    LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE me users;
    BEGIN
      IF pg_has_role(session_user, (SELECT relowner FROM pg_class
                                    WHERE oid = p_table::regclass), 'MEMBER') THEN
        RETURN NULL;  -- the owner (db upgrade, the room's own tools)
      END IF;
      me := da_signed_in(p_token);
      IF me.role NOT IN ('floor', 'admin') THEN
        RAISE EXCEPTION 'only a floor person or an admin changes tables and their settings '
          '(% is a %)', me.name, me.role USING ERRCODE = 'insufficient_privilege';
      END IF;
      RETURN me.name;
    END $$""",
    f"""CREATE OR REPLACE FUNCTION da_table_add(p_token text, p_name text, p_at timestamp)
    RETURNS integer LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE new_id integer;
    BEGIN
      PERFORM da_configurer(p_token, 'card_tables');
      INSERT INTO card_tables (name, created_at) VALUES (p_name, p_at) RETURNING id INTO new_id;
      RETURN new_id;
    END $$""",
    f"""CREATE OR REPLACE FUNCTION da_settings_add(p_token text, p_table integer,
      p_version integer, p_game text, p_document text, p_at timestamp, p_by text)
    RETURNS integer LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE who text; new_id integer;
    BEGIN
      who := da_configurer(p_token, 'table_settings');
      IF who IS NOT NULL AND who <> p_by THEN
        RAISE EXCEPTION 'a settings version is created by the person signed in (%), not %',
          who, p_by USING ERRCODE = 'insufficient_privilege';
      END IF;
      INSERT INTO table_settings (table_id, version, game, document, created_at, created_by)
        VALUES (p_table, p_version, p_game, p_document, p_at, p_by) RETURNING id INTO new_id;
      RETURN new_id;
    END $$""",
]

_TRIGGERS = [
    ("events_approval", "BEFORE INSERT ON events FOR EACH ROW", "da_events_approval()"),
    ("hands_reopen", "BEFORE UPDATE OF status ON hands FOR EACH ROW", "da_hands_reopen()"),
    ("disputes_approval", "BEFORE INSERT ON disputes FOR EACH ROW", "da_disputes_approval()"),
    ("shifts_approval", "BEFORE UPDATE ON shifts FOR EACH ROW", "da_shifts_approval()"),
    ("card_tables_configured", "BEFORE INSERT ON card_tables FOR EACH ROW",
     "da_configured_only()"),
    ("table_settings_configured", "BEFORE INSERT ON table_settings FOR EACH ROW",
     "da_configured_only()"),
]


def upgrade() -> None:
    op.add_column("events", sa.Column("approval_id", sa.Integer, nullable=True))
    op.add_column("disputes", sa.Column("approval_id", sa.Integer, nullable=True))
    op.add_column("shifts", sa.Column("close_approval_id", sa.Integer, nullable=True))
    _baseline(op.get_bind())
    if op.get_bind().dialect.name != "postgresql":
        return
    op.add_column("approval_tickets", sa.Column("audit_id", sa.Integer, nullable=True))
    op.add_column("approval_tickets", sa.Column("spent_on", sa.Text, nullable=True))
    op.create_index("ix_approval_tickets_audit_id", "approval_tickets", ["audit_id"])
    op.create_table(
        "game_rules",
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("carry_key", sa.Text, nullable=True),
        sa.Column("stacks_key", sa.Text, nullable=True),
        sa.Column("floor_events", sa.ARRAY(sa.Text), nullable=False, server_default="{}"),
    )
    # tickets not yet spent on a change were taken before this schema: none carries one
    op.execute("UPDATE approval_tickets SET spent_on = 'before schema 0016' "
               "WHERE spent_on IS NULL")
    op.execute("DROP FUNCTION IF EXISTS da_approval_take(text, text, integer, integer)")
    for sql in _FUNCTIONS:
        op.execute(sql)
    for name, when, function in _TRIGGERS:
        op.execute(f"CREATE TRIGGER {name} {when} EXECUTE FUNCTION {function}")
    op.execute("CREATE CONSTRAINT TRIGGER dispute_adjustments_approval AFTER INSERT ON "
               "dispute_adjustments DEFERRABLE INITIALLY DEFERRED FOR EACH ROW "
               "EXECUTE FUNCTION da_adjustments_check()")


def _baseline(bind: sa.Connection) -> None:
    """The last events, disputes and shifts written before changes carried their approval, on
    the audit chain (``approvals-baseline``): verify takes those without one as notes."""
    import json

    from dealer_assist.db.store import append_audit

    last = {t: int(bind.exec_driver_sql(f"SELECT coalesce(max(id), 0) FROM {t}").scalar() or 0)
            for t in ("events", "disputes", "shifts")}
    if any(last.values()):
        append_audit(bind, [{
            "at": datetime.now(UTC), "actor": None, "action": "approvals-baseline",
            "detail": json.dumps({**last, "why": "written before schema 0016"},
                                 sort_keys=True, separators=(",", ":")),
            "table_id": None, "hand_id": None}])


def _rev(number: str, name: str) -> ModuleType:
    path = Path(__file__).with_name(f"{number}_{name}.py")
    spec = importlib.util.spec_from_file_location(f"_da_rev_{number}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS dispute_adjustments_approval ON dispute_adjustments")
        for name, when, _ in _TRIGGERS:
            table = when.split(" ON ")[1].split()[0]
            op.execute(f"DROP TRIGGER IF EXISTS {name} ON {table}")
        for signature in (
            "da_adjustments_check()", "da_adjustments_approved(integer)",
            "da_shifts_approval()", "da_disputes_approval()", "da_hands_reopen()",
            "da_events_approval()", "da_event_approved(integer, integer, text, text, integer)",
            "da_approval_need(integer, text, boolean, integer, integer, text, text, text)",
            "da_configured_only()", "da_table_add(text, text, timestamp)",
            "da_settings_add(text, integer, integer, text, text, timestamp, text)",
            "da_configurer(text, text)", "da_like_text(text)", "da_money(bigint)",
            "da_approval_take(text, text, integer, integer, integer)",
        ):
            op.execute(f"DROP FUNCTION IF EXISTS {signature}")
        older = _rev("0010", "bound_approvals")
        for sql in older._FUNCTIONS:
            if any(f"FUNCTION {name}(" in sql for name in ("da_approval_take", "da_audit_guard")):
                op.execute(sql)
        op.drop_table("game_rules")
        op.drop_index("ix_approval_tickets_audit_id", "approval_tickets")
        op.drop_column("approval_tickets", "spent_on")
        op.drop_column("approval_tickets", "audit_id")
    # (ALTER TABLE ... DROP COLUMN on both: SQLite keeps the tables' append-only triggers)
    op.execute("ALTER TABLE shifts DROP COLUMN close_approval_id")
    op.execute("ALTER TABLE disputes DROP COLUMN approval_id")
    op.execute("ALTER TABLE events DROP COLUMN approval_id")

"""A void in a hand that is over but not yet settled, and a new game, are held by the database.

The database cannot replay a game, so it did not know when a hand was over, nor what the next
hand takes from it: on PostgreSQL a void before the settlement and a start that drops what the
game carries (a "new game") were checked only when they carried an approval. Now the app writes
a mark with the event that ends a hand (``events.over_mark``, both dialects: what the next hand
at the same seats takes of what the game carries, as a JSON object;
:mod:`dealer_assist.services.overmark`), and ``da_event_approved`` (PostgreSQL, for every role
that does not own the tables) holds the stations to it:

- a void after an event so marked needs the floor's approval of that void, as in a settled hand;
- the next hand at the same seats (in the same order) takes over exactly what the mark says, or
  carries the floor's approval of its start saying "new game".

A station that writes a hand's last event without its mark escapes both; ``verify`` replays the
hands, so it names a void after the end and a carry not taken over without an approval, on both
dialects, whatever the marks say.

Revision ID: 0018
Revises: 0022
Create Date: 2026-11-28
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0022"
branch_labels = None
depends_on = None

_DEFINER = "SECURITY DEFINER SET search_path = public, pg_temp"
#: As dealer_assist.services.handrules.NEW_GAME (copied: a migration keeps its words).
NEW_GAME = "new game"

_FUNCTION = f"""CREATE OR REPLACE FUNCTION da_event_approved(p_table integer, p_hand integer,
      p_type text, p_body text, p_approval integer) RETURNS void
    LANGUAGE plpgsql {_DEFINER} AS $$
    DECLARE h record; prev record; r record; d jsonb; pb jsonb; det text; tname text;
      out_ bigint := 0; carry bigint; last_ integer; parts text[] := '{{}}'; why text[] := '{{}}';
      part text; k text; v jsonb; left_ bigint; got numeric; was_over boolean; mk jsonb;
      pbody jsonb; dropped text[] := '{{}}';
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
        -- over: the hand's last event says it ended the hand (its mark, schema 0018)
        SELECT over_mark IS NOT NULL INTO was_over FROM events WHERE hand_id = p_hand
          ORDER BY number DESC LIMIT 1;
        IF h.status = 'settled' OR coalesce(was_over, false) OR p_approval IS NOT NULL THEN
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
          BEGIN
            SELECT over_mark::jsonb INTO mk FROM events WHERE hand_id = prev.id
              ORDER BY number DESC LIMIT 1;
            SELECT body::jsonb INTO pbody FROM events WHERE hand_id = prev.id AND number = 1;
          EXCEPTION WHEN others THEN mk := NULL;
          END;
        END IF;
        -- what the last hand carries to the same seats (its mark): taken over as it is, or a
        -- new game the floor approved
        IF jsonb_typeof(mk) = 'object' AND pbody->'seats' = d->'seats' THEN
          FOR k, v IN SELECT * FROM jsonb_each(mk) LOOP
            IF coalesce(d->k, 'null'::jsonb) <> v THEN
              dropped := dropped || k;
            END IF;
          END LOOP;
          IF cardinality(dropped) > 0 THEN
            parts := parts || ('%' || da_like_text('{NEW_GAME}: ') || '%');
            why := why || ('{NEW_GAME}: ' || array_to_string(dropped, ', ')
                           || ' not taken over from hand ' || prev.number);
          END IF;
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
    END $$"""


def upgrade() -> None:
    op.add_column("events", sa.Column("over_mark", sa.Text, nullable=True))
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("ALTER TABLE events ADD CONSTRAINT events_over_mark_object CHECK (over_mark IS "
               "NULL OR jsonb_typeof(over_mark::jsonb) = 'object') NOT VALID")
    op.execute(_FUNCTION)


def _rev(number: str, name: str) -> ModuleType:
    path = Path(__file__).with_name(f"{number}_{name}.py")
    spec = importlib.util.spec_from_file_location(f"_da_rev_{number}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        older = _rev("0016", "approved_changes")
        for sql in older._FUNCTIONS:
            if "FUNCTION da_event_approved(" in sql:
                op.execute(sql)
        op.execute("ALTER TABLE events DROP CONSTRAINT IF EXISTS events_over_mark_object")
    op.execute("ALTER TABLE events DROP COLUMN over_mark")

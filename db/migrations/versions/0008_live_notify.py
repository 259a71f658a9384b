"""The floor's live view: on PostgreSQL each change a table's row of the view depends on sends a
``NOTIFY dealer_assist_live`` with the table's id, from the transaction that records it (a
trigger: the event, the hand's status, a dispute, an audit entry about the table). PostgreSQL
delivers it when that transaction commits, and never for one that rolls back. SQLite has no
such thing: the floor polls the chain heads instead (``dealer_assist.db.notify``).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-24
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

CHANNEL = "dealer_assist_live"

_FUNCTIONS = {
    "da_live_by_table": "NEW.table_id",
    "da_live_by_hand": "(SELECT table_id FROM hands WHERE id = NEW.hand_id)",
}
_TRIGGERS = (
    ("events_live", "AFTER INSERT ON events", "da_live_by_table", ""),
    ("hands_live", "AFTER INSERT OR UPDATE ON hands", "da_live_by_table", ""),
    ("disputes_live", "AFTER INSERT ON disputes", "da_live_by_hand", ""),
    ("audit_log_live", "AFTER INSERT ON audit_log", "da_live_by_table",
     " WHEN (NEW.table_id IS NOT NULL)"),
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for name, table_expr in _FUNCTIONS.items():
        op.execute(
            f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ "
            f"BEGIN PERFORM pg_notify('{CHANNEL}', coalesce(({table_expr})::text, '')); "
            "RETURN NULL; END $$"
        )
    for trigger, when, function, condition in _TRIGGERS:
        op.execute(
            f"CREATE TRIGGER {trigger} {when} FOR EACH ROW{condition} "
            f"EXECUTE FUNCTION {function}()"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for trigger, when, _function, _condition in _TRIGGERS:
        table = when.rsplit(" ON ", 1)[1]
        op.execute(f"DROP TRIGGER IF EXISTS {trigger} ON {table}")
    for name in _FUNCTIONS:
        op.execute(f"DROP FUNCTION IF EXISTS {name}()")

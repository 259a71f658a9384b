"""Schema 0018 (the end mark a hand's last event carries) on PostgreSQL: its downgrade to the
schema before it puts back schema 0016's ``da_event_approved`` and takes the column away;
upgrading again restores both."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from alembic import command

from dealer_assist.db.bootstrap import _alembic_config, open_database, schema_state

pytestmark = pytest.mark.postgres


def _state(url: str) -> tuple[bool, bool]:
    """(the events trigger's function reads the end mark, events has the column)."""
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        source = conn.exec_driver_sql(
            "SELECT prosrc FROM pg_proc WHERE proname = 'da_event_approved'").scalar_one()
        column = conn.exec_driver_sql(
            "SELECT count(*) FROM information_schema.columns WHERE table_name = 'events' AND "
            "column_name = 'over_mark'").scalar_one()
    engine.dispose()
    return "over_mark" in source, column == 1


def test_schema_0018_downgrade_puts_back_the_function_before_it_and_upgrade_again(
    pg_url: str,
) -> None:
    db = open_database(pg_url)
    assert _state(pg_url) == (True, True)
    with db.engine.connect() as conn:
        command.downgrade(_alembic_config(conn), "0022")
        conn.commit()
    assert schema_state(db)[0] == "0022"
    db.close()
    assert _state(pg_url) == (False, False)
    open_database(pg_url).close()
    assert _state(pg_url) == (True, True)

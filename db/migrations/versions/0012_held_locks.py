"""No station holds the room: a lock held by an idle session is freed for the one waiting.

PostgreSQL only (a SQLite file has one writer at a time and its own busy timeout):

- ``da_free_held_locks()`` (``SECURITY DEFINER``, the owner's): a session that waited out its
  lock timeout calls it; it ends every session of this database that holds what others may
  wait for (it has written or locked rows: a transaction id; or it holds an advisory lock) and
  has sat idle for ``IDLE_SECONDS``, or whose transaction has been open for ``OPEN_SECONDS``,
  except the owner's and a superuser's. (By then the waiter has given up, so who blocked it
  cannot be asked; a session idle while holding rows is the one.) The app's own transactions never idle while they hold a lock, so only a stuck
  or hostile session is ended; what it had not committed is rolled back, as a crash would.
  The owner needs the server's rights to see and end other roles' sessions (a superuser, or a
  member of ``pg_signal_backend`` and ``pg_read_all_stats``).

Revision ID: 0012
Revises: 0010
Create Date: 2026-11-28
"""

from __future__ import annotations

from alembic import op

revision = "0012"
down_revision = "0010"
branch_labels = None
depends_on = None

#: A session idle this long while it holds rows is ended (the app never idles holding a lock).
IDLE_SECONDS = 1
#: A session holding rows whose transaction has been open this long is ended, idle or not.
OPEN_SECONDS = 30

FREE_HELD_LOCKS = f"""CREATE OR REPLACE FUNCTION da_free_held_locks() RETURNS integer
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, public, pg_temp AS $$
DECLARE n integer := 0; b record; now_ timestamptz := clock_timestamp();
BEGIN
  FOR b IN
    SELECT s.pid
    FROM pg_stat_activity s JOIN pg_roles r ON r.oid = s.usesysid
    WHERE s.datname = current_database() AND s.pid <> pg_backend_pid()
      AND NOT r.rolsuper AND r.rolname <> current_user
      AND (s.backend_xid IS NOT NULL
           OR EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = s.pid AND l.granted
                      AND l.locktype = 'advisory'))
      AND ((s.state LIKE 'idle%' AND s.state_change < now_ - interval '{IDLE_SECONDS} seconds')
           OR s.xact_start < now_ - interval '{OPEN_SECONDS} seconds')
  LOOP
    -- signalled, then waited for (up to 5 s) so that what it held is free on return
    IF pg_terminate_backend(b.pid) THEN
      n := n + 1;
      PERFORM pg_terminate_backend(b.pid, 5000)
        WHERE EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = b.pid);
    END IF;
  END LOOP;
  RETURN n;
END $$"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(FREE_HELD_LOCKS)


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP FUNCTION IF EXISTS da_free_held_locks()")

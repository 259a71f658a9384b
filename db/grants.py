"""PostgreSQL: the stations' role may add records and read them, nothing more.

The tables belong to an owner role that runs the migrations (``db upgrade``); the role the
stations connect as gets ``SELECT`` and ``INSERT`` on every table, ``UPDATE`` only on the
columns the app moves (chain heads, a hand's status and event count, a shift's closing, the
audit chain's head), and no ``DELETE``, ``TRUNCATE`` or ownership: it
cannot alter a table, drop or disable a trigger, or change a role, a name or a shift's people
in place. Users are the owner's: a station reads them without their PIN hashes, and signs in,
adds a user, sets a PIN or enables a name only through the owner's functions (schema 0009),
which check the PIN, or the signed-in admin, in the same transaction; the cardroom's name
likewise only through ``da_cardroom_name`` (schema 0010). It writes only the kinds of audit
entry in :data:`STATION_AUDIT_ACTIONS` (a trigger refuses any other), and an ``approval`` only
on a ticket the database left when it saw the floor person's right PIN for that very approval.
A table or a settings version it adds only through ``da_table_add`` / ``da_settings_add`` with
a floor person's or admin's session, and a change that needs an approval (a misdeal, a void in
a settled hand, a floor decision, adjustments, a shift close, a start that changes the carry)
only with that approval, spent on it (schema 0016; ``game_rules`` tells the database each
game's names and floor decisions).
Since schema 0012 its sessions end when left idle inside a transaction (a role setting), and
what every role may do by default but a station never uses (large objects, session-long
advisory locks, ending another session, temporary tables, objects in ``public``) is taken from
``PUBLIC`` in the room's database.
"""

from __future__ import annotations

import re

from sqlalchemy.exc import DBAPIError

from dealer_assist.db.bootstrap import Database
from dealer_assist.errors import BadInput

#: The columns the stations update, per table (everything else: insert and select only).
STATION_UPDATES: dict[str, tuple[str, ...]] = {
    "card_tables": ("head_seq", "head_hash"),
    "hands": ("status", "events"),
    "shifts": ("closed_at", "closed_by", "closed_floor", "close_approval_id"),
    "audit_head": ("entries", "head_hash"),
    "record_heads": ("entries", "head_hash"),
}
#: The tables a station reads and never writes: the schema's version, and the cardroom's name
#: (``settings_kv``: printed on every report a board signs; an admin renames it through the
#: owner's ``da_cardroom_name``, schema 0010, and a trigger refuses any other role's write).
READ_ONLY = ("alembic_version", "settings_kv")
#: The tables a station adds rows to only through the owner's functions (schema 0016): a
#: table and a settings version, by a signed-in floor person's or admin's session.
CONFIGURED = ("card_tables", "table_settings")
#: The kinds of audit entry (``audit_log.action``) a station's role may write: the one list.
#: A new kind the app writes at a station is one more line here (then ``db upgrade
#: --station-role`` again). Not here, so the owner's alone: ``record-baseline`` (hands not held
#: to continuity). A ``record-user``, ``record-shift`` or ``record-cardroom`` is taken only
#: when it is the row as stored.
STATION_AUDIT_ACTIONS: tuple[str, ...] = (
    "login", "logout", "login-failed", "login-refused", "lockout",
    "approval", "approval-failed", "approval-refused",
    "pin-change-failed", "pin-change-refused", "pin-changed", "pin-reset", "refused",
    "user-added", "user-enabled", "user-disabled",
    "cardroom-named", "table-added", "settings-changed", "shift-opened", "shift-closed",
    "void", "misdeal", "stacks", "reveal", "dispute", "import", "export", "report",
    "floor-decision",
    "checkpoint", "verify-failed", "no-checkpoint", "room-settings", "count",
    "drop-box", "drop", "count-signoff", "print", "archive", "report-failed",
    "journal-sync", "sync-conflict", "sync-resolved", "input-dropped",
    "record-user", "record-table", "record-settings", "record-shift", "record-dispute",
    "record-cardroom",
)
#: The owner's tables a station never touches (sign-in state, sessions, the salts' secret).
OWNER_ONLY = ("pin_tries", "pin_sessions", "pin_secret", "station_audit_actions",
              "approval_tickets", "game_rules")
#: What a station reads of a user (not the PIN hash).
USER_COLUMNS = ("id", "name", "full_name", "role", "failed", "locked_until", "active",
                "created_at")
_ROLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


def grant_sql(role: str) -> list[str]:
    """The statements that give ``role`` the stations' rights (and take any others away)."""
    if not _ROLE.fullmatch(role):
        raise BadInput(f'"{role}" is not a role name (letters, digits and _)')
    r = f'"{role}"'
    out = [
        f"REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {r}",
        f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {r}",
        f"GRANT USAGE ON SCHEMA public TO {r}",
        f"GRANT SELECT, INSERT ON ALL TABLES IN SCHEMA public TO {r}",
        *(f"REVOKE INSERT ON {table} FROM {r}" for table in (*READ_ONLY, *CONFIGURED)),
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {r}",
    ]
    for table, cols in STATION_UPDATES.items():
        out.append(f"GRANT UPDATE ({', '.join(cols)}) ON {table} TO {r}")
    out.append(f"REVOKE ALL ON users FROM {r}")
    out.append(f"GRANT SELECT ({', '.join(USER_COLUMNS)}) ON users TO {r}")
    for table in OWNER_ONLY:
        out.append(f"REVOKE ALL ON {table} FROM {r}")
    out.append("DELETE FROM game_rules")
    out.extend(game_rules_sql())
    out.append("DELETE FROM station_audit_actions")
    out.append("INSERT INTO station_audit_actions (action) VALUES "
               + ", ".join(f"('{a}')" for a in STATION_AUDIT_ACTIONS))
    return out


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def game_rules_sql() -> list[str]:
    """``game_rules`` rows for the games installed: each game's names for its carry-in and
    stacks (when its hands start with them) and its floor decisions, which the database's
    approval checks (schema 0016) read."""
    from dealer_assist.engine.registry import game_names, get_game
    from dealer_assist.settings import per_hand_keys

    out = []
    for name in game_names():
        game = get_game(name)
        keys = per_hand_keys(name)
        carry = _quoted(game.key("carry_in")) if "carry_in" in keys else "NULL"
        stacks = _quoted(game.key("stacks")) if "stacks" in keys else "NULL"
        floor = ", ".join(_quoted(k) for k in sorted(game.floor_events))
        out.append(f"INSERT INTO game_rules (game, carry_key, stacks_key, floor_events) VALUES "
                   f"({_quoted(name)}, {carry}, {stacks}, ARRAY[{floor}]::text[])")
    return out


#: Functions every role may run by default (``PUBLIC``) that a station never uses and that let
#: one station reach past its own work: large objects (``lo_create``: storage no table holds,
#: owned by nobody the owner knows of), session-long advisory locks (held outside any
#: transaction, so no timeout ends them), and ending or cancelling other sessions of the same
#: login (every station may share one). Taken from ``PUBLIC`` in this database only; the app's
#: imports keep the transaction-long ``pg_advisory_xact_lock``.
PUBLIC_FUNCTIONS_SQL = (
    "SELECT p.oid::regprocedure::text FROM pg_proc p WHERE p.pronamespace = "
    "'pg_catalog'::regnamespace AND (left(p.proname, 3) = 'lo_' OR p.proname IN ('loread', "
    "'lowrite', 'pg_advisory_lock', 'pg_advisory_lock_shared', 'pg_try_advisory_lock', "
    "'pg_try_advisory_lock_shared', 'pg_terminate_backend', 'pg_cancel_backend')) ORDER BY 1"
)


def public_sql(database: str, functions: list[str]) -> list[str]:
    """The statements that take from ``PUBLIC`` what a station never uses: the functions above,
    temporary tables in this database, and creating anything in the ``public`` schema."""
    name = database.replace('"', '""')
    return [
        *(f"REVOKE EXECUTE ON FUNCTION {f} FROM PUBLIC" for f in functions),
        f'REVOKE TEMPORARY ON DATABASE "{name}" FROM PUBLIC',
        "REVOKE CREATE ON SCHEMA public FROM PUBLIC",
    ]


def station_timeout_sql(role: str, database: str) -> str:
    """A station's session ends when it sits idle inside a transaction (see
    :data:`~dealer_assist.db.bootstrap.IDLE_IN_TRANSACTION_S`), whatever program it runs."""
    from dealer_assist.db.bootstrap import IDLE_IN_TRANSACTION_S

    name = database.replace('"', '""')
    return (f'ALTER ROLE "{role}" IN DATABASE "{name}" SET '
            f"idle_in_transaction_session_timeout = '{int(IDLE_IN_TRANSACTION_S)}s'")


def grant_station(db: Database, role: str) -> list[str]:
    """Give the stations' role its rights; run as the owner of the tables. What could not be
    done with the owner's rights (a default of ``PUBLIC`` only a superuser may take, a login
    the owner may not alter) comes back as lines to show, each with the statement to run."""
    if db.dialect != "postgresql":
        raise BadInput("--station-role is for PostgreSQL (a SQLite file has no roles)")
    left: list[str] = []
    with db.engine.begin() as conn:
        exists = conn.exec_driver_sql(
            "SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)
        ).first()
        if exists is None:
            raise BadInput(f'there is no role "{role}": create it first (CREATE ROLE {role} '
                           "LOGIN PASSWORD '...'), then run db upgrade --station-role again")
        for sql in grant_sql(role):
            conn.exec_driver_sql(sql)
        database = str(conn.exec_driver_sql("SELECT current_database()").scalar())
        functions = [str(r[0]) for r in conn.exec_driver_sql(PUBLIC_FUNCTIONS_SQL)]
        logins = [str(r[0]) for r in conn.exec_driver_sql(
            "SELECT rolname FROM pg_roles WHERE NOT rolsuper AND (rolname = %s OR "
            "(rolcanlogin AND pg_has_role(oid, %s, 'MEMBER'))) ORDER BY 1", (role, role))]
        for sql in [*public_sql(database, functions),
                    *(station_timeout_sql(login, database) for login in logins)]:
            try:
                with conn.begin_nested():
                    conn.exec_driver_sql(sql)
            except DBAPIError:
                left.append(sql)
        # a REVOKE the owner may not make only warns: ask what the role may still do
        checks = [(f"REVOKE EXECUTE ON FUNCTION {f} FROM PUBLIC",
                   "SELECT has_function_privilege(%s, %s, 'EXECUTE')", f) for f in functions]
        checks += [
            (public_sql(database, [])[0],
             "SELECT has_database_privilege(%s, %s, 'TEMPORARY')", database),
            (public_sql(database, [])[1],
             "SELECT has_schema_privilege(%s, %s, 'CREATE')", "public"),
        ]
        for sql, check, what in checks:
            if sql not in left and conn.exec_driver_sql(check, (role, what)).scalar():
                left.append(sql)
    return left

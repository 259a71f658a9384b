"""PostgreSQL: the stations' role may add records and read them, nothing more.

The tables belong to an owner role that runs the migrations (``db upgrade``); the role the
stations connect as gets ``SELECT`` and ``INSERT`` on every table, ``UPDATE`` only on the
columns the app moves (chain heads, a hand's status and event count, a user's sign-in state,
PIN and enabled flag, a shift's closing, the audit chain's head, the cardroom's name), and no
``DELETE``, ``TRUNCATE`` or ownership: it cannot alter a table, drop or disable a trigger, or
change a role, a name or a shift's people in place. What it may still move (a chain head, a
PIN) is on the records and the signed checkpoints.
"""

from __future__ import annotations

import re

from dealer_assist.db.bootstrap import Database
from dealer_assist.errors import BadInput

#: The columns the stations update, per table (everything else: insert and select only).
STATION_UPDATES: dict[str, tuple[str, ...]] = {
    "card_tables": ("head_seq", "head_hash"),
    "hands": ("status", "events"),
    "users": ("failed", "locked_until", "pin_hash", "active"),
    "shifts": ("closed_at", "closed_by", "closed_floor"),
    "audit_head": ("entries", "head_hash"),
    "settings_kv": ("value",),
}
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
        f"REVOKE INSERT ON alembic_version FROM {r}",
        f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {r}",
    ]
    for table, cols in STATION_UPDATES.items():
        out.append(f"GRANT UPDATE ({', '.join(cols)}) ON {table} TO {r}")
    return out


def grant_station(db: Database, role: str) -> None:
    """Give the stations' role its rights; run as the owner of the tables."""
    if db.dialect != "postgresql":
        raise BadInput("--station-role is for PostgreSQL (a SQLite file has no roles)")
    with db.engine.begin() as conn:
        exists = conn.exec_driver_sql(
            "SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)
        ).first()
        if exists is None:
            raise BadInput(f'there is no role "{role}": create it first (CREATE ROLE {role} '
                           "LOGIN PASSWORD '...'), then run db upgrade --station-role again")
        for sql in grant_sql(role):
            conn.exec_driver_sql(sql)

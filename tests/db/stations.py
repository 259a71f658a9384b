"""A room as the stations meet it on PostgreSQL: made by the owner, then run as a login of the
group role given the stations' rights by ``db upgrade --station-role`` (the attacker's seat in
the station-rights tests)."""

from __future__ import annotations

from collections.abc import Callable

from services.support import Room, make_room

from dealer_assist.cli import main
from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.store import SqlStore

from .pg import PgCluster


def station_room(
    pg_cluster: PgCluster, pg_template: str, name: str, *, group: str = "st_group",
    login: str = "st_t1", prepare: Callable[[Database, Room], None] | None = None,
) -> tuple[str, Room]:
    """A new database ``name`` holding :func:`make_room`'s room, made by the owner (and
    ``prepare``, run as the owner before the grants), with ``login`` (a member of ``group``)
    given the stations' rights. Returns the station login's URL and the room (its services
    were the owner's, now closed)."""
    url = pg_cluster.create_database(name, template=pg_template)
    owner = open_database(url)
    with owner.engine.begin() as conn:
        conn.exec_driver_sql(
            f"DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{group}') "
            f"THEN CREATE ROLE {group} NOLOGIN; END IF; IF NOT EXISTS (SELECT 1 FROM pg_roles "
            f"WHERE rolname = '{login}') THEN CREATE ROLE {login} LOGIN IN ROLE {group}; END IF;"
            " END $$")
    room = make_room(SqlStore(owner))
    if prepare is not None:
        prepare(owner, room)
    owner.close()
    assert main(["--db", url, "db", "upgrade", "--station-role", group]) == 0
    return url.replace("postgres@", f"{login}@"), room

"""PostgreSQL (schema 0021): the room's records on the audit chain (drop counts and their
corrections, drop boxes and drops, count sign-offs, the room's clock) are taken from a station
only from the live sign-in of a person whose role may write them, in that person's name.

Regression (issue 40): a station's own login recorded counts and corrections "entered by fran"
with no sign-in at all, and verify said intact.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import psycopg
import pytest
from services.support import FAST, Room

from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.services import Services
from dealer_assist.services.counts import register_box, set_room_clock
from dealer_assist.services.errors import StoreUnavailable
from dealer_assist.services.room import room_clock

from .pg import PgCluster
from .stations import station_room

pytestmark = pytest.mark.postgres


@dataclass
class Station:
    dsn: str
    db: Database
    svc: Services
    room: Room


@pytest.fixture(scope="module")
def station(pg_cluster: PgCluster, pg_template: str) -> Iterator[Station]:
    station_url, room = station_room(pg_cluster, pg_template, "signed_room_records")
    db = open_database(station_url)
    svc = Services(SqlStore(db), clock=room.clock, hasher=FAST)
    yield Station(station_url.replace("postgresql+psycopg://", "postgresql://"), db, svc, room)
    db.close()


def _forged(action: str, actor: str) -> str:
    return ("INSERT INTO audit_log (at, actor, action, detail, table_id, seq, prev_hash, hash) "
            f"VALUES (now(), '{actor}', '{action}', 'drop box {{\"box\":\"X\",\"table\":1}}', 1,"
            " (SELECT entries + 1 FROM audit_head), (SELECT head_hash FROM audit_head), "
            "repeat('0', 64))")


@pytest.mark.parametrize("action", ["count", "drop-box", "drop", "room-settings",
                                    "count-signoff"])
def test_regression_station_login_cannot_write_a_room_record_without_a_sign_in(
    station: Station, action: str,
) -> None:
    with psycopg.connect(station.dsn, autocommit=True) as conn, \
            pytest.raises(psycopg.errors.InsufficientPrivilege, match="not signed in"):
        conn.execute(_forged(action, "fran"))


def test_regression_a_room_record_is_written_in_the_signed_in_persons_name_and_role(
    station: Station,
) -> None:
    store, clock = station.svc.store, station.room.clock
    dee = station.svc.sign_in("dee", "1111")
    fran = station.svc.sign_in("fran", "2222")
    otto = station.svc.sign_in("otto", "3333")
    # a dealer's sign-in writing a count in the floor person's name
    with pytest.raises(StoreUnavailable, match="written by a floor or admin only"):
        store.add_audit(at=clock(), actor="fran", action="count", detail="x", table_id=1,
                        token=dee.token)
    # the floor person's sign-in writing in the admin's name
    with pytest.raises(StoreUnavailable, match="in the name of the person signed in"):
        store.add_audit(at=clock(), actor="admin", action="drop", detail="x", table_id=1,
                        token=fran.token)
    # an auditor signs off a count's variance, but does not enter a count
    with pytest.raises(StoreUnavailable, match="written by a floor or admin only"):
        store.add_audit(at=clock(), actor="otto", action="count", detail="x", token=otto.token)
    # the app's own way, signed in as the floor person: taken
    entry = register_box(station.svc, fran, table_id=station.room.table_id, box="T1-0001")
    assert entry.actor == "fran" and entry.action == "drop-box"
    clock_entry = set_room_clock(station.svc, fran, room_clock(zone="America/Chicago",
                                                               day_starts=6))
    assert clock_entry.action == "room-settings"
    # once signed out, the sign-in no longer writes
    station.svc.sign_out(fran)
    with pytest.raises(StoreUnavailable, match="not signed in"):
        register_box(station.svc, fran, table_id=station.room.table_id, box="T1-0002")

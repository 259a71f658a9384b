"""PostgreSQL: an event body a station's own login writes directly is bounded by the database
(schema 0015), tried as that login (a member of the group given to ``db upgrade
--station-role``) on a throwaway cluster.

Regression (issue 40, item 2): the station's role appended an event whose body is 200,000
opening brackets, with a correct hash and the chain head moved, and every verify mode, the
shift report and export then exited 70 for good (rows are append-only). Now the database
refuses the row (``events_body_bounded``: a JSON object of at most 32,768 characters, nested
at most 16 levels deep); the app's own inputs go in as before, and verify stays intact.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from services.support import FAST, Room

from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.services import Services
from dealer_assist.services.chain import row_hash, time_text

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
    """A room made by the owner, then run as the login ``sb_t1`` of ``sb_group``, the role
    given the stations' rights by ``db upgrade --station-role``."""
    station_url, room = station_room(pg_cluster, pg_template, "station_bodies",
                                     group="sb_group", login="sb_t1")
    db = open_database(station_url)
    svc = Services(SqlStore(db), clock=room.clock, hasher=FAST)
    room.svc = svc
    room.dealer = svc.sign_in("dee", "1111")
    yield Station(station_url.replace("postgresql+psycopg://", "postgresql://"), db, svc, room)
    db.close()


def _append_as_station(dsn: str, hand_id: int, body: str) -> str:
    """The attack: the station's login appends ``body`` as the hand's next event with its
    hash right and the chain head moved, in one transaction; "" when the database took it,
    else the database's error."""
    import psycopg

    with psycopg.connect(dsn) as conn:
        try:
            table_id, count = conn.execute(
                "SELECT table_id, events FROM hands WHERE id = %s", (hand_id,)).fetchone()
            seq, prev = conn.execute(
                "SELECT head_seq, head_hash FROM card_tables WHERE id = %s FOR UPDATE",
                (table_id,)).fetchone()
            at = conn.execute("SELECT (now() AT TIME ZONE 'UTC')").fetchone()[0]
            from datetime import UTC

            digest = row_hash(table_id, seq + 1, time_text(at.replace(tzinfo=UTC)), "dee",
                              hand_id, body, prev)
            conn.execute(
                "INSERT INTO events (table_id, seq, hand_id, number, time, actor, type, body, "
                "prev_hash, hash) VALUES (%s, %s, %s, %s, %s, 'dee', 'x', %s, %s, %s)",
                (table_id, seq + 1, hand_id, count + 1, at, body, prev, digest))
            conn.execute("UPDATE card_tables SET head_seq = %s, head_hash = %s WHERE id = %s",
                         (seq + 1, digest, table_id))
            conn.execute("UPDATE hands SET events = %s WHERE id = %s", (count + 1, hand_id))
        except psycopg.Error as exc:
            conn.rollback()
            return str(exc.diag.constraint_name or exc)
        conn.commit()
    return ""


@pytest.mark.parametrize("body", [
    "[" * 200_000,  # the body
    "{" + '"a":{' * 20 + "}" * 21,  # 21 levels: valid JSON, nested past the bound
    '{"type":"card","seat":1,"card":"' + "9" * 40_000 + '"}',  # past the length bound
    "not json at all",
    '["a list", "not an event"]',
])
def test_regression_the_database_refuses_a_body_out_of_bounds_from_a_station(
    station: Station, body: str
) -> None:
    now = station.svc.start_hand(station.room.dealer, station.room.table_id, seats=(1, 2, 3))
    hand = now.hand.id
    assert _append_as_station(station.dsn, hand, body) == "events_body_bounded"
    assert station.svc.hand(hand).events == 1  # nothing went in
    # the app's own inputs still go in, and the room verifies intact
    from dealer_assist.cards import parse_card
    from dealer_assist.events import CardDealt

    for seat, card in zip((1, 2, 3), ("Ad", "Kd", "Qd"), strict=True):
        station.svc.record(station.room.dealer, hand, CardDealt(seat=seat,
                                                                card=parse_card(card)))
    station.svc.settle(station.room.dealer, hand)
    report = verify_database(station.db)
    assert report.ok, report.summary()


def test_a_body_within_the_bounds_from_a_station_is_taken_and_verify_judges_it(
    station: Station,
) -> None:
    """The bound is on size and depth: a station's well-formed body within them goes in (the
    app's reader and verify judge what it says: here an event the game does not know)."""
    now = station.svc.start_hand(station.room.dealer, station.room.table_id, seats=(1, 2, 3))
    body = '{"nested":' + "[" * 15 + "]" * 15 + ',"type":"nonsense"}'
    assert _append_as_station(station.dsn, now.hand.id, body) == ""
    summary = verify_database(station.db).summary()
    assert (f"hand {now.hand.number}, event 2: the stored event cannot be read (unknown event "
            'type "nonsense")') in summary

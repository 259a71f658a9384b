"""The floor's live view on PostgreSQL: the notification of a table's change is sent by the
transaction that records it (schema 0008's triggers), so it arrives after a commit and never for
a transaction that rolled back; the feed survives a server restart."""

from __future__ import annotations

import time
from typing import Any

import pytest
from services.support import FAST, make_room, settings

from dealer_assist.db.bootstrap import open_database
from dealer_assist.db.notify import PgFeed, PollFeed
from dealer_assist.db.store import SqlStore
from dealer_assist.services import Services
from dealer_assist.services.live import LiveView

#: A bounded wait (it caps a hang; nothing asserts how long anything took).
BOUND_S = 15.0

pytestmark = pytest.mark.postgres


def _wait_for(feed: PgFeed | PollFeed, table_id: int) -> set[int] | None:
    """Wait, within the bound, for a change naming ``table_id`` (or "everything")."""
    deadline = time.monotonic() + BOUND_S
    while time.monotonic() < deadline:
        got = feed.wait(0.5)
        if got is None or table_id in got:
            return got
    raise AssertionError(f"no change of table {table_id} within {BOUND_S} s")


def test_a_recorded_input_notifies_the_floor_from_its_own_transaction(pg_url: str) -> None:
    db = open_database(pg_url)
    room = make_room(SqlStore(db))
    second = room.svc.add_table(room.admin, settings(), name="T2")
    feed = PgFeed(pg_url)
    assert feed.wait(0.0) is None and feed.connects == 1  # listening: rebuild all once
    room.hand(["As", "Kd"])
    got = _wait_for(feed, room.table_id)
    assert got is not None and second.id not in got

    # a transaction that rolls back sends nothing: T3's rolled-back entry never shows, T2's
    # committed one (after it) does; notifications come in commit order, so a committed T2
    # entry first marks the point after which T3 has nothing committed
    third = room.svc.add_table(room.admin, settings(), name="T3")

    def probe(table_id: int, *, commit: bool) -> None:
        with db.engine.connect() as conn:
            conn.exec_driver_sql(
                "INSERT INTO audit_log (at, actor, action, detail, table_id) "
                "VALUES (now(), 'x', 'probe', '', %s)", (table_id,))
            conn.commit() if commit else conn.rollback()

    def until(table_id: int) -> set[int]:
        seen: set[int] = set()
        deadline = time.monotonic() + BOUND_S
        while table_id not in seen and time.monotonic() < deadline:
            seen |= feed.wait(0.5) or set()
        assert table_id in seen
        return seen

    probe(second.id, commit=True)
    until(second.id)
    probe(third.id, commit=False)
    probe(second.id, commit=True)
    assert third.id not in until(second.id)

    # what the view shows for the table after that input
    row = LiveView(room.svc).row(room.table_id)
    assert (row.hand_number, row.status, row.last_input, row.dealer) == (
        1, "dealing", "card seat 2 Kd", "dee")
    feed.close()
    room.svc.store.close()  # type: ignore[attr-defined]


def test_the_feed_reconnects_after_a_server_restart_and_says_refresh_everything(
    pg_cluster: Any, pg_url: str
) -> None:
    feed = PgFeed(pg_url, connect_timeout=2)
    assert feed.wait(0.0) is None  # listening: rebuild all once
    pg_cluster.halt()
    try:
        assert feed.wait(0.2) is None  # the connection broke: anything may have changed
        assert feed.wait(0.2) == set()  # the server is down: nothing, and no error
    finally:
        pg_cluster.start(init=False)
    deadline = time.monotonic() + BOUND_S
    got: set[int] | None = set()
    while feed.connects < 2 and time.monotonic() < deadline:
        got = feed.wait(0.2)
    assert feed.connects == 2 and got is None
    feed.close()


def test_the_floors_live_tab_follows_a_station_by_notify(qtbot: Any, pg_url: str) -> None:
    from dealer_assist.ui.live_floor import COLUMNS, LiveFloor

    floor_db = open_database(pg_url)
    room = make_room(SqlStore(open_database(pg_url)))
    floor = LiveFloor(Services(SqlStore(floor_db), hasher=FAST))
    qtbot.addWidget(floor)
    floor.show()
    qtbot.waitUntil(lambda: floor.table.rowCount() == 1, timeout=int(BOUND_S * 1000))
    hand = room.hand(["As", "Kd"])
    col = COLUMNS.index("Last input")
    qtbot.waitUntil(lambda: floor.table.item(0, col) is not None
                    and floor.table.item(0, col).text() == "card seat 2 Kd",
                    timeout=int(BOUND_S * 1000))
    assert floor.rows_shown()[0].hand_id == hand
    floor.hide()
    floor_db.close()
    room.svc.store.close()  # type: ignore[attr-defined]


def _notify(pg_url: str, payload: str) -> None:
    """Any role may send on the channel: exactly what an insider would send."""
    import psycopg

    from dealer_assist.db.notify import CHANNEL, libpq_url

    with psycopg.connect(libpq_url(pg_url), autocommit=True) as conn:
        conn.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))


BAD_PAYLOADS = ("\u00b2", "x", "-1", "9" * 5000, "", "1 2")


def test_regression_a_bad_notify_payload_is_ignored_and_counted(pg_url: str) -> None:
    db = open_database(pg_url)
    room = make_room(SqlStore(db))
    feed = PgFeed(pg_url)
    assert feed.wait(0.0) is None
    for payload in BAD_PAYLOADS:
        _notify(pg_url, payload)
    room.hand(["As", "Kd"])
    got = _wait_for(feed, room.table_id)  # the feed still follows the room
    assert got is not None and room.table_id in got
    assert feed.ignored == len(BAD_PAYLOADS) and feed.last_ignored == "1 2"
    feed.close()
    room.svc.store.close()  # type: ignore[attr-defined]


def test_regression_the_live_tab_outlives_a_bad_notify(qtbot: Any, pg_url: str) -> None:
    """'²' passed isdigit() and killed the listening thread: the rows went stale silently."""
    from dealer_assist.ui.live_floor import COLUMNS, LiveFloor

    floor_db = open_database(pg_url)
    room = make_room(SqlStore(open_database(pg_url)))
    floor = LiveFloor(Services(SqlStore(floor_db), hasher=FAST))
    qtbot.addWidget(floor)
    floor.show()
    qtbot.waitUntil(lambda: floor.table.rowCount() == 1, timeout=int(BOUND_S * 1000))
    qtbot.waitUntil(lambda: floor._feed is not None and floor._feed.connects == 1,  # type: ignore[attr-defined]
                    timeout=int(BOUND_S * 1000))
    for payload in BAD_PAYLOADS:
        _notify(pg_url, payload)
    room.hand(["As", "Kd"])
    col = COLUMNS.index("Last input")
    qtbot.waitUntil(lambda: floor.table.item(0, col) is not None
                    and floor.table.item(0, col).text() == "card seat 2 Kd",
                    timeout=int(BOUND_S * 1000))
    assert floor.ignored == len(BAD_PAYLOADS) and floor.feed_stops == 0
    assert f"{len(BAD_PAYLOADS)} notifications ignored (not a table's id)" in floor.hint.text()
    floor.hide()
    floor_db.close()
    room.svc.store.close()  # type: ignore[attr-defined]


#: Table ids that pass as digits but name no table: past the column's range, and one never made.
UNKNOWN_IDS = ("2147483648", "999")


def test_regression_an_id_no_table_has_is_ignored_and_the_real_change_in_its_batch_shows(
    pg_url: str,
) -> None:
    """``NOTIFY dealer_assist_live, '2147483648'`` reached the live view's batch, whose read
    failed ("integer out of range") and took the real update sent with it. The feed now keeps
    only ids the room's tables have."""
    from dealer_assist.services.live import LiveView

    db = open_database(pg_url)
    room = make_room(SqlStore(db))
    feed = PgFeed(pg_url)
    assert feed.wait(0.0) is None
    for payload in UNKNOWN_IDS:
        _notify(pg_url, payload)
    room.hand(["As", "Kd"])
    got = _wait_for(feed, room.table_id)
    assert got == {room.table_id}
    assert feed.ignored == 2 and feed.last_ignored == "2147483648"
    rows = LiveView(room.svc).rows(got)
    assert [(r.table_id, r.last_input) for r in rows] == [(room.table_id, "card seat 2 Kd")]
    feed.close()
    room.svc.store.close()  # type: ignore[attr-defined]


def test_regression_the_live_tab_shows_the_real_update_beside_an_id_out_of_range(
    qtbot: Any, pg_url: str,
) -> None:
    from dealer_assist.ui.live_floor import COLUMNS, LiveFloor

    floor_db = open_database(pg_url)
    room = make_room(SqlStore(open_database(pg_url)))
    floor = LiveFloor(Services(SqlStore(floor_db), hasher=FAST))
    qtbot.addWidget(floor)
    floor.show()
    qtbot.waitUntil(lambda: floor.table.rowCount() == 1, timeout=int(BOUND_S * 1000))
    qtbot.waitUntil(lambda: floor._feed is not None and floor._feed.connects == 1,  # type: ignore[attr-defined]
                    timeout=int(BOUND_S * 1000))
    for payload in UNKNOWN_IDS:
        _notify(pg_url, payload)
    room.hand(["As", "Kd"])
    col = COLUMNS.index("Last input")
    qtbot.waitUntil(lambda: floor.table.item(0, col) is not None
                    and floor.table.item(0, col).text() == "card seat 2 Kd",
                    timeout=int(BOUND_S * 1000))
    assert floor.table.rowCount() == 1 and floor.feed_stops == 0
    assert "2 notifications ignored (not a table's id)" in floor.hint.text()
    assert not floor.notice.isVisible()
    floor.hide()
    floor_db.close()
    room.svc.store.close()  # type: ignore[attr-defined]

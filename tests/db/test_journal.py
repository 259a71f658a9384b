"""A station that rides out a blip (PostgreSQL, through a proxy the test controls on
127.0.0.1): with the network cut, the dealer goes on against the station's journal with the same
hash chain; restored, the journal syncs in order, idempotent by table, sequence and hash; a
table another station wrote meanwhile is stopped with a message for the floor, never forked."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from services.support import FAST, Room, make_room

from dealer_assist.cards import parse_card
from dealer_assist.cli import main
from dealer_assist.db.bootstrap import open_database, open_services
from dealer_assist.db.journal import JOURNAL_SYNC, JournalStore, TableStopped
from dealer_assist.db.notify import PgFeed
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.events import CardDealt
from dealer_assist.services import Approval, HandFilter, Services, StoreUnavailable
from dealer_assist.services.live import LiveView

from .proxy import Proxy

pytestmark = pytest.mark.postgres


class Clock:
    """The journal's monotonic clock, moved by the test (no sleeping for the retry pause)."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
def room(pg_url: str) -> Iterator[Room]:
    r = make_room(SqlStore(open_database(pg_url)))
    yield r
    r.svc.store.close()  # type: ignore[attr-defined]


@pytest.fixture
def proxy(pg_cluster: Any) -> Iterator[Proxy]:
    with Proxy(pg_cluster.port) as p:
        yield p


def _station(proxy: Proxy, pg_url: str, tmp_path: Path, clock: Clock) -> Services:
    svc = open_services(proxy.url(pg_url.rsplit("/", 1)[1]), hasher=FAST)
    store = JournalStore(svc.store, tmp_path / "journal.sqlite3", station="station-1",  # type: ignore[arg-type]
                         clock=clock)
    return Services(store, hasher=FAST)


def _deal(svc: Services, session: Any, hand_id: int, cards: list[tuple[int, str]]) -> Any:
    now = None
    for seat, card in cards:
        now = svc.record(session, hand_id, CardDealt(seat=seat, card=parse_card(card)))
    return now


def test_a_station_deals_through_a_cut_and_syncs_every_input_once(
    room: Room, proxy: Proxy, pg_url: str, tmp_path: Path
) -> None:
    clock = Clock()
    st = _station(proxy, pg_url, tmp_path, clock)
    store: JournalStore = st.store  # type: ignore[assignment]
    dee = st.sign_in("dee", "1111")
    first = st.start_hand(dee, room.table_id)
    _deal(st, dee, first.hand.id, [(1, "As")])
    assert st.current_hand(room.table_id) is not None  # a resume check reads the last hand

    proxy.cut()
    _deal(st, dee, first.hand.id, [(2, "Kd"), (3, "9c")])  # offline from here
    assert store.status().offline and store.status().pending == 2
    assert store.status().line().startswith("Offline: the server does not answer. Dealing goes "
                                            "on; 2 inputs kept on this station")
    st.settle(dee, first.hand.id)
    second = st.start_hand(dee, room.table_id)  # a hand id reserved on the server beforehand
    assert second.hand.number == 2
    _deal(st, dee, second.hand.id, [(1, "2s"), (2, "Qh")])
    st.void(dee, second.hand.id, 3, "keyed the wrong card")
    _deal(st, dee, second.hand.id, [(2, "Qs"), (3, "Jd")])
    st.settle(dee, second.hand.id)
    reported = [(first.hand.id, n) for n in range(1, 5)] + [(second.hand.id, n)
                                                           for n in range(1, 7)]
    assert store.journal.count() == 2 + 1 + 1 + 2 + 2 + 2 + 1  # events, settles, audit
    with pytest.raises(StoreUnavailable):
        store.sync()

    proxy.restore()
    clock.t += 10
    kept = store.journal.count()
    assert store.sync() == kept
    assert store.journal.count() == 0 and store.status().line() == ""
    assert store.sync() == 0  # nothing twice

    server = room.svc
    stored = {(h.id, e.number) for h in server.list_hands(HandFilter(table_id=room.table_id))
              for e in server.hand_events(h.id)}
    assert stored == set(reported)
    lines = server.ledger(second.hand.id)
    assert sum(x.amount for x in lines if x.kind == "fee") == 10  # the rake, once
    assert [server.hand(h).status for h in (first.hand.id, second.hand.id)] == ["settled"] * 2
    syncs = server.store.audit_log(action=JOURNAL_SYNC)
    assert len(syncs) == 1 and "station-1" in syncs[0].detail
    assert [e.detail for e in server.store.audit_log(action="void")] == [
        "event 3 (card): keyed the wrong card"]
    assert verify_database(server.store.db)  # type: ignore[attr-defined].ok
    store.close()


def test_a_batch_the_server_has_is_not_sent_again(
    room: Room, proxy: Proxy, pg_url: str, tmp_path: Path
) -> None:
    """The station crashed after the server committed its batch, before marking it: the
    batch's audit entry tells the next sync, and the event rows' (table, seq, hash) would too."""
    clock = Clock()
    st = _station(proxy, pg_url, tmp_path, clock)
    store: JournalStore = st.store  # type: ignore[assignment]
    dee = st.sign_in("dee", "1111")
    hand = st.start_hand(dee, room.table_id)
    proxy.cut()
    _deal(st, dee, hand.hand.id, [(1, "As"), (2, "Kd"), (3, "9c")])
    st.settle(dee, hand.hand.id)
    proxy.restore()
    clock.t += 10
    ops = store.journal.unsynced(room.table_id)
    store._sync_batch(room.table_id, ops, f"journal {store.journal.id} ops {ops[0][0]}-",
                      ops[0][0], ops[-1][0])  # committed on the server; the station "crashed"
    assert store.journal.count() == 4
    assert store.sync() == 0 and store.journal.count() == 0
    assert len(room.svc.hand_events(hand.hand.id)) == 4
    assert sum(x.amount for x in room.svc.ledger(hand.hand.id) if x.kind == "fee") == 10
    assert verify_database(room.svc.store.db)  # type: ignore[attr-defined].ok
    store.close()


def test_a_table_another_station_wrote_meanwhile_is_stopped_for_the_floor(
    room: Room, proxy: Proxy, pg_url: str, tmp_path: Path, capsys: Any
) -> None:
    clock = Clock()
    st = _station(proxy, pg_url, tmp_path, clock)
    store: JournalStore = st.store  # type: ignore[assignment]
    dee = st.sign_in("dee", "1111")
    hand = st.start_hand(dee, room.table_id)
    proxy.cut()
    _deal(st, dee, hand.hand.id, [(1, "As")])  # kept on the station
    # meanwhile another station, on the server, records in the same hand
    room.svc.record(room.dealer, hand.hand.id, CardDealt(seat=1, card=parse_card("Ks")))
    head_before = room.svc.chain_head(room.table_id)
    proxy.restore()
    clock.t += 10
    with pytest.raises(TableStopped, match=r"T1 is stopped: another station recorded at it while "
                       r"this station was offline .*Nothing was forked; .*Call the floor\."):
        store.sync()
    assert room.svc.chain_head(room.table_id) == head_before  # nothing of the batch written
    with pytest.raises(TableStopped, match="T1 is stopped"):
        st.record(dee, hand.hand.id, CardDealt(seat=2, card=parse_card("Qd")))
    assert store.journal.count() == 1
    assert verify_database(room.svc.store.db)  # type: ignore[attr-defined].ok

    live = LiveView(room.svc).row(room.table_id)
    assert live.floor.startswith("stopped: station-1: T1 is stopped")

    # the floor sets the station's inputs aside (kept in the file), and the table deals again
    url = proxy.url(pg_url.rsplit("/", 1)[1])
    path = str(store.journal.path)
    capsys.readouterr()
    assert main(["journal", "--db", url, "--journal", path]) == 0
    assert "table 1 stopped: T1 is stopped" in capsys.readouterr().out
    assert main(["journal", "set-aside", "--db", url, "--journal", path, "--table", "T1",
                 "--as", "dee", "--pin", "1111"]) == 2
    assert "only the floor sets a stopped table's inputs aside" in capsys.readouterr().err
    assert main(["journal", "set-aside", "--db", url, "--journal", path, "--table", "T1",
                 "--as", "fran", "--pin", "2222"]) == 0
    assert capsys.readouterr().out.startswith(
        "T1: 1 kept input set aside in ") and store.journal.stops() == {}
    assert [e.actor for e in room.svc.store.audit_log(action="sync-resolved")] == ["fran"]
    assert LiveView(room.svc).row(room.table_id).floor == ""
    st2 = Services(store, hasher=FAST)
    dee2 = st2.sign_in("dee", "1111")
    now = st2.record(dee2, hand.hand.id, CardDealt(seat=2, card=parse_card("Qd")))
    assert now.last.number == 3 and store.journal.count() == 0
    store.close()


def test_the_stations_one_line_says_offline_then_goes_once_the_journal_is_sent(
    qtbot: Any, room: Room, proxy: Proxy, pg_url: str, tmp_path: Path
) -> None:
    from dealer_assist.ui.journal_line import JournalLine

    clock = Clock()
    st = _station(proxy, pg_url, tmp_path, clock)
    store: JournalStore = st.store  # type: ignore[assignment]
    dee = st.sign_in("dee", "1111")
    hand = st.start_hand(dee, room.table_id)
    line = JournalLine(store)
    qtbot.addWidget(line)
    line.show()
    line.look()
    assert line.isHidden()
    proxy.cut()
    _deal(st, dee, hand.hand.id, [(1, "As"), (2, "Kd")])
    qtbot.waitUntil(lambda: line.isVisible() and line.text().startswith(
        "Offline: the server does not answer. Dealing goes on; 2 inputs kept"), timeout=10_000)
    proxy.restore()
    clock.t += 10  # the retry pause is over
    qtbot.waitUntil(lambda: store.journal.count() == 0 and line.isHidden(), timeout=15_000)
    assert len(room.svc.hand_events(hand.hand.id)) == 3
    store.close()


def test_an_input_whose_answer_was_lost_is_not_recorded_twice(
    room: Room, proxy: Proxy, pg_url: str, tmp_path: Path
) -> None:
    """The server committed an input but the station never heard back, so it kept the same
    input in its journal: the same table, sequence number and hash, passed over at sync."""
    from dealer_assist.services.base import _body
    from dealer_assist.services.model import NewEvent

    clock = Clock()
    st = _station(proxy, pg_url, tmp_path, clock)
    store: JournalStore = st.store  # type: ignore[assignment]
    dee = st.sign_in("dee", "1111")
    hand = st.start_hand(dee, room.table_id)
    ev = NewEvent(body=_body(CardDealt(seat=1, card=parse_card("As"))), actor="dee",
                  time=st.clock())
    on_server = store.server.append_event(hand.hand.id, expected=1, event=ev)
    proxy.cut()  # ... and the answer is lost: the station keeps the input
    with pytest.raises(StoreUnavailable):
        store.server.get_hand(hand.hand.id)
    store._went_down(StoreUnavailable("the answer was lost"))
    kept = store.append_event(hand.hand.id, expected=1, event=ev)
    assert (kept.seq, kept.hash) == (on_server.seq, on_server.hash)
    assert store.journal.count() == 1
    proxy.restore()
    clock.t += 10
    store.sync()
    assert store.journal.count() == 0
    assert [e.number for e in room.svc.hand_events(hand.hand.id)] == [1, 2]
    assert room.svc.chain_head(room.table_id).seq == on_server.seq  # type: ignore[union-attr]
    assert verify_database(room.svc.store.db).ok  # type: ignore[attr-defined]
    store.close()


def test_a_station_with_its_own_role_in_the_stations_group_rides_out_a_cut(
    room: Room, proxy: Proxy, pg_url: str, tmp_path: Path
) -> None:
    """docs/room.md: one login role per station, a member of the group role that
    `db upgrade --station-role` gives insert-and-select rights; the journal's reserved hand ids,
    its sync and the live view's notifications need nothing more."""
    with room.svc.store.db.engine.begin() as conn:  # type: ignore[attr-defined]
        conn.exec_driver_sql(
            "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'stations') "
            "THEN CREATE ROLE stations NOLOGIN; END IF; IF NOT EXISTS (SELECT 1 FROM pg_roles "
            "WHERE rolname = 'station_t1') THEN CREATE ROLE station_t1 LOGIN IN ROLE stations; "
            "END IF; END $$")
    assert main(["--db", pg_url, "db", "upgrade", "--station-role", "stations"]) == 0
    dbname = pg_url.rsplit("/", 1)[1]
    url = proxy.url(dbname, user="station_t1")
    feed = PgFeed(pg_url.replace("postgres@", "station_t1@"))  # the floor's, not cut
    assert feed.wait(0.0) is None  # listening: rebuild all once
    clock = Clock()
    svc = open_services(url, hasher=FAST)
    store = JournalStore(svc.store, tmp_path / "j.sqlite3", station="t1",  # type: ignore[arg-type]
                         clock=clock)
    st = Services(store, hasher=FAST)
    dee = st.sign_in("dee", "1111")
    first = st.start_hand(dee, room.table_id)
    assert store.journal.reserved(room.table_id)  # nextval on the hands' sequence
    proxy.cut()
    _deal(st, dee, first.hand.id, [(1, "As"), (2, "Kd"), (3, "9c")])
    st.settle(dee, first.hand.id)
    second = st.start_hand(dee, room.table_id)
    _deal(st, dee, second.hand.id, [(1, "2s")])
    proxy.restore()
    clock.t += 10
    assert store.sync() == 6 and store.journal.count() == 0
    assert [h.number for h in room.svc.list_hands(HandFilter(table_id=room.table_id))] == [2, 1]
    with room.svc.store.db.engine.connect() as conn, pytest.raises(  # type: ignore[attr-defined]
        Exception, match="permission denied"
    ):
        conn.exec_driver_sql("SET ROLE station_t1; DELETE FROM events")
    assert verify_database(room.svc.store.db).ok  # type: ignore[attr-defined]
    deadline = time.monotonic() + 15
    seen: set[int] = set()
    while room.table_id not in seen and time.monotonic() < deadline:
        seen |= feed.wait(0.5) or set()
    assert room.table_id in seen  # the synced batch notified the floor
    feed.close()
    store.close()


def test_seat_and_period_marks_and_their_time_go_through_the_journal_once(
    room: Room, proxy: Proxy, pg_url: str, tmp_path: Path
) -> None:
    """At a table that collects time, the marks made while offline and the time they collect
    reach the server once, and verify folds them again and finds the same collections."""
    from services.test_time_collection import time_room

    time_room(room)
    clock = Clock()
    st = _station(proxy, pg_url, tmp_path, clock)
    store: JournalStore = st.store  # type: ignore[assignment]
    dee = st.sign_in("dee", "1111")
    st.seat_in(dee, room.table_id, 1)  # online: the station knows the table's marks
    proxy.cut()
    st.seat_in(dee, room.table_id, 3)
    now = st.mark_period(dee, room.table_id)
    assert [(x.seat, x.amount, x.period) for x in now.collect] == [(1, 500, 1), (3, 500, 1)]
    assert store.journal.count() == 2
    proxy.restore()
    clock.t += 10
    assert store.sync() == 2
    assert store.sync() == 0
    lines = room.svc.store.time_ledger(room.table_id)
    assert [(x.seat, x.amount, x.seq) for x in lines] == [
        (1, 500, now.last.seq), (3, 500, now.last.seq)]  # type: ignore[union-attr]
    assert [e.body["type"] for e in room.svc.store.table_level_events(room.table_id)] == [
        "seat_in", "seat_in", "period"]
    report = verify_database(room.svc.store.db)  # type: ignore[attr-defined]
    assert report.ok, report
    store.close()


def test_regression_a_hand_started_offline_after_a_resume_check_finds_the_last_hands_carry(
    room: Room, proxy: Proxy, pg_url: str, tmp_path: Path
) -> None:
    """Champs and Cowards carries its button and bonus pool from the last hand: a station that
    had looked the last hand up online (as a resume check does) starts the next hand offline
    from what it kept of that hand, not from a read the server no longer answers."""
    from .crash_child import plan
    from .test_crash_and_concurrency import CC_TABLE

    table = room.svc.add_table(room.admin, CC_TABLE, name="CC 1")
    room.svc.open_shift(room.dealer, table.id, floor="fran",  # dee deals T1 too: floor allows
                        approval=Approval(name="fran", pin="2222"))
    clock = Clock()
    st = _station(proxy, pg_url, tmp_path, clock)
    store: JournalStore = st.store  # type: ignore[assignment]
    dee = st.sign_in("dee", "1111")
    events = plan(5, 1)
    now = st.start_hand(dee, table.id, seats=list(events[0].seats))  # type: ignore[attr-defined]
    for ev in events[1:]:
        now = st.record(dee, now.hand.id, ev)
    st.settle(dee, now.hand.id)
    assert st.current_hand(table.id) is None  # looked up on the server: settled
    proxy.cut()
    second = plan(5, 2)
    nxt = st.start_hand(dee, table.id, seats=list(second[0].seats))  # type: ignore[attr-defined]
    assert nxt.hand.number == 2 and store.journal.count() == 1
    proxy.restore()
    clock.t += 10
    assert store.sync() == 1
    assert verify_database(room.svc.store.db).ok  # type: ignore[attr-defined]
    store.close()


def test_an_approved_change_is_never_kept_in_the_journal(
    room: Room, proxy: Proxy, pg_url: str, tmp_path: Path
) -> None:
    """A change a floor person approved carries its approval entry (schema 0016), which the
    server checks when the change is written: with the server cut, it is refused at once (the
    dealer retries when the server is back) instead of being kept for a sync the server would
    refuse."""
    from datetime import UTC, datetime

    from dealer_assist.services.model import NewEvent

    clock = Clock()
    st = _station(proxy, pg_url, tmp_path, clock)
    store: JournalStore = st.store  # type: ignore[assignment]
    dee = st.sign_in("dee", "1111")
    first = st.start_hand(dee, room.table_id)
    _deal(st, dee, first.hand.id, [(1, "As")])
    proxy.cut()
    misdeal = NewEvent(body={"type": "misdeal", "reason": "exposed"}, actor="dee",
                       time=datetime(2026, 11, 28, 13, tzinfo=UTC), approval_id=7)
    with pytest.raises(StoreUnavailable, match="approved is recorded only on the server"):
        store.append_event(first.hand.id, expected=2, event=misdeal)
    assert store.journal.count() == 0
    proxy.restore()
    store.close()


def test_regression_a_relief_down_at_the_table_deals_through_a_cut_and_the_sync_takes_it(
    room: Room, proxy: Proxy, pg_url: str, tmp_path: Path
) -> None:
    """Issue 44: a relief dealer the dealer box has down at a table (the shift is another
    dealer's) deals on through a cut, and the journal's sync takes the inputs: they were made
    by the dealer down there then. (The station went on the shift's rule, and the sync refused
    the relief's inputs as not the shift's dealer's.)"""
    from dealer_assist.db.dealer_box import SqlDealerRecords
    from dealer_assist.services.dealer_box import DEAL, NewDown

    room.svc.add_user(room.admin, name="eve", full_name="Eve Relief", role="dealer", pin="4444")
    server_box = SqlDealerRecords(room.svc.store.db)  # type: ignore[attr-defined]
    server_box.append_downs([NewDown(at=room.clock(), actor="fran", dealer="eve", kind=DEAL,
                                     table_id=room.table_id)], token="", check=lambda _r: None)
    clock = Clock()
    inner = open_services(proxy.url(pg_url.rsplit("/", 1)[1]), hasher=FAST)
    store = JournalStore(inner.store, tmp_path / "journal.sqlite3", station="station-1",  # type: ignore[arg-type]
                         clock=clock)
    st = Services(store, hasher=FAST)
    st.dealer_box = inner.dealer_box
    eve = st.sign_in("eve", "4444")
    first = st.start_hand(eve, room.table_id)
    _deal(st, eve, first.hand.id, [(1, "As")])

    proxy.cut()
    _deal(st, eve, first.hand.id, [(2, "Kd"), (3, "9c")])  # offline: the downs last read
    assert store.status().offline and store.status().pending == 2
    st.settle(eve, first.hand.id)

    proxy.restore()
    clock.t += 10
    assert store.sync() > 0 and store.journal.count() == 0
    assert room.svc.hand(first.hand.id).status == "settled"
    assert {e.actor for e in room.svc.hand_events(first.hand.id)} == {"eve"}
    assert verify_database(room.svc.store.db).ok  # type: ignore[attr-defined]
    store.close()

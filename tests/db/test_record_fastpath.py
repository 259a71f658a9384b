"""Recording one dealer input on a real database: PostgreSQL's one-statement append (a
compare-and-swap on the chain head the store wrote last) and SQLite's append on the store's own
connection store the same rows and hashes as the reference store, fall back to the locking path
when another station wrote at the table, and refuse in the same situations with the same
messages, moving nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from services.support import Room, make_room
from sqlalchemy import text

from dealer_assist.cards import parse_card
from dealer_assist.db.bootstrap import open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.events import CardDealt
from dealer_assist.services import Conflict, NotFound
from dealer_assist.services.chain import GENESIS, event_hash, utc
from dealer_assist.services.model import NewEvent

from .pg import PgCluster

HANDS = [["9d", "Kc", "2s"], ["Ah", "3c", "Td"], ["5s", "5h", "Qc"]]
CHANGED = "the hand changed at another station: reload it and enter the input again"
SAME_MOMENT = "another station recorded at this table at the same moment: enter it again"


def _rows(store: Any, table_id: int) -> list[tuple[Any, ...]]:
    return [
        (r.seq, r.hand_id, r.number, utc(r.time), r.actor, dict(r.body), r.prev_hash, r.hash)
        for r in store.table_events(table_id)
    ]


def _card(room: Room, hand_id: int, seat: int, code: str) -> Any:
    return room.svc.record(room.dealer, hand_id, CardDealt(seat=seat, card=parse_card(code)))


def _event(room: Room, seat: int, code: str) -> NewEvent:
    return NewEvent(body={"type": "card", "seat": seat, "card": code}, actor="dee",
                    time=room.clock())


@pytest.fixture
def room(db_url: str) -> Iterator[Room]:
    store = SqlStore(open_database(db_url))
    yield make_room(store)
    store.close()


@pytest.fixture
def other(db_url: str) -> Iterator[SqlStore]:
    """Another station's store on the same database."""
    store = SqlStore(open_database(db_url))
    yield store
    store.close()


def _deal(room: Room) -> None:
    for cards in HANDS:
        room.svc.settle(room.dealer, room.hand(cards))


def test_record_stores_the_inputs_of_the_reference_store_in_one_hash_chain(room: Room) -> None:
    reference = make_room()  # the in-memory store, same clock and inputs
    _deal(room)
    _deal(reference)
    got = _rows(room.store, room.table_id)
    assert len(got) == 12  # three hands: a start and three cards each
    assert [(r[0], r[2], r[3], r[4], r[5]) for r in got] == [
        (r[0], r[2], r[3], r[4], r[5]) for r in _rows(reference.store, reference.table_id)
    ]
    prev = GENESIS
    for seq, hand_id, _, at, actor, body, prev_hash, h in got:
        assert prev_hash == prev
        assert h == event_hash(table_id=room.table_id, seq=seq, time=at, actor=actor,
                               hand_id=hand_id, body=body, prev_hash=prev)
        prev = h
    store = room.store
    assert isinstance(store, SqlStore)
    if store.db.dialect == "postgresql":
        assert store.one_statement_appends == 9  # every card, none through the lock
    report = verify_database(store.db)
    assert report.ok and report.hands == 3, report.summary()


@pytest.mark.postgres
def test_postgresql_one_statement_stores_the_rows_of_the_locking_path(
    pg_cluster: PgCluster, pg_template: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    fast = SqlStore(open_database(pg_cluster.create_database(template=pg_template)))
    locked = SqlStore(open_database(pg_cluster.create_database(template=pg_template)))
    monkeypatch.setattr(locked, "_append_one_statement", lambda *a: None)
    rooms = [make_room(fast), make_room(locked)]
    for r in rooms:
        _deal(r)
    assert (fast.one_statement_appends, locked.one_statement_appends) == (9, 0)
    rows = [_rows(r.store, r.table_id) for r in rooms]
    assert len(rows[0]) == 12 and rows[0] == rows[1]
    fast.close()
    locked.close()


def test_input_after_another_station_moved_the_head_goes_through_the_lock(
    room: Room, other: SqlStore
) -> None:
    now = room.svc.start_hand(room.dealer, room.table_id)
    _card(room, now.hand.id, 1, "9d")
    # another station starts a hand at the same table: the head moves, this hand does not
    start = room.store.hand_events(now.hand.id)[0]
    _, theirs = other.start_hand(
        table_id=room.table_id, shift_id=now.hand.shift_id, settings_id=now.hand.settings_id,
        game=now.hand.game, seats=now.hand.seats,
        start=NewEvent(body=start.body, actor="dee", time=room.clock()),
    )
    after = _card(room, now.hand.id, 2, "Kc")
    assert (after.last.seq, after.last.number) == (theirs.seq + 1, 3)
    assert after.last.prev_hash == theirs.hash
    _card(room, now.hand.id, 3, "2s")
    store = room.store
    assert isinstance(store, SqlStore)
    if store.db.dialect == "postgresql":
        assert store.one_statement_appends == 2  # the first and the last card; Kc took the lock
    report = verify_database(store.db)
    assert report.ok and report.events == 5, report.summary()


def test_hand_changed_at_another_station_is_a_conflict_that_moves_nothing(
    room: Room, other: SqlStore
) -> None:
    now = room.svc.start_hand(room.dealer, room.table_id)
    _card(room, now.hand.id, 1, "9d")
    theirs = other.append_event(now.hand.id, expected=2, event=_event(room, 2, "Kc"))
    with pytest.raises(Conflict, match=CHANGED):
        _card(room, now.hand.id, 2, "Kc")
    head = room.store.chain_head(room.table_id)
    assert head is not None and (head.seq, head.hash) == (theirs.seq, theirs.hash)
    assert [r.number for r in room.store.hand_events(now.hand.id)] == [1, 2, 3]
    # reloaded, the station goes on from the other station's input
    assert _card(room, now.hand.id, 3, "2s").last.prev_hash == theirs.hash


def test_stale_count_with_the_head_unchanged_is_a_conflict_that_moves_nothing(
    room: Room,
) -> None:
    now = room.svc.start_hand(room.dealer, room.table_id)
    last = _card(room, now.hand.id, 1, "9d").last
    store = room.store
    with pytest.raises(Conflict, match=CHANGED):
        store.append_event(now.hand.id, expected=1, event=_event(room, 2, "Kc"))
    head = store.chain_head(room.table_id)
    assert head is not None and (head.seq, head.hash) == (last.seq, last.hash)
    hand = store.get_hand(now.hand.id)
    assert hand is not None and hand.events == 2
    with pytest.raises(NotFound, match="there is no hand 999"):
        store.append_event(999, expected=1, event=_event(room, 2, "Kc"))
    assert _card(room, now.hand.id, 2, "Kc").last.prev_hash == last.hash


def test_event_already_at_the_next_seq_is_the_same_moment_conflict(room: Room) -> None:
    now = room.svc.start_hand(room.dealer, room.table_id)
    last = _card(room, now.hand.id, 1, "9d").last
    store = room.store
    assert isinstance(store, SqlStore)
    with store.engine.begin() as conn:  # a row at the next seq that did not move the head
        conn.execute(text(
            "INSERT INTO events (table_id, seq, hand_id, number, time, actor, type, body, "
            "prev_hash, hash) VALUES (:t, :s, NULL, 1, :at, 'x', 'x', '{}', :p, :p)"
        ), {"t": room.table_id, "s": last.seq + 1, "at": room.clock(), "p": last.hash})
    with pytest.raises(Conflict, match=SAME_MOMENT):
        _card(room, now.hand.id, 2, "Kc")
    head = store.chain_head(room.table_id)
    assert head is not None and (head.seq, head.hash) == (last.seq, last.hash)
    hand = store.get_hand(now.hand.id)
    assert hand is not None and hand.events == 2


@pytest.mark.postgres
def test_postgresql_connection_cut_between_inputs_loses_nothing(pg_url: str) -> None:
    store = SqlStore(open_database(pg_url))
    room = make_room(store)
    now = room.svc.start_hand(room.dealer, room.table_id)
    _card(room, now.hand.id, 1, "9d")
    pid = store._own.info.backend_pid
    with store.engine.connect() as conn:
        conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
    _card(room, now.hand.id, 2, "Kc")  # the one statement fails: the lock path records it
    assert store.one_statement_appends == 1
    _card(room, now.hand.id, 3, "2s")  # on a new connection of its own
    assert store.one_statement_appends == 2 and store._own.info.backend_pid != pid
    assert [r.number for r in store.hand_events(now.hand.id)] == [1, 2, 3, 4]
    assert verify_database(store.db).ok
    store.close()


def test_sqlite_input_while_another_thread_holds_the_own_connection(sqlite_url: str) -> None:
    store = SqlStore(open_database(sqlite_url))
    room = make_room(store)
    now = room.svc.start_hand(room.dealer, room.table_id)
    _card(room, now.hand.id, 1, "9d")
    own = store._own
    assert own is not None
    with store._own_lock:  # another thread is recording: this input takes a pooled connection
        _card(room, now.hand.id, 2, "Kc")
    _card(room, now.hand.id, 3, "2s")
    assert store._own is own
    assert [r.number for r in store.hand_events(now.hand.id)] == [1, 2, 3, 4]
    assert verify_database(store.db).ok
    store.close()
    assert store._own is None

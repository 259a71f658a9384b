"""A station's journal is a file on the station: its sync checks it like any input from
outside (db/journal_check.py). Each test deals a hand offline, edits the journal file as an
insider at the station would, and syncs: the table is stopped with the reason, and nothing of
the batch reaches the server."""

from __future__ import annotations

import json
import sqlite3
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from services.support import FAST, Room, make_room, settings

from dealer_assist.cards import parse_card
from dealer_assist.db.bootstrap import open_database
from dealer_assist.db.journal import JournalStore, TableStopped
from dealer_assist.db.journal_check import JOURNAL_AUDIT_KINDS, journal_may_write
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.events import CardDealt
from dealer_assist.services import Services, StoreUnavailable
from dealer_assist.services.chain import canonical, event_hash
from dealer_assist.services.live import SYNC_CONFLICT

pytestmark = pytest.mark.postgres


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


@dataclass
class Offline:
    """A hand dealt and settled at a station while its server 'did not answer'."""

    room: Room
    store: JournalStore
    hand_id: int
    path: Path
    clock: Clock
    other_hand: int

    def ops(self) -> list[tuple[int, str, dict[str, Any]]]:
        con = sqlite3.connect(self.path)
        try:
            return [(int(i), str(k), json.loads(b)) for i, k, b in con.execute(
                "SELECT id, kind, body FROM ops WHERE synced = 0 ORDER BY id")]
        finally:
            con.close()

    def write(self, op_id: int, body: dict[str, Any]) -> None:
        con = sqlite3.connect(self.path)
        with con:
            con.execute("UPDATE ops SET body = ? WHERE id = ?", (json.dumps(body), op_id))
        con.close()

    def add(self, kind: str, body: dict[str, Any]) -> None:
        con = sqlite3.connect(self.path)
        with con:
            con.execute("INSERT INTO ops (table_id, kind, body, at) VALUES (?, ?, ?, ?)",
                        (self.room.table_id, kind, json.dumps(body), "2026-11-21T20:00:00+00:00"))
        con.close()

    def rehash(self) -> None:
        """Recompute every journaled event's hash from the one before it, as a forger would."""
        prev: str | None = None
        for op_id, _kind, body in self.ops():
            if "row" not in body:
                continue
            row = body["row"]
            if prev is not None:
                row["prev_hash"] = prev
            from datetime import datetime

            row["hash"] = event_hash(
                table_id=row["table_id"], seq=row["seq"], time=datetime.fromisoformat(row["time"]),
                actor=row["actor"], hand_id=row["hand_id"], body=canonical(row["body"]),
                prev_hash=row["prev_hash"])
            prev = row["hash"]
            self.write(op_id, body)

    def sync_refused(self, match: str) -> None:
        server = self.room.svc
        head = server.chain_head(self.room.table_id)
        events = len(server.hand_events(self.hand_id))
        self.clock.t += 10
        with pytest.raises(TableStopped, match=match):
            self.store.sync()
        assert server.chain_head(self.room.table_id) == head
        assert len(server.hand_events(self.hand_id)) == events
        assert server.hand(self.hand_id).status == "open"
        conflicts = server.store.audit_log(action=SYNC_CONFLICT)
        assert len(conflicts) == 1 and "refused this station's journal" in conflicts[0].detail
        assert self.store.journal.count() > 0  # kept for the floor
        assert verify_database(server.store.db).ok  # type: ignore[attr-defined]


@pytest.fixture
def offline(pg_url: str, tmp_path: Path) -> Iterator[Offline]:
    room = make_room(SqlStore(open_database(pg_url)))
    other = room.svc.add_table(room.admin, settings(), name="T2")
    fran = room.floor
    room.svc.open_shift(fran, other.id, floor="fran")
    other_hand = room.svc.start_hand(fran, other.id)
    for seat, card in ((1, "2c"), (2, "3c"), (3, "4c")):
        room.svc.record(fran, other_hand.hand.id, CardDealt(seat=seat, card=parse_card(card)))
    room.svc.settle(fran, other_hand.hand.id)

    clock = Clock()
    path = tmp_path / "journal.sqlite3"
    store = JournalStore(SqlStore(open_database(pg_url)), path, station="station-1",
                         clock=clock)
    st = Services(store, hasher=FAST)
    dee = st.sign_in("dee", "1111")
    hand = st.start_hand(dee, room.table_id)
    store._went_down(StoreUnavailable("the test cut the server"))  # offline from here
    for seat, card in ((1, "As"), (2, "Kd"), (3, "9c")):
        st.record(dee, hand.hand.id, CardDealt(seat=seat, card=parse_card(card)))
    st.settle(dee, hand.hand.id)
    assert [k for _i, k, _b in Offline(room, store, 0, path, clock, 0).ops()] == [
        "event", "event", "event", "settle"]
    yield Offline(room, store, hand.hand.id, path, clock, other_hand.hand.id)
    store.close()
    room.svc.store.close()  # type: ignore[attr-defined]


def test_an_untouched_offline_journal_syncs(offline: Offline) -> None:
    offline.clock.t += 10
    assert offline.store.sync() == 4
    assert offline.room.svc.hand(offline.hand_id).status == "settled"


def test_regression_journal_files_are_readable_by_their_user_only(offline: Offline) -> None:
    for p in offline.path.parent.glob("journal.sqlite3*"):
        assert stat.S_IMODE(p.stat().st_mode) == 0o600, p


def test_regression_an_edited_event_not_rehashed_is_refused(offline: Offline) -> None:
    op_id, _kind, body = offline.ops()[2]
    body["row"]["body"]["card"] = "Qc"
    offline.write(op_id, body)
    offline.sync_refused(r"T1 is stopped: the server refused this station's journal \(journal "
                         rf"input {op_id} \(event\): the hash of seq \d+ does not follow from its "
                         r"contents and the chain before it \(the journal was edited\)\)")


def test_regression_a_rehashed_card_another_seat_holds_is_refused(offline: Offline) -> None:
    op_id, _kind, body = offline.ops()[2]
    body["row"]["body"]["card"] = "As"  # seat 1 holds it
    offline.write(op_id, body)
    offline.rehash()
    offline.sync_refused(rf"journal input {op_id} \(event\): hand 1 does not replay with it: "
                         r".*As already dealt")


def test_regression_rehashed_settlement_lines_are_refused(offline: Offline) -> None:
    op_id, _kind, body = offline.ops()[3]
    for line in body["lines"]:
        if line["kind"] == "fee":
            line["amount"] = 0  # no rake, and the winner is pushed it
        if line["kind"] == "push":
            line["amount"] += 10
    offline.write(op_id, body)
    offline.sync_refused(rf"journal input {op_id} \(settle\): the settlement lines of hand 1 are "
                         r"not the ones its events settle")


def test_regression_an_approval_in_the_journal_is_refused(offline: Offline) -> None:
    offline.add("audit", {"at": "2026-11-21T20:00:00+00:00", "actor": "fran",
                          "action": "approval", "detail": "misdeal of hand 1",
                          "table_id": offline.room.table_id, "hand_id": offline.hand_id})
    offline.sync_refused(r"a 'approval' audit entry is not one a station keeps while offline")


@pytest.mark.parametrize("action", ["user-added", "record-user", "sync-resolved", "checkpoint"])
def test_regression_only_a_dealers_audit_entries_travel_in_a_journal(action: str) -> None:
    assert not journal_may_write(action)
    assert {"stacks", "void"} == JOURNAL_AUDIT_KINDS


def test_regression_a_void_entry_claiming_an_approval_is_refused(offline: Offline) -> None:
    offline.add("audit", {"at": "2026-11-21T20:00:00+00:00", "actor": "dee", "action": "void",
                          "detail": "event 2 (card): wrong; approved by fran",
                          "table_id": offline.room.table_id, "hand_id": offline.hand_id})
    offline.sync_refused(r"the void entry matches no void the batch records with the floor's "
                         r"approval")


def test_regression_a_reopen_of_another_tables_hand_is_refused(offline: Offline) -> None:
    offline.add("reopen", {"hand_id": offline.other_hand})
    offline.sync_refused(rf"hand id {offline.other_hand} is not a hand of T1 \(a station records "
                         r"only at its own table\)")
    assert offline.room.svc.hand(offline.other_hand).status == "settled"


def test_regression_a_reopen_without_an_approved_void_is_refused(offline: Offline) -> None:
    offline.add("reopen", {"hand_id": offline.hand_id})
    offline.sync_refused(r"hand 1 is reopened without an approved void or misdeal before it")


def test_regression_an_event_moved_to_another_tables_hand_is_refused(offline: Offline) -> None:
    op_id, _kind, body = offline.ops()[0]
    body["row"]["hand_id"] = offline.other_hand
    offline.write(op_id, body)
    offline.rehash()
    offline.sync_refused(rf"hand id {offline.other_hand} is not a hand of T1")


def test_regression_an_event_in_another_users_name_is_refused(offline: Offline) -> None:
    op_id, _kind, body = offline.ops()[0]
    body["row"]["actor"] = "admin"
    offline.write(op_id, body)
    offline.rehash()
    offline.sync_refused(r"'admin' is not a user who may deal")


def test_regression_extra_fields_in_a_settlement_line_are_refused(offline: Offline) -> None:
    op_id, _kind, body = offline.ops()[3]
    body["lines"][0]["table_id"] = 99
    offline.write(op_id, body)
    offline.sync_refused(r"a line holds other fields than a station writes")


@pytest.mark.parametrize("forge", ["not json", "[]", '{"row": 5}'])
def test_regression_an_unreadable_input_is_refused_not_a_traceback(
    offline: Offline, forge: str
) -> None:
    op_id = offline.ops()[1][0]
    con = sqlite3.connect(offline.path)
    with con:
        con.execute("UPDATE ops SET body = ? WHERE id = ?", (forge, op_id))
    con.close()
    offline.sync_refused(rf"journal input {op_id} \(event\) cannot be read")

"""A table whose last hand holds an event that cannot be read goes on (issue 40, item 2's
remainder), on the SQLite file an insider holds.

Regression: one event appended behind the app's back that the game's reader refuses (a Guts
show of a joker) was named by verify and skipped by every report, but the table could not
start its next hand: ``start_hand`` raised "line 7: stored event 7 (seq 7) cannot be read", with
no hand named and nothing to do. Now the dealer is told which hand, why and what the next hand
would start from (read from the faulty hand's start and ledger lines); a floor person approves
it with their PIN, the hand starts, nothing recorded is lost, and verify still names the record.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from services.support import make_room

from dealer_assist.cards import parse_cards
from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.services import HandNow, Services, Session
from dealer_assist.services.app import Approval
from dealer_assist.services.errors import ApprovalRequired

from .poison import append_raw
from .test_guts_verify import SETTINGS, act

#: A Guts show naming a joker: its reader refuses it (Guts is played without jokers).
JOKER_SHOW = '{"cards":["Jk","Ah"],"seat":1,"type":"show"}'


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    db = open_database(sqlite_url)
    yield db
    db.close()


def _guts(database: Database) -> tuple[Services, Session, int, HandNow]:
    """A Guts table (buy-in $100, ante $1) whose first hand is dealt up to both shows."""
    room = make_room(SqlStore(database))
    svc = room.svc
    table = svc.add_table(room.admin, dict(SETTINGS), name="Guts")
    svc.add_user(room.admin, name="gus", full_name="Gus Guts", role="dealer", pin="4444")
    gus = svc.sign_in("gus", "4444")
    svc.open_shift(gus, table.id, floor="fran")
    now = svc.start_hand(gus, table.id)
    for kind, seat in (("in", 1), ("in", 2), ("out", 3)):
        now = act(svc, gus, now, kind, seat)
    return svc, gus, table.id, now


def _poisoned(database: Database, svc: Services, hand_id: int) -> int:
    assert database.sqlite_path is not None
    seq = append_raw(database.sqlite_path, hand_id, JOKER_SHOW)
    svc._live.clear()  # (another station: nothing cached)
    return seq


def test_regression_a_settled_hand_that_cannot_be_read_does_not_stop_the_table(
    database: Database,
) -> None:
    svc, gus, table, now = _guts(database)
    now = act(svc, gus, now, "show", 1, {"cards": parse_cards("Ah Ad")})
    now = act(svc, gus, now, "show", 2, {"cards": parse_cards("Kh Qd")})
    svc.settle(gus, now.hand.id)  # seat 1 wins; each loser pays the $3 pot into the next
    first = now.hand.id
    seq = _poisoned(database, svc, first)
    record = f"seq {seq}: hand 1, event 7: the stored event cannot be read"
    with pytest.raises(ApprovalRequired) as asked:
        svc.start_hand(gus, table)
    said = str(asked.value)
    assert said.startswith("hand 1 at Guts cannot be read (line 7: stored event 7 (seq "
                           f"{seq}) cannot be read: Guts is played without jokers")
    assert "it is settled, and verify names its record" in said
    assert ("a floor person approves starting from button seat 1; a pot of $3 carried in; "
            "seat 1 $102, seat 2 $96, seat 3 $99 with their PIN") in said
    assert svc.current_hand(table) is None  # nothing started, nothing written

    nxt = svc.start_hand(gus, table, approval=Approval("fran", "2222"))
    start = nxt.replay.start.params
    assert nxt.hand.number == 2 and start["pot_in"] == 300
    assert start["stacks"] == {"1": 10200, "2": 9600, "3": 9900}
    assert sum(start["stacks"].values()) + start["pot_in"] == 3 * 10000  # every chip is there
    approval = svc.store.audit_log(action="approval")[-1]
    assert approval.actor == "fran" and approval.detail == (
        "start at Guts after hand 1: hand 1 cannot be read, so the next hand starts from what "
        "it shows")
    # nothing recorded is lost: the faulty hand keeps all its rows; verify names that record
    # and nothing else (the new hand takes over what the ledger says hand 1 left)
    assert len(svc.hand_events(first)) == 7 and svc.hand(first).status == "settled"
    report = verify_database(database)
    faults = [line for line in report.summary().splitlines() if line.startswith("NOT INTACT")]
    assert not report.ok and len(faults) == 1 and record in faults[0], faults


def test_regression_an_open_hand_that_cannot_be_read_gives_every_chip_back(
    database: Database,
) -> None:
    """The last hand still open when its record became unreadable cannot be finished (nor
    called off): the next hand starts, approved, with the stacks that hand began with and the
    pot it took in, as a misdeal would give back; the faulty hand stays open as it is."""
    svc, gus, table, now = _guts(database)
    first = now.hand.id
    _poisoned(database, svc, first)
    with pytest.raises(ApprovalRequired, match=r"^hand 1 at Guts cannot be read \(.*\); it is "
                       r"left open \(it cannot be finished\).*seat 1 \$100, seat 2 \$100, "
                       r"seat 3 \$100 with their PIN"):
        svc.start_hand(gus, table)
    nxt = svc.start_hand(gus, table, approval=Approval("fran", "2222"))
    assert nxt.hand.number == 2
    assert nxt.replay.start.params["stacks"] == {"1": 10000, "2": 10000, "3": 10000}
    assert svc.hand(first).status == "open" and svc.current_hand(table) is not None
    assert svc.current_hand(table).hand.id == nxt.hand.id  # type: ignore[union-attr]
    assert "hand 1, event 5: the stored event cannot be read" in verify_database(
        database).summary()

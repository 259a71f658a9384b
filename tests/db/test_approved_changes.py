"""Issue 40 items 1 and 3, issue 45 item 11, on SQLite where the insider has the file: the
app's own code run with ``Services.approve`` a no-op (no PIN checked, no approval entry
written) or with a hand-built ``Session``. Nothing in a SQLite file stops a write, so
``verify`` names every change that needs a floor person's approval (or a floor person's or
admin's role) and does not have it (:mod:`dealer_assist.db.approvals_check`); the same changes
made with the floor's PIN verify clean."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from services.support import make_room

from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.checkpoints import sign_checkpoint
from dealer_assist.db.keys import create_key
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.services import HandNow, Services, Session
from dealer_assist.services.app import Approval
from dealer_assist.services.model import Adjustment, Approver, User

from .test_guts_verify import SETTINGS, act
from .test_station_rights import _no_pin


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    db = open_database(sqlite_url)
    yield db
    db.close()


def _guts(database: Database) -> tuple[Services, Session, Session, int, HandNow]:
    """A Guts table with one settled hand whose $3 pot carries (seat 1 won with aces)."""
    from dealer_assist.cards import parse_cards

    room = make_room(SqlStore(database))
    room.svc.add_user(room.admin, name="flo", full_name="Flo Floor", role="floor", pin="5555")
    table = room.svc.add_table(room.admin, dict(SETTINGS), name="Guts")
    room.svc.add_user(room.admin, name="gus", full_name="Gus Guts", role="dealer", pin="4444")
    svc = room.svc
    gus = svc.sign_in("gus", "4444")
    svc.open_shift(gus, table.id, floor="fran")
    now = svc.start_hand(gus, table.id)
    for kind, seat in (("in", 1), ("in", 2), ("out", 3)):
        now = act(svc, gus, now, kind, seat)
    now = act(svc, gus, now, "show", 1, {"cards": parse_cards("Ah Ad")})
    now = act(svc, gus, now, "show", 2, {"cards": parse_cards("Kh Qd")})
    svc.settle(gus, now.hand.id)
    assert verify_database(database).ok
    return svc, gus, room.floor, table.id, now


def _void_and_resettle(svc: Services, gus: Session, fran: Session, table: int,
                       now: HandNow) -> None:
    from dealer_assist.cards import parse_cards

    again = svc.void(gus, now.hand.id, 5, "misread", approval=Approval("fran", "0000"))
    again = act(svc, gus, again, "show", 1, {"cards": parse_cards("2h 3d")})
    svc.settle(gus, now.hand.id)


def _misdeal(svc: Services, gus: Session, fran: Session, table: int, now: HandNow) -> None:
    svc.misdeal(gus, now.hand.id, "exposed card", approval=Approval("fran", "0000"))
    svc.settle(gus, now.hand.id)


def _house_pays(svc: Services, gus: Session, fran: Session, table: int, now: HandNow) -> None:
    svc.record_dispute(fran, now.hand.id, notes="n", ruling="r", adjustments=(
        Adjustment(amount=500000, seat=1), Adjustment(amount=-500000, seat=None)),
        approval=Approval("flo", "0000"))


def _close(svc: Services, gus: Session, fran: Session, table: int, now: HandNow) -> None:
    shift = svc.current_shift(table)
    assert shift is not None
    svc.close_shift(gus, shift.id, approval=Approval("fran", "0000"))


def _carry(svc: Services, gus: Session, fran: Session, table: int, now: HandNow) -> None:
    svc.start_hand(gus, table, carry_in=5_000_000, approval=Approval("fran", "0000"))


def _cut(svc: Services, gus: Session, fran: Session, table: int, now: HandNow) -> None:
    svc.start_hand(gus, table, stacks={1: 1000}, approval=Approval("fran", "0000"))


def _as_floor(svc: Services) -> Session:
    """A session built by hand, never signed in: a dealer's name with the floor's role."""
    return Session(user=User(id=99, name="gus", full_name="Gus Guts", role="floor"),
                   signed_in_at=datetime(2026, 11, 28, tzinfo=UTC))


def _settings(svc: Services, gus: Session, fran: Session, table: int, now: HandNow) -> None:
    svc.change_settings(_as_floor(svc), table, {**SETTINGS, "fee": None})


def _table(svc: Services, gus: Session, fran: Session, table: int, now: HandNow) -> None:
    svc.add_table(_as_floor(svc), dict(SETTINGS), name="Forged")


#: Each attack, and what verify names (a change "approved" by the no-op carries the approval
#: entry 0: "its approval, audit entry 0, is not an approval on the audit log").
ATTACKS: dict[str, tuple[Callable[..., None], str]] = {
    "void in a settled hand": (_void_and_resettle, "Guts hand 1 event 7 (void): its approval"),
    "misdeal": (_misdeal, "Guts hand 1 event 7 (misdeal): its approval"),
    "house pays a seat": (_house_pays, "dispute 1 on hand 1 (adjustments): its approval"),
    "shift close": (_close, "shift 2 closed by gus: its approval"),
    "carry-in from nothing": (_carry, "hand 2 starts with a carry-in (pot_in) of 5000000 but "
                              "hand 1 carried out 300, and no change is approved by a floor "
                              "person"),
    "stacks cut while the pot carries": (_cut, "hand 2 starts seat 1 with 1000 but it left hand "
                                         "1 with 10200: chips taken off the table while 300 "
                                         "carries, and no floor person approved it"),
    "settings by a dealer": (_settings, "Guts: settings version 2 was created by gus, who is "
                             "not a floor person or an admin"),
    "table by a dealer": (_table, "Forged: settings version 1 was created by gus, who is not "
                          "a floor person or an admin"),
}


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_regression_each_change_without_its_approval_is_named_by_verify(
    database: Database, attack: str, tmp_path: Path,
) -> None:
    """Each attack of issue 40 item 1 (and item 3, issue 45 item 11) went through and every
    verify mode exited 0. Now verify names the change, in full and since a checkpoint signed
    before it."""
    svc, gus, fran, table, now = _guts(database)
    key = create_key(tmp_path / "room-key.pem")
    sign_checkpoint(database, key, reason="shift close")
    run, named = ATTACKS[attack]
    with _no_pin(svc):
        run(svc, gus, fran, table, now)
    for report in (verify_database(database),
                   verify_database(database, key=key, since_checkpoint=True)):
        assert not report.ok
        assert named in report.summary()


def test_a_forged_stacks_line_does_not_approve_a_new_carry(database: Database) -> None:
    """Issue 40 item 3: the dealer's own ``stacks`` line ("carry-in ...", "new game ...")
    made verify accept a changed carry. A station can write that line; only a floor person's
    approval the start carries is accepted now."""
    svc, gus, _fran, table, _now = _guts(database)
    with _no_pin(svc):
        second = svc.start_hand(gus, table, carry_in=5_000_000, new_game=True,
                                approval=Approval("fran", "0000"))
    svc.log(gus, "stacks", f"hand {second.hand.number}: carry-in $50,000; new game: carried",
            table_id=table, hand_id=second.hand.id)
    assert "no change is approved by a floor person" in verify_database(database).summary()


def test_an_approval_of_one_thing_carried_by_another_or_twice_is_named(
    database: Database,
) -> None:
    """One approval, one change, of its subject: fran's approval of a void carried by a
    misdeal, and flo's approval of $4 adjustments carried by a second dispute, are named."""
    svc, gus, fran, table, now = _guts(database)
    real = svc.approve(Approval("fran", "2222"), what="void of event 5 in hand 1",
                       table_id=table, hand_id=now.hand.id, session=gus)
    assert isinstance(real, Approver)
    with _no_pin(svc, entry=real.entry):
        svc.misdeal(gus, now.hand.id, "exposed card", approval=Approval("fran", "0000"))
    svc.settle(gus, now.hand.id)
    small = (Adjustment(amount=400, seat=1), Adjustment(amount=-400, seat=None))
    svc.record_dispute(fran, now.hand.id, notes="n", ruling="r", adjustments=small,
                       approval=Approval("flo", "5555"))
    spent = svc.store.audit_log(action="approval")[-1].id
    with _no_pin(svc, entry=spent):
        svc.record_dispute(fran, now.hand.id, notes="n", ruling="r", adjustments=small,
                           approval=Approval("flo", "0000"))
    text = verify_database(database).summary()
    assert ('Guts hand 1 event 7 (misdeal): its approval, audit entry '
            f'{real.entry} by fran, approves "void of event 5 in hand 1", not this change') in text
    assert (f"dispute 2 on hand 1 (adjustments): its approval (audit entry {spent}) was "
            "already spent on dispute 1 on hand 1 (adjustments)") in text


def test_the_same_changes_with_the_floors_pin_verify_clean(database: Database) -> None:
    """The UI's path (the approval dialogs ask the PIN as before): every change above, made
    by the app with real approvals, leaves verify intact, in full and since a checkpoint."""
    from dealer_assist.cards import parse_cards

    svc, gus, fran, table, now = _guts(database)
    again = svc.void(gus, now.hand.id, 5, "misread", approval=Approval("fran", "2222"))
    act(svc, gus, again, "show", 1, {"cards": parse_cards("2h 3d")})
    svc.settle(gus, now.hand.id)
    svc.record_dispute(fran, now.hand.id, notes="n", ruling="r", adjustments=(
        Adjustment(amount=400, seat=1), Adjustment(amount=-400, seat=None)),
        approval=Approval("flo", "5555"))
    second = svc.start_hand(gus, table, carry_in=5_000, stacks={1: 1000, 3: 20000},
                            approval=Approval("fran", "2222"))
    svc.misdeal(gus, second.hand.id, "exposed card", approval=Approval("fran", "2222"))
    svc.settle(gus, second.hand.id)
    shift = svc.current_shift(table)
    assert shift is not None
    svc.close_shift(gus, shift.id, approval=Approval("fran", "2222"))
    svc.change_settings(fran, table, dict(SETTINGS))
    report = verify_database(database)
    assert report.ok, report.summary()




def test_regression_a_floor_decision_without_its_approval_is_named(database: Database) -> None:
    """Issue 40 item 1, floor decisions: with ``approve`` a no-op, the test game's ruling went
    in with a "decided by fran" entry and no approval; verify names it. The ruling with the
    floor's PIN verifies clean."""
    from anygame.play import move, tally_table

    from dealer_assist.cards import parse_cards
    from dealer_assist.engine.build import build_event

    room = make_room(SqlStore(database))
    svc = room.svc
    table, dee = tally_table(svc, room.admin)
    now = svc.start_hand(dee, table)
    now = move(svc, dee, now, "call", {"cards": parse_cards("Qs Qs Qh"),
                                       "combination": "trips"})
    event = build_event(now.prompt().actions[0], {"decision": "void", "reason": "seen"},
                        vocab=now.game.events)
    with _no_pin(svc):
        svc.record(dee, now.hand.id, event, approval=Approval("fran", "0000"))
    assert "Tally hand 1 event 3 (ruling): its approval, audit entry 0" in (
        verify_database(database).summary())


def test_a_floor_decision_with_the_floors_pin_verifies_clean(database: Database) -> None:
    from anygame.play import move, tally_table

    from dealer_assist.cards import parse_cards
    from dealer_assist.engine.build import build_event

    room = make_room(SqlStore(database))
    svc = room.svc
    table, dee = tally_table(svc, room.admin)
    now = svc.start_hand(dee, table)
    now = move(svc, dee, now, "call", {"cards": parse_cards("Qs Qs Qh"),
                                       "combination": "trips"})
    event = build_event(now.prompt().actions[0], {"decision": "void", "reason": "seen"},
                        vocab=now.game.events)
    svc.record(dee, now.hand.id, event, approval=Approval("fran", "2222"))
    report = verify_database(database)
    assert report.ok, report.summary()


def test_a_table_written_into_the_file_is_named(database: Database) -> None:
    """A table row added to the file by hand, with no settings version by a floor person or an
    admin: verify names it."""
    from .test_insider import _sql

    _guts(database)
    _sql(database, "INSERT INTO card_tables (name, created_at) VALUES ('Forged', "
         "'2026-11-28 12:00:00.000000')")
    assert ("Forged: a table with no settings version (a table is added with its first "
            "settings, by a floor person or an admin)") in verify_database(database).summary()


@pytest.fixture
def either(db_url: str) -> Iterator[Database]:
    """SQLite, and PostgreSQL written by its owner (whom the database's checks let through):
    verify is the judge on both."""
    db = open_database(db_url)
    yield db
    db.close()


def test_regression_a_void_in_a_hand_over_but_not_settled_without_approval_is_named(
    either: Database,
) -> None:
    """Issue 40 item 1's remainder: a void after the hand is over (before it is settled) needs
    a floor person's approval, as in a settled hand. Written with none (the approval left off:
    no entry, no ticket), verify names it from the hand's own replay, whatever the database
    was told; the same void with the floor's PIN verifies clean."""
    from dealer_assist.cards import parse_cards

    svc, gus, _fran, table, _ = _guts(either)
    now = svc.start_hand(gus, table)  # (the button moved on: seat 2 declares first)
    for kind, seat in (("in", 2), ("out", 3), ("in", 1)):
        now = act(svc, gus, now, kind, seat)
    now = act(svc, gus, now, "show", 1, {"cards": parse_cards("Ah Ad")})
    now = act(svc, gus, now, "show", 2, {"cards": parse_cards("Kh Qd")})
    assert now.over and svc.hand(now.hand.id).status == "open"
    with _no_pin(svc, entry=None):  # type: ignore[arg-type]
        svc.void(gus, now.hand.id, 5, "misread", approval=Approval("fran", "0000"))
    text = verify_database(either).summary()
    assert ("Guts hand 2 event 7 (void): no floor person's approval of it (it carries none, "
            "and no approval entry is of it)") in text


def test_a_void_in_a_hand_over_with_the_floors_pin_and_one_while_dealing_verify_clean(
    database: Database,
) -> None:
    """The dealer's own void while the hand is dealt needs no approval (verify does not ask
    one); after the end, the floor's PIN: both verify clean."""
    from dealer_assist.cards import parse_cards

    svc, gus, _fran, table, _ = _guts(database)
    now = svc.start_hand(gus, table)
    now = act(svc, gus, now, "in", 2)
    now = svc.void(gus, now.hand.id, 2, "wrong seat")
    for kind, seat in (("in", 2), ("out", 3), ("in", 1)):
        now = act(svc, gus, now, kind, seat)
    now = act(svc, gus, now, "show", 1, {"cards": parse_cards("Ah Ad")})
    now = act(svc, gus, now, "show", 2, {"cards": parse_cards("Kh Qd")})
    now = svc.void(gus, now.hand.id, 8, "misread", approval=Approval("fran", "2222"))
    act(svc, gus, now, "show", 2, {"cards": parse_cards("2h 3d")})
    svc.settle(gus, now.hand.id)
    report = verify_database(database)
    assert report.ok, report.summary()


def test_regression_a_new_game_dropping_the_running_total_without_approval_is_named(
    either: Database,
) -> None:
    """Issue 40 item 1's remainder: a new game drops what the game carries (the test game's
    running total), which only a floor person approves. Started with the approval left off
    (the dealer's own ``stacks`` line says "new game ... approved by fran"), verify names it."""
    from anygame.play import play_rolls, tally_table

    room = make_room(SqlStore(either))
    svc = room.svc
    table, dee = tally_table(svc, room.admin)
    play_rolls(svc, dee, table, [[6], [5], [4], [3]])
    with _no_pin(svc, entry=None):  # type: ignore[arg-type]
        second = svc.start_hand(dee, table, new_game=True, approval=Approval("fran", "0000"))
    assert "totals_in" not in second.replay.start.params
    assert svc.store.audit_log(action="stacks")[-1].detail.endswith("approved by fran")
    assert ('hand 2 starts with totals_in nothing but hand 1 carries {"1": 6, "2": 5, "3": 4, '
            '"4": 3}, and no new game is approved by a floor person') in (
        verify_database(either).summary())

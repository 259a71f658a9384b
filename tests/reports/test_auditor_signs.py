"""What an auditor signs, beyond the figures: funds with balances, dispute adjustments in the
house's net, the room's paper and clock, record entries accounted for, a failed report leaving
its checkpoint accounted for, and full names on every signature line."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from pypdf import PdfReader

from dealer_assist.reports import generate
from dealer_assist.reports.build.audit import build_audit
from dealer_assist.reports.build.shift import build_shift
from dealer_assist.reports.data.lines import HandLine, fund_balance
from dealer_assist.services.counts import clock_for_day, set_room_clock
from dealer_assist.services.room import room_clock

from .room import Room, make_room

T0 = datetime(2026, 11, 21, 18, 0, tzinfo=UTC)


def _hand(n: int, carry_in: int, carry_out: int) -> HandLine:
    return HandLine(hand_id=n, number=n, started_at=T0 + timedelta(minutes=n), ended_at=None,
                    seats=(1, 2, 3), put_in=1200, carry_in=carry_in, pushed=1200 + carry_in
                    - carry_out, carry_out=carry_out)


def test_a_carried_fund_shows_opening_movements_and_closing_not_sums_of_carries() -> None:
    f = fund_balance("T1", 7, [_hand(1, 0, 0), _hand(2, 0, 2400), _hand(3, 2400, 0),
                               _hand(4, 0, 800)])
    assert f is not None
    assert (f.opening, f.paid_in, f.paid_out, f.closing) == (0, 3200, 2400, 800)
    assert [m.hand_number for m in f.moves] == [2, 3, 4] and f.continuous
    broken = fund_balance("T1", 7, [_hand(1, 0, 2400), _hand(2, 0, 0)])  # 2 dropped the pool
    assert broken is not None and not broken.continuous
    assert fund_balance("T1", 7, [_hand(1, 0, 0)]) is None


def test_dispute_adjustments_enter_the_house_net_and_each_seat() -> None:
    room = make_room(hands=4)
    r = build_shift(room.store, shift_id=room.shift_id, by="t", at=room.clock.now)
    assert [(a.seat, a.amount) for a in r.adjustments] == [(1, 400), (None, -400)]
    assert r.house_net == r.house_fees - 400


def test_paper_follows_the_room_letter_in_the_us_a4_elsewhere(tmp_path: Path) -> None:
    room = make_room(hands=2)
    a4 = generate.shift_report(room.svc, room.floor, tmp_path / "a4.pdf")
    set_room_clock(room.svc, room.floor, room_clock(zone="America/Los_Angeles"))
    letter = generate.shift_report(room.svc, room.floor, tmp_path / "letter.pdf")
    box = [tuple(round(float(x)) for x in PdfReader(p).pages[0].mediabox[2:])
           for p in (a4.path, letter.path)]
    assert box == [(595, 842), (612, 792)]
    set_room_clock(room.svc, room.floor, room_clock(zone="America/Los_Angeles", paper="A4"))
    again = generate.shift_report(room.svc, room.floor, tmp_path / "a4-again.pdf")
    assert round(float(PdfReader(again.path).pages[0].mediabox[3])) == 842


def test_a_room_clock_change_applies_from_the_next_gaming_day_not_yet_started() -> None:
    room = make_room(hands=2)  # dealt on 2026-11-21 (UTC), no clock yet
    room.clock.now = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
    set_room_clock(room.svc, room.floor, room_clock(zone="America/Los_Angeles", day_starts=6))
    old = clock_for_day(room.store, datetime(2026, 11, 21).date())
    running = clock_for_day(room.store, datetime(2026, 11, 25).date())  # the change's own day
    new = clock_for_day(room.store, datetime(2026, 11, 26).date())
    assert (old.zone, old.day_starts) == ("UTC", 0)
    assert (running.zone, running.day_starts) == ("UTC", 0)
    assert (new.zone, new.day_starts) == ("America/Los_Angeles", 6)


def test_audit_report_accounts_for_record_entries_and_names_the_floor(tmp_path: Path) -> None:
    from dealer_assist.db.bootstrap import open_services

    room = make_room(hands=3, svc=open_services(f"sqlite:///{tmp_path / 'r.sqlite3'}"))
    r = build_audit(room.store, since=T0 - timedelta(days=1), until=T0 + timedelta(days=1),
                    by="t", at=T0, signer="Ada Admin")
    kinds = dict((k, n) for k, n, _ in r.records)
    assert kinds.get("record-user", 0) >= 3 and r.gaps == ""
    numbers = {e.number for e in r.entries}
    for _, _, ranges in r.records:
        for part in ranges.split(", "):
            lo, _, hi = part.partition("-")
            numbers |= set(range(int(lo), int(hi or lo) + 1))
    assert numbers == set(range(1, max(numbers) + 1))  # every entry printed or counted
    # the floor people active in the period: fran, and gil, who approved the dispute's
    # adjustments (a second floor person's approval)
    assert [s.name for s in r.signatures] == ["Ada Admin", "Francesca Floor", "Gilberto Floor"]


@pytest.fixture
def room() -> Room:
    return make_room(hands=3)


def test_regression_a_failed_report_leaves_its_checkpoint_accounted_for(
        room: Room, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from dealer_assist.db.bootstrap import open_services

    svc = open_services(f"sqlite:///{tmp_path / 'r.sqlite3'}", clock=room.clock)
    r = make_room(hands=2, svc=svc)
    from dealer_assist.db.keys import create_key

    create_key(tmp_path / "key.pem")  # (`keys init`: a key is never made on first need)
    monkeypatch.setenv("DEALER_ASSIST_KEY", str(tmp_path / "key.pem"))
    from dealer_assist.reports import layouts

    def broken(*_: object) -> int:
        raise RuntimeError("the printer's font vanished")

    monkeypatch.setattr(generate, "render_shift", broken)
    with pytest.raises(RuntimeError):
        generate.shift_report(svc, r.floor, tmp_path / "s.pdf")
    (failed,) = svc.store.audit_log(action="report-failed")
    assert failed.detail.startswith("shift report not written: the printer's font vanished; "
                                    "checkpoint ")
    assert not (tmp_path / "s.pdf").exists()
    del layouts

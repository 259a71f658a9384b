"""What a gaming board needs to approve the reports (a real SQLite file, real PDFs read back as
text): the rake taken on what was called, the drop count with a variance and a correction,
serial numbers on every page, the fee record, the room's gaming day across UTC midnight, and
words that say what happened."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.db.bootstrap import open_services
from dealer_assist.events import event_from_json
from dealer_assist.reports import generate
from dealer_assist.services import (
    Adjustment,
    Approval,
    Argon2PinHasher,
    NotAllowed,
    Services,
    Session,
)
from dealer_assist.services.counts import (
    counts,
    record_count,
    record_drop,
    register_box,
    set_room_clock,
)
from dealer_assist.services.room import new_count, room_clock
from tests.games.test_caro_rake_pot_shapes import DEMO_HAND, RAKE

from .pdftext import pages

FAST = Argon2PinHasher(fast=True)
#: 17:30 on the 23rd in Los Angeles (01:30 UTC on the 24th): a gaming day that spans UTC midnight.
START = datetime(2026, 11, 24, 1, 30, tzinfo=UTC)


@dataclass
class Clock:
    now: datetime = START

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=5)
        return self.now


@dataclass
class Room:
    svc: Services
    clock: Clock
    floor: Session
    dealer: Session
    table_id: int
    shift_id: int
    hands: list[int]


def _deal(room: Room, lines: list[dict[str, Any]], *, slip: bool = False) -> int:
    start = lines[0]
    now = room.svc.start_hand(room.dealer, room.table_id, seats=start["seats"],
                              button=start["button"],
                              stacks={int(k): v for k, v in start["stacks"].items()})
    for i, line in enumerate(lines[1:]):
        now = room.svc.record(room.dealer, now.hand.id, event_from_json(line))
        if slip and i == 0:  # keyed, voided at once, keyed again
            now = room.svc.void(room.dealer, now.hand.id, now.last.number, "keyed too early")
            now = room.svc.record(room.dealer, now.hand.id, event_from_json(line))
    room.svc.settle(room.dealer, now.hand.id)
    return now.hand.id


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Room:
    # the room is set up, its clock with it, days before it deals (a clock change applies
    # from the next gaming day that has not started)
    clock = Clock(START - timedelta(days=3))
    url = f"sqlite:///{tmp_path_factory.mktemp('board') / 'room.sqlite3'}"
    svc = open_services(url, hasher=FAST, clock=clock)
    svc.create_first_admin(name="admin", full_name="Ada Admin", pin="9999")
    admin = svc.sign_in("admin", "9999")
    svc.set_cardroom_name(admin, "Harbor Card Room")
    svc.add_user(admin, name="fran", full_name="Francesca Floor", role="floor", pin="2222")
    svc.add_user(admin, name="dee", full_name="Deandra Dealer", role="dealer", pin="1111")
    svc.add_user(admin, name="gil", full_name="Gilberto Floor", role="floor", pin="5555")
    floor = svc.sign_in("fran", "2222")
    set_room_clock(svc, floor, room_clock(zone="America/Los_Angeles", day_starts=6,
                                          shifts=[("day", 6), ("swing", 14), ("grave", 22)]))
    clock.now = START
    table = svc.add_table(admin, {
        "name": "Caro-1", "game": "caro-holdem", "seats": 8, "smallest_chip": 25,
        "buy_in": 100000, "params": {"unit": 1000, "blinds": [1000, 2000], "cap": 4},
        "fee": RAKE, "preset": "rake-with-cap"})
    dealer = svc.sign_in("dee", "1111")
    shift = svc.open_shift(dealer, table.id, floor="fran")
    r = Room(svc, clock, floor, dealer, table.id, shift.id, [])
    r.hands.append(_deal(r, DEMO_HAND))  # 17:30 local, the 23rd's gaming day
    clock.now = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)  # 01:00 local: still the 23rd's day
    r.hands.append(_deal(r, DEMO_HAND, slip=True))
    hand = svc.hand(r.hands[1])
    with pytest.raises(NotAllowed, match="cannot approve their own adjustments"):
        svc.record_dispute(floor, r.hands[1], notes="seat 8 says it never folded",
                           ruling="fold stands; $1 courtesy",
                           adjustments=[Adjustment(100, seat=8), Adjustment(-100, seat=None)],
                           approval=Approval("fran", "2222"))
    svc.record_dispute(floor, r.hands[1], notes="seat 8 says it never folded",
                       ruling="fold stands; $1 courtesy",
                       adjustments=[Adjustment(100, seat=8, note="courtesy"),
                                    Adjustment(-100, seat=None, note="house")],
                       approval=Approval("gil", "5555"))
    svc.reveal(floor, r.hands[1], reason="dispute at seat 8")
    now = svc.start_hand(dealer, table.id, seats=[4, 6, 7, 8], button=6,
                         stacks={4: 825, 6: 396000, 7: 7350, 8: 14850})
    svc.misdeal(dealer, now.hand.id, "two cards exposed on the deal",
                approval=Approval("fran", "2222"))
    svc.settle(dealer, now.hand.id)
    r.hands.append(now.hand.id)
    # The box registered to the table and dropped for the shift, then counted: $5 entered at
    # first, then corrected to $9 ($1 short of the $10 of rake).
    register_box(svc, floor, table_id=table.id, box="C1-0523")
    record_drop(svc, floor, shift_id=shift.id, box="C1-0523")
    record_count(svc, floor, new_count(
        table_id=table.id, shift_id=shift.id, box="C1-0523", counted=None,
        team=["Cora Cashier", "Carl Counter"], denominations={500: 1}))
    entry = counts(svc.store)[-1]
    record_count(svc, floor, new_count(
        table_id=table.id, shift_id=shift.id, box="C1-0523", counted=900,
        team=["Cora Cashier", "Carl Counter"], denominations={500: 1, 100: 4},
        corrects=entry.number, reason="four $1 chips found in the box lid"))
    clock.now = datetime(2026, 11, 24, 15, 0, tzinfo=UTC)  # 07:00 local: the 24th's day
    svc.reveal(floor, r.hands[0], reason="audit sample")  # made on the next gaming day
    assert hand.number == 2
    return r


def _text(path: Path) -> list[str]:
    return [" ".join(p.split()) for p in pages(path)]


def _serials(texts: list[str]) -> set[int]:
    return {int(m) for t in texts for m in re.findall(r"Serial no\. (\d+) \(audit log entry", t)}


def test_demo_hand_rake_is_taken_on_what_was_called_in_every_report(room: Room,
                                                                     tmp_path: Path) -> None:
    hand = generate.hand_report(room.svc, room.floor, tmp_path / "h.pdf", hand_id=room.hands[0])
    flat = " ".join(_text(hand.path))
    assert "Rake $5 (5% of $178.25, capped at $5)" in flat
    assert "Push the side pot $145.25 to seat 6: the others in it folded" in flat
    assert "Return $20 uncalled to seat 6: the part of its bet nobody called" in flat
    shift = generate.shift_report(room.svc, room.floor, tmp_path / "s.pdf",
                                  shift_id=room.shift_id)
    assert [h.raked_from for h in shift.report.hands[:2]] == [17825, 17825]  # type: ignore
    flat = " ".join(_text(shift.path))
    assert "Rake house 2 $356.50 $10 $10" in flat  # taken from pots of, by replay, in ledger
    assert re.search(r" 1 17:3\d:\d\d 4 \$198\.25 \$178\.25 \$5 \$193\.25 \$0 "
                     r"6: \$179\.25, 4: \$14 R", flat), flat


def test_count_with_a_variance_and_a_correction_in_the_shift_and_day_pdfs(
        room: Room, tmp_path: Path) -> None:
    shift = generate.shift_report(room.svc, room.floor, tmp_path / "s.pdf",
                                  shift_id=room.shift_id, cage="Cora Cashier")
    flat = " ".join(_text(shift.path))
    first, second = (e.number for e in counts(room.svc.store))
    assert "Drop box C1-0523" in flat and "Count team Cora Cashier Carl Counter" in flat
    assert "Rake 2 $10 Expected in the box (records) $10 Counted $9" in flat
    assert "Variance (counted less expected) SHORT $1" in flat
    assert f"{first} " in flat and f"$5 first count (replaced by entry {second})" in flat
    assert f"{second} " in flat
    assert f"corrects entry {first}: four $1 chips found in the box lid (in force)" in flat
    assert "Count team signatures" in flat and "Signature — Carl Counter" in flat
    assert "$5 1 $5 $1 4 $4 Total 5 $9" in flat  # by denomination
    assert "Drop count $9 counted, variance SHORT $1" in flat
    assert (f"count drop box C1-0523 (shift {room.shift_id}) counted $9 where the records give "
            f"$10: SHORT by $1 (count entry {second})") in flat  # an exception too
    day = generate.day_report(room.svc, room.floor, tmp_path / "d.pdf")
    dflat = " ".join(_text(day.path))
    assert f"Table Caro-1 {room.shift_id} C1-0523 $10 $9 SHORT $1 Cora Cashier, Carl Counter 1" \
        in dflat
    assert f"replaced by entry {second}" in dflat
    assert "Table Caro-1: drop box C1-0523" in dflat and "SHORT by $1" in dflat


def test_the_count_in_force_is_the_latest_entry_and_the_first_stays(room: Room) -> None:
    from dealer_assist.reports.build.shift import build_shift

    r = build_shift(room.svc.store, shift_id=room.shift_id, by="t", at=room.clock.now)
    assert r.count is not None and r.count.expected_total == 1000
    assert [(e.counted, e.corrects is None) for e in r.count.entries] == [(500, True),
                                                                           (900, False)]
    assert r.count.variance == -100 and r.count.in_force is r.count.entries[-1]


def test_gaming_day_spans_utc_midnight_in_local_time_with_the_zone(room: Room,
                                                                   tmp_path: Path) -> None:
    day = generate.day_report(room.svc, room.floor, tmp_path / "d.pdf")
    r = day.report
    assert r.day.isoformat() == "2026-11-23"  # type: ignore[union-attr]
    assert r.total("hands") == 3  # type: ignore[union-attr]  # 17:30, 01:00 and the misdeal
    flat = " ".join(_text(day.path))
    assert "From 2026-11-23 06:00 PST (2026-11-23 14:00 UTC)" in flat
    assert "To 2026-11-24 06:00 PST (2026-11-24 14:00 UTC)" in flat
    assert "America/Los_Angeles" in flat
    assert re.search(r"swing 1 \$5 \$0 \$5 grave 2 \$5 \$0 \$5", flat), flat
    # the reveal made at 07:00 on the 24th is not the 23rd's
    assert r.tables[0].reveals == 1  # type: ignore[union-attr]
    nxt = generate.day_report(room.svc, room.floor, tmp_path / "d2.pdf",
                              day=r.day + timedelta(days=1))  # type: ignore[union-attr]
    assert nxt.report.total("hands") == 0  # type: ignore[union-attr]
    shift = " ".join(_text(generate.shift_report(room.svc, room.floor, tmp_path / "s.pdf",
                                                 shift_id=room.shift_id).path))
    assert "Gaming day Monday 23 November 2026, swing shift" in shift
    assert "Time zone America/Los_Angeles (records kept in UTC)" in shift
    assert re.search(r"Shift opened 2026-11-23 17:3\d:\d\d PST", shift), shift


def test_every_page_carries_the_reports_serial_its_audit_entry(room: Room,
                                                                tmp_path: Path) -> None:
    for make in (
        lambda: generate.shift_report(room.svc, room.floor, tmp_path / "s.pdf",
                                      shift_id=room.shift_id),
        lambda: generate.hand_report(room.svc, room.floor, tmp_path / "h.pdf",
                                     hand_id=room.hands[1]),
        lambda: generate.day_report(room.svc, room.floor, tmp_path / "d.pdf"),
        lambda: generate.audit_report(room.svc, room.floor, tmp_path / "a.pdf",
                                      since=START - timedelta(days=1),
                                      until=room.clock.now + timedelta(days=1)),
    ):
        done = make()
        texts = _text(done.path)
        logged = room.svc.store.audit_log(action="report")[-1]
        assert all(f"Serial no. {logged.seq} (audit log entry {logged.seq})" in t
                   for t in texts), texts
        assert _serials(texts) == {logged.seq} and done.report.generated.serial == logged.seq


def test_audit_report_numbers_entries_and_names_what_each_approval_was_for(
        room: Room, tmp_path: Path) -> None:
    done = generate.audit_report(room.svc, room.floor, tmp_path / "a.pdf",
                                 since=START - timedelta(days=1),
                                 until=room.clock.now + timedelta(days=1))
    flat = " ".join(_text(done.path))
    misdeal = next(e for e in room.svc.store.audit_log(action="approval")
                   if e.detail.startswith("misdeal"))
    assert re.search(rf" {misdeal.seq} 2026-11-24 \d\d:\d\d:\d\d PST Francesca Floor \(fran\) "
                     r"floor Approval Table Caro-1, hand 3: misdeal of hand 3", flat), flat
    numbers = [e.number for e in done.report.entries]  # type: ignore[union-attr]
    assert numbers == sorted(numbers) and len(set(numbers)) == len(numbers)
    # regression: a refused approval of one's own adjustments showed its whole detail as what
    # it concerned; it concerns the adjustments, and the detail says who was refused
    (own,) = room.svc.store.audit_log(action="approval-refused")
    line = next(e for e in done.report.entries  # type: ignore[union-attr]
                if e.number == own.seq)
    assert line.target == "Table Caro-1, hand 2: adjustments in hand 2: seat 8 +$1, house -$1"
    assert line.detail == ("fran tried to approve their own adjustments in hand 2: seat 8 +$1, "
                           "house -$1")
    (gil,) = [e for e in room.svc.store.audit_log(action="approval") if e.actor == "gil"]
    assert gil.detail == "adjustments in hand 2: seat 8 +$1, house -$1"


def test_fee_record_words_and_misdeal_in_the_shift_report(room: Room, tmp_path: Path) -> None:
    done = generate.shift_report(room.svc, room.floor, tmp_path / "s.pdf",
                                 shift_id=room.shift_id)
    flat = " ".join(_text(done.path))
    assert re.search(r"1 2026-11-23 17:\d\d:\d\d PST Ada Admin \(admin\) 5% rake, capped at \$5, "
                     r"from pots of \$10 or more, no flop no drop rake-with-cap", flat), flat
    # the reveal's reason, not an event number; the misdeal's approving floor; no "winners"
    assert "dispute at seat 8" in flat and "audit sample" in flat
    assert "two cards exposed on the deal; approved by Francesca Floor (fran)" in flat
    assert "misdeal: all returned" in flat
    hand = generate.hand_report(room.svc, room.floor, tmp_path / "h.pdf", hand_id=room.hands[1])
    hflat = " ".join(_text(hand.path))
    assert "dispute 1 ruling moved $1 outside the hand's settlement" in hflat  # as the shift says
    assert "(voided) (voided)" not in hflat and "(voided) (voided)" not in flat
    assert "discard for seat 4: Tc 4d (voided: it does not count)" in hflat


def test_csv_beside_the_pdf_holds_the_same_tables_and_figures(room: Room, tmp_path: Path) -> None:
    import csv

    day = generate.day_report(room.svc, room.floor, tmp_path / "d.pdf", csv=True)
    names = [p.name for p in day.csv]
    assert "d-01-tables.csv" in names and any("drop-count" in n for n in names), names
    assert len(set(names)) == len(names)
    tables = list(csv.reader((tmp_path / "d-01-tables.csv").open(encoding="utf-8")))
    assert tables[0][:5] == ["Table", "Game", "Shifts", "Hands", "Put in ($)"]
    assert tables[1][0] == "Caro-1" and tables[-1][0] == "All tables"
    assert tables[-1][3] == "3"  # the three hands of the day
    assert not any("$" in x for row in tables[1:] for x in row)  # plain numbers only
    counts_csv = next(p for p in day.csv if "drop-count" in p.name)
    (_head, row) = list(csv.reader(counts_csv.open(encoding="utf-8")))[:2]
    assert row[:6] == ["Table Caro-1", str(room.shift_id), "C1-0523", "10.00", "9.00", "-1.00"]
    assert row[-4:-1] == ["day summary", str(day.report.generated.serial),
                          f"gaming day {day.report.day.isoformat()}"]

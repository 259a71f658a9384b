"""The floor board in the reports (issue 43, item 7): the day summary and the shift report
print table hours per game (open, going), player hours, seats filled per table hour, waits from
list to seat and calls not answered, also as CSV; the audit report counts the floor's records
by kind."""

from __future__ import annotations

import csv
from datetime import UTC, datetime
from pathlib import Path

from services.support import FAST, make_room

from dealer_assist.db.bootstrap import floor_board, open_services
from dealer_assist.reports import generate

from .pdftext import pages

GAME = ("high-card-test", "")


def test_day_summary_and_audit_report_show_the_floor(tmp_path: Path) -> None:
    svc = open_services(f"sqlite:///{tmp_path / 'room.db'}", hasher=FAST)
    room = make_room(svc.store)  # type: ignore[arg-type]
    board = floor_board(svc.store.db, room.clock)  # type: ignore[attr-defined]
    room.svc.floor_board = board
    t = room.table_id
    board.open_table(room.floor, t)
    for name in ("Ann", "Bob", "Cy"):
        board.add_to_list(room.floor, name, *GAME)
    ann, bob, cy = (w.entry for w in board.state().lists[GAME])
    room.clock.advance(minutes=12)
    board.call(room.floor, ann, t, 1)
    board.seat(room.floor, t, 1)
    room.clock.advance(minutes=18)
    board.call(room.floor, bob, t, 2)
    board.seat(room.floor, t, 2)                      # going from here (2 players)
    board.call(room.floor, cy, t, 3)
    board.not_here(room.floor, cy)
    room.clock.advance(minutes=30)
    room.svc.settle(room.dealer, room.hand(["Ad", "Kd"], seats=(1, 2)))
    done = generate.day_report(room.svc, room.floor, tmp_path / "day.pdf", csv=True)
    text = " ".join(" ".join(pages(done.path)).split())
    assert "Floor: tables, seats and waiting lists" in text, text
    # 1.0 table hour open (20:00-21:00), 0.5 going (from Bob at 20:30), 1.3 player hours
    # (Ann 48 + Bob 30 min), 1.3 seats per table hour, 2 seated from the list, waits 12 and
    # 30 min: average 21, 90th percentile 30; 3 calls, Cy's not answered
    assert "high-card-test 1.0 0.5 1.3 1.3 2 21 30 3 1" in text
    floor_csv = next(p for p in done.csv if "floor" in p.name)
    rows = list(csv.DictReader(floor_csv.open()))
    assert [(r["Game"], r["Table hours going"], r["Wait 90th percentile (min)"],
             r["Calls not answered"]) for r in rows] == [("high-card-test", "0.5", "30", "1")]
    shift = generate.shift_report(room.svc, room.floor, tmp_path / "shift.pdf")
    text = " ".join(" ".join(pages(shift.path)).split())
    assert "Floor: tables, seats and waiting lists" in text  # the shift's table, same hour
    assert "high-card-test 1.0 0.5 1.3 1.3 2 21 30 3 1" in text
    audit = generate.audit_report(room.svc, room.floor, tmp_path / "audit.pdf",
                                  since=datetime(2026, 11, 21, tzinfo=UTC),
                                  until=datetime(2026, 11, 22, tzinfo=UTC))
    text = " ".join(" ".join(pages(audit.path)).split())
    assert "Floor board records by kind" in text
    for line in ("call player called 3", "list-add player put on a list 3",
                 "not-here player not here 1", "open table opened 1", "seat player seated 2",
                 "All 10"):
        assert line in text
    room.store.close()

"""The archive holds the whole day (SQLite and PostgreSQL): its hands and time collections,
its shifts with their closes after midnight, the drop boxes' registrations, drops, counts and
sign-offs made after it, the reports logged for it, and the signed checkpoint that covers it;
``verify --archive`` rebuilds the day's report totals from the archive alone and compares
them with each day summary logged for that day."""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from dealer_assist.cli import main
from dealer_assist.db.archive import day_totals
from dealer_assist.db.bootstrap import open_services
from dealer_assist.db.keys import create_key
from dealer_assist.reports import generate
from dealer_assist.services import Approval, Argon2PinHasher
from dealer_assist.services.counts import (
    record_count,
    record_drop,
    register_box,
    signoff_count,
)
from dealer_assist.services.room import new_count
from tests.reports.room import Clock, make_room

FAST = Argon2PinHasher(fast=True)


def _day(db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    """Five hands on 2026-11-21 (UTC); after midnight the shift is closed, its box registered,
    dropped, counted short and signed off, and the day summary printed."""
    create_key(tmp_path / "room-key.pem")
    monkeypatch.setenv("DEALER_ASSIST_KEY", str(tmp_path / "room-key.pem"))
    monkeypatch.setenv("DEALER_ASSIST_PIN", "2222")
    svc = open_services(db_url, hasher=FAST, clock=Clock())
    room = make_room(hands=5, svc=svc)
    svc.add_user(room.admin, name="otto", full_name="Otto Auditor", role="auditor", pin="4444")
    room.clock.now = datetime(2026, 11, 22, 1, 0, tzinfo=UTC)
    svc.close_shift(room.dealer, room.shift_id, approval=Approval("fran", "2222"))
    register_box(svc, room.floor, table_id=room.table_id, box="T1-01")
    record_drop(svc, room.floor, shift_id=room.shift_id, box="T1-01")
    count = record_count(svc, room.floor, new_count(
        table_id=room.table_id, shift_id=room.shift_id, box="T1-01", counted=100,
        team=["Cora Cashier", "Carl Counter"]))
    signoff_count(svc, svc.sign_in("otto", "4444"), entry=count.seq,
                  explanation="chips found in the lid")
    done = generate.day_report(svc, room.floor, tmp_path / "day.pdf", day=date(2026, 11, 21))
    svc.store.close()
    return count.seq, done.report.generated.serial


def _archive(url: str, out: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    import dealer_assist.services.app as app

    real = app.Services.__init__

    def fixed(self: object, *a: object, **k: object) -> None:
        real(self, *a, **k)  # type: ignore[arg-type]
        self.clock = lambda: datetime(2026, 11, 23, tzinfo=UTC)  # type: ignore[attr-defined]

    monkeypatch.setattr(app.Services, "__init__", fixed)
    return main(["archive", "--db", url, "--day", "2026-11-21", "--out", str(out),
                 "--as", "fran"])


def test_the_archive_holds_the_whole_day_and_rebuilds_its_report_totals(
        db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    count, serial = _day(db_url, tmp_path, monkeypatch)
    out = tmp_path / "day.archive.json"
    assert _archive(db_url, out, monkeypatch) == 0
    body = json.loads(json.loads(out.read_text())["body"])
    kept = {a[0]: a[3] for a in [*body["audit"], *body["audit_more"]]}
    for action in ("drop-box", "drop", "count", "count-signoff", "shift-closed"):
        assert action in kept.values(), action
    assert kept[count] == "count" and kept[serial] == "report"
    (shift,) = body["shifts"]
    assert shift["closed"].startswith("2026-11-22T01:00") and shift["closed_floor"] == "fran"
    assert any(json.loads(c["body"])["at"] >= body["to"] for c in body["checkpoints"])
    totals = day_totals(body)
    assert totals["hands"] == 5 and totals["put in"] > 0
    capsys.readouterr()
    assert main(["verify", "--archive", str(out)]) == 0
    said = capsys.readouterr().out
    assert "the day's totals rebuilt and compared with 1 day summary report(s) logged" in said
    assert said.rstrip().endswith("intact")


def test_a_day_summary_the_records_do_not_give_is_named(
        db_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _day(db_url, tmp_path, monkeypatch)
    svc = open_services(db_url, hasher=FAST)
    fran = svc.sign_in("fran", "2222")
    forged = svc.log(fran, "report", "day summary: 2026-11-21, 1 tables, 6 hands, 2 pages; "
                     "put in $1.00, pushed $1.00, house fees $0, jackpot drop $0, time $0")
    svc.store.close()
    out = tmp_path / "day.archive.json"
    assert _archive(db_url, out, monkeypatch) == 0
    body = json.loads(json.loads(out.read_text())["body"])
    capsys.readouterr()
    assert main(["verify", "--archive", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"the day summary logged as audit entry {forged.seq} gives hands 6; the archive's " \
           "records give 5" in err
    put_in = day_totals(body)["put in"]
    from dealer_assist.money import format_cents

    assert (f"audit entry {forged.seq} gives put in $1; the archive's records give "
            f"{format_cents(put_in)}") in err

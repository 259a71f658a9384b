"""A closed gaming day in one signed file, checked with no database (``archive`` and
``verify --archive``): the day's hands, ledger lines, audit entries (the drop count included)
and checkpoints; a changed byte, a forged ledger line or another key is named."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dealer_assist.cli import main
from dealer_assist.db.bootstrap import open_services
from dealer_assist.services import Approval, Argon2PinHasher
from dealer_assist.services.counts import record_count, record_drop, register_box
from tests.reports.room import Clock, make_room

FAST = Argon2PinHasher(fast=True)


@pytest.fixture
def day(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Path]:
    from dealer_assist.db.keys import create_key

    create_key(tmp_path / "room-key.pem")  # (`keys init`: never made on first need)
    monkeypatch.setenv("DEALER_ASSIST_KEY", str(tmp_path / "room-key.pem"))
    url = f"sqlite:///{tmp_path / 'room.sqlite3'}"
    svc = open_services(url, hasher=FAST, clock=Clock())
    room = make_room(hands=5, svc=svc)
    register_box(svc, room.floor, table_id=room.table_id, box="T1-01")
    svc.close_shift(room.dealer, room.shift_id, approval=Approval("fran", "2222"))
    record_drop(svc, room.floor, shift_id=room.shift_id, box="T1-01")
    from dealer_assist.services.room import new_count

    record_count(svc, room.floor, new_count(table_id=room.table_id, shift_id=room.shift_id,
                                            box="T1-01", counted=1400,
                                            team=["Cora Cashier", "Carl Counter"]))
    svc.store.close()
    monkeypatch.setenv("DEALER_ASSIST_PIN", "2222")
    return url, tmp_path


def _archive(url: str, out: Path, when: datetime, monkeypatch: pytest.MonkeyPatch) -> int:
    import dealer_assist.services.app as app

    real = app.Services.__init__

    def fixed(self: object, *a: object, **k: object) -> None:
        real(self, *a, **k)  # type: ignore[arg-type]
        self.clock = lambda: when  # type: ignore[attr-defined]

    monkeypatch.setattr(app.Services, "__init__", fixed)
    return main(["archive", "--db", url, "--day", "2026-11-21", "--out", str(out),
                 "--as", "fran"])


def test_archive_of_a_closed_day_verifies_without_the_database(
        day: tuple[str, Path], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    url, tmp = day
    out = tmp / "day.archive.json"
    assert _archive(url, out, datetime(2026, 11, 23, tzinfo=UTC), monkeypatch) == 0
    assert "gaming day 2026-11-21, 5 hands" in capsys.readouterr().out
    (tmp / "room.sqlite3").unlink()  # no database from here on
    assert main(["verify", "--archive", str(out)]) == 0
    said = capsys.readouterr().out
    assert "archive of gaming day 2026-11-21: 5 hands" in said and said.rstrip().endswith(
        "intact")
    body = json.loads(json.loads(out.read_text())["body"])
    assert any(a[3] == "count" for a in body["audit"]) and body["keep_until"] == "2033-11-21"


def test_a_changed_archive_and_a_forged_ledger_line_are_named(
        day: tuple[str, Path], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    url, tmp = day
    out = tmp / "day.archive.json"
    assert _archive(url, out, datetime(2026, 11, 23, tzinfo=UTC), monkeypatch) == 0
    doc = json.loads(out.read_text())
    body = json.loads(doc["body"])
    body["tables"][0]["hands"][1]["ledger"][0][3] += 100  # one more dollar, say
    from dealer_assist.services.chain import canonical

    doc["body"] = canonical(body)
    out.write_text(json.dumps(doc))
    capsys.readouterr()
    assert main(["verify", "--archive", str(out)]) == 1
    err = capsys.readouterr().err
    assert "the signature does not verify" in err
    assert "table T1, hand 2: its ledger lines differ from its replay" in err


def test_an_open_day_is_not_archived(day: tuple[str, Path], monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    url, tmp = day
    assert _archive(url, tmp / "a.json", datetime(2026, 11, 21, 23, tzinfo=UTC),
                    monkeypatch) == 2
    assert "gaming day 2026-11-21 is not over" in capsys.readouterr().err
    assert not (tmp / "a.json").exists()


@pytest.mark.parametrize(("make", "said"), [
    (lambda tmp: (tmp / "deep.json").write_text("[" * 2000) and tmp / "deep.json",
     "deep.json nests too deeply: it is not an archive"),
    (lambda tmp: tmp, "is a folder, not an archive"),
    (lambda tmp: Path("/dev/zero"), "/dev/zero is not a regular file (a device or a pipe)"),
    (lambda tmp: (tmp / "list.json").write_text("[1]") and tmp / "list.json",
     "list.json is not an archive written by `dealer-assist archive`"),
    (lambda tmp: (tmp / "odd.json").write_text(json.dumps({
        "format": "dealer-assist-archive/1", "public_key": "00" * 32,
        "body": json.dumps({"tables": [{"id": 1, "events": [[1, 2]]}]})})) and tmp / "odd.json",
     "odd.json: the archive cannot be read"),
], ids=["brackets-2000", "folder", "dev-zero", "not-an-archive", "malformed-body"])
def test_regression_verify_archive_refuses_a_file_that_is_not_an_archive(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], make: object, said: str) -> None:
    """``verify --archive`` of ``[`` x 2,000 or of a folder exited 70 (a traceback), and of
    /dev/zero it never ended: refused with a message and exit 2, as every other input file."""
    path = make(tmp_path)  # type: ignore[operator]
    assert main(["verify", "--archive", str(path)]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_a_dealer_may_not_archive_and_the_refusal_is_logged(
        day: tuple[str, Path], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The archive's role check is the authorizer's: refused in its words and on the audit log
    (it used to leave no trace), with no file written."""
    url, tmp = day
    monkeypatch.setenv("DEALER_ASSIST_PIN", "1111")
    code = main(["archive", "--db", url, "--day", "2026-11-21", "--out", str(tmp / "d.json"),
                 "--as", "dee"])
    assert code == 2
    assert ("dee is a dealer: only a floor, auditor or admin user can archive a gaming day"
            in capsys.readouterr().err)
    assert not (tmp / "d.json").exists()
    svc = open_services(url, hasher=FAST)
    last = svc.reads.audit_log()[-1]
    assert (last.actor, last.action, last.detail) == ("dee", "refused",
                                                      "dealer tried to archive a gaming day")
    svc.store.close()

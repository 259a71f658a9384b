"""The room's signing key is never made behind the room's back: a station whose key is missing,
unreadable, not a key or readable by others signs nothing and says so (`keys init` is the one
way to make a key), and the report or shift close it was signing for says no checkpoint was
signed."""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

import pytest
from services.support import FAST, make_room

from dealer_assist.cli import main
from dealer_assist.db.bootstrap import open_database, open_services
from dealer_assist.db.checkpoints import latest_checkpoint
from dealer_assist.db.demo import fill_demo
from dealer_assist.db.keys import create_key, load_key, room_key
from dealer_assist.db.sealer import DbSealer
from dealer_assist.errors import BadInput
from dealer_assist.services.app import Approval

START = datetime(2026, 11, 20, 18, tzinfo=UTC)


def test_regression_a_missing_key_is_not_made_and_nothing_is_signed(
    tmp_path: Path, sqlite_url: str
) -> None:
    missing = tmp_path / "nokey" / "room-key.pem"
    db = open_database(sqlite_url)
    seal = DbSealer(db, missing).checkpoint("report")
    assert seal.number is None and not seal.ok
    assert seal.message.startswith("no checkpoint signed: this station has no room key")
    assert "dealer-assist keys init" in seal.message
    assert not missing.exists() and not missing.parent.exists()
    assert latest_checkpoint(db) is None
    db.close()


def test_regression_a_key_readable_by_others_is_refused_with_the_fix(tmp_path: Path) -> None:
    key = create_key(tmp_path / "room-key.pem")
    assert key.path is not None and (key.path.stat().st_mode & 0o777) == 0o600
    os.chmod(key.path, 0o644)
    with pytest.raises(BadInput) as caught:
        room_key(key.path)
    assert f"run `chmod 600 {key.path}`" in str(caught.value)
    os.chmod(key.path, 0o600)
    assert room_key(key.path).key_id == key.key_id


@pytest.mark.parametrize("content", [b"", b"not a key\n", b"\x00" * 64])
def test_regression_a_wrong_key_file_is_refused_and_left_as_it_is(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "room-key.pem"
    path.write_bytes(content)
    os.chmod(path, 0o600)
    with pytest.raises(BadInput, match="is not a signing key"):
        load_key(path)
    assert path.read_bytes() == content


def test_regression_a_folder_as_the_key_is_refused(tmp_path: Path) -> None:
    with pytest.raises(BadInput, match="is a folder"):
        room_key(tmp_path)
    with pytest.raises(BadInput, match="is a folder"):
        create_key(tmp_path)


def test_regression_checkpoints_sign_without_a_key_exits_2_and_makes_none(
    tmp_path: Path, sqlite_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "room-key.pem"
    assert main(["--db", sqlite_url, "checkpoints", "sign", "--key", str(missing)]) == 2
    err = capsys.readouterr().err
    assert "this station has no room key" in err and "keys init" in err
    assert not missing.exists()
    out = tmp_path / "anchors.json"
    assert main(["--db", sqlite_url, "checkpoints", "export", "--out", str(out),
                 "--key", str(missing)]) == 2
    assert not missing.exists() and not out.exists()


def test_report_and_shift_close_without_a_key_say_no_checkpoint_was_signed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from dealer_assist.reports import generate
    from tests.reports.pdftext import pages

    missing = tmp_path / "room-key.pem"
    monkeypatch.setenv("DEALER_ASSIST_KEY", str(missing))
    url = f"sqlite:///{tmp_path}/demo.db"
    db = open_database(url)
    fill_demo(db, hands=3, tables=1, seed=2, hasher=FAST, start=START)
    db.close()
    svc = open_services(url, hasher=FAST)
    fran = svc.sign_in("fran", "2000")
    done = generate.shift_report(svc, fran, tmp_path / "shift.pdf", table="Table 1")
    assert done.report.generated.checkpoint is None
    assert done.unsigned.startswith("no checkpoint signed: this station has no room key")
    text = " ".join(pages(tmp_path / "shift.pdf"))
    assert "No checkpoint signed" in text
    entry = svc.store.audit_log(action="report")[-1].detail
    assert "; no checkpoint signed: this station has no room key" in entry
    assert main(["--db", url, "report", "day", "--out", str(tmp_path / "day.pdf"), "--as",
                 "fran", "--pin", "2000"]) == 0
    assert "warning: no checkpoint signed" in capsys.readouterr().err

    room_svc = open_services(f"sqlite:///{tmp_path}/room.db", hasher=FAST)
    room = make_room(room_svc.store, clock=None)  # type: ignore[arg-type]
    room.svc.sealer = room_svc.sealer
    room.svc.settle(room.dealer, room.hand(["Ad", "Kd", "Qd"]))
    shift = room.svc.current_shift(room.table_id)
    assert shift is not None
    room.svc.close_shift(room.dealer, shift.id, approval=Approval("fran", "2222"))
    seal = room.svc.last_seal
    assert seal is not None and not seal.ok and seal.number is None
    assert seal.message.startswith("no checkpoint signed: this station has no room key")
    logged = room.store.audit_log(action="no-checkpoint")
    assert [e.detail for e in logged] == [seal.message]
    assert not missing.exists()


def test_regression_global_key_is_passed_to_the_commands_not_put_in_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``dealer-assist --key FILE ...`` wrote the path into ``DEALER_ASSIST_KEY`` for the
    whole process, so every child (print dialogs, PDF viewers) inherited it. The path now goes
    to the commands as an argument: the environment is as it was, and the report and the
    checkpoints are still signed with that key."""
    from dealer_assist.db.checkpoints import latest_checkpoint

    url = f"sqlite:///{tmp_path}/demo.db"
    db = open_database(url)
    fill_demo(db, hands=3, tables=1, seed=2, hasher=FAST, start=START)
    db.close()
    key = tmp_path / "keys" / "room-key.pem"
    key.parent.mkdir()
    fingerprint = create_key(key).key_id
    # no key in the environment: the one given is used, and none is left there after
    monkeypatch.delenv("DEALER_ASSIST_KEY")
    monkeypatch.setenv("DEALER_ASSIST_NO_USER_DB", "1")  # no key from the data folder either
    assert main(["--db", url, "--key", str(key), "report", "day", "--out",
                 str(tmp_path / "day.pdf"), "--as", "fran", "--pin", "2000"]) == 0
    assert "no checkpoint signed" not in capsys.readouterr().err
    assert "DEALER_ASSIST_KEY" not in os.environ
    db = open_database(url)
    first = latest_checkpoint(db)
    assert first is not None and first.key_id == fingerprint
    # a key in the environment stays as it was; the one given on the command line wins
    elsewhere = tmp_path / "elsewhere.pem"
    monkeypatch.setenv("DEALER_ASSIST_KEY", str(elsewhere))
    assert main(["--db", url, "--key", str(key), "checkpoints", "sign"]) == 0
    assert os.environ["DEALER_ASSIST_KEY"] == str(elsewhere) and not elsewhere.exists()
    second = latest_checkpoint(db)
    assert second is not None and second.number == first.number + 1
    assert second.key_id == fingerprint
    db.close()

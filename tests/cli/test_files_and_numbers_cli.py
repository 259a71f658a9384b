"""Files and numbers handed to the command line that used to crash it (exit 70), run it out of
memory, write through a link, create a database at a typo, or record an impossible amount:
each is now exit 2 with a message saying what is wrong."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest

from dealer_assist.cli import main
from dealer_assist.db.bootstrap import open_database
from dealer_assist.db.checkpoints import stored_checkpoints
from dealer_assist.db.journal_file import Journal
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.errors import BadInput

HUGE = "99999999999999999999999"
FRAN = ["--as", "fran", "--pin", "2000"]
TIMES = ["--started", "2026-11-24T06:10", "--ended", "2026-11-24T06:40"]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('files-numbers')}/demo.db"
    assert main(["demo", "--db", url, "--hands", "4", "--tables", "1", "--seed", "3"]) == 0
    return url


def _err(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err


def _code(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse's refusal
        return int(exc.code or 0)


def test_regression_verify_anchors_from_a_device_a_folder_or_deep_nesting_exits_2(
    demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", "--db", demo, "--anchors", "/dev/zero"]) == 2
    assert "/dev/zero is larger than 65,536 KiB: it is not a anchors file" in _err(capsys)
    assert main(["verify", "--db", demo, "--anchors", str(tmp_path)]) == 2
    assert f"{tmp_path} is a folder, not a anchors file" in _err(capsys)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["verify", "--db", demo, "--anchors", str(deep)]) == 2
    assert "nests too deeply: it is not an anchors file" in _err(capsys)
    odd = tmp_path / "odd.json"
    odd.write_text(json.dumps({"format": "dealer-assist-anchors/1", "public_key": "00" * 32,
                               "checkpoints": ["x", 5]}))
    assert main(["verify", "--db", demo, "--anchors", str(odd)]) == 2
    assert "an anchors entry cannot be read" in _err(capsys)


def test_regression_a_folder_as_the_key_exits_2(
    demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", "--db", demo, "--key", str(tmp_path)]) == 2
    assert "is a folder, not the room's signing key" in _err(capsys)
    assert main(["--db", demo, "checkpoints", "sign", "--key", str(tmp_path)]) == 2
    assert "is a folder" in _err(capsys)


def test_regression_a_folder_device_database_or_non_sqlite_file_as_a_journal_is_refused(
    demo: str, tmp_path: Path
) -> None:
    with pytest.raises(BadInput, match="is a folder, not a station's journal"):
        Journal(tmp_path)
    with pytest.raises(BadInput, match=r"/dev/null is not a regular file \(a device or a pipe\)"):
        Journal(Path("/dev/null"))
    text = tmp_path / "notes.txt"
    text.write_text("this is not a database\n" * 100)
    with pytest.raises(BadInput, match=r"is not a station's journal .*file is not a database"):
        Journal(text)
    assert text.read_text() == "this is not a database\n" * 100
    room = Path(demo.removeprefix("sqlite:///"))
    before = room.read_bytes()
    with pytest.raises(BadInput, match=r"is not a station's journal \(it holds other tables: "):
        Journal(room)
    con = sqlite3.connect(room)
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    con.close()
    assert not tables & {"ops", "stops", "reserved", "meta"}
    assert room.read_bytes() == before


def test_regression_a_journal_file_is_made_readable_by_its_user_only(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"")
    os.chmod(path, 0o644)
    Journal(path).close()
    assert (path.stat().st_mode & 0o777) == 0o600
    fresh = tmp_path / "new.sqlite3"
    Journal(fresh).close()
    assert (fresh.stat().st_mode & 0o777) == 0o600


@pytest.mark.parametrize("argv", [
    ["count", "--shift", HUGE, "--box", "B1", "--amount", "5", "--team", "A B"],
    ["report", "shift", "--table", HUGE, "--out", "x.pdf"],
    ["report", "shift", "--table", "\u0663", "--out", "x.pdf"],
    ["import", "/dev/null", "--table", HUGE],
])
def test_regression_numbers_beyond_64_bits_exit_2(
    argv: list[str], demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert _code([*argv, "--db", demo, *FRAN]) == 2
    err = _err(capsys)
    assert "is not a record number" in err or "there is no table" in err, err


def test_regression_a_drop_count_above_any_box_is_not_recorded(
    demo: str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = SqlStore(open_database(demo))
    shift = store.list_shifts()[0]
    before = len(store.audit_log(action="count"))
    assert main(["count", "--db", demo, "--shift", str(shift.id), "--box", "B1", "--amount",
                 HUGE, "--team", "Ann Lee,Bo Chan", *TIMES, *FRAN]) == 2
    assert "is more than any drop box holds" in _err(capsys)
    assert main(["count", "--db", demo, "--shift", str(shift.id), "--box", "B1",
                 "--denominations", f"100x{HUGE}", "--team", "Ann Lee,Bo Chan", *TIMES, *FRAN]) == 2
    assert len(store.audit_log(action="count")) == before
    store.close()


@pytest.mark.parametrize("argv", [
    ["checkpoints", "list"], ["checkpoints", "sign"], ["room"],
    ["count", "--shift", "1", "--box", "B1", "--amount", "5", "--team", "Ann Lee", *FRAN],
    ["users", "disable", "dee", *FRAN], ["users", "enable", "dee", *FRAN],
    ["users", "reset-pin", "dee", "--new-pin", "1234", *FRAN],
])
def test_regression_commands_on_a_typo_path_create_no_database(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "typo" / "room.db"
    assert _code([*argv, "--db", f"sqlite:///{missing}"]) == 2
    assert "there is no database at" in _err(capsys)
    assert not missing.parent.exists()


def test_regression_export_and_reports_never_replace_a_link_or_a_device(
    demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    link = tmp_path / "link.pdf"
    link.symlink_to(target)
    anchors_link = tmp_path / "anchors.json"
    anchors_link.symlink_to(target)
    db = open_database(demo)
    with db.engine.connect() as conn:
        before = len(stored_checkpoints(conn))
    assert main(["--db", demo, "checkpoints", "export", "--out", str(anchors_link)]) == 2
    assert "is a symbolic link" in _err(capsys)
    assert main(["--db", demo, "checkpoints", "export", "--out", "/dev/null"]) == 2
    assert "is not a regular file (a device or a pipe)" in _err(capsys)
    with db.engine.connect() as conn:
        assert len(stored_checkpoints(conn)) == before  # nothing was signed
    assert main(["report", "day", "--db", demo, "--out", str(link), *FRAN]) == 2
    assert "is a symbolic link" in _err(capsys)
    assert main(["export", "--db", demo, "--hand", "1", "--out", "/dev/full", *FRAN]) == 2
    assert "is not a regular file" in _err(capsys)
    assert target.read_text() == "keep me" and link.is_symlink() and anchors_link.is_symlink()
    db.close()


def test_regression_a_checkpoint_rows_reason_and_time_are_checked_against_the_signature(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path}/room.db"
    assert main(["demo", "--db", url, "--hands", "2", "--tables", "1", "--seed", "3"]) == 0
    assert main(["--db", url, "checkpoints", "sign"]) == 0
    db = open_database(url)
    assert verify_database(db).ok
    for (trigger,) in sqlite3.connect(db.sqlite_path).execute(  # type: ignore[arg-type]
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'checkpoints'"):
        with db.engine.begin() as conn:
            conn.exec_driver_sql(f"DROP TRIGGER {trigger}")
    with db.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE checkpoints SET reason = 'shift 9 closed'")
    report = verify_database(db)
    assert not report.ok
    assert "checkpoint 1: its stored reason or time ('shift 9 closed'" in report.summary()
    with db.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE checkpoints SET reason = 'signed by hand', "
                             "at = '2020-01-01 00:00:00.000000'")
    assert "differs from what was signed" in verify_database(db).summary()
    db.close()


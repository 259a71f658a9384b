"""Every door on the command line: bad input gets a message and exit 2, never a traceback
(exit 70), a hang, or a database created by a command that only reads."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from dealer_assist.cli import main
from dealer_assist.db.bootstrap import open_database
from dealer_assist.db.store import SqlStore


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> str:
    url = f"sqlite:///{tmp_path_factory.mktemp('bad-input')}/demo.db"
    assert main(["demo", "--db", url, "--hands", "6", "--tables", "2", "--seed", "3"]) == 0
    return url


def _err(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err


@pytest.mark.parametrize("command", [["verify"], ["db", "info"],
                                     ["users", "list", "--as", "admin", "--pin", "1000"],
                                     ["export", "--hand", "1", "--as", "otto", "--pin", "4000"],
                                     ["report", "day", "--out", "x.pdf", "--as", "otto",
                                      "--pin", "4000"]])
def test_regression_commands_that_only_read_never_create_a_database(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no" / "such" / "x.db"
    assert main([*command, "--db", f"sqlite:///{missing}"]) == 2
    assert "there is no database at" in _err(capsys)
    assert not missing.parent.exists()
    empty = tmp_path / "empty.db"
    empty.write_bytes(b"")
    assert main([*command, "--db", f"sqlite:///{empty}"]) == 2
    assert "is an empty file, not a Dealer Assist database" in _err(capsys)
    assert empty.stat().st_size == 0
    assert main([*command, "--db", "sqlite://"]) == 2
    assert "sqlite:// is an empty in-memory database" in _err(capsys)


def test_regression_ids_beyond_the_database_are_refused_by_the_command_line(
    demo: str, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = "99999999999999999999999"
    for argv in (["export", "--hand", huge], ["report", "shift", "--shift", huge, "--out",
                                              "x.pdf"]):
        with pytest.raises(SystemExit) as done:
            main([*argv, "--db", demo, "--as", "otto", "--pin", "4000"])
        assert done.value.code == 2
        assert "is not a record number" in _err(capsys)


def test_regression_a_date_past_the_calendar_is_refused(
    demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "audit", "--from", "9999-12-31", "--out", str(tmp_path / "a.pdf"),
                 "--db", demo, "--as", "otto", "--pin", "4000"]) == 2
    assert "not a date the room can have records for" in _err(capsys)


def test_regression_export_to_a_missing_folder_is_refused_before_it_is_logged(
    demo: str, capsys: pytest.CaptureFixture[str]
) -> None:
    store = SqlStore(open_database(demo))
    before = len(store.audit_log(action="export"))
    assert main(["export", "--hand", "1", "--out", "/nonexistent/x.jsonl", "--db", demo,
                 "--as", "otto", "--pin", "4000"]) == 2
    assert "the folder /nonexistent" in _err(capsys)
    assert len(store.audit_log(action="export")) == before
    store.close()


def test_regression_a_folder_or_a_binary_file_is_refused(
    demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["import", str(tmp_path), "--table", "Table 1", "--db", demo,
                 "--as", "fran", "--pin", "2000"]) == 2
    assert "is a folder, not a hand log" in _err(capsys)
    binary = tmp_path / "x.bin"
    binary.write_bytes(bytes(range(256)) * 4)
    assert main(["table", "time", str(binary), str(binary)]) == 2
    assert "not UTF-8" in _err(capsys)
    assert main(["replay", str(binary)]) == 2
    assert _err(capsys).startswith("error: line 1: not valid JSON")


def test_regression_numbers_and_nesting_in_files_are_bounded(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "big.jsonl"
    log.write_text('{"type":"start","game":"champs-and-cowards","seats":[1,2,3],"chip":'
                   + "9" * 5000 + "}\n")
    assert main(["replay", str(log)]) == 2
    assert "has 5000 digits" in _err(capsys)
    deep = tmp_path / "deep.json"
    deep.write_text('{"a":' * 20000 + "1" + "}" * 20000)
    assert main(["table", "check", str(deep)]) == 2
    assert "nests too deeply" in _err(capsys)
    toml = tmp_path / "deep.toml"
    toml.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    assert main(["table", "check", str(toml)]) == 2
    assert "nests too deeply" in _err(capsys)
    pct = tmp_path / "pct.json"
    pct.write_text(json.dumps({
        "name": "x", "game": "caro-holdem", "seats": 3, "smallest_chip": 100, "buy_in": 100000,
        "params": {"unit": 1000, "ante": 100, "cap": 4},
        "fee": {"kind": "rake", "percent": "1e-999999999", "cap": 500}}))
    assert main(["table", "check", str(pct)]) == 2  # (used to hang in Fraction(Decimal))
    assert "is not a percent like" in _err(capsys)


def test_pin_from_a_file_or_standard_input_and_help_says_so(
    demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pin = tmp_path / "pin"
    pin.write_text("4000\n")
    assert main(["export", "--hand", "1", "--db", demo, "--as", "otto",
                 "--pin-file", str(pin)]) == 0
    assert capsys.readouterr().out.startswith('{"')
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"4000\n")))
    assert main(["export", "--hand", "1", "--db", demo, "--as", "otto", "--pin-stdin"]) == 0
    capsys.readouterr()
    assert main(["export", "--hand", "1", "--db", demo, "--as", "otto",
                 "--pin-file", str(tmp_path / "nope")]) == 2
    assert "no such PIN file" in _err(capsys)
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--pin-file FILE" in text and "--pin-stdin" in text
    assert "can see it in the process list" in text


def test_report_game_prints_the_tables_latest_game_and_refuses_an_unknown_table(
    demo: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = SqlStore(open_database(demo))
    table = store.list_tables()[0].name
    out = tmp_path / "game.pdf"
    assert main(["report", "game", "--table", table, "--out", str(out), "--db", demo,
                 "--as", "otto", "--pin", "4000"]) == 0
    assert "game report, 1 page" in capsys.readouterr().out and out.read_bytes()[:5] == b"%PDF-"
    assert store.audit_log(action="report")[-1].detail.startswith(f"game report: table {table}")
    assert main(["report", "game", "--table", "No such table", "--out", str(tmp_path / "x.pdf"),
                 "--db", demo, "--as", "otto", "--pin", "4000"]) == 2
    assert "No such table" in _err(capsys) and not (tmp_path / "x.pdf").exists()

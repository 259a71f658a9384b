"""Fuzzing the command line with hypothesis: hand logs, table settings files and arguments,
each a valid one with a hostile change. Whatever comes in, the program answers with exit 0, or
exit 2 and a message; never a traceback (exit 70) or a hang (a watchdog stops an example that
runs for minutes); and a refused import leaves the database as it was.

Kept lean (a few dozen examples each) so it adds seconds, not minutes, to the suite.
"""

from __future__ import annotations

import json
import signal
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.cli import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "data" / "examples"
TABLES = ROOT / "docs" / "examples" / "tables"
FUZZ = settings(max_examples=25, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture,
                                       HealthCheck.too_slow])

#: Stands for a 5,000-digit number (written into the file as digits, past Python's own limit).
BIG = "__5000_DIGITS__"


def _dumps(value: Any) -> str:
    return json.dumps(value).replace(f'"{BIG}"', "9" * 5000)


#: Values a hostile file carries: huge and tiny numbers, exponents, deep nesting, long text.
HOSTILE: st.SearchStrategy[Any] = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.sampled_from([9_200_000_000_000_000_000, BIG, -1, 0, 2**63, 5_000_000]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(["1e-999999999", "1e999999", "5", "2.5", "-0", "NaN", "%", "", "7h", "Td",
                     "x" * 20_000]),
    st.text(max_size=20),
    st.booleans(),
    st.none(),
    st.integers(min_value=1, max_value=200).map(lambda n: json.loads("[" * n + "]" * n)),
    st.dictionaries(st.text(max_size=8), st.integers(), max_size=3),
)


@contextmanager
def watchdog(seconds: int = 120) -> Iterator[None]:
    """Fail an example that hangs (generous: this is about hangs, not speed)."""

    def stop(*_: object) -> None:
        raise TimeoutError(f"no answer within {seconds} s: the program hangs")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _answer(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    with watchdog():
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse's own refusal
            code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code in (0, 2), f"exit {code} for {argv}: {err[-500:]}"
    if code == 2:
        assert err.strip(), f"exit 2 without a message for {argv}"
        assert "Traceback" not in err
    return code, err


def _mutate(lines: list[dict[str, Any]], data: st.DataObject) -> list[dict[str, Any]]:
    out = [dict(x) for x in lines]
    for _ in range(data.draw(st.integers(1, 3), label="changes")):
        row = out[data.draw(st.integers(0, len(out) - 1), label="line")]
        key = data.draw(st.sampled_from([*sorted(row), "stacks", "carry_in", "fee"]), label="key")
        row[key] = data.draw(HOSTILE, label="value")
    return out


def _log_text(rows: list[dict[str, Any]]) -> str:
    return "".join(_dumps(r) + "\n" for r in rows)


LOGS = sorted(EXAMPLES.glob("*.jsonl"))


@FUZZ
@given(data=st.data())
def test_fuzz_hand_logs_replay_or_are_refused(
    data: st.DataObject, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = data.draw(st.sampled_from(LOGS), label="log")
    rows = [json.loads(x) for x in base.read_text().splitlines() if x.strip()]
    path = tmp_path / "fuzz.jsonl"
    path.write_text(_log_text(_mutate(rows, data)))
    _answer(["replay", str(path), "--json"], capsys)


SETTINGS = sorted(TABLES.glob("*.toml")) + sorted(TABLES.glob("*.json"))


@FUZZ
@given(data=st.data())
def test_fuzz_table_settings_are_checked_or_refused(
    data: st.DataObject, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from dealer_assist.bounded import loads_toml

    base = data.draw(st.sampled_from(SETTINGS), label="settings")
    text = base.read_text()
    doc = json.loads(text) if base.suffix == ".json" else loads_toml(text, where="base")
    doc = _mutate([doc], data)[0]
    fee = doc.get("fee")
    if isinstance(fee, dict) and data.draw(st.booleans(), label="fee"):
        fee[data.draw(st.sampled_from(["percent", "bps", "cap", "amount"]))] = data.draw(HOSTILE)
    path = tmp_path / "fuzz.json"
    path.write_text(_dumps(doc))
    _answer(["table", "check", str(path), "--start"], capsys)


COMMANDS = ["replay", "eval", "table", "verify", "export", "import", "report", "users"]


@FUZZ
@given(command=st.sampled_from(COMMANDS), argv=st.lists(st.one_of(
    st.sampled_from(["replay", "eval", "table", "check", "time", "presets", "verify", "export",
                     "import", "report", "shift", "hand", "audit", "day", "users", "list",
                     "--hand", "--shift", "--from", "--to", "--out", "--table", "--json",
                     "--pin-file", "--as", "-"]),
    st.sampled_from(["99999999999999999999999", "0", "-1", "9999-12-31", "/nonexistent/x",
                     "/", "/dev/null", "1e-999999999", "Ks Kd", "As 2s 3s 4s 5s"]),
    st.text(max_size=12)), max_size=6))
def test_fuzz_arguments_get_exit_0_or_2_and_create_no_database(
    command: str, argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """(Always a command: with none, the program opens the app's window.)"""
    monkeypatch.setenv("DEALER_ASSIST_DB", f"sqlite:///{tmp_path}/none.db")
    monkeypatch.setattr("sys.stdin", open("/dev/null"))  # noqa: SIM115 (pytest closes it)
    _answer([command, *argv], capsys)
    if command != "users":  # (users add may create the database, as db upgrade does)
        assert not (tmp_path / "none.db").exists()


def _snapshot(db: Path) -> tuple[Any, ...]:
    con = sqlite3.connect(db)
    try:
        return tuple(con.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
                     for t in ("hands", "events", "shifts", "ledger_lines")) + tuple(
            con.execute("SELECT head_seq, head_hash FROM card_tables ORDER BY id").fetchall())
    finally:
        con.close()


@pytest.fixture(scope="module")
def room_db(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """A demo database and a hand exported from it (the base log the import fuzz changes)."""
    folder = tmp_path_factory.mktemp("fuzz-import")
    db = folder / "demo.db"
    assert main(["demo", "--db", f"sqlite:///{db}", "--hands", "4", "--tables", "1",
                 "--seed", "2"]) == 0
    log = folder / "hand.jsonl"
    assert main(["export", "--db", f"sqlite:///{db}", "--hand", "1", "--out", str(log),
                 "--as", "fran", "--pin", "2000"]) == 0
    return db, log


@settings(max_examples=15, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_a_refused_import_leaves_the_database_unchanged(
    data: st.DataObject, room_db: tuple[Path, Path], tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db, log = room_db
    rows = [json.loads(x) for x in log.read_text().splitlines()]
    path = tmp_path / "fuzz.jsonl"
    path.write_text(_log_text(_mutate(rows, data)))
    pin = tmp_path / "pin"
    pin.write_text("2000\n")
    before = _snapshot(db)
    code, _ = _answer(["import", str(path), "--table", "Table 1", "--db", f"sqlite:///{db}",
                       "--as", "fran", "--pin-file", str(pin)], capsys)
    if code == 2:
        assert _snapshot(db) == before


#: What a hostile person types where a number goes: beyond 64 bits, negative, a float, a digit
#: of another script, nothing.
NUMBERS = ["99999999999999999999999", "9223372036854775808", "-1", "0", "1", "1e9", "\u0663",
           "", "2147483648", "0x10"]
#: Where a file is read: a folder, devices, a missing path, and files made by the fixture.
IN_FILES = ["/", "/dev/null", "/dev/zero", "/nonexistent/x", "@empty", "@binary", "@deep",
            "@digits", "@link", "@room"]
#: Where a file is written: devices, a folder, a link to a file that must survive, a new file.
OUT_FILES = ["/dev/null", "/dev/full", "/", "/nonexistent/x.pdf", "@link", "@new.pdf"]
FRAN = ["--as", "fran", "--pin", "2000"]
TIMES = ["--started", "2026-11-24T06:10", "--ended", "2026-11-24T06:40"]
#: Every command that takes a file or a number (F: read, O: written, K: key, N: number).
TEMPLATES: list[list[str]] = [
    ["replay", "F"], ["table", "check", "F"], ["table", "time", "F", "F"],
    ["table", "presets", "--presets", "F"],
    ["verify", "--anchors", "F"], ["verify", "--key", "K"],
    ["export", "--hand", "N", "--out", "O", *FRAN], ["import", "F", "--table", "N", *FRAN],
    ["report", "shift", "--shift", "N", "--out", "O", *FRAN],
    ["report", "hand", "--hand", "N", "--out", "O", *FRAN],
    ["report", "day", "--table", "N", "--out", "O", *FRAN],
    ["keys", "show", "--key", "K"], ["checkpoints", "sign", "--key", "K"],
    ["checkpoints", "export", "--out", "O", "--key", "K"],
    ["count", "--shift", "N", "--box", "B1", "--amount", "N", "--team", "Ann Lee", *TIMES,
     *FRAN],
    ["count", "--shift", "1", "--box", "B1", "--denominations", "NxN", "--team", "Ann Lee",
     *TIMES, *FRAN],
    ["drop", "--shift", "N", "--box", "B1", *FRAN],
    ["count-signoff", "--entry", "N", "--explanation", "x", *FRAN],
    ["count", "--shift", "1", "--box", "B1", "--amount", "1", "--corrects", "N", "--reason",
     "x", "--team", "Ann Lee", *TIMES, *FRAN],
    ["room", "--day-starts", "N", *FRAN],
    ["users", "list", "--as", "fran", "--pin-file", "F"],
    ["journal", "--journal", "F"], ["journal", "set-aside", "--table", "N", "--journal", "F"],
    ["demo", "--hands", "N", "--tables", "N", "--seed", "N", "--db", "@fresh"],
    ["eval", "As", "Kd", "Qh", "Js", "9d", "--board", "2c 3c 4c", "--private", "As Kd",
     "--max-private", "N"],
    ["eval", "As", "Kd", "Qh", "Js", "9d", "--low", "--qualifier", "N"],
    ["eval", "As", "Kd", "Qh", "Js", "9d", "--board", "2c 3c 4c", "--private", "As Kd",
     "--exact-private", "N"],
    ["export", "--hand", "1", "--as", "fran", "--pin-file", "F"],
    ["users", "add", "nn", "--full-name", "N N", "--role", "dealer", "--new-pin-file", "F",
     *FRAN],
    ["users", "reset-pin", "dee", "--new-pin-file", "F", *FRAN],
    ["db", "upgrade", "--admin-pin-file", "F", "--db", "@fresh"],
    ["db", "upgrade", "--station-role", "N"],
    ["--key", "K", "checkpoints", "sign"],
]


@pytest.fixture(scope="module")
def hostile_files(tmp_path_factory: pytest.TempPathFactory,
                  room_db: tuple[Path, Path]) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("hostile")
    precious = folder / "precious.txt"
    precious.write_text("keep me")
    made = {"@empty": b"", "@binary": bytes(range(256)) * 8,
            "@deep": b"[" * 100_000 + b"]" * 100_000, "@digits": b"9" * 5000}
    out = {}
    for name, data in made.items():
        (folder / name[1:]).write_bytes(data)
        out[name] = folder / name[1:]
    (folder / "link").symlink_to(precious)
    out["@link"] = folder / "link"
    out["@room"] = room_db[0]
    out["@precious"] = precious
    return out


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_every_commands_files_and_numbers_get_exit_0_or_2(
    data: st.DataObject, room_db: tuple[Path, Path], hostile_files: dict[str, Path],
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each command's file and number arguments, each given something hostile: exit 0 or 2
    with a message, never a traceback, a hang, a write through a link or into a device, or a
    database made at a path nobody meant."""
    db, _log = room_db
    monkeypatch.setenv("DEALER_ASSIST_DB", f"sqlite:///{db}")
    monkeypatch.setattr("sys.stdin", open("/dev/null"))  # noqa: SIM115 (pytest closes it)
    template = data.draw(st.sampled_from(TEMPLATES), label="command")

    def fill(slot: str) -> str:
        if slot == "N":
            return data.draw(st.sampled_from(NUMBERS), label="number")
        if slot == "NxN":
            return "x".join(data.draw(st.sampled_from(NUMBERS), label="number")
                            for _ in range(2))
        if slot in ("F", "K"):
            chosen = data.draw(st.sampled_from(IN_FILES), label="file")
            return str(hostile_files.get(chosen, chosen))
        if slot == "O":
            chosen = data.draw(st.sampled_from(OUT_FILES), label="out")
            if chosen == "@new.pdf":
                return str(tmp_path / "new.pdf")
            return str(hostile_files.get(chosen, chosen))
        if slot == "@fresh":
            return f"sqlite:///{tmp_path}/fresh.db"
        return slot

    argv = [fill(a) for a in template]
    _answer(argv, capsys)
    assert hostile_files["@precious"].read_text() == "keep me"
    assert hostile_files["@link"].is_symlink()
    assert not Path("/nonexistent").exists()

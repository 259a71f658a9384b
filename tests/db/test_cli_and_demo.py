"""The database commands and the demo, run through ``dealer_assist.cli.main`` as a user would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealer_assist.cli import main
from dealer_assist.db.bootstrap import open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.services import HandFilter


@pytest.fixture(scope="module")
def demo_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """One demo database for the read-only checks of this module."""
    url = f"sqlite:///{tmp_path_factory.mktemp('demo')}/demo.db"
    assert main(["demo", "--db", url, "--hands", "30", "--tables", "3", "--seed", "4"]) == 0
    return url


def test_demo_deals_both_games_with_fees_a_void_a_dispute_and_a_reveal(demo_url: str) -> None:
    store = SqlStore(open_database(demo_url))
    hands = store.list_hands(HandFilter(limit=None))
    assert len(hands) == 30 and {h.status for h in hands} == {"settled"}
    # (the tables take the games with a demo table in turn, in the registry's order)
    assert {h.game for h in hands} == {"champs-and-cowards", "caro-holdem", "ofc"}
    assert [t.name for t in store.list_tables()] == ["Table 1", "Table 2", "Table 3"]
    fees = [x for h in hands for x in store.ledger(h.id) if x.kind == "fee"]
    assert {x.detail for x in fees} >= {"player-fee"}
    voids = [r for h in hands for r in store.hand_events(h.id) if r.body["type"] == "void"]
    assert len(voids) == 1 and voids[0].body["reason"] == "keyed too early"
    (dispute,) = store.disputes()
    assert sum(a.amount for a in dispute.adjustments) == 0
    actions = {e.action for e in store.audit_log()}
    assert {"login", "shift-opened", "void", "reveal", "dispute"} <= actions
    assert store.cardroom_name() == "Riverside Cardroom (demo)"
    store.close()


def test_verify_of_the_demo_exits_0(demo_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--db", demo_url]) == 0
    assert "intact: 3 tables, 30 hands" in capsys.readouterr().out


def test_global_db_option_and_env_both_work(
    demo_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["--db", demo_url, "db", "info"]) == 0
    assert "hands: 30" in capsys.readouterr().out
    monkeypatch.setenv("DEALER_ASSIST_DB", demo_url)
    assert main(["verify"]) == 0


def test_export_writes_the_replay_format_and_is_logged(
    demo_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "hand.jsonl"
    code = main(["export", "--db", demo_url, "--hand", "2", "--out", str(out),
                 "--as", "otto", "--pin", "4000"])
    assert code == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert lines[0]["type"] == "start" and {"seq", "time", "actor", "hash"} <= set(lines[0])
    assert main(["replay", str(out)]) == 0
    store = SqlStore(open_database(demo_url))
    last = store.audit_log(action="export")[-1]
    assert (last.actor, last.hand_id) == ("otto", 2)
    store.close()


def test_import_replays_first_and_names_a_bad_line(
    demo_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        '{"type":"start","game":"champs-and-cowards","seats":[1,2,3],"chip":200,"decks":1,'
        '"fee":{"amount":100,"kind":"per-player"}}\n'
        '{"type":"card","seat":1,"card":"9d"}\n{"type":"card","seat":2,"card":"9d"}\n'
    )
    code = main(["import", str(bad), "--table", "Table 1", "--db", demo_url,
                 "--as", "fran", "--pin", "2000"])
    assert code == 2
    assert "error: line 3:" in capsys.readouterr().err
    good = tmp_path / "good.jsonl"
    assert main(["export", "--db", demo_url, "--hand", "3", "--out", str(good),
                 "--as", "fran", "--pin", "2000"]) == 0
    assert main(["import", str(good), "--table", "Table 2", "--db", demo_url,
                 "--as", "fran", "--pin", "2000"]) == 2  # a Caro Hold 'em table
    assert "the hand log is champs-and-cowards, but Table 2 plays caro-holdem" in (
        capsys.readouterr().err)
    assert main(["import", str(good), "--table", "Table 1", "--db", demo_url,
                 "--as", "fran", "--pin", "2000"]) == 0
    assert "of Table 1" in capsys.readouterr().out
    assert main(["verify", "--db", demo_url]) == 0


def test_first_run_admin_users_and_wrong_pins(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path}/new.db"
    assert main(["db", "upgrade", "--db", url]) == 2
    assert "no admin yet: run `dealer-assist db upgrade --admin-pin-file FILE`" in (
        capsys.readouterr().err)
    assert main(["db", "upgrade", "--db", url, "--admin-name", "boss",
                 "--admin-full-name", "Bo Boss", "--admin-pin", "7777"]) == 0
    assert "created the admin boss" in capsys.readouterr().err
    assert main(["users", "add", "kim", "--full-name", "Kim Lee", "--role", "floor",
                 "--new-pin", "1234", "--db", url, "--as", "boss", "--pin", "7777"]) == 0
    assert main(["users", "list", "--db", url, "--as", "kim", "--pin", "1234"]) == 2
    assert "kim is a floor: only admin can see the users" in capsys.readouterr().err
    for _ in range(2):
        assert main(["users", "list", "--db", url, "--as", "boss", "--pin", "0000"]) == 2
        assert "unknown name or wrong PIN" in capsys.readouterr().err
    assert main(["users", "list", "--db", url, "--as", "boss", "--pin", "0000"]) == 2
    assert "boss is locked until" in capsys.readouterr().err


def test_pins_being_set_come_from_a_file_or_stdin_not_the_process_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """--admin-pin and --new-pin have -file and -stdin forms, as the sign-in PIN has, so no
    PIN being set need show in the process list; --help warns about the plain forms."""
    import io

    url = f"sqlite:///{tmp_path}/new.db"
    admin_pin = tmp_path / "admin.pin"
    admin_pin.write_text("7777\n")
    new_pin = tmp_path / "kim.pin"
    new_pin.write_text("1234\n")
    assert main(["db", "upgrade", "--db", url, "--admin-name", "boss",
                 "--admin-full-name", "Bo Boss", "--admin-pin-file", str(admin_pin)]) == 0
    boss = ["--db", url, "--as", "boss", "--pin-file", str(admin_pin)]
    assert main(["users", "add", "kim", "--full-name", "Kim Lee", "--role", "floor",
                 "--new-pin-file", str(new_pin), *boss]) == 0
    assert main(["users", "list", "--db", url, "--as", "kim", "--pin", "1234"]) == 2
    assert "only admin can see the users" in capsys.readouterr().err  # signed in: PIN taken
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"5678\n")))
    assert main(["users", "reset-pin", "kim", "--new-pin-stdin", *boss]) == 0
    assert main(["users", "list", "--db", url, "--as", "kim", "--pin", "5678"]) == 2
    assert "only admin can see the users" in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"7777\n1111\n")))
    assert main(["users", "reset-pin", "kim", "--new-pin-stdin", "--db", url, "--as", "boss",
                 "--pin-stdin"]) == 2
    assert "--pin-stdin and --new-pin-stdin cannot share standard input" in (
        capsys.readouterr().err)
    assert main(["users", "reset-pin", "kim", "--new-pin-file", str(tmp_path / "none"),
                 *boss]) == 2
    assert "no such PIN file" in capsys.readouterr().err
    for argv, flag in ((["users", "reset-pin", "--help"], "--new-pin"),
                       (["users", "add", "--help"], "--new-pin"),
                       (["db", "upgrade", "--help"], "--admin-pin")):
        with pytest.raises(SystemExit):
            main(argv)
        text = " ".join(capsys.readouterr().out.split())
        assert f"{flag}-file FILE" in text and f"{flag}-stdin" in text
        assert "can see it in the process list" in text


def test_users_disable_enable_and_list_show_sign_in_state(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path}/new.db"
    boss = ["--db", url, "--as", "boss", "--pin", "7777"]
    assert main(["db", "upgrade", "--db", url, "--admin-name", "boss",
                 "--admin-full-name", "Bo Boss", "--admin-pin", "7777"]) == 0
    assert main(["users", "add", "kim", "--full-name", "Kim Lee", "--role", "dealer",
                 "--new-pin", "1234", *boss]) == 0
    assert main(["users", "list", "--db", url, "--as", "kim", "--pin", "9999"]) == 2
    capsys.readouterr()
    assert main(["users", "disable", "kim", *boss]) == 0
    assert "kim disabled" in capsys.readouterr().out
    assert main(["users", "list", *boss]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("kim"))
    assert line.endswith("Kim Lee  (disabled, 1 wrong PIN)")
    assert main(["users", "disable", "boss", *boss]) == 2
    assert "cannot disable" in capsys.readouterr().err
    assert main(["users", "enable", "kim", *boss]) == 0
    assert "kim enabled" in capsys.readouterr().out


def test_regression_corrupt_sqlite_file_is_named_as_damaged_not_as_a_network_fault(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "tables.db"
    bad.write_bytes(b"this is not a database at all\n" * 200)
    assert main(["verify", "--db", f"sqlite:///{bad}"]) == 2
    err = capsys.readouterr().err
    assert "is not a Dealer Assist database, or it is damaged" in err
    assert "network" not in err
    assert bad.read_bytes() == b"this is not a database at all\n" * 200

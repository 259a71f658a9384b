"""One event appended behind the app's back that no reader can take is that record's fault, and
nothing else's (issue 40, item 2), on the SQLite file an insider holds.

Regression: a body of 200,000 opening brackets with a correct hash, or a Mille meld holding
"JK", made every verify mode, the shift report and export exit 70 (RecursionError, KeyError),
and `checkpoints sign` signed over it, so `verify --since-checkpoint` said intact. Now verify
names the record and checks the rest; every report and export goes on without it; no
checkpoint is signed over it. And the games' readers refuse a joker before it is
written (item 5): the services refuse it, and replay and import name the line.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from reports.pdftext import pages
from services.support import Room, make_room

from dealer_assist.cards import parse_cards
from dealer_assist.cli import main
from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.engine.hand import to_lines
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import BadInput, HandLogError
from dealer_assist.games.mille.events import Meld
from dealer_assist.services.live import LiveView

from .poison import DEEP, append_raw

MILLE = {"game": "mille", "seats": 2, "smallest_chip": 100, "stakes": "$1-$5",
         "params": {"stakes": [100, 500]}}
PAIUTE = {"game": "paiute", "seats": 5, "smallest_chip": 100, "stakes": "$1 ante",
          "params": {"ante": 100}}


@pytest.fixture
def database(sqlite_url: str) -> Iterator[Database]:
    db = open_database(sqlite_url)
    yield db
    db.close()


def _settled_then_begun(room: Room) -> tuple[int, int]:
    first = room.hand(["Ad", "Kd", "Qd"])
    room.svc.settle(room.dealer, first)
    now = room.svc.start_hand(room.dealer, room.table_id, seats=(1, 2, 3))
    return first, now.hand.id


def _cli(database: Database, *args: str) -> int:
    return main(["--db", database.url, *args])


def _err(capsys: pytest.CaptureFixture[str]) -> str:
    return capsys.readouterr().err


def test_regression_a_body_nested_200000_deep_is_named_and_every_report_goes_on(
    database: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    room = make_room(SqlStore(database))
    first, second = _settled_then_begun(room)
    assert database.sqlite_path is not None
    seq = append_raw(database.sqlite_path, second, DEEP)
    fault = (f"seq {seq}: hand 2, event 2: the stored event cannot be read (it is 200,000 "
             "characters long: no event is longer than 32,768); the hand is skipped")

    report = verify_database(database)
    assert not report.ok and report.hands == 2  # named, and the other hand still checked
    assert f"NOT INTACT: table T1 (id {room.table_id}), {fault}" in report.summary()
    assert _cli(database, "verify") == 1
    assert fault in _err(capsys)

    # no checkpoint is signed over it: `checkpoints sign` checks first, names it, signs nothing
    assert _cli(database, "checkpoints", "sign") == 1
    err = _err(capsys)
    assert fault in err and "no checkpoint signed" in err
    assert _cli(database, "verify", "--since-checkpoint") == 1
    assert fault in _err(capsys)

    # every report goes on without it: the faulty hand among its exceptions
    who = ("--as", "fran", "--pin", "2222")
    for kind, more in (("shift", ("--table", "T1")), ("day", ()), ("hand", ("--hand",
                       str(second))), ("game", ("--table", "T1"))):
        pdf = tmp_path / f"{kind}.pdf"
        assert _cli(database, "report", kind, "--out", str(pdf), *more, *who) == 0, _err(capsys)
        if kind in ("shift", "hand"):
            text = " ".join(pages(pdf))
            assert "cannot be read" in text, kind
    # export: the good hand whole; the faulty one without the record, said on stderr
    capsys.readouterr()
    assert _cli(database, "export", "--hand", str(first), *who) == 0
    assert len(capsys.readouterr().out.splitlines()) == 4
    assert _cli(database, "export", "--hand", str(second), *who) == 0
    out, err = capsys.readouterr()
    assert len(out.splitlines()) == 1 and "start" in out
    assert f"warning: hand {second}: left out event 2 (seq {seq}) cannot be read" in err
    assert room.store.audit_log(action="export")[-1].detail.endswith(
        f"(1 events; left out: event 2 (seq {seq}) cannot be read: it is 200,000 characters "
        "long: no event is longer than 32,768)")
    # the live view's row names it; the hand's replay is refused, never a crash
    row = LiveView(room.svc).row(room.table_id)
    assert row.floor.startswith(f"cannot replay: line 2: stored event 2 (seq {seq}) cannot be "
                                "read")
    with pytest.raises(HandLogError, match="cannot be read"):
        room.svc.hand_replay(second)


def test_regression_an_unreadable_event_hides_no_other_fault_of_its_table(
    database: Database,
) -> None:
    """The unreadable record is named beside the table's other faults: a hand's row changed
    behind the app's back (a fault the hand rules find) is still named, though the record
    comes later on the chain."""
    import sqlite3

    room = make_room(SqlStore(database))
    first, second = _settled_then_begun(room)
    for seat, card in zip((1, 2, 3), ("2c", "3c", "4c"), strict=True):
        from dealer_assist.cards import parse_card
        from dealer_assist.events import CardDealt

        room.svc.record(room.dealer, second, CardDealt(seat=seat, card=parse_card(card)))
    room.svc.settle(room.dealer, second)
    assert database.sqlite_path is not None
    seq = append_raw(database.sqlite_path, first, DEEP)
    con = sqlite3.connect(database.sqlite_path)
    con.execute("UPDATE hands SET started_by = 'fran' WHERE id = ?", (second,))
    con.commit()
    con.close()
    summary = verify_database(database).summary()
    assert (f"seq {seq}: hand 1, event 5: the stored event cannot be read (it is 200,000 "
            "characters long") in summary
    assert ("hand 2: the hands table says fran started it, its start event says dee (changed "
            "behind the app's back)") in summary


def _mille(room: Room) -> tuple[int, Any]:
    svc = room.svc
    table = svc.add_table(room.admin, MILLE, name="Mille 1")
    svc.add_user(room.admin, name="mo", full_name="Mo Mille", role="dealer", pin="5555")
    mo = svc.sign_in("mo", "5555")
    svc.open_shift(mo, table.id, floor="fran")
    return table.id, mo


def test_regression_a_mille_meld_holding_a_joker_written_past_the_app_is_named(
    database: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    room = make_room(SqlStore(database))
    table, mo = _mille(room)
    now = room.svc.start_hand(mo, table)
    room.svc.record(mo, now.hand.id, Meld(seat=1, cards=parse_cards("Kh Kd 2c")))
    assert database.sqlite_path is not None
    seq = append_raw(database.sqlite_path, now.hand.id,
                     '{"cards":["JK","Qs","Qd"],"seat":2,"type":"meld"}', actor="mo")
    report = verify_database(database)
    assert (f"table Mille 1 (id {table}), seq {seq}: hand 1, event 3: the stored event cannot "
            "be read (Mille is played without jokers: the meld names a joker (Jk); enter the "
            "card as dealt); the hand is skipped") in report.summary()
    assert _cli(database, "verify") == 1
    pdf = tmp_path / "shift.pdf"
    assert _cli(database, "report", "shift", "--table", "Mille 1", "--out", str(pdf),
                "--as", "fran", "--pin", "2222") == 0
    assert "played without jokers" in " ".join(pages(pdf))
    assert _cli(database, "export", "--hand", str(now.hand.id), "--as", "fran",
                "--pin", "2222") == 0
    with pytest.raises(HandLogError, match="Mille is played without jokers"):
        room.svc.hand_replay(now.hand.id)
    assert LiveView(room.svc).row(table).floor.startswith("cannot replay: ")


def test_regression_issue_40_5_the_services_refuse_a_joker_and_store_nothing(
    database: Database,
) -> None:
    room = make_room(SqlStore(database))
    table, mo = _mille(room)
    now = room.svc.start_hand(mo, table)
    for cards in ("Jk Kd Kh", "JK Kd 2c"):
        meld = {"type": "meld", "seat": 1, "cards": cards.split()}
        from dealer_assist.events import event_from_json

        with pytest.raises(BadInput, match="Mille is played without jokers"):
            room.svc.record(mo, now.hand.id, event_from_json(meld, get_game("mille").events))
    assert room.svc.hand(now.hand.id).events == 1
    assert verify_database(database).ok


def _paiute_log_with_a_joker_wild() -> list[str]:
    game = get_game("paiute")
    events = game.sample_hand(random.Random(40), players=3, params={"ante": 100})
    lines = to_lines(events).splitlines()
    wild = json.loads(lines[1])
    assert wild["type"] == "wild"
    wild["card"] = "Jk"
    return [lines[0], json.dumps(wild), *lines[2:]]


def test_regression_issue_40_5_replay_and_import_refuse_a_joker_wild_by_its_line(
    database: Database, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = _paiute_log_with_a_joker_wild()
    log = tmp_path / "paiute.jsonl"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(log)]) == 2
    assert "line 2: Paiute is played without jokers" in _err(capsys)
    room = make_room(SqlStore(database))
    table = room.svc.add_table(room.admin, PAIUTE, name="Paiute 1")
    with pytest.raises(HandLogError, match="line 2: Paiute is played without jokers"):
        room.svc.import_hand(room.admin, table.id, lines)
    assert room.store.audit_log(action="import") == []

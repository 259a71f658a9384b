"""The command line on PostgreSQL (the PostgreSQL side of tests/cli/test_files_and_numbers_cli.py):
grants asked of a role that cannot give them, and a journal's send that counts what it sent."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_assist.cli import main
from dealer_assist.db.bootstrap import open_database
from dealer_assist.db.store import SqlStore

pytestmark = pytest.mark.postgres


def test_regression_station_role_upgrade_as_the_station_role_exits_2(
    pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Run as the stations' own role, PostgreSQL only warned and the command said the grants
    were set."""
    owner = open_database(pg_url)
    with owner.engine.begin() as conn:
        conn.exec_driver_sql("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = "
                             "'station') THEN CREATE ROLE station LOGIN; END IF; END $$")
    owner.close()
    assert main(["--db", pg_url, "db", "upgrade", "--station-role", "station",
                 "--admin-pin", "9999"]) == 0
    capsys.readouterr()
    station_url = pg_url.replace("postgres@", "station@")
    assert main(["--db", station_url, "db", "upgrade", "--station-role", "station"]) == 2
    out, err = capsys.readouterr()
    assert "the role station does not own the tables (postgres does)" in err
    assert "may now select and insert" not in out


def test_regression_journal_send_counts_what_it_sent(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from services.support import FAST, make_room

    from dealer_assist.cards import parse_card
    from dealer_assist.db.journal import JournalStore
    from dealer_assist.events import CardDealt
    from dealer_assist.services import Services, StoreUnavailable

    room = make_room(SqlStore(open_database(pg_url)))
    path = tmp_path / "journal.sqlite3"
    store = JournalStore(SqlStore(open_database(pg_url)), path, clock=lambda: 0.0)
    st = Services(store, hasher=FAST)
    dee = st.sign_in("dee", "1111")
    hand = st.start_hand(dee, room.table_id)
    store._went_down(StoreUnavailable("cut"))
    st.record(dee, hand.hand.id, CardDealt(seat=1, card=parse_card("As")))
    st.record(dee, hand.hand.id, CardDealt(seat=2, card=parse_card("Kd")))
    store.close()
    assert main(["journal", "send", "--db", pg_url, "--journal", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("sent 2 inputs; 0 kept\n")
    assert len(room.svc.hand_events(hand.hand.id)) == 3
    room.svc.store.close()  # type: ignore[attr-defined]


def test_regression_a_journal_that_is_not_one_exits_2(
    pg_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    room = tmp_path / "room.db"
    assert main(["db", "upgrade", "--db", f"sqlite:///{room}", "--admin-pin", "9999"]) == 0
    text = tmp_path / "notes.txt"
    text.write_text("not a journal\n")
    before = room.read_bytes()
    capsys.readouterr()
    for path, said in ((Path("/dev/null"), "is not a regular file (a device or a pipe)"),
                       (tmp_path, "is a folder, not a station's journal"),
                       (text, "is not a station's journal"),
                       (room, "is not a station's journal (it holds other tables: ")):
        assert main(["journal", "--db", pg_url, "--journal", str(path)]) == 2
        assert said in capsys.readouterr().err
    assert room.read_bytes() == before and text.read_text() == "not a journal\n"

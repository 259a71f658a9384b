"""Which journal a station keeps (docs/room.md): one per PostgreSQL database in the app's data
folder, the file DEALER_ASSIST_JOURNAL names, none with ``off`` or on SQLite; a journal is never
opened for another database than its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from dealer_assist.db.bootstrap import journal_path, station_journal
from dealer_assist.db.journal_file import Journal
from dealer_assist.errors import BadInput


def test_a_station_on_postgresql_keeps_one_journal_per_database(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("DEALER_ASSIST_JOURNAL", raising=False)
    a = station_journal("postgresql://station_t1:secret@db/cardroom")
    b = station_journal("postgresql://station_t1:other@db/cardroom")
    c = station_journal("postgresql://station_t1:secret@db/otherroom")
    assert a is not None and a == b != c  # the password is not part of the name
    assert a.name.startswith("station-journal-") and a.suffix == ".sqlite3"
    assert a == journal_path("postgresql+psycopg://station_t1:new@db/cardroom")
    assert station_journal(f"sqlite:///{tmp_path}/room.db") is None
    monkeypatch.setenv("DEALER_ASSIST_JOURNAL", str(tmp_path / "j.sqlite3"))
    assert station_journal("postgresql://db/cardroom") == tmp_path / "j.sqlite3"
    monkeypatch.setenv("DEALER_ASSIST_JOURNAL", "off")
    assert station_journal("postgresql://db/cardroom") is None


def test_a_journal_belongs_to_its_database(tmp_path: Path) -> None:
    Journal(tmp_path / "j.sqlite3", database="postgresql+psycopg://s@db/cardroom").close()
    with pytest.raises(BadInput, match=r"belongs to the database postgresql\+psycopg://s@db/"
                       r"cardroom, not postgresql\+psycopg://s@db/otherroom: sync it there "
                       r"first, or give this database its own journal"):
        Journal(tmp_path / "j.sqlite3", database="postgresql+psycopg://s@db/otherroom")

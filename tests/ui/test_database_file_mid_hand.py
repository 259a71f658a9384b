"""The station's SQLite file moved away, replaced by another file, locked and deleted in the
middle of a hand, at the dealer's screen: each time the input is kept and named, nothing is
written to the wrong file, no new database appears, and once the station's own file is back
every input is recorded once, in order: nothing lost, nothing invented."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.services import Argon2PinHasher
from dealer_assist.ui.qt import Qt
from tests.ui.conftest import furnish
from tests.ui.test_dealer_champs import open_screen, type_card


def _events(path: Path) -> int:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(con.execute("SELECT count(*) FROM events").fetchone()[0])
    finally:
        con.close()


def _copy(src: Path, dst: Path) -> None:
    """A whole copy of the database file (its WAL written into it first), as a person would
    copy a backup."""
    con = sqlite3.connect(src)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        con.close()
    shutil.copy(src, dst)


def test_regression_database_file_moved_replaced_locked_deleted_mid_hand(
    qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dealer_assist.db import bootstrap

    monkeypatch.setattr(bootstrap, "BUSY_TIMEOUT_S", 0.2)  # a lock is said at once
    path = tmp_path / "room.sqlite3"
    svc = bootstrap.open_services(f"sqlite:///{path}", hasher=Argon2PinHasher(fast=True))
    furnish(svc)
    screen = open_screen(qtbot, svc)
    qtbot.keyClick(screen, Qt.Key.Key_N)
    for code in ("7h", "kc", "2s", "9d", "3s", "jc", "jh", "9c"):
        type_card(qtbot, screen, code)
    assert screen.c.now is not None
    hand_id = screen.c.now.hand.id
    assert len(svc.hand_events(hand_id)) == 9

    # 1. moved away: the champ is kept, named, and nothing else is taken
    os.rename(path, tmp_path / "away.sqlite3")
    qtbot.keyClick(screen, "c")
    text = screen.banner.text.text()
    assert screen.banner.isVisible() and f"The database file {path} is gone" in text
    assert "network" not in text and "Your input is kept: Seat 4: champ" in text
    assert not path.exists()  # no new, empty database in its place
    qtbot.keyClick(screen, "w")
    assert screen.refusal.text().startswith("not recorded yet and kept: Seat 4: champ")
    qtbot.keyClick(screen, Qt.Key.Key_F5)  # still gone: still kept, still no file
    assert screen.banner.isVisible() and not path.exists()
    os.rename(tmp_path / "away.sqlite3", path)
    qtbot.keyClick(screen, Qt.Key.Key_F5)
    assert not screen.banner.isVisible()
    assert [r.body["type"] for r in svc.hand_events(hand_id)][-1] == "champ"

    # 2. replaced by a copy: the copy is not written to; the own file back, F5 records
    _copy(path, tmp_path / "copy.sqlite3")
    os.rename(path, tmp_path / "own.sqlite3")
    os.rename(tmp_path / "copy.sqlite3", path)
    before = _events(path)
    type_card(qtbot, screen, "4c")
    text = screen.banner.text.text()
    assert f"The database file {path} was replaced by another file" in text, text
    assert screen.cards.input.text() == "4c"  # the typed card is kept in the box
    assert _events(path) == before
    os.replace(tmp_path / "own.sqlite3", path)
    qtbot.keyClick(screen, Qt.Key.Key_F5)
    assert not screen.banner.isVisible() and screen.cards.input.text() == ""
    assert svc.hand_events(hand_id)[-1].body == {"type": "card", "seat": 4, "card": "4c"}

    # 3. locked by another program: busy, kept; the lock goes, F5 records
    locker = sqlite3.connect(path, isolation_level=None)
    locker.execute("BEGIN EXCLUSIVE")
    qtbot.keyClick(screen, "w")
    assert screen.banner.isVisible() and "busy" in screen.banner.text.text()
    assert "Your input is kept: Seat 4: coward" in screen.banner.text.text()
    locker.execute("ROLLBACK")
    locker.close()
    qtbot.keyClick(screen, Qt.Key.Key_F5)
    assert not screen.banner.isVisible()

    # nothing lost, nothing invented: the hand's events are exactly the inputs, in order
    rows = svc.hand_events(hand_id)
    assert [r.body["type"] for r in rows] == ["start", *["card"] * 8, "champ", "card", "coward"]
    assert [r.number for r in rows] == list(range(1, 13))
    assert svc.store.audit_log(action="input-dropped") == []
    assert _events(path) == 12  # the file holds those and nothing else

    # 4. deleted: refused with the reason, no new file made, ever
    os.remove(path)
    qtbot.keyClick(screen, "w")
    assert "is gone" in screen.banner.text.text() and not path.exists()
    qtbot.keyClick(screen, Qt.Key.Key_F5)
    assert not path.exists() and screen.c.pending is not None

"""Time collection on SQLite and PostgreSQL: the services' seat and period use cases again on
a real database, and verify naming a time collection changed behind the app's back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from services import test_time_collection as base
from services.support import Room, make_room
from services.test_time_collection import time_room

from dealer_assist.db.bootstrap import open_database
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database

for _name, _func in list(vars(base).items()):
    _code = getattr(_func, "__code__", None)
    if _name.startswith("test_") and _code and "room" in _code.co_varnames[: _code.co_argcount]:
        globals()[_name] = _func
del _name, _func, _code


def test_verify_names_a_time_collection_changed_behind_the_apps_back(sqlite_url: str) -> None:
    room: Room = time_room(make_room(SqlStore(open_database(sqlite_url))))
    room.svc.settle(room.dealer, room.hand(["As", "Kd", "2c"]))
    room.svc.seat_in(room.dealer, room.table_id, 1)
    room.svc.seat_in(room.dealer, room.table_id, 2)
    mark = room.svc.mark_period(room.dealer, room.table_id)
    room.hand(["Qs", "Jd", "3c"])
    db = room.store.db  # type: ignore[attr-defined]
    report = verify_database(db)
    assert report.ok, report.summary()
    assert report.events == 8 + 3
    path = Path(sqlite_url.removeprefix("sqlite:///"))
    con = sqlite3.connect(path)
    con.execute("DROP TRIGGER ledger_lines_no_update")
    con.execute("UPDATE ledger_lines SET amount = 1 WHERE hand_id IS NULL AND seat = 2")
    con.commit()
    con.close()
    report = verify_database(db)
    assert report.problem is not None and mark.last is not None
    assert (report.problem.table, report.problem.seq) == ("T1", mark.last.seq)
    assert "ledger has seat 1 period 1 500, seat 2 period 1 1" in report.problem.message

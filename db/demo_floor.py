"""The demo's floor board: its tables opened, each new seat of a hand taken from a waiting
list (listed, called, seated with the table's buy-in) and each seat left freed between hands,
so the seating on the floor's record is the seating of every hand (verify holds them to it);
and, at the end of the day, players still waiting on the lists.
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, select

from dealer_assist.db import sealed
from dealer_assist.db.floor_records import FLOOR_ENTRIES, entry_of
from dealer_assist.db.models import HandRow, TableRow, TableSettingsRow
from dealer_assist.services.floorboard import records as r
from dealer_assist.services.floorboard.records import NewEntry
from dealer_assist.services.floorboard.state import fold

#: The floor person the demo's records are written by.
FLOOR = "fran"


def _settings(conn: Connection) -> dict[int, dict[str, Any]]:
    t = TableSettingsRow.__table__
    out: dict[int, dict[str, Any]] = {}
    for row in conn.execute(select(t.c.table_id, t.c.document).order_by(t.c.version)):
        out[int(row.table_id)] = json.loads(row.document)
    return out


def fill_floor(conn: Connection, names: list[str], seed: int = 1) -> int:
    """Floor records for the hands of the tables ``names`` dealt after the floor's last
    record; the number written."""
    rng = random.Random(seed)
    existing = [entry_of(x) for x in sealed.read(conn, FLOOR_ENTRIES)]
    state = fold(existing)
    since = existing[-1].at if existing else None
    t, h = TableRow.__table__, HandRow.__table__
    ids = {str(n): int(i) for i, n in conn.execute(select(t.c.id, t.c.name)
                                                   .where(t.c.name.in_(names)))}
    docs = _settings(conn)
    planned: list[tuple[datetime, int, NewEntry]] = []
    counter = existing[-1].seq if existing else 0
    player_no = 0
    last_at: datetime | None = None
    for name, table_id in sorted(ids.items()):
        doc = docs.get(table_id, {})
        game, stakes = str(doc.get("game", "")), str(doc.get("stakes", ""))
        buy_in = doc.get("buy_in")
        stmt = select(h.c.started_at, h.c.seats).where(
            h.c.table_id == table_id, h.c.settings_id.is_not(None)).order_by(h.c.number)
        seated = {s: p.player for s, p in state.seated(table_id).items()}
        opened = state.table_status(table_id) != "closed"
        prev: datetime | None = None
        for row in conn.execute(stmt):
            start: datetime = row.started_at
            if since is not None and start <= since:
                prev = start
                continue
            seats = [int(s) for s in json.loads(row.seats)]
            when = start - timedelta(seconds=2) if prev is None else prev + (start - prev) / 2
            if not opened:
                planned.append((when - timedelta(minutes=20), 0, NewEntry(r.OPEN,
                                                                          table_id=table_id)))
                opened = True
            for seat in sorted(set(seated) - set(seats)):
                planned.append((when, 1, NewEntry(r.LEAVE, table_id=table_id, seat=seat,
                                                  player=seated.pop(seat))))
            for seat in sorted(set(seats) - set(seated)):
                player_no += 1
                who = f"{name.split()[-1]}-{player_no}"
                waited = timedelta(minutes=rng.randint(3, 40))
                planned.append((when - waited, 2, NewEntry(r.LIST_ADD, player=who, game=game,
                                                           stakes=stakes)))
                planned.append((when, 3, NewEntry(r.CALL, table_id=table_id, seat=seat,
                                                  player=who, minutes=5)))
                planned.append((when, 4, NewEntry(r.SEAT, table_id=table_id, seat=seat,
                                                  player=who, amount=buy_in
                                                  if isinstance(buy_in, int) else None)))
                seated[seat] = who
            prev = start
            last_at = max(last_at or start, start)
        if prev is not None and game:  # still waiting when the day ends
            for _ in range(rng.randint(1, 3)):
                player_no += 1
                planned.append((prev + timedelta(seconds=30), 5, NewEntry(
                    r.LIST_ADD, player=f"W-{player_no}", game=game, stakes=stakes)))
    # the list entries' numbers are their records' places: give them in time order
    planned.sort(key=lambda p: (p[0], p[1]))
    entry_of_player: dict[str, int] = {}
    for at, _, what in planned:
        counter += 1
        if what.action == r.LIST_ADD and what.player:
            entry_of_player[what.player] = counter
        elif what.action in (r.CALL, r.SEAT) and what.player in entry_of_player:
            what = NewEntry(**{**what.columns(), "entry": entry_of_player[what.player]})
        sealed.append(conn, FLOOR_ENTRIES, at=at, actor=FLOOR, token="", values=what.columns())
    return len(planned)

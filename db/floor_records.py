"""The floor board's records in the database: the sealed table ``floor_entries`` (schema 0020).

Each write is one transaction that first locks the table's head row (:func:`sealed.lock`),
then reads the records and lets the handler decide, then appends: so two floor stations
seating two players in one seat, or calling one player to two seats, are put in one order and
the second decides on what the first recorded (and is refused, told why). Nothing is left
half-written: a refusal or a lost server rolls the whole transaction back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime

from sqlalchemy import BigInteger, Column, Connection, Integer, MetaData, String, Table, select

from dealer_assist.db import sealed
from dealer_assist.db.bootstrap import Database
from dealer_assist.db.models import UTCDateTime
from dealer_assist.services.floorboard.records import FloorEntry, NewEntry
from dealer_assist.services.sealed import SealedRow

_meta = MetaData()
#: The sealed table (made by migration 0020; described here for reads and appends).
FLOOR_ENTRIES = Table(
    "floor_entries", _meta,
    Column("id", Integer, primary_key=True),
    Column("seq", BigInteger, unique=True),
    Column("at", UTCDateTime),
    Column("actor", String(40)),
    Column("prev_hash", String(64)),
    Column("hash", String(64)),
    Column("action", String(16)),
    Column("table_id", Integer),
    Column("seat", Integer),
    Column("player", String(40)),
    Column("game", String(40)),
    Column("stakes", String(40)),
    Column("entry", BigInteger),
    Column("amount", BigInteger),
    Column("minutes", Integer),
    Column("other_table", Integer),
    Column("setting", String(24)),
    Column("value", String(40)),
)


def entry_of(row: SealedRow) -> FloorEntry:
    v = row.values
    return FloorEntry(seq=row.seq, at=row.at, actor=row.actor, what=NewEntry(
        action=v["action"], table_id=v["table_id"], seat=v["seat"], player=v["player"],
        game=v["game"], stakes=v["stakes"], entry=v["entry"], amount=v["amount"],
        minutes=v["minutes"], other_table=v["other_table"], setting=v["setting"],
        value=v["value"]))


class _Tx:
    def __init__(self, conn: Connection, head: sealed.Head) -> None:
        self.conn = conn
        self.head = head

    def entries(self, after: int = 0) -> list[FloorEntry]:
        return [entry_of(r) for r in sealed.read(self.conn, FLOOR_ENTRIES,
                                                 FLOOR_ENTRIES.c.seq > after)]

    def append(self, what: NewEntry, *, at: datetime, actor: str, token: str) -> FloorEntry:
        row = sealed.append(self.conn, FLOOR_ENTRIES, at=at, actor=actor, token=token,
                            values=what.columns(), head=self.head)
        return entry_of(row)


class SqlFloorRecords:
    """:class:`~dealer_assist.services.floorboard.ports.FloorRecords` on SQLite or PostgreSQL."""

    def __init__(self, db: Database) -> None:
        self.db = db

    @contextmanager
    def writing(self) -> Iterator[_Tx]:
        with sealed.writing(self.db) as conn:
            yield _Tx(conn, sealed.lock_head(conn, FLOOR_ENTRIES))

    def entries(self, after: int = 0) -> list[FloorEntry]:
        with sealed.reading(self.db) as conn:
            return [entry_of(r) for r in sealed.read(conn, FLOOR_ENTRIES,
                                                     FLOOR_ENTRIES.c.seq > after)]

    def count(self) -> int:
        with sealed.reading(self.db) as conn:
            n = conn.execute(select(sealed.H.c.entries)
                             .where(sealed.H.c.kind == "floor_entries")).scalar()
            return int(n or 0)


def floor_seat_faults(db: Database) -> list[str]:
    """verify: each hand dealt to other seats than the floor's record gave at its start."""
    import json

    from dealer_assist.db.models import HandRow, TableRow
    from dealer_assist.services.floorboard.checks import HandStart, seat_faults

    with sealed.reading(db) as conn:
        entries = [entry_of(r) for r in sealed.read(conn, FLOOR_ENTRIES)]
        if not entries:
            return []
        names = {int(i): str(n) for i, n in conn.execute(select(TableRow.id, TableRow.name))}
        h = HandRow.__table__
        hands = [HandStart(table_id=int(r.table_id), number=int(r.number),
                           started_at=r.started_at,
                           seats=tuple(int(s) for s in json.loads(r.seats)))
                 for r in conn.execute(select(h.c.table_id, h.c.number, h.c.started_at,
                                              h.c.seats).where(h.c.settings_id.is_not(None)))]
    return seat_faults(entries, hands, names)

"""The room's tables as the floor board sees them, read in one query (the board reads them at
every action): each table's latest settings version, parsed once per version (a version never
changes), and its open shift's dealer. What was read is used again while the tables, their
settings versions and the shifts are as they were (one small query tells). A floor action
first decides on the tables as last read, without that query: its one-statement append
(:meth:`~dealer_assist.db.floor_records.SqlFloorRecords.append_after`) checks, in the same
statement, that the tables and their settings versions are still those (:class:`TablesSeen`)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Column, MetaData, String, Table, and_, func, select

from dealer_assist.db import sealed
from dealer_assist.db.bootstrap import Database
from dealer_assist.db.models import HandRow, ShiftRow, TableRow, TableSettingsRow
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import DealerAssistError
from dealer_assist.services.floorboard.ports import FloorTable
from dealer_assist.settings import parse_table_settings

T, TS, SH, H = (TableRow.__table__, TableSettingsRow.__table__, ShiftRow.__table__,
                HandRow.__table__)
#: PostgreSQL's ``record_heads`` with the tables' mark its triggers move (schema 0026).
_MARKED = Table("record_heads", MetaData(), Column("kind", String(64), primary_key=True),
                Column("tables_mark", BigInteger))


@dataclass(frozen=True, slots=True)
class TablesSeen:
    """What the tables were when last read, as far as a floor action decides on them: how many
    tables, and the newest settings version (0: none)."""

    tables: int
    versions: int
    #: PostgreSQL: the floor records' head's ``tables_mark`` read with them (schema 0026),
    #: which the one-statement append checks instead (None: not read; SQLite).
    mark: int | None = None


class SqlTables:
    """:class:`~dealer_assist.services.floorboard.ports.TableCatalog` on the database."""

    def __init__(self, db: Database) -> None:
        self.db = db
        #: Each settings version's table as parsed (None: its settings do not read).
        self._parsed: dict[int, FloorTable | None] = {}
        self._read: tuple[tuple[Any, ...], list[FloorTable]] | None = None

    def floor_tables(self) -> Sequence[FloorTable]:
        parts = [select(func.count()).select_from(T).scalar_subquery(),
                 select(func.max(TS.c.id)).scalar_subquery(),
                 select(func.max(SH.c.id)).scalar_subquery(),
                 select(func.count(SH.c.closed_at)).scalar_subquery()]
        if self.db.dialect == "postgresql":
            parts.append(select(_MARKED.c.tables_mark)
                         .where(_MARKED.c.kind == "floor_entries").scalar_subquery())
        with sealed.reading(self.db) as conn:
            mark = tuple(conn.execute(select(*parts)).one())
        if self._read is not None and self._read[0] == mark:
            return self._read[1]
        out = self._tables()
        self._read = (mark, out)
        return out

    def last_read(self) -> tuple[TablesSeen, Sequence[FloorTable]] | None:
        """The tables as last read (no query), and what they were then (None: not read yet)."""
        read = self._read
        if read is None:
            return None
        mark = read[0][4] if len(read[0]) > 4 else None
        return TablesSeen(int(read[0][0] or 0), int(read[0][1] or 0),
                          None if mark is None else int(mark)), read[1]

    def _tables(self) -> list[FloorTable]:
        latest = (select(TS.c.table_id, func.max(TS.c.version).label("v"))
                  .group_by(TS.c.table_id).subquery())
        with sealed.reading(self.db) as conn:
            rows = conn.execute(
                select(T.c.id, T.c.name, TS.c.id.label("sid"), TS.c.document)
                .join(latest, latest.c.table_id == T.c.id)
                .join(TS, and_(TS.c.table_id == T.c.id, TS.c.version == latest.c.v))
                .order_by(T.c.id)).all()
            dealers = {int(t): str(d) for t, d in conn.execute(
                select(SH.c.table_id, SH.c.dealer).where(SH.c.closed_at.is_(None))
                .order_by(SH.c.id))}
        out: list[FloorTable] = []
        for r in rows:
            sid = int(r.sid)
            if sid not in self._parsed:
                self._parsed[sid] = _parse(int(r.id), str(r.name), str(r.document))
            table = self._parsed[sid]
            if table is None:
                continue
            out.append(FloorTable(
                id=table.id, name=table.name, game=table.game, stakes=table.stakes,
                seats=table.seats, min_players=table.min_players,
                smallest_chip=table.smallest_chip, buy_in=table.buy_in,
                dealer=dealers.get(table.id)))
        return out

    def last_start(self, table_id: int) -> tuple[datetime, tuple[int, ...]] | None:
        with sealed.reading(self.db) as conn:
            r = conn.execute(select(H.c.started_at, H.c.seats).where(H.c.table_id == table_id)
                             .order_by(H.c.number.desc()).limit(1)).first()
        if r is None:
            return None
        return r.started_at, tuple(int(s) for s in json.loads(r.seats))


def _parse(table_id: int, name: str, document: str) -> FloorTable | None:
    try:
        parsed = parse_table_settings(json.loads(document), source=name)
        low = get_game(parsed.game).players[0]
    except (DealerAssistError, ValueError, KeyError):
        return None  # a table whose settings no longer read is not offered
    return FloorTable(id=table_id, name=name, game=parsed.game, stakes=parsed.stakes,
                      seats=tuple(parsed.seats), min_players=low,
                      smallest_chip=parsed.smallest_chip, buy_in=parsed.buy_in)

"""In-memory floor records and tables, for the pure tests (the database's are in
``dealer_assist.db.floor_records``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime

from dealer_assist.services.floorboard.ports import FloorTable
from dealer_assist.services.floorboard.records import FloorEntry, NewEntry


class _Tx:
    def __init__(self, rows: list[FloorEntry]) -> None:
        self.rows = rows
        self.added: list[FloorEntry] = []

    def entries(self, after: int = 0) -> list[FloorEntry]:
        return [e for e in self.rows + self.added if e.seq > after]

    def append(self, what: NewEntry, *, at: datetime, actor: str, token: str) -> FloorEntry:
        e = FloorEntry(seq=len(self.rows) + len(self.added) + 1, at=at, actor=actor, what=what)
        self.added.append(e)
        return e


class InMemoryFloor:
    """Floor records and a room's tables kept in lists; a failed transaction keeps nothing."""

    def __init__(self, tables: Sequence[FloorTable] = ()) -> None:
        self.rows: list[FloorEntry] = []
        self.tables = list(tables)
        #: Each table's last hand: when it started, its seats.
        self.hands: dict[int, tuple[datetime, tuple[int, ...]]] = {}
        #: The tables as last read (None: not yet).
        self.seen: list[FloorTable] | None = None

    @contextmanager
    def writing(self) -> Iterator[_Tx]:
        tx = _Tx(list(self.rows))
        yield tx
        self.rows.extend(tx.added)

    def entries(self, after: int = 0) -> list[FloorEntry]:
        return [e for e in self.rows if e.seq > after]

    def count(self) -> int:
        return len(self.rows)

    def append_after(self, what: NewEntry, *, after: int, tables: object, at: datetime,
                     actor: str, token: str) -> FloorEntry | None:
        if len(self.rows) != after or tables != tuple(self.tables):
            return None
        e = FloorEntry(seq=after + 1, at=at, actor=actor, what=what)
        self.rows.append(e)
        return e

    def last_read(self) -> tuple[object, Sequence[FloorTable]] | None:
        return None if self.seen is None else (tuple(self.seen), self.seen)

    def floor_tables(self) -> Sequence[FloorTable]:
        self.seen = list(self.tables)
        return list(self.seen)

    def last_start(self, table_id: int) -> tuple[datetime, tuple[int, ...]] | None:
        return self.hands.get(table_id)

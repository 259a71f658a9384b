"""The floor board's ports: the room's floor records, and the tables as their settings say.

Narrow on purpose: the handlers read the records and append one, inside one transaction that
holds the board's lock (``writing``), so two floor stations deciding about one seat queue up
and the second one decides on what the first recorded. Most actions first try without that
lock (``append_after``): decided on the records and tables as last read, written only if
they are still those, where it is written; else decided again under the lock.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from dealer_assist.services.floorboard.records import FloorEntry, NewEntry


@dataclass(frozen=True, slots=True)
class FloorTable:
    """A table as the floor sees it (from its current settings version)."""

    id: int
    name: str
    game: str
    stakes: str
    seats: tuple[int, ...]
    #: The fewest players a hand of the game is dealt to.
    min_players: int
    smallest_chip: int
    #: The table's buy-in in cents (the least a player buys in for); None: no stacks.
    buy_in: int | None = None
    #: The dealer of the table's open shift; None: no dealer signed in there.
    dealer: str | None = None


class TableCatalog(Protocol):
    def floor_tables(self) -> Sequence[FloorTable]:
        """Every table of the room with its current settings."""
        ...

    def last_start(self, table_id: int) -> tuple[datetime, tuple[int, ...]] | None:
        """When the table's last hand started and its seats (None: no hand yet)."""
        ...

    def last_read(self) -> tuple[object, Sequence[FloorTable]] | None:
        """The tables as :meth:`floor_tables` last read them (no read now), with what the
        records' ``append_after`` checks they still are (None: not read yet)."""
        ...


class FloorWriter(Protocol):
    """One write transaction, the board's lock held from its start."""

    def entries(self, after: int = 0) -> list[FloorEntry]:
        """The floor records after the ``after``-th, in order, as of this transaction."""
        ...

    def append(self, what: NewEntry, *, at: datetime, actor: str, token: str) -> FloorEntry:
        ...


class FloorRecords(Protocol):
    def writing(self) -> AbstractContextManager[FloorWriter]:
        """A transaction holding the board's lock; leaving it by an exception writes nothing."""
        ...

    def entries(self, after: int = 0) -> list[FloorEntry]:
        """The floor records after the ``after``-th, in order (a read)."""
        ...

    def count(self) -> int:
        """How many floor records there are (a board polls this to see a change)."""
        ...

    def append_after(self, what: NewEntry, *, after: int, tables: object, at: datetime,
                     actor: str, token: str) -> FloorEntry | None:
        """Append ``what`` as record ``after`` + 1 without the board's lock: only if the records
        still end at the ``after``-th and the tables are still as ``tables`` (from
        :meth:`TableCatalog.last_read`) says, checked where it is written. None: nothing was
        written (they moved on, or this store cannot tell); decide again under the lock."""
        ...

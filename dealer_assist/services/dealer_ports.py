"""The dealer box's ports: its sealed records (downs, rules, rotations, toke counts), the
hands in play it must wait for, and an in-memory fake of the records for the pure tests.

The database adapter is ``dealer_assist.db.dealer_box``; handlers take only these ports.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol

from dealer_assist.services.dealer_box import DownRecord, NewDown, Rotation, Rules


@dataclass(frozen=True, slots=True)
class TokeCount:
    """A toke box counted by two people (``team``), in cents: the room's box of a room shift
    (``day`` and ``room_shift``, "" when the room names no shifts: the whole gaming day), or,
    as recorded before schema 0025, the box of one table's shift (``shift_id``; 0 otherwise)."""

    seq: int
    at: datetime
    actor: str
    shift_id: int
    amount: int
    team: tuple[str, str]
    day: date | None = None
    room_shift: str = ""

    @property
    def per_room_shift(self) -> bool:
        return self.day is not None


#: A check run inside the append's transaction, after the records' head is locked, over
#: every record written before the new ones; it raises to refuse (nothing is written).
DownCheck = Callable[[list[DownRecord]], None]
TokeCheck = Callable[[list[TokeCount]], None]


class DealerRecords(Protocol):
    """The dealer box's records: each kind appended and chained, read back in order."""

    def downs(self) -> list[DownRecord]: ...

    def append_downs(self, new: Sequence[NewDown], *, token: str,
                     check: DownCheck) -> list[DownRecord]: ...

    def rules(self, at: datetime | None = None) -> Rules | None:
        """The room's rules in force at ``at`` (None: now); None when none was ever set."""
        ...

    def add_rules(self, rules: Rules, *, at: datetime, actor: str, token: str) -> None: ...

    def rotation(self) -> Rotation: ...

    def set_rotation(self, rotation: Rotation, *, at: datetime, actor: str,
                     token: str) -> None: ...

    def toke_counts(self) -> list[TokeCount]: ...

    def add_toke_count(self, *, shift_id: int, amount: int, team: tuple[str, str],
                       at: datetime, actor: str, token: str, check: TokeCheck) -> TokeCount: ...

    def add_room_toke_count(self, *, day: date, room_shift: str, amount: int,
                            team: tuple[str, str], at: datetime, actor: str, token: str,
                            check: TokeCheck) -> TokeCount: ...


class HandsInPlay(Protocol):
    """What the dealer box asks of the tables: the hand in play there (its number, None
    between hands) and the table's name for messages."""

    def hand_in_play(self, table_id: int) -> int | None: ...

    def table_name(self, table_id: int) -> str: ...


class MemoryDealerRecords:
    """The dealer box's records in memory, appended under one lock as the database does."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._downs: list[DownRecord] = []
        self._rules: list[tuple[datetime, Rules]] = []
        self._rotations: list[Rotation] = []
        self._tokes: list[TokeCount] = []

    def downs(self) -> list[DownRecord]:
        return list(self._downs)

    def append_downs(self, new: Sequence[NewDown], *, token: str,
                     check: DownCheck) -> list[DownRecord]:
        with self._lock:
            check(list(self._downs))
            out = [DownRecord(seq=len(self._downs) + i + 1, at=n.at, actor=n.actor,
                              dealer=n.dealer, kind=n.kind, table_id=n.table_id)
                   for i, n in enumerate(new)]
            self._downs.extend(out)
            return out

    def rules(self, at: datetime | None = None) -> Rules | None:
        set_by = [r for t, r in self._rules if at is None or t <= at]
        return set_by[-1] if set_by else None

    def add_rules(self, rules: Rules, *, at: datetime, actor: str, token: str) -> None:
        self._rules.append((at, rules))

    def rotation(self) -> Rotation:
        return self._rotations[-1] if self._rotations else Rotation()

    def set_rotation(self, rotation: Rotation, *, at: datetime, actor: str,
                     token: str) -> None:
        self._rotations.append(rotation)

    def toke_counts(self) -> list[TokeCount]:
        return list(self._tokes)

    def add_toke_count(self, *, shift_id: int, amount: int, team: tuple[str, str],
                       at: datetime, actor: str, token: str, check: TokeCheck) -> TokeCount:
        with self._lock:
            check(list(self._tokes))
            row = TokeCount(seq=sum(1 for t in self._tokes if not t.per_room_shift) + 1, at=at,
                            actor=actor, shift_id=shift_id,
                            amount=amount, team=team)
            self._tokes.append(row)
            return row

    def add_room_toke_count(self, *, day: date, room_shift: str, amount: int,
                            team: tuple[str, str], at: datetime, actor: str, token: str,
                            check: TokeCheck) -> TokeCount:
        with self._lock:
            check(list(self._tokes))
            row = TokeCount(seq=sum(1 for t in self._tokes if t.per_room_shift) + 1, at=at,
                            actor=actor, shift_id=0, amount=amount, team=team, day=day,
                            room_shift=room_shift)
            self._tokes.append(row)
            return row

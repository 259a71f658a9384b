"""The dealer box's records in the database: five sealed tables (schema 0019, and 0025 for the
toke box per room shift) behind the
:class:`~dealer_assist.services.dealer_ports.DealerRecords` port.

Every append runs in one transaction that first locks the table's head row
(:func:`dealer_assist.db.sealed.lock`), then reads the records and runs the handler's check on
them, then appends: on SQLite (``BEGIN IMMEDIATE``) and PostgreSQL (``FOR UPDATE`` under the
lock timeout) alike, a second station placing the same dealer waits, then sees the first one's
record and is refused.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

import sqlalchemy as sa

from dealer_assist.db import sealed
from dealer_assist.db.bootstrap import Database
from dealer_assist.services.dealer_box import DownRecord, NewDown, Rotation, Rules
from dealer_assist.services.dealer_ports import DownCheck, TokeCheck, TokeCount
from dealer_assist.services.sealed import SealedRow

_META = sa.MetaData()


def _sealed_table(name: str, *columns: sa.Column[object]) -> sa.Table:
    return sa.Table(
        name, _META,
        sa.Column("id", sa.Integer, primary_key=True), sa.Column("seq", sa.BigInteger),
        sa.Column("at", sa.DateTime), sa.Column("actor", sa.String(40)),
        sa.Column("prev_hash", sa.String(64)), sa.Column("hash", sa.String(64)),
        *columns,
    )


DOWNS = _sealed_table("dealer_downs", sa.Column("dealer", sa.String(40)),
                      sa.Column("kind", sa.String(8)), sa.Column("table_id", sa.Integer))
RULES = _sealed_table(
    "dealer_rules", sa.Column("push_minutes", sa.Integer),
    sa.Column("break_after_minutes", sa.Integer), sa.Column("break_minutes", sa.Integer),
    sa.Column("grace_minutes", sa.Integer), sa.Column("shift_minutes", sa.Integer),
    sa.Column("toke_rule", sa.String(16)))
ROTATIONS = _sealed_table(
    "dealer_rotations", sa.Column("version", sa.Integer), sa.Column("position", sa.Integer),
    sa.Column("dealer", sa.String(40)), sa.Column("table_id", sa.Integer))
TOKES = _sealed_table(
    "toke_counts", sa.Column("shift_id", sa.Integer), sa.Column("amount", sa.BigInteger),
    sa.Column("counter_1", sa.String(80)), sa.Column("counter_2", sa.String(80)))
ROOM_TOKES = _sealed_table(
    "room_toke_counts", sa.Column("gaming_day", sa.String(10)),
    sa.Column("room_shift", sa.String(40)), sa.Column("amount", sa.BigInteger),
    sa.Column("counter_1", sa.String(80)), sa.Column("counter_2", sa.String(80)))


def down_of(row: SealedRow) -> DownRecord:
    v = row.values
    table = v.get("table_id")
    return DownRecord(seq=row.seq, at=row.at, actor=row.actor, dealer=str(v["dealer"]),
                      kind=str(v["kind"]), table_id=int(table) if table is not None else None)


def _int(value: object) -> int:
    return int(value) if isinstance(value, int | str) else 0


def toke_of(row: SealedRow) -> TokeCount:
    v = row.values
    return TokeCount(seq=row.seq, at=row.at, actor=row.actor, shift_id=_int(v["shift_id"]),
                     amount=_int(v["amount"]),
                     team=(str(v["counter_1"]), str(v["counter_2"])))


def room_toke_of(row: SealedRow) -> TokeCount:
    v = row.values
    return TokeCount(seq=row.seq, at=row.at, actor=row.actor, shift_id=0,
                     amount=_int(v["amount"]), team=(str(v["counter_1"]), str(v["counter_2"])),
                     day=date.fromisoformat(str(v["gaming_day"])),
                     room_shift=str(v["room_shift"]))


def _has_room_tokes(conn: sa.Connection) -> bool:
    """Schema 0025 is there (a database one step behind still reads its table-shift counts)."""
    return sa.inspect(conn).has_table("room_toke_counts")


def read_downs(conn: sa.Connection) -> list[DownRecord]:
    """Every down record, in order (also for ``verify`` and the reports)."""
    return [down_of(r) for r in sealed.read(conn, DOWNS)]


class SqlDealerRecords:
    """:class:`~dealer_assist.services.dealer_ports.DealerRecords` on a database."""

    def __init__(self, db: Database) -> None:
        self.db = db

    def downs(self) -> list[DownRecord]:
        with sealed.reading(self.db) as conn:
            return read_downs(conn)

    def append_downs(self, new: Sequence[NewDown], *, token: str,
                     check: DownCheck) -> list[DownRecord]:
        with sealed.writing(self.db) as conn:
            head = sealed.lock_head(conn, DOWNS, token=token)
            check(read_downs(conn))
            return [down_of(sealed.append(
                conn, DOWNS, at=n.at, actor=n.actor, token=token, head=head,
                values={"dealer": n.dealer, "kind": n.kind, "table_id": n.table_id}))
                for n in new]

    def rules(self, at: datetime | None = None) -> Rules | None:
        with sealed.reading(self.db) as conn:
            rows = sealed.read(conn, RULES)
        if at is not None:
            rows = [r for r in rows if r.at <= at]
        if not rows:
            return None
        v = rows[-1].values
        return Rules(push_minutes=_int(v["push_minutes"]),
                     break_after_minutes=_int(v["break_after_minutes"]),
                     break_minutes=_int(v["break_minutes"]),
                     grace_minutes=_int(v["grace_minutes"]),
                     shift_minutes=_int(v["shift_minutes"]), toke_rule=str(v["toke_rule"]))

    def add_rules(self, rules: Rules, *, at: datetime, actor: str, token: str) -> None:
        with sealed.writing(self.db) as conn:
            sealed.append(conn, RULES, at=at, actor=actor, token=token, values={
                "push_minutes": rules.push_minutes,
                "break_after_minutes": rules.break_after_minutes,
                "break_minutes": rules.break_minutes, "grace_minutes": rules.grace_minutes,
                "shift_minutes": rules.shift_minutes, "toke_rule": rules.toke_rule})

    def rotation(self) -> Rotation:
        with sealed.reading(self.db) as conn:
            rows = sealed.read(conn, ROTATIONS)
        if not rows:
            return Rotation()
        last = max(_int(r.values["version"]) for r in rows)
        mine = sorted((r for r in rows if _int(r.values["version"]) == last),
                      key=lambda r: _int(r.values["position"]))
        return Rotation(
            dealers=tuple(str(r.values["dealer"]) for r in mine if r.values["dealer"]),
            tables=tuple(_int(r.values["table_id"]) for r in mine
                         if r.values["table_id"] is not None))

    def set_rotation(self, rotation: Rotation, *, at: datetime, actor: str,
                     token: str) -> None:
        with sealed.writing(self.db) as conn:
            head = sealed.lock_head(conn, ROTATIONS, token=token)
            version = 1 + max((_int(r.values["version"]) for r in sealed.read(conn, ROTATIONS)),
                              default=0)
            rows: list[dict[str, object]] = [{"dealer": d, "table_id": None}
                                             for d in rotation.dealers]
            rows += [{"dealer": None, "table_id": t} for t in rotation.tables]
            for i, values in enumerate(rows, start=1):
                sealed.append(conn, ROTATIONS, at=at, actor=actor, token=token, head=head,
                              values={"version": version, "position": i, **values})

    def toke_counts(self) -> list[TokeCount]:
        with sealed.reading(self.db) as conn:
            rows = [toke_of(r) for r in sealed.read(conn, TOKES)]
            if _has_room_tokes(conn):
                rows += [room_toke_of(r) for r in sealed.read(conn, ROOM_TOKES)]
            return rows

    def add_toke_count(self, *, shift_id: int, amount: int, team: tuple[str, str],
                       at: datetime, actor: str, token: str, check: TokeCheck) -> TokeCount:
        with sealed.writing(self.db) as conn:
            head = sealed.lock_head(conn, TOKES, token=token)
            check([toke_of(r) for r in sealed.read(conn, TOKES)])
            return toke_of(sealed.append(
                conn, TOKES, at=at, actor=actor, token=token, head=head,
                values={"shift_id": shift_id, "amount": amount, "counter_1": team[0],
                        "counter_2": team[1]}))

    def add_room_toke_count(self, *, day: date, room_shift: str, amount: int,
                            team: tuple[str, str], at: datetime, actor: str, token: str,
                            check: TokeCheck) -> TokeCount:
        with sealed.writing(self.db) as conn:
            head = sealed.lock_head(conn, ROOM_TOKES, token=token)
            check([toke_of(r) for r in sealed.read(conn, TOKES)]
                  + [room_toke_of(r) for r in sealed.read(conn, ROOM_TOKES)])
            return room_toke_of(sealed.append(
                conn, ROOM_TOKES, at=at, actor=actor, token=token, head=head,
                values={"gaming_day": day.isoformat(), "room_shift": room_shift,
                        "amount": amount, "counter_1": team[0], "counter_2": team[1]}))

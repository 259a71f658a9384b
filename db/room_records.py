"""The room's records as typed rows in the database (schema 0022;
:mod:`dealer_assist.services.room_rows` says what they are).

Four sealed tables (:mod:`dealer_assist.db.sealed`): ``drop_boxes``, ``drop_counts``,
``count_signoffs`` and ``room_clocks``. A record is written as its audit entry and its row in
one transaction (:func:`add_room_record`); ``verify`` checks both ways that every such audit
entry has its row, saying the same, and that every row's ``entry`` is such an audit entry
(:func:`room_row_faults`).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    inspect,
    select,
)

from dealer_assist.db import sealed
from dealer_assist.db.bootstrap import Database
from dealer_assist.db.models import AuditRow, UTCDateTime
from dealer_assist.services.chain import utc
from dealer_assist.services.model import AuditEntry
from dealer_assist.services.room import Count, RoomClock
from dealer_assist.services.room_rows import (
    COUNT_SIGNOFFS,
    DROP_BOXES,
    DROP_COUNTS,
    KIND_OF,
    ROOM_CLOCKS,
    clock_of,
    count_of,
    values_of,
)
from dealer_assist.services.sealed import SealedRow
from dealer_assist.services.verify import Problem, VerifyReport

_META = MetaData()


def _sealed(name: str, *columns: Column[Any]) -> Table:
    """A sealed table's columns as the app reads and writes them (the migration made it)."""
    return Table(
        name, _META,
        Column("id", Integer, primary_key=True), Column("seq", BigInteger),
        Column("at", UTCDateTime), Column("actor", String(40)),
        Column("prev_hash", String(64)), Column("hash", String(64)),
        Column("entry", BigInteger, nullable=False), *columns,
    )


TABLES: dict[str, Table] = {t.name: t for t in (
    _sealed(DROP_BOXES, Column("box", Text), Column("table_id", Integer),
            Column("shift_id", Integer, nullable=True)),
    _sealed(DROP_COUNTS, Column("table_id", Integer), Column("shift_id", Integer),
            Column("box", Text), Column("counted", BigInteger), Column("team", Text),
            Column("denominations", Text), Column("corrects", BigInteger, nullable=True),
            Column("reason", Text), Column("started", UTCDateTime, nullable=True),
            Column("ended", UTCDateTime, nullable=True), Column("boxes", Integer),
            Column("independence", Text)),
    _sealed(COUNT_SIGNOFFS, Column("count_entry", BigInteger), Column("explanation", Text),
            Column("follows", BigInteger, nullable=True), Column("reason", Text)),
    _sealed(ROOM_CLOCKS, Column("zone", Text), Column("day_starts", Integer),
            Column("shifts", Text), Column("paper", Text), Column("retention_years", Integer),
            Column("tolerance_minutes", Integer)),
)}
#: What each audit action's record is called in verify's words.
_WHAT = {"count": "drop count", "drop-box": "drop box", "drop": "drop",
         "count-signoff": "count sign-off", "room-settings": "room clock"}


def add_room_record(
    conn: Connection, *, at: datetime, actor: str | None, action: str, detail: str, kind: str,
    values: Mapping[str, Any], table_id: int | None = None, token: str = "",
) -> AuditEntry:
    """The audit entry and ``kind``'s row (``entry``: the entry's number) in the caller's
    transaction; on PostgreSQL both held to the sign-in ``token`` names."""
    from dealer_assist.db.store.audit import append_audit

    if token and conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SELECT set_config('da.token', %(t)s, true)", {"t": token})
    (entry,) = append_audit(conn, [{"at": at, "actor": actor, "action": action,
                                    "detail": detail, "table_id": table_id, "hand_id": None}])
    sealed.append(conn, TABLES[kind], at=entry.at, actor=actor or "", token=token,
                  values={"entry": entry.seq, **values})
    return entry


def read_room_records(conn: Connection, kind: str) -> list[SealedRow]:
    """``kind``'s rows in the order recorded (none before schema 0022)."""
    if kind not in TABLES:
        raise KeyError(f"no room record table {kind!r}")
    return sealed.read(conn, TABLES[kind])


def room_row_faults(conn: Connection) -> tuple[list[str], list[Problem]]:
    """Verify's check of the room's records both ways: each count, correction, drop box, drop,
    sign-off and room clock on the audit log has its typed row and the row says the same, and
    each row's ``entry`` is such an audit entry of its kind. Notes: entries whose detail cannot
    be read (they never had a row)."""
    have = set(inspect(conn).get_table_names())
    if not set(TABLES) <= have:
        return [], []  # before schema 0022
    a = AuditRow.__table__
    audit = conn.execute(select(a.c.seq, a.c.at, a.c.actor, a.c.action, a.c.detail,
                                a.c.table_id).where(a.c.action.in_(list(KIND_OF)))
                         .order_by(a.c.id)).all()
    rows: dict[str, dict[int, list[SealedRow]]] = {}
    for kind, table in TABLES.items():
        by_entry: dict[int, list[SealedRow]] = {}
        for r in sealed.read(conn, table):
            by_entry.setdefault(int(r["entry"]), []).append(r)
        rows[kind] = by_entry
    faults: list[str] = []
    notes: list[Problem] = []
    for e in audit:
        seq, what, kind = int(e.seq or 0), _WHAT[e.action], KIND_OF[e.action]
        found = values_of(e.action, e.detail or "")
        mine = rows[kind].pop(seq, [])
        if found is None:
            notes.append(Problem(e.table_id or 0, "", seq, f"audit entry {seq} ({what}): its "
                                 "detail cannot be read, so it has no typed row"))
            mine_rows = mine
        else:
            if not mine:
                faults.append(f"audit entry {seq} ({what}) has no row in {kind}: the record "
                              "was written without its typed row, or the row was removed")
                continue
            row, mine_rows = mine[0], mine[1:]
            differ = [c for c, v in found[1].items() if row.values.get(c) != v]
            if utc(row.at) != utc(e.at):
                differ.insert(0, "time")
            if row.actor != (e.actor or ""):
                differ.insert(0, "who")
            if differ:
                faults.append(f"{kind} record {row.seq} (entry {seq}) differs from audit entry "
                              f"{seq} ({what}) in: {', '.join(differ)}")
        for extra in mine_rows:
            faults.append(f"{kind} record {extra.seq} names entry {seq}, a {what} already "
                          "kept by another row or with no readable record: a row added "
                          "behind the app")
    for kind, left in rows.items():
        for entry, extra_rows in sorted(left.items()):
            for extra in extra_rows:
                faults.append(f"{kind} record {extra.seq} names entry {entry}, which is not "
                              f"a {_kind_words(kind)} on the audit log")
    return faults, notes


def _kind_words(kind: str) -> str:
    return {DROP_COUNTS: "drop count", DROP_BOXES: "drop box or drop",
            COUNT_SIGNOFFS: "count sign-off", ROOM_CLOCKS: "room clock"}[kind]


def check_room_rows(db: Database, report: VerifyReport) -> None:
    """Add :func:`room_row_faults` to a verify ``report`` (findings and notes)."""
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        faults, notes = room_row_faults(conn)
    report.findings.extend(faults)
    report.notes.extend(notes)


def counts_by_entry(db: Database) -> dict[int, Count]:
    """Each drop count's row by its audit entry's number (verify's re-check of the count
    rules reads the counts so)."""
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        if DROP_COUNTS not in inspect(conn).get_table_names():
            return {}
        return {int(r["entry"]): count_of(r) for r in sealed.read(conn, TABLES[DROP_COUNTS])}


def room_clock_db(db: Database) -> RoomClock:
    """The room clock in force: the latest row of ``room_clocks`` (UTC from midnight when
    none), as verify's re-check of the input rules reads it."""
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        if ROOM_CLOCKS not in inspect(conn).get_table_names():
            return RoomClock()
        rows = sealed.read(conn, TABLES[ROOM_CLOCKS])
    return clock_of(rows[-1]) if rows else RoomClock()

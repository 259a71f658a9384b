"""Sealed typed rows in the database (schema 0017; :mod:`dealer_assist.services.sealed` says
what they are).

A sealed table is made by a migration with :func:`dealer_assist.db.migrations.sealed_ddl.
create_sealed_table`: its own columns beside ``id, seq, at, actor, prev_hash, hash``, a head
row in ``record_heads``, triggers that refuse UPDATE, DELETE and a replaced row, and on
PostgreSQL a trigger that takes a row only from a live sign-in whose name is the row's
``actor`` and whose role the table allows (or from the owner). Its model mixes in
:class:`SealedColumns`.

:func:`append` writes a record in the caller's transaction: it locks the table's head row
first, so records from several stations queue up in one order, and a caller that checks what
the records say *after* that lock (a seat still free, a dealer not down elsewhere) is alone in
doing so until it commits. :func:`read` gives them back in order; :func:`sealed_faults` walks
every sealed table for ``verify``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Connection,
    DateTime,
    Integer,
    MetaData,
    String,
    Table,
    insert,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from dealer_assist.db.bootstrap import Database, unavailable
from dealer_assist.db.models import GENESIS, RecordHeadRow, UTCDateTime
from dealer_assist.services.chain import utc
from dealer_assist.services.errors import Conflict
from dealer_assist.services.sealed import SealedRow, chain_faults, row_hash

#: The columns every sealed table has; everything else in a row is its typed values.
BASE_COLUMNS = ("id", "seq", "at", "actor", "prev_hash", "hash")


class SealedColumns:
    """The columns every sealed table has (mix into a declarative model)."""

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    seq: Mapped[int] = mapped_column(BigInteger, unique=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    actor: Mapped[str] = mapped_column(String(40))
    prev_hash: Mapped[str] = mapped_column(String(64))
    hash: Mapped[str] = mapped_column(String(64))


H = RecordHeadRow.__table__


def _table(model: Any) -> Table:
    table = getattr(model, "__table__", model)
    if not isinstance(table, Table):
        raise TypeError(f"{model!r} is not a sealed table's model")
    return table


def _value(column: Any, value: Any) -> Any:
    """A typed value as the row's hash saw it: aware UTC times, real bools."""
    if value is None:
        return None
    kind = column.type
    if isinstance(kind, UTCDateTime | DateTime):
        if isinstance(value, str):
            value = datetime.fromisoformat(value)
        return utc(value) if isinstance(value, datetime) else value
    if isinstance(kind, Boolean):
        return bool(value)
    if isinstance(value, int | str | bool):
        return value
    return int(value) if isinstance(kind, Integer | BigInteger) else str(value)


def _row(table: Table, row: Any) -> SealedRow:
    m = row._mapping
    values = {c.name: _value(c, m[c.name]) for c in table.columns if c.name not in BASE_COLUMNS}
    at = m["at"]
    if isinstance(at, str):
        at = datetime.fromisoformat(at)
    return SealedRow(kind=table.name, seq=int(m["seq"]), at=utc(at), actor=m["actor"],
                     values=values, prev_hash=m["prev_hash"], hash=m["hash"], id=int(m["id"]))


@dataclass
class Head:
    """A sealed table's head as locked in this transaction (:func:`lock_head`): handed to
    :func:`append`, it spares the second lock and moves with each record written."""

    kind: str
    entries: int
    hash: str
    token: str | None = None


def _lock_head(conn: Connection, kind: str, token: str | None = None) -> Head:
    """Lock ``kind``'s head row; on PostgreSQL with ``token`` (not None) the transaction's
    ``da.token`` is set in the same statement (one round trip)."""
    pg = conn.dialect.name == "postgresql"
    if pg and token is not None:
        head = conn.exec_driver_sql(
            "SELECT set_config('da.token', %(t)s, true), entries, head_hash FROM record_heads "
            "WHERE kind = %(k)s FOR UPDATE", {"t": token, "k": kind}).first()
        if head is None:  # no head row: the token still goes in first
            conn.exec_driver_sql("SELECT set_config('da.token', %(t)s, true)", {"t": token})
        else:
            return Head(kind, int(head[1]), head[2], token)
    else:
        stmt = select(H.c.entries, H.c.head_hash).where(H.c.kind == kind)
        if pg:
            stmt = stmt.with_for_update()
        row = conn.execute(stmt).first()
        if row is not None:
            return Head(kind, int(row.entries), row.head_hash, token)
    # the head row is gone (verify names that): go on from the table's last record
    table = Table(kind, MetaData(), autoload_with=conn)
    tail = conn.execute(select(table.c.seq, table.c.hash).order_by(table.c.id.desc())
                        .limit(1)).first()
    seq, last = (int(tail.seq), tail.hash) if tail else (0, GENESIS)
    conn.execute(insert(H).values(kind=kind, entries=seq, head_hash=last))
    if pg:
        conn.execute(select(H.c.kind).where(H.c.kind == kind).with_for_update())
    return Head(kind, seq, last, token)


def lock(conn: Connection, model: Any) -> int:
    """Lock ``model``'s table for this transaction (its head row), as :func:`append` does, and
    return how many records it holds: a caller that must read the records and decide before it
    writes (is the seat free?) takes the lock first."""
    return _lock_head(conn, _table(model).name).entries


def lock_head(conn: Connection, model: Any, *, token: str | None = None) -> Head:
    """:func:`lock`, returning the head to hand to :func:`append` (and, on PostgreSQL, setting
    the sign-in's ``token`` in the same statement)."""
    return _lock_head(conn, _table(model).name, token)


#: Each sealed table's column names and its typed columns (read once per table).
_COLUMNS: dict[Table, tuple[frozenset[str], tuple[Any, ...]]] = {}


def _columns(table: Table) -> tuple[frozenset[str], tuple[Any, ...]]:
    known = _COLUMNS.get(table)
    if known is None:
        known = _COLUMNS[table] = (frozenset(c.name for c in table.columns), tuple(
            c for c in table.columns if c.name not in BASE_COLUMNS))
    return known


def _settable(table: Table, values: Mapping[str, Any]) -> None:
    unknown = set(values) - _columns(table)[0]
    if unknown or set(values) & set(BASE_COLUMNS):
        raise TypeError(f"{table.name} has no column(s) {sorted(unknown or set(values))} "
                        "to set")


def chained(
    model: Any, *, seq: int, prev_hash: str, at: datetime, actor: str,
    values: Mapping[str, Any],
) -> SealedRow:
    """Record ``seq`` of ``model``'s table, chained after ``prev_hash`` (its hash computed),
    not yet stored: what :func:`append` and a one-statement append (:func:`append_after_sql`)
    write."""
    table = _table(model)
    kind = table.name
    _settable(table, values)
    at = utc(at).astimezone(UTC)
    typed = {c.name: _value(c, values.get(c.name)) for c in _columns(table)[1]}
    return SealedRow(kind=kind, seq=seq, at=at, actor=actor, values=typed,
                     prev_hash=prev_hash, hash=row_hash(kind, seq, at, actor, typed, prev_hash))


def append(
    conn: Connection, model: Any, *, at: datetime, actor: str, token: str,
    values: Mapping[str, Any], head: Head | None = None,
) -> SealedRow:
    """Chain and insert one record of ``model``'s table in the caller's transaction; move the
    table's head. ``token``: the signed-in :attr:`~dealer_assist.services.model.Session.token`
    (PostgreSQL's trigger checks it names ``actor`` with a role the table allows). ``head``:
    the head this transaction locked already (:func:`lock_head`), moved here."""
    table = _table(model)
    kind = table.name
    pg = conn.dialect.name == "postgresql"
    if head is not None and head.kind != kind:
        raise TypeError(f"the head of {head.kind} is not {kind}'s")
    _settable(table, values)
    if head is None:
        head = _lock_head(conn, kind, (token or "") if pg else None)
    elif pg and head.token != (token or ""):
        conn.exec_driver_sql("SELECT set_config('da.token', %(t)s, true)", {"t": token or ""})
        head.token = token or ""
    row = chained(table, seq=head.entries + 1, prev_hash=head.hash, at=at, actor=actor,
                  values=values)
    new_id = conn.execute(
        insert(table).values(seq=row.seq, at=row.at, actor=actor, prev_hash=row.prev_hash,
                             hash=row.hash, **values)
        .returning(table.c.id)
    ).scalar_one()
    conn.execute(update(H).where(H.c.kind == kind).values(entries=row.seq, head_hash=row.hash))
    head.entries, head.hash = row.seq, row.hash
    return replace(row, id=int(new_id))


def append_after_sql(model: Any, also: str = "") -> str:
    """PostgreSQL: one record of ``model``'s table as one statement (its own transaction, in
    autocommit): the head moves only while it still is record ``%(after)s`` with hash
    ``%(prev_hash)s`` (and ``also``, more SQL conditions, holds); the sign-in's ``%(token)s``
    is set for the table's trigger in the same statement; the row goes in only if the head
    moved. Its parameters: :func:`append_after_params`. No row back: nothing was written (the
    records moved on since that head), and the caller takes the locking path. A head moved by
    another station while this one waited for its lock is checked again as it now is, so two
    stations sending this at once on one head write exactly one record."""
    table = _table(model)
    cols = [c for c in table.columns if c.name != "id"]
    cond = " AND ".join(("kind = %(kind)s", "entries = %(after)s",
                         "head_hash = %(prev_hash)s",
                         "set_config('da.token', %(token)s, true) IS NOT NULL",
                         *([also] if also else ())))
    return (f"WITH h AS (UPDATE record_heads SET entries = %(seq)s, head_hash = %(hash)s "
            f"WHERE {cond} RETURNING entries) "
            f"INSERT INTO {table.name} ({', '.join(c.name for c in cols)}) SELECT "
            + ", ".join(f"%({c.name})s::{_pg_cast(c)}" for c in cols)
            + " FROM h RETURNING id")


def _pg_cast(column: Any) -> str:
    """The type a parameter is read as: without a length (a cast to ``varchar(40)`` would cut
    a longer text short, where the column refuses it)."""
    kind = column.type
    if isinstance(kind, UTCDateTime | DateTime):
        return "timestamp"
    if isinstance(kind, Boolean):
        return "boolean"
    if isinstance(kind, BigInteger):
        return "bigint"
    return "integer" if isinstance(kind, Integer) else "text"


def _naive(value: Any) -> Any:
    return utc(value).replace(tzinfo=None) if isinstance(value, datetime) else value


def append_after_params(row: SealedRow, token: str) -> dict[str, Any]:
    """The parameters of :func:`append_after_sql` for ``row`` (:func:`chained`); times in
    naive UTC, as :class:`UTCDateTime` stores them."""
    return {**{k: _naive(v) for k, v in row.values.items()}, "kind": row.kind,
            "after": row.seq - 1, "seq": row.seq, "prev_hash": row.prev_hash,
            "hash": row.hash, "token": token or "", "at": _naive(row.at), "actor": row.actor}


def read(conn: Connection, model: Any, *where: Any) -> list[SealedRow]:
    """``model``'s records (those matching ``where``, SQLAlchemy conditions), in order."""
    table = _table(model)
    return [_row(table, r) for r in conn.execute(select(table).where(*where)
                                                 .order_by(table.c.id))]


@contextmanager
def writing(db: Database) -> Iterator[Connection]:
    """One write transaction on ``db``, its errors as a person can act on them (nothing was
    recorded): a refusal by the database, a lock held too long, a lost server."""
    try:
        with db.engine.begin() as conn:
            yield conn
    except IntegrityError as exc:
        raise Conflict("another station recorded the same thing at the same moment: look "
                       "again and enter it again if it is still needed") from exc
    except DBAPIError as exc:
        raise unavailable(exc, db.describe()) from exc


@contextmanager
def reading(db: Database) -> Iterator[Connection]:
    """One read on ``db`` (no write lock taken)."""
    try:
        with db.engine.connect() as conn:
            conn.execution_options(dealer_assist_read=True)
            yield conn
    except DBAPIError as exc:
        raise unavailable(exc, db.describe()) from exc


def sealed_tables(conn: Connection) -> list[Table]:
    """Every sealed table in the database: those with a head, and any table with the sealed
    columns whose head was removed."""
    from sqlalchemy import inspect

    names = {k for (k,) in conn.execute(select(H.c.kind))}
    insp = inspect(conn)
    for name in insp.get_table_names():
        cols = {c["name"] for c in insp.get_columns(name)}
        if set(BASE_COLUMNS) <= cols and name not in ("audit_log", "events"):
            names.add(name)
    meta = MetaData()
    return [Table(n, meta, autoload_with=conn) for n in sorted(names)
            if insp.has_table(n)] + [_missing(n) for n in sorted(names)
                                     if not insp.has_table(n)]


def _missing(name: str) -> Table:
    return Table(name, MetaData())


def sealed_faults(conn: Connection) -> list[str]:
    """Every sealed table's chain walked against its head (``verify``)."""
    heads = {k: (int(n), h) for k, n, h in conn.execute(select(H.c.kind, H.c.entries,
                                                               H.c.head_hash))}
    faults: list[str] = []
    for table in sealed_tables(conn):
        if not table.columns:
            faults.append(f"{table.name}: the table of these records is gone (its head says "
                          f"{heads.get(table.name, (0, ''))[0]} record(s))")
            continue
        rows = [_row(table, r) for r in conn.execute(select(table).order_by(table.c.id))]
        entries, head_hash = heads.get(table.name, (None, None))
        faults.extend(chain_faults(table.name, rows, entries, head_hash))
    return faults


def heads(conn: Connection) -> dict[str, tuple[int, str]]:
    """Each sealed table's head (records, last hash), for a signed checkpoint."""
    return {k: (int(n), h) for k, n, h in conn.execute(
        select(H.c.kind, H.c.entries, H.c.head_hash).order_by(H.c.kind))}


def checkpoint_problems(conn: Connection, number: int, records: Mapping[str, Any]) -> list[str]:
    """Each sealed table's record checkpoint ``number`` signed as its head: still stored, unchanged
    (a table emptied and rebuilt with its chain recomputed shows here)."""
    from sqlalchemy import inspect

    out: list[str] = []
    mark = "%s" if conn.dialect.name == "postgresql" else "?"
    names = set(inspect(conn).get_table_names())
    for kind, head in sorted(records.items()):
        entries, signed = int(head.get("entries", 0)), str(head.get("hash", ""))
        if not entries:
            continue
        row = (conn.exec_driver_sql(f"SELECT hash FROM {kind} WHERE seq = {mark}",
                                    (entries,)).first() if kind in names else None)
        if row is None:
            out.append(f"{kind}: checkpoint {number} signed record {entries}, which is no "
                       "longer stored (records were cut)")
        elif row[0] != signed:
            out.append(f"{kind}, record {entries}: its hash differs from the one checkpoint "
                       f"{number} signed (the records were rewritten)")
    return out

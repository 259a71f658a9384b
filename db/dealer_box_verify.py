"""What ``verify`` checks of the dealer box (schema 0019): a dealer's downs that overlap (a
record dated before the dealer's previous one), and an input recorded at a table by a dealer
not down there at the time (floor people may record, as before). Audit entries dated before
the entry ahead of them in the chain are named by the rules' check (``services.rulecheck``).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise

from sqlalchemy import Connection, and_, inspect, or_, select, true

from dealer_assist.db.bootstrap import Database
from dealer_assist.db.dealer_box import read_downs
from dealer_assist.services.chain import utc
from dealer_assist.services.dealer_box import Down, DownRecord, dealer_at, fold_downs, overlaps

#: One input: (table id, seq at the table, actor, time, the actor's role).
Input = tuple[int, int, str, object, str]


def _at(value: object) -> datetime:
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if not isinstance(value, datetime):
        raise TypeError(f"not a time: {value!r}")
    return utc(value)


def dealer_finder(downs: Sequence[Down]) -> Callable[[int, datetime], str | None]:
    """``dealer_at(downs, table, t)`` for many inputs: a table's downs, when each ends before
    the next starts (as a room's do), are searched by their start (a day's inputs times a
    day's downs made verify quadratic); any other table's, one by one as ``dealer_at`` does."""
    by_table: dict[int | None, list[Down]] = {}
    for d in downs:
        by_table.setdefault(d.table_id, []).append(d)
    ordered: dict[int | None, tuple[list[datetime], list[Down]]] = {}
    for table_id, mine in by_table.items():
        if _in_order(mine):
            ordered[table_id] = ([d.start for d in mine], mine)

    def find(table_id: int, t: datetime) -> str | None:
        found = ordered.get(table_id)
        if found is None:
            return dealer_at(by_table.get(table_id, ()), table_id, t)
        starts, mine = found
        i = bisect_right(starts, t) - 1
        if i < 0:
            return None
        d = mine[i]
        return d.dealer if d.end is None or t < d.end else None

    return find


def _in_order(downs: Sequence[Down]) -> bool:
    """Each down ends (not before it starts) by the time the next starts; the last may run."""
    for d, e in pairwise(downs):
        if d.end is None or not d.start <= d.end <= e.start:
            return False
    return downs[-1].end is None or downs[-1].start <= downs[-1].end


def down_faults(records: list[DownRecord], inputs: Iterable[Input],
                names: dict[int, str]) -> list[str]:
    """Overlapping downs, and dealers' inputs at a table where they were not down, each dealer
    from their first down record on (before it, their shift's rule held: a room's inputs
    before it kept downs, a dealer the box never placed)."""
    out = [f"dealer_downs: {o.dealer}'s downs overlap: record {o.second.seq} starts at "
           f"{o.second.at:%Y-%m-%d %H:%M:%S} UTC, before record {o.first.seq} "
           f"({o.first.at:%H:%M:%S})" for o in overlaps(records)]
    if not records:
        return out
    first: dict[str, datetime] = {}
    for r in records:
        first[r.dealer] = min(r.at, first.get(r.dealer, r.at))
    dealer_of = dealer_finder(fold_downs(records))
    for table_id, seq, actor, at, role in inputs:
        t = _at(at)
        if role != "dealer" or actor not in first or t < first[actor]:
            continue
        here = dealer_of(table_id, t)
        if here != actor:
            table = names.get(table_id, f"table {table_id}")
            who = f"{here} was" if here else "nobody was"
            out.append(f"{table}: input {seq} was recorded by dealer {actor} at "
                       f"{t:%Y-%m-%d %H:%M:%S} UTC, when {who} down there")
    return out


@dataclass(frozen=True, slots=True)
class Since:
    """Where a checkpoint's verify starts the dealer box's check: each table's signed chain
    head (``heads``: table id → seq) and how many down records it signed (``downs``)."""

    heads: Mapping[int, int]
    downs: int


def check_dealer_box(conn: Connection, since: Since | None = None) -> list[str]:
    """The dealer box's findings on one connection (read only). ``since``: only the inputs a
    checkpoint did not sign (each table's after its signed head), and every input from the
    time of the earliest down record written after it (a down dated back can make an older
    input one by a dealer not down there); the downs themselves all, as before."""
    from dealer_assist.db.models import EventRow, TableRow, UserRow

    if not inspect(conn).has_table("dealer_downs"):
        return []
    records = read_downs(conn)
    if not records:
        return []
    first = min(r.at for r in records)
    e, t, u = EventRow.__table__, TableRow.__table__, UserRow.__table__
    names = {int(r.id): str(r.name) for r in conn.execute(select(t.c.id, t.c.name))}
    roles = {str(r.name): str(r.role) for r in conn.execute(select(u.c.name, u.c.role))}
    query = select(e.c.table_id, e.c.seq, e.c.actor, e.c.time).where(e.c.time >= first)
    if since is not None:
        redated = min((r.at for r in records if r.seq > since.downs), default=None)
        unsigned = or_(e.c.table_id.not_in(list(since.heads)) if since.heads else true(),
                       *(and_(e.c.table_id == table_id, e.c.seq > seq)
                         for table_id, seq in since.heads.items()))
        query = query.where(unsigned if redated is None else or_(unsigned, e.c.time >= redated))
    inputs = [(int(r.table_id), int(r.seq), str(r.actor), r.time, roles.get(str(r.actor), ""))
              for r in conn.execute(query.order_by(e.c.table_id, e.c.seq))]
    return down_faults(records, inputs, names)


def check_dealer_box_db(db: Database) -> list[str]:
    """``verify``'s dealer-box findings."""
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        return check_dealer_box(conn)


def downs_since(db: Database) -> datetime | None:
    """When the room's first down was recorded (None: the dealer box never used)."""
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        if not inspect(conn).has_table("dealer_downs"):
            return None
        records = read_downs(conn)
    return min((r.at for r in records), default=None)

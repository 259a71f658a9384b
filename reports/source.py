"""Read-only access to the store for the reports: chains, hands, ledgers, people, the audit log.

Everything goes through the read-side port (:class:`dealer_assist.services.reads.Reads`), so a
report reads the SQLite or PostgreSQL store and the in-memory one alike. Nothing here writes, except
:func:`log_generation`, which records that a report was produced.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from dealer_assist.errors import BadInput
from dealer_assist.reports.data.records import ChainCheck
from dealer_assist.reports.sql import LedgerRow, sql_source
from dealer_assist.services.chain import GENESIS, canonical, time_text, utc
from dealer_assist.services.errors import NotFound
from dealer_assist.services.model import Hand, HandFilter, LedgerLine, Shift, Table
from dealer_assist.services.reads import Reads
from dealer_assist.services.verify import TableCheck


class Row(NamedTuple):
    """One stored event as a report reads it: where it sits in the chain and its JSON text.

    ``stamp`` is the time exactly as hashed (ISO 8601, UTC, microseconds). A plain tuple, so a
    large shift's rows travel cheaply to the processes that replay them.
    """

    seq: int
    hand_id: int | None
    number: int
    stamp: str
    actor: str
    text: str

    @property
    def time(self) -> datetime:
        return datetime.fromisoformat(self.stamp)


@dataclass(slots=True)
class TableScan:
    """One pass over a table's chain: the verified head, and the rows of the hands asked for."""

    table: Table
    head: ChainCheck
    rows: dict[int, list[Row]] = field(default_factory=dict)


#: One stored event as read for the chain check: seq, hand id, number, time as hashed, actor,
#: event text, previous hash, hash.
ChainRow = tuple[int, "int | None", int, str, str, str, str, str]


def chain_batches(store: Reads, table_id: int) -> Iterator[list[ChainRow]]:
    """The table's events in sequence order with their previous and own hash, a batch at a time.

    On the database store this reads the stored canonical text straight from the events table
    in one streamed query; on any other store it goes through the port.
    """
    sql = sql_source(store)
    if sql is not None:
        yield from sql.chain_batches(table_id)
        return
    yield [(r.seq, r.hand_id, r.number, time_text(r.time), r.actor, canonical(r.body),
            r.prev_hash, r.hash) for r in store.table_events(table_id)]


def scan_table(store: Reads, table: Table, wanted: Iterable[int] | None = None) -> TableScan:
    """Walk the table's whole chain from its first event, re-checking every link and hash.

    Rows of the hands in ``wanted`` (all hands when ``None``) are kept for the report.
    """
    want = None if wanted is None else set(wanted)
    check = TableCheck(table.id, table.name)
    new = tuple.__new__
    rows: dict[int, list[Row]] = {}
    for batch in chain_batches(store, table.id):
        check.feed(batch, str)  # (the stored time is already the hashed text)
        if want is not None and not want:
            continue
        for r in batch:
            hand_id = r[1]
            if hand_id is None or (want is not None and hand_id not in want):
                continue
            kept = rows.get(hand_id)
            if kept is None:
                kept = rows[hand_id] = []
            kept.append(new(Row, r[:6]))
    return TableScan(table=table, head=chain_check(store, table, check), rows=rows)


def chain_check(store: Reads, table: Table, check: TableCheck) -> ChainCheck:
    """What a walk of the table's whole chain found (``check``, fed or joined from parts),
    with the stored chain head compared to its last event."""
    stored = store.chain_head(table.id)
    problem = check.problem
    message = ""
    if problem is None and stored is not None and (
        stored.seq != check.last_seq or stored.hash != check.last_hash
    ):
        message = (f"the stored chain head (event {stored.seq}) does not match the last "
                   f"event ({check.last_seq})")
    elif problem is not None:
        message = f"event {problem.seq}: {problem.message}"
    return ChainCheck(
        table=table.name, last_seq=check.last_seq,
        head_hash="" if check.last_hash == GENESIS else check.last_hash,
        verified=not message, message=message or f"{check.rows} events re-checked",
    )


def full_names(store: Reads) -> dict[str, str]:
    """User name -> full name (what signature lines and reports print)."""
    return {u.name: u.full_name for u in store.list_users()}


def person(names: dict[str, str], user: str | None) -> str:
    """A user's full name with the user name, e.g. ``Dana Reyes (dana)``."""
    if not user:
        return "system"
    full = names.get(user)
    return f"{full} ({user})" if full and full != user else user


def find_table(store: Reads, name: str | None) -> Table:
    """A table by name or number; ``None`` is the table with the most recent hand."""
    if name:
        table = store.find_table(name)
        if table is None and name.isascii() and name.isdigit() and len(name) <= 18:
            table = store.get_table(int(name))  # (a longer number is no table's: 64-bit ids)
        if table is None:
            known = ", ".join(t.name for t in store.list_tables()) or "none yet"
            raise NotFound(f'there is no table "{name}" (tables: {known})')
        return table
    latest = store.list_hands(HandFilter(limit=1))
    if latest:
        found = store.get_table(latest[0].table_id)
        if found is not None:
            return found
    tables = store.list_tables()
    if not tables:
        raise NotFound("the database has no tables yet: nothing to report")
    return tables[-1]


def find_shift(store: Reads, shift_id: int | None, table: str | None) -> Shift:
    """A shift by id; else the most recently opened shift of the table (or of any table)."""
    if shift_id is not None:
        shift = store.get_shift(shift_id)
        if shift is None:
            raise NotFound(f"there is no shift {shift_id}")
        return shift
    if table is not None:
        shifts = store.list_shifts(find_table(store, table).id)
    else:
        shifts = store.list_shifts(None)
    if not shifts:
        raise NotFound("no shift has been opened yet: nothing to report")
    return max(shifts, key=lambda s: (utc(s.opened_at), s.id))


def find_hand(store: Reads, hand_id: int | None, table: str | None) -> Hand:
    """A hand by id; else the most recent hand of the table (or of any table)."""
    if hand_id is not None:
        hand = store.get_hand(hand_id)
        if hand is None:
            raise NotFound(f"there is no hand {hand_id}")
        return hand
    flt = HandFilter(limit=1, table_id=find_table(store, table).id if table else None)
    hands = store.list_hands(flt)
    if not hands:
        raise NotFound("no hand has been dealt yet: nothing to report")
    return hands[0]


def shift_hands(store: Reads, shift: Shift) -> list[Hand]:
    """The shift's hands, oldest first."""
    hands = store.list_hands(HandFilter(shift_id=shift.id, limit=None))
    return sorted(hands, key=lambda h: h.number)


def ledgers(store: Reads, hand_ids: Iterable[int]) -> dict[int, list[LedgerLine]]:
    """The latest settlement's ledger lines of each hand (one query per thousand hands on the
    database store)."""
    ids = list(hand_ids)
    sql = sql_source(store)
    if sql is not None:
        return sql.ledgers(ids)
    return {h: store.ledger(h) for h in ids}


def ledger_rows(store: Reads, hand_ids: Iterable[int]) -> dict[int, list[LedgerRow]]:
    """:func:`ledgers` as plain tuples (:func:`~dealer_assist.reports.sql.ledger_line` makes
    the lines), for handing thousands of hands to other processes cheaply."""
    ids = list(hand_ids)
    sql = sql_source(store)
    if sql is not None:
        return sql.ledger_rows(ids)
    return {h: [(h, x.kind, x.amount, x.seat, x.detail, x.settlement) for x in store.ledger(h)]
            for h in ids}


def period(day: str | None, start: str | None, end: str | None,
           default_end: datetime) -> tuple[datetime, datetime]:
    """Parse ``--from``/``--to`` (``YYYY-MM-DD`` or ``YYYY-MM-DDTHH:MM``, UTC)."""
    from datetime import timedelta

    def parse(text: str, what: str) -> datetime:
        try:
            t = datetime.fromisoformat(text)
        except ValueError as exc:
            raise BadInput(f"{what} {text!r} is not a date: write 2026-11-21 or "
                           "2026-11-21T18:00") from exc
        if not 1970 <= t.year <= 9998:  # (9999-12-31 plus a day is past the calendar)
            raise BadInput(f"{what} {text!r} is not a date the room can have records for: "
                           "write a year from 1970 to 9998")
        return utc(t)

    if start is None and end is None and day is None:
        to = default_end
        return to - timedelta(days=1), to
    if day is not None:
        f = parse(day, "the day")
        return f, f + timedelta(days=1)
    begin = parse(start, "--from") if start else None
    finish = parse(end, "--to") if end else None
    if finish is not None and end is not None and len(end) == 10:
        finish += timedelta(days=1)  # a whole last day is included
    if begin is None:
        assert finish is not None
        begin = finish - timedelta(days=1)
    if finish is None:
        finish = max(default_end, begin + timedelta(days=1))
    if finish <= begin:
        raise BadInput("--to must be after --from")
    return begin, finish

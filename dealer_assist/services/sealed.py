"""Sealed typed rows: the one way a room record is kept (schema 0017).

A room record (a drop count, a dealer's down, a waiting-list entry, a seating) is a row of its
own table, one column per fact, so a report reads columns, never sentences. Every such table is
append-only and hash-chained on its own: each row carries its place (``seq`` from 1), the
previous row's hash and its own, and the table's head (how many rows, the last hash) is kept
beside it and moved in the same transaction. So a row changed, deleted, inserted or reordered
behind the app's back, or rows cut from the end, show when the chain is walked.

What is true now (who sits where, which dealer is down at which table) is derived by reading a
table's records in order; no mutable row holds it.

Pure: the database layer (``dealer_assist.db.sealed``) reads and writes the rows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dealer_assist.services.chain import GENESIS, canonical, time_text, utc

__all__ = ["GENESIS", "SealedRow", "chain_faults", "plain_values", "row_hash"]


@dataclass(frozen=True, slots=True)
class SealedRow:
    """One record of a sealed table, as stored."""

    #: The table's name (``drop_counts``, ``dealer_downs``...): part of what is hashed, so a
    #: row copied from one table into another shows.
    kind: str
    seq: int
    #: Aware UTC.
    at: datetime
    #: Who wrote it: the signed-in person's name.
    actor: str
    #: The typed columns: int, str, bool, None or an aware datetime.
    values: Mapping[str, Any]
    prev_hash: str
    hash: str
    id: int = 0

    def __getitem__(self, column: str) -> Any:
        return self.values[column]


def plain_values(values: Mapping[str, Any]) -> dict[str, Any]:
    """The typed columns as JSON can hold them: a time as its UTC text, the rest as they are
    (a bool stays a bool; SQLite hands back 0/1, so the reader turns those back first)."""
    out: dict[str, Any] = {}
    for name, value in values.items():
        if isinstance(value, datetime):
            out[name] = time_text(utc(value))
        elif value is None or isinstance(value, bool | int | str):
            out[name] = value
        else:
            raise TypeError(f"column {name} of a sealed row holds a {type(value).__name__}: "
                            "only int, str, bool, None or a time are kept")
    return out


def row_hash(
    kind: str, seq: int, at: datetime, actor: str, values: Mapping[str, Any], prev_hash: str,
) -> str:
    """sha256 over the canonical JSON of (table, place, time, who, the typed columns, the
    previous row's hash)."""
    payload = canonical([kind, seq, time_text(at), actor, plain_values(values), prev_hash])
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def chain_faults(
    kind: str, rows: Sequence[SealedRow], entries: int | None, head_hash: str | None,
) -> list[str]:
    """What is wrong with one sealed table's chain, each fault in words a floor person or an
    auditor can act on (empty: intact). ``rows`` in the order stored (by id); ``entries`` and
    ``head_hash``: the table's head as stored (None: the head row is missing)."""
    faults: list[str] = []
    last, seq = GENESIS, 0
    for row in rows:
        seq += 1
        where = f"{kind} record {row.seq} (row id {row.id})"
        if row.seq != seq:
            faults.append(f"{where}: found where record {seq} belongs — a record was deleted, "
                          "inserted or moved")
            break
        if row.prev_hash != last:
            faults.append(f"{where}: does not follow the record before it — the chain is "
                          "broken there")
            break
        if row_hash(kind, row.seq, row.at, row.actor, row.values, row.prev_hash) != row.hash:
            faults.append(f"{where}: its contents differ from what was recorded (changed "
                          "after it was written)")
            break
        last = row.hash
    if faults:
        return faults
    if entries is None:
        if rows:
            faults.append(f"{kind}: the head that counts its records is missing")
    elif entries != seq or (head_hash or GENESIS) != last:
        faults.append(f"{kind}: the head says {entries} record(s), the table holds {seq} — "
                      "records were cut from the end or the head was changed")
    return faults

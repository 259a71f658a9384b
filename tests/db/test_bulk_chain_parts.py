"""The reports' bulk reads of a chain in parts (``db/bulk_reads.py``): the cuts fall where a
hand begins, and the parts read one by one are the whole chain, on SQLite and PostgreSQL.
A large shift report's workers each read their own part this way."""

from __future__ import annotations

from datetime import UTC, datetime
from itertools import pairwise

from dealer_assist.db import demo
from dealer_assist.db.bootstrap import Database
from dealer_assist.db.bulk_reads import SqlBulkReads
from dealer_assist.db.store import SqlStore
from dealer_assist.services import Argon2PinHasher


def _filled(database: Database) -> tuple[SqlBulkReads, int]:
    demo.fill_demo(database, hands=24, tables=1, seed=3,
                   start=datetime(2026, 11, 21, 18, 0, tzinfo=UTC),
                   hasher=Argon2PinHasher(fast=True))
    store = SqlStore(database)
    table = store.list_tables()[0]
    return store.bulk_reads(), table.id


def test_chain_parts_cut_where_a_hand_begins_and_join_to_the_whole_chain(
        database: Database) -> None:
    bulk, table_id = _filled(database)
    whole = [r for b in bulk.chain_batches(table_id) for r in b]
    starts = bulk.part_starts(table_id, 40)
    assert starts[0] == whole[0][0] and starts[-1] == whole[-1][0] + 1
    assert len(starts) > 3  # several parts of 24 hands
    begins = {r[0] for r in whole if r[2] == 1 and r[1] is not None}
    assert set(starts[1:-1]) <= begins  # each cut is a hand's first event
    parts = [[r for batch in bulk.chain_part(table_id, first, end) for r in batch]
             for first, end in pairwise(starts)]
    assert all(len(p) >= 40 for p in parts[:-1])  # each part holds at least the rows asked
    assert [r for p in parts for r in p] == whole


def test_chain_parts_read_afresh_after_a_fork_and_an_empty_chain_has_none(
        database: Database) -> None:
    bulk, table_id = _filled(database)
    whole = [r for b in bulk.chain_batches(table_id) for r in b]
    bulk.forked()  # as a worker does first: its own connections from here on
    assert [r for b in bulk.chain_part(table_id, 1, whole[-1][0] + 1) for r in b] == whole
    assert bulk.part_starts(table_id + 1000, 40) == []

"""Every hand of a table replayed and its chain re-checked: in this process, or for a large shift
in parts on worker processes forked for it (switch off with ``PARALLEL`` where forking is
unwelcome). Each event's hash covers its stored previous hash, so a run of the chain's rows is
checked on its own and the runs joined in order (the same join as verify's,
:class:`~dealer_assist.services.verify_table.TableCheck`): this process only reads the rows and
cuts them into parts; the workers re-check and replay them.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from itertools import pairwise
from typing import Any

from dealer_assist.engine.registry import get_game
from dealer_assist.errors import DealerAssistError
from dealer_assist.gc_pause import paused_gc
from dealer_assist.reports.build.figures import Figures, hand_figures
from dealer_assist.reports.source import (
    ChainRow,
    Row,
    TableScan,
    chain_batches,
    chain_check,
    ledger_rows,
    scan_table,
)
from dealer_assist.reports.sql import LedgerRow, ledger_line, sql_source
from dealer_assist.services.model import Hand, Table
from dealer_assist.services.reads import BulkReads, Reads
from dealer_assist.services.verify_table import Part, TableCheck

#: Replay large shifts in parallel (switch off where forking is unwelcome, e.g. inside a GUI).
PARALLEL = True


#: Shifts with at least this many hands are replayed by several processes at once.
PARALLEL_MIN = 600


#: Hands handed to a replaying process at a time.
BATCH = 100


#: Chain rows in a part handed to a worker (cut where a hand begins, so each hand is usually
#: read whole in one part): several parts a worker, so that they finish about together.
PART_ROWS = 4000


def _rows_of(columns: tuple[tuple[Any, ...], ...]) -> list[Row]:
    """A hand's rows from their columns (seq, hand id, number, stamp, actor, text): a few
    tuples pickle far faster than a list of rows on their way to another process."""
    new = tuple.__new__
    return [new(Row, r) for r in zip(*columns, strict=True)]


#: The Replays whose worker processes are being forked: they inherit it (hands, ledger lines,
#: names, approvals), so a batch sent to them carries only hand ids and rows.
_FORKING: Replays | None = None


_FORK_LOCK = threading.Lock()


def _replay_batch(batch: list[tuple[int, tuple[tuple[Any, ...], ...]]]) -> list[Figures]:
    """In a worker process: the figures of (hand id, row columns) pairs."""
    replays = _FORKING
    if replays is None:
        raise RuntimeError("a report worker was not forked from a report")
    return replays.figures([(hand_id, _rows_of(columns)) for hand_id, columns in batch])


def _check_part(table_id: int, name: str,
                columns: tuple[tuple[Any, ...], ...]) -> tuple[Part, list[Figures]]:
    """In a worker process: one part of a table's chain (its rows' columns) checked, and the
    report's hands in it replayed."""
    replays = _FORKING
    if replays is None:
        raise RuntimeError("a report worker was not forked from a report")
    return replays.part(table_id, name, columns)


#: True in a worker once its store has connected afresh (after the fork).
_OWN_CONNECTIONS = False


def _read_part(table_id: int, name: str, first: int, end: int
               ) -> tuple[Part, list[Figures], set[int]]:
    """In a worker process: one part of a table's chain read from the database here, checked,
    and the report's hands in it replayed; with the hands it holds rows of."""
    global _OWN_CONNECTIONS
    replays = _FORKING
    if replays is None or replays.bulk is None:
        raise RuntimeError("a report worker was not forked from a report")
    if not _OWN_CONNECTIONS:
        replays.bulk.forked()
        _OWN_CONNECTIONS = True
    return replays.read_part(table_id, name, first, end)


def _idle_processors() -> int:
    """Processors this process may run on (at most 8): a worker on each. This process only reads
    the chain and joins the parts, so it takes little of one."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(8, cpus))


class Replays:
    """Every hand's figures, and the chain re-checked.

    For a large shift (``PARALLEL_MIN`` hands or more, several processors, a platform that can
    fork) a worker process runs on each processor: :meth:`scan` reads the chain and hands it
    over in parts, each re-checked and its hands replayed there, and joins them in order; parts
    no worker has started by the end of the chain are done here. Otherwise every hand is
    replayed here once the chain was re-checked (:func:`scan_table`). Either way each hand is
    replayed from exactly the rows of it the chain holds: a hand whose rows lie in two parts (a
    correction recorded after the next hand began) is replayed again from all of them.
    (:meth:`ready` and :meth:`results` hand over whole hands as a scan reads them instead.)
    """

    def __init__(
        self, hands: Sequence[Hand], led: dict[int, list[LedgerRow]], names: dict[str, str],
        approvals: dict[tuple[int, int], str], bulk: BulkReads | None = None,
    ) -> None:
        global _FORKING
        #: The database's bulk reads, when the workers read their parts themselves.
        self.bulk = bulk
        self.hands = {h.id: h for h in hands}
        self.order = [h.id for h in hands]
        self.led = led
        self.names = names
        self.approvals = approvals
        self.sent: dict[int, int] = {}  # hand id -> rows it was replayed from
        self.batch: list[tuple[int, tuple[tuple[Any, ...], ...]]] = []
        self.futures: list[Future[list[Figures]]] = []
        self.pool: Any = None
        workers = _idle_processors()
        if len(hands) >= PARALLEL_MIN and workers >= 2 and PARALLEL:
            for game in {h.game for h in hands}:  # imported once here, not in every worker
                with suppress(DealerAssistError):  # (the hand's replay says what is wrong)
                    get_game(game)
            with _FORK_LOCK:
                _FORKING = self
                try:
                    ctx = multiprocessing.get_context("fork")
                    self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
                    # Fork now (every worker starts at the first task), before the chain's
                    # cursor is open and while this object is the one the workers inherit.
                    self.pool.submit(os.getpid).result()
                except (ValueError, OSError, BrokenProcessPool):
                    self.close()
                finally:
                    _FORKING = None

    def __enter__(self) -> Replays:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
            self.pool = None

    def figures(self, items: Iterable[tuple[int, Sequence[Row]]]) -> list[Figures]:
        """Replay these hands from these rows (here, or in a worker process)."""
        with paused_gc():
            return [hand_figures(self.hands[hand_id], rows,
                                 [ledger_line(x) for x in self.led.get(hand_id, [])],
                                 self.names, approvals=self.approvals)
                    for hand_id, rows in items]

    def part(self, table_id: int, name: str,
             columns: tuple[tuple[Any, ...], ...]) -> tuple[Part, list[Figures]]:
        """One run of the chain's rows (their columns) checked on its own, as verify checks a
        part, and the report's hands in it replayed from their rows there."""
        return self._part(table_id, name, list(zip(*columns, strict=True)))

    def read_part(self, table_id: int, name: str, first: int, end: int
                  ) -> tuple[Part, list[Figures], set[int]]:
        """:meth:`part` of the events ``first`` <= seq < ``end``, read here; with the hands
        it holds rows of."""
        assert self.bulk is not None
        with paused_gc():
            rows = [r for b in self.bulk.chain_part(table_id, first, end) for r in b]
            found, figures = self._part(table_id, name, rows)
            return found, figures, {r[1] for r in rows if r[1] is not None}

    def _part(self, table_id: int, name: str, rows: list[ChainRow]
              ) -> tuple[Part, list[Figures]]:
        with paused_gc():
            check = TableCheck(table_id, name, opening=False)
            check.feed(rows, str)  # (the stored time is already the hashed text)
            mine: dict[int, list[Row]] = {}
            hands = self.hands
            new = tuple.__new__
            for r in rows:
                if r[1] in hands:
                    kept = mine.get(r[1])
                    if kept is None:
                        kept = mine[r[1]] = []
                    kept.append(new(Row, r[:6]))
            return check.part({}, {}), self.figures(mine.items())

    def scan(self, store: Reads, table: Table) -> tuple[TableScan, list[Figures]]:
        """Read the table's chain, cut it into parts where a hand begins, check and replay the
        parts on the workers and join them in order. The scan's rows are only those of the
        hands replayed here (read in two parts, or in parts done here)."""
        parts: list[list[ChainRow]] = []
        where: dict[int, list[int]] = {}  # hand id -> the parts holding its rows
        futures: list[Future[tuple[Part, list[Figures]]] | None] = []

        def send(rows: list[ChainRow]) -> None:
            index = len(parts)
            parts.append(rows)
            for hand_id in {r[1] for r in rows}:
                if hand_id is not None:
                    where.setdefault(hand_id, []).append(index)
            fut = None
            if self.pool is not None:
                try:
                    fut = self.pool.submit(_check_part, table.id, table.name,
                                           tuple(zip(*rows, strict=True)))
                except (OSError, RuntimeError, BrokenProcessPool):
                    self.close()  # no process to be had: the rest is done here
            futures.append(fut)

        size = PART_ROWS
        buf: list[ChainRow] = []
        for batch in chain_batches(store, table.id):
            for row in batch:
                if len(buf) >= size and row[2] == 1 and row[1] is not None:
                    send(buf)
                    buf = []
                buf.append(row)
        if buf:
            send(buf)
        # Parts no worker has started yet are done here rather than waited for.
        for i in reversed(range(len(futures))):
            fut = futures[i]
            if fut is not None and not fut.cancel():
                break
        def outcome(i: int) -> tuple[Part, list[Figures]]:
            fut = futures[i]
            if fut is not None and not fut.cancelled():
                with suppress(Exception):  # whatever went wrong there is done again here
                    return fut.result()  # (a fault in replaying then shows with its trace)
            return self.part(table.id, table.name, tuple(zip(*parts[i], strict=True)))

        scan, done = self._join(store, table, (outcome(i) for i in range(len(futures))), where)
        redo = [hand_id for hand_id in self.order if hand_id not in done]
        new = tuple.__new__
        for hand_id in redo:
            scan.rows[hand_id] = [new(Row, r[:6]) for i in where.get(hand_id, ())
                                  for r in parts[i] if r[1] == hand_id]
        done.update((f.line.hand_id, f) for f in self.figures(
            (hand_id, scan.rows.get(hand_id, [])) for hand_id in redo))
        return scan, [done[hand_id] for hand_id in self.order]

    def _join(self, store: Reads, table: Table,
              outcomes: Iterable[tuple[Part, list[Figures]]],
              where: dict[int, list[int]]) -> tuple[TableScan, dict[int, Figures]]:
        """The parts' checks joined in order into the table's scan, and the figures of every
        hand read whole in one part (``where``: hand id -> the parts holding its rows)."""
        check = TableCheck(table.id, table.name)
        done: dict[int, Figures] = {}
        for i, (found, figures) in enumerate(outcomes):
            check.join(found)
            for f in figures:
                if where.get(f.line.hand_id) == [i]:  # read whole in this part
                    done[f.line.hand_id] = f
        self.close()
        return TableScan(table=table, head=chain_check(store, table, check)), done

    def scan_parts(self, store: Reads, table: Table) -> tuple[TableScan, list[Figures]]:
        """:meth:`scan` with each worker reading its own parts from the database: this
        process reads only where the parts begin (the sequence numbers), and takes parts no
        worker has started from the end while the workers take them from the front."""
        assert self.bulk is not None
        starts = self.bulk.part_starts(table.id, PART_ROWS)
        bounds = list(pairwise(starts))
        futures: list[Future[tuple[Part, list[Figures], set[int]]] | None] = []
        for first, end in bounds:
            fut = None
            if self.pool is not None:
                try:
                    fut = self.pool.submit(_read_part, table.id, table.name, first, end)
                except (OSError, RuntimeError, BrokenProcessPool):
                    self.close()  # no process to be had: the rest is done here
            futures.append(fut)
        outcomes: list[tuple[Part, list[Figures], set[int]] | None] = [None] * len(bounds)

        def here(i: int) -> tuple[Part, list[Figures], set[int]]:
            return self.read_part(table.id, table.name, *bounds[i])

        front, back = 0, len(bounds) - 1
        while front <= back:
            fut = futures[back]
            if back > front and fut is not None and not fut.done() and fut.cancel():
                outcomes[back] = here(back)  # not started by a worker: done here
                back -= 1
                continue
            fut = futures[front]
            if fut is not None:
                with suppress(Exception):  # whatever went wrong there is done again here
                    outcomes[front] = fut.result()  # (a fault in replaying shows its trace)
            front += 1
        where: dict[int, list[int]] = {}  # hand id -> the parts holding its rows
        joined = []
        for i, outcome in enumerate(outcomes):
            if outcome is None:
                outcome = here(i)
            joined.append(outcome[:2])
            for hand_id in outcome[2]:
                where.setdefault(hand_id, []).append(i)
        scan, done = self._join(store, table, joined, where)
        redo = [hand_id for hand_id in self.order if hand_id not in done]
        new = tuple.__new__
        for i in sorted({i for hand_id in redo for i in where.get(hand_id, ())}):
            for batch in self.bulk.chain_part(table.id, *bounds[i]):
                for r in batch:
                    if r[1] in self.hands and r[1] not in done:
                        scan.rows.setdefault(r[1], []).append(new(Row, r[:6]))
        done.update((f.line.hand_id, f) for f in self.figures(
            (hand_id, scan.rows.get(hand_id, [])) for hand_id in redo))
        return scan, [done[hand_id] for hand_id in self.order]

    def ready(self, hand_id: int, rows: list[Row]) -> None:
        """The scan has (probably) read all of this hand's rows: start replaying it."""
        if self.pool is None or hand_id in self.sent or hand_id not in self.hands:
            return
        self.sent[hand_id] = len(rows)
        self.batch.append((hand_id, tuple(zip(*rows, strict=True))))
        if len(self.batch) >= BATCH:
            self._send()

    def _send(self) -> None:
        if self.batch and self.pool is not None:
            try:
                self.futures.append(self.pool.submit(_replay_batch, self.batch))
            except (OSError, RuntimeError, BrokenProcessPool):
                for hand_id, _ in self.batch:  # no process to be had: replay these here
                    del self.sent[hand_id]
            self.batch = []

    def results(self, scan: TableScan) -> list[Figures]:
        """Every hand's figures in the hands' order, once the scan is complete."""
        self._send()
        # Batches no worker has started yet are replayed here rather than waited for.
        for fut in reversed(self.futures):
            if not fut.cancel():
                break
        done: dict[int, Figures] = {}
        for fut in self.futures:
            if fut.cancelled():
                continue
            try:
                for f in fut.result():
                    done[f.line.hand_id] = f
            except Exception:  # whatever went wrong there, its hands are replayed here below
                continue  # (a fault in replaying itself then shows here, with its traceback)
        self.close()
        redo = [hand_id for hand_id in self.order if hand_id not in done
                or self.sent.get(hand_id) != len(scan.rows.get(hand_id, ()))]
        done.update((f.line.hand_id, f) for f in self.figures(
            (hand_id, scan.rows.get(hand_id, [])) for hand_id in redo))
        return [done[hand_id] for hand_id in self.order]


def all_figures(
    store: Reads, tbl: Table, hands: Sequence[Hand], names: dict[str, str],
    approvals: dict[tuple[int, int], str],
) -> tuple[TableScan, list[Figures]]:
    """Re-check the table's chain and every hand's figures, in order. Re-checking and replaying
    are most of a large report's work, so for a large shift they run in parts on every
    processor while the chain is read (where processes can be forked); the scan's rows are then
    only those of the hands replayed in this process."""
    ids = [h.id for h in hands]
    with paused_gc():
        led = ledger_rows(store, ids)
        bulk = sql_source(store)
        with Replays(hands, led, names, approvals, bulk) as replays:
            if replays.pool is not None and bulk is not None:
                return replays.scan_parts(store, tbl)
            if replays.pool is not None:
                return replays.scan(store, tbl)
            scan = scan_table(store, tbl, ids)
            return scan, replays.results(scan)


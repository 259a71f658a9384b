"""Every hand of a table replayed while its chain is re-checked: in this process, or for a large
shift on worker processes forked for it (switch off with ``PARALLEL`` where forking is unwelcome).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import suppress
from typing import Any

from dealer_assist.engine.registry import get_game
from dealer_assist.errors import DealerAssistError
from dealer_assist.gc_pause import paused_gc
from dealer_assist.reports.build.figures import Figures, hand_figures
from dealer_assist.reports.source import Row, TableScan, ledger_rows, scan_table
from dealer_assist.reports.sql import LedgerRow, ledger_line
from dealer_assist.services.model import Hand, Table
from dealer_assist.services.reads import Reads

#: Replay large shifts in parallel (switch off where forking is unwelcome, e.g. inside a GUI).
PARALLEL = True


#: Shifts with at least this many hands are replayed by several processes at once.
PARALLEL_MIN = 600


#: Hands handed to a replaying process at a time.
BATCH = 100


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


def _idle_processors() -> int:
    """Processors this process may run on (at most 8). The process reading and re-checking the
    chain keeps one of them busy; the replaying processes take the others."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(8, cpus))


class Replays:
    """Every hand's figures: the hands are replayed as the chain scan hands them over.

    For a large shift (``PARALLEL_MIN`` hands or more, several processors, a platform that can
    fork) the replays run on worker processes, one per processor but this process's, while this
    process goes on reading and re-checking the chain; batches no worker has started by the end
    of the chain are replayed here. Otherwise every hand is replayed here at the end. Either way
    each hand is replayed from exactly the rows the scan re-checked: a hand handed over before
    all its rows were read (a correction recorded after the next hand began) is replayed again
    from all of them.
    """

    def __init__(
        self, hands: Sequence[Hand], led: dict[int, list[LedgerRow]], names: dict[str, str],
        approvals: dict[tuple[int, int], str],
    ) -> None:
        global _FORKING
        self.hands = {h.id: h for h in hands}
        self.order = [h.id for h in hands]
        self.led = led
        self.names = names
        self.approvals = approvals
        self.sent: dict[int, int] = {}  # hand id -> rows it was replayed from
        self.batch: list[tuple[int, tuple[tuple[Any, ...], ...]]] = []
        self.futures: list[Future[list[Figures]]] = []
        self.pool: Any = None
        workers = _idle_processors() - 1  # this process reads and re-checks the chain
        if len(hands) >= PARALLEL_MIN and workers >= 1 and PARALLEL:
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
    """Re-check the table's chain and every hand's figures, in order. Replaying is most of a
    large report's work, so for a large shift it runs on the machine's other processors while
    the chain is read (where processes can be forked)."""
    ids = [h.id for h in hands]
    with paused_gc():
        led = ledger_rows(store, ids)
        with Replays(hands, led, names, approvals) as replays:
            scan = scan_table(store, tbl, ids, ready=replays.ready)
            return scan, replays.results(scan)


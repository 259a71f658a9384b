"""Verify's walk: read what one transaction sees, plan each table's chain in parts, check the
parts (on worker processes for a large database), join them table by table in order with the
core's checks (:class:`dealer_assist.services.verify.TableCheck`, the same the in-memory store
is verified by) and gather every fault in the report.

This process joins the parts (the link between two parts, each hand's first number in a part,
the hands read in more than one part). Small databases are checked in this process (starting
workers costs more than it saves).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import ExitStack
from multiprocessing import get_context
from typing import Any

from sqlalchemy.engine import Connection

from dealer_assist.db.bootstrap import Database
from dealer_assist.db.dealer_box_verify import Since, check_dealer_box
from dealer_assist.db.verify.hand_rules import HandRules
from dealer_assist.db.verify.reader import (
    Reader,
    Source,
    Task,
    TimeResult,
    aware,
    check_part,
    check_part_on,
    check_time_rows,
)
from dealer_assist.services.chain import GENESIS
from dealer_assist.services.model import LedgerLine, SettingsVersion
from dealer_assist.services.verify import (
    LINK_BROKEN,
    HandInfo,
    HandJob,
    Part,
    Problem,
    TableCheck,
    VerifyReport,
    check_hand,
)
from dealer_assist.workers import pool_options

#: Below this many hands the whole check runs in this process (starting workers costs more).
PARALLEL_FROM = 2000
#: Rows per part: about this many, or fewer so that every worker gets several parts.
PART_ROWS = 8000
#: The fewest rows in a part (parts of a small database: one per table).
PART_MIN_ROWS = 1000
#: Parts end where a hand ends (a hand read in two parts is replayed again by the join).
ALIGN_PARTS = True
#: The multiprocessing start method for the workers (None: the platform's default).
START_METHOD: str | None = None
#: From this many seat and period events, a table's are folded on a worker beside its parts.
TIME_ROWS_AHEAD = 500
#: The checks of each hand against its settings and the hand before, and of the hands table's
#: word, after the chain and replay (off only where a test compares the chain's join alone).
HAND_RULES = True

_SNAPSHOT = re.compile(r"[0-9A-Fa-f-]+")


def _ready() -> int:
    return os.getpid()


def verify_all(
    db: Database, progress: Callable[[int, int], None] | None, workers: int | None,
    meanwhile: Callable[[], None] | None = None,
) -> VerifyReport:
    """Check every table's chain whole, on ``workers`` processes for a large database;
    ``meanwhile`` runs in this process while the workers check the parts (checks that read
    on their own)."""
    with db.engine.connect() as conn:
        total = conn.exec_driver_sql("SELECT COUNT(*) FROM hands").scalar() or 0
    procs = workers if workers is not None else (os.cpu_count() or 1)
    with ExitStack() as stack:
        pool: ProcessPoolExecutor | None = None
        shared = db.dialect == "postgresql" or db.sqlite_path is not None
        if procs > 1 and total >= PARALLEL_FROM and shared:
            context = get_context(START_METHOD) if START_METHOD else None
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=procs,
                                                           mp_context=context,
                                                           **pool_options()))
            # Start the workers now, before this process opens its read transaction (a forked
            # worker must not inherit a connection in use).
            pool.submit(_ready)
        conn = stack.enter_context(db.engine.connect())
        return Walk(db, conn, pool, procs, progress).run(meanwhile)


def verify_since(db: Database, cp: Any) -> VerifyReport:
    """Check what came after checkpoint ``cp`` (whose signed heads the database still has)."""
    with db.engine.connect() as conn:
        return Walk(db, conn, None, 1, None).run_since(cp)


class Walk:
    """One verify: read what this transaction sees, plan the parts, join them table by table."""

    def __init__(
        self, db: Database, conn: Connection, pool: ProcessPoolExecutor | None, procs: int,
        progress: Callable[[int, int], None] | None,
    ) -> None:
        self.db = db
        self.pg = db.dialect == "postgresql"
        if self.pg:
            conn = conn.execution_options(isolation_level="REPEATABLE READ")
        else:
            conn = conn.execution_options(dealer_assist_read=True)
        self.conn = conn
        self.pool = pool
        self.procs = procs
        self.progress = progress

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        return list(self.conn.exec_driver_sql(sql, tuple(params)).all())

    def run(self, meanwhile: Callable[[], None] | None = None) -> VerifyReport:
        snapshot = None
        if self.pg:
            # The transaction's snapshot, for the workers: the first statement fixes it.
            snapshot = self.conn.exec_driver_sql("SELECT pg_export_snapshot()").scalar()
            # idle while the workers check the parts, for as long as they take
            self.conn.exec_driver_sql("SET LOCAL idle_in_transaction_session_timeout = 0")
            if not isinstance(snapshot, str) or not _SNAPSHOT.fullmatch(snapshot):
                snapshot = None
        tables = self._all("SELECT id, name, head_seq, head_hash FROM card_tables ORDER BY id")
        hands = {
            r[0]: HandInfo(r[1], r[2], r[3])
            for r in self._all("SELECT id, table_id, number, status FROM hands ORDER BY id")
        }
        max_event = max_ledger = None
        if not self.pg:
            max_event = self.conn.exec_driver_sql("SELECT MAX(id) FROM events").scalar()
            max_ledger = self.conn.exec_driver_sql("SELECT MAX(id) FROM ledger_lines").scalar()
        source = Source(
            dialect=self.db.dialect, where=self.db.describe(),
            path=str(self.db.sqlite_path.resolve()) if self.db.sqlite_path else None,
            connect=self._connect_args() if self.pg else (), snapshot=snapshot,
            max_event=max_event or 0 if not self.pg else None,
            max_ledger=max_ledger or 0 if not self.pg else None,
            max_hand=max(hands, default=0),
            open_hands={h: i.status for h, i in hands.items() if i.status != "settled"},
        )
        versions = self._versions()
        time_lines = self._time_lines()
        names = {t[0]: t[1] for t in tables}
        heads = {t[0]: (t[2], t[3]) for t in tables}
        ids = sorted(set(names) | set(self._event_tables()))
        spans = {t: self._span(t) for t in ids}
        size = max(PART_MIN_ROWS, PART_ROWS)
        if self.pool is not None:  # several parts for every worker, for an even load
            rows = sum(high - low + 1 for low, high in spans.values()
                       if low is not None and high is not None)
            size = max(PART_MIN_ROWS, min(PART_ROWS, rows // (self.procs * 6)))
        plans = {t: self._plan(t, names.get(t, f"#{t}"), *spans[t], size) for t in ids}
        reader = Reader(self.conn.connection.driver_connection, source)
        rules = HandRules(self, hands, max_event, source=source)
        futures: dict[tuple[int, int], Future[Part]] = {}
        timed: dict[int, Future[TimeResult]] = {}
        if self.pool is not None:
            # a table's seat and period events are folded in order, after its parts are
            # joined; many of them: fold them on a worker meanwhile
            for t, count in self._all(
                "SELECT table_id, COUNT(*) FROM events WHERE hand_id IS NULL GROUP BY table_id"
            ):
                if count >= TIME_ROWS_AHEAD and t in plans:
                    job = (t, names.get(t, f"#{t}"), versions.get(t, []), time_lines.get(t, []))
                    timed[t] = self.pool.submit(check_time_rows, source, job)
            for t in ids:
                for i, task in enumerate(plans[t]):
                    futures[(t, i)] = self.pool.submit(check_part, source, task)
        rules.read()  # (while the workers check the parts)
        if meanwhile is not None:
            meanwhile()
        report = VerifyReport()
        for t in ids:
            head_seq, head_hash = heads.get(t, (None, None))
            check = TableCheck(t, names.get(t, f"#{t}"), head_seq=head_seq,
                               head_hash=head_hash)
            for i, task in enumerate(plans[t]):
                check.join(self._part(futures.get((t, i)), reader, task))
                if self.progress is not None:
                    self.progress(report.hands + len(check.hands), len(hands))
            rest = check.close(hands)
            check.absorb(check_hand(job) for job in self._jobs(reader, check, rest, hands))
            check.check_time(versions.get(t, []), time_lines.get(t, []),
                             self._time_found(timed.get(t), check))
            if HAND_RULES and check.problem is None:  # (a broken chain first: its rows are suspect)
                check.absorb(rules.findings(t, names.get(t, f"#{t}"), versions.get(t, [])))
            report.tables += 1
            report.events += check.rows
            report.hands += len(check.hands)
            if self.progress is not None:
                self.progress(report.hands, len(hands))
            report.add(check.problem)
            report.problems.extend(check.faults)
            report.notes.extend(check.notes)
        report.findings.extend(check_dealer_box(self.conn))  # in this verify's snapshot
        return report

    def run_since(self, cp: Any) -> VerifyReport:
        """Each table from the newest checkpoint's head on (from the first event of a hand the
        checkpoint cut), in this process: the chain links to the signed hash, every hand
        begun after it replays and matches its ledger, its fee and continuity hold."""
        mark = "%s" if self.pg else "?"
        tables = self._all("SELECT id, name, head_seq, head_hash FROM card_tables ORDER BY id")
        source = Source(dialect=self.db.dialect, where=self.db.describe())
        reader = Reader(self.conn.connection.driver_connection, source)
        versions = self._versions()
        time_lines = self._time_lines()
        report = VerifyReport()
        for table_id, name, head_seq, head_hash in tables:
            signed = cp.table_head(table_id)
            seq_cp, hash_cp = signed if signed is not None else (0, GENESIS)
            start, last_hash = seq_cp + 1, hash_cp
            nxt = self.conn.exec_driver_sql(
                f"SELECT hand_id, number FROM events WHERE table_id = {mark} AND seq = {mark}",
                (table_id, seq_cp + 1),
            ).first()
            if nxt is not None and nxt[0] is not None and nxt[1] != 1:
                first = self.conn.exec_driver_sql(
                    f"SELECT seq, prev_hash FROM events WHERE hand_id = {mark} AND number = 1",
                    (nxt[0],),
                ).first()
                if first is not None and first[0] <= seq_cp:
                    start, last_hash = int(first[0]), first[1]
            # the events before: every hash and link again (no replay), so an event changed
            # or deleted behind the signed head is named as a full verify names it
            sealed = TableCheck(table_id, name)
            sealed.feed(reader.events(Task(table_id, name, None, start)), reader.to_time)
            sealed.hands.clear()
            if (sealed.problem is None and start > 1
                    and (sealed.last_seq, sealed.last_hash) != (start - 1, last_hash)):
                sealed.problem = Problem(table_id, name, start, LINK_BROKEN)
            check = TableCheck(table_id, name, head_seq=head_seq, head_hash=head_hash)
            check.last_seq, check.last_hash = start - 1, last_hash
            check.time_rows = [
                (seq, reader.to_time(at), actor, body) for seq, at, actor, body in self._all(
                    "SELECT seq, time, actor, body FROM events WHERE table_id = "
                    f"{mark} AND hand_id IS NULL AND seq < {mark} ORDER BY seq",
                    (table_id, start),
                )
            ]
            check.feed(reader.events(Task(table_id, name, start, None)), reader.to_time)
            before = self.conn.exec_driver_sql(
                "SELECT MAX(h.number) FROM hands h JOIN events e ON e.hand_id = h.id "
                f"AND e.number = 1 WHERE h.table_id = {mark} AND e.seq < {mark}",
                (table_id, start),
            ).scalar() or 0
            hands = {
                r[0]: HandInfo(r[1], r[2], r[3]) for r in self._all(
                    "SELECT id, table_id, number, status FROM hands WHERE table_id = "
                    f"{mark} AND number > {mark}", (table_id, before),
                )
            }
            for hand_id in check.hands:  # (a hand of another table's number range)
                if hand_id not in hands:
                    found = self._all(
                        f"SELECT id, table_id, number, status FROM hands WHERE id = {mark}",
                        (hand_id,),
                    )
                    hands.update({r[0]: HandInfo(r[1], r[2], r[3]) for r in found})
            check.finish(hands, reader.ledgers(list(check.hands)))
            # hands the checkpoint signed open, and hands given ledger lines since: replayed
            # and compared with their ledger too, wherever their events are
            signed_t: dict[str, Any] = next(
                (t for t in cp.data.get("tables", ()) if t.get("id") == table_id), {})
            extra = {int(h) for h in signed_t.get("open", ())}
            extra.update(int(r[0]) for r in self._all(
                "SELECT DISTINCT l.hand_id FROM ledger_lines l JOIN hands h ON h.id = l.hand_id "
                f"WHERE h.table_id = {mark} AND l.id > {mark}",
                (table_id, int(signed_t.get("last_line", 0))),
            ))
            extra -= set(check.hands)
            if extra and check.problem is None:
                infos = {r[0]: HandInfo(r[1], r[2], r[3]) for r in self._all(
                    "SELECT id, table_id, number, status FROM hands WHERE id IN ("
                    + ",".join([mark] * len(extra)) + ")", sorted(extra))}
                ledgers = reader.ledgers(sorted(infos))
                for hand_id, info in sorted(infos.items()):
                    seqs, bodies = reader.hand_events(table_id, hand_id)
                    if not seqs:
                        continue
                    # (a hand settled under an earlier rule is a note here too)
                    check.absorb([check_hand((hand_id, info, seqs, bodies,
                                              ledgers.get(hand_id, [])))])
            check.check_time(versions.get(table_id, []), time_lines.get(table_id, []))
            dealt = self._all(  # the last hand dealt before (imported ones feed none)
                "SELECT h.id, h.table_id, h.number, h.status, e.seq FROM hands h JOIN events e "
                f"ON e.hand_id = h.id AND e.number = 1 WHERE h.table_id = {mark} "
                f"AND h.settings_id IS NOT NULL AND e.seq < {mark} ORDER BY h.number DESC "
                "LIMIT 1", (table_id, start),
            )
            known = dict(hands)
            known.update({r[0]: HandInfo(r[1], r[2], r[3]) for r in dealt})
            rules = HandRules(self, known, None,
                               since={table_id: int(dealt[0][4]) if dealt else start})
            rules.read()
            if HAND_RULES and check.problem is None:
                check.absorb(rules.findings(table_id, name, versions.get(table_id, [])))
            report.tables += 1
            report.events += check.rows + sealed.rows
            report.hands += len(check.hands)
            report.add(sealed.problem or check.problem)
            report.problems.extend(check.faults)
            report.notes.extend(check.notes)
        report.findings.extend(self._ledger_since(cp))
        signed = cp.data
        report.findings.extend(check_dealer_box(self.conn, Since(
            heads={int(t["id"]): int(t["seq"]) for t in signed.get("tables", ())},
            downs=int(signed.get("records", {}).get("dealer_downs", {}).get("entries", 0)))))
        return report

    def _ledger_since(self, cp: Any) -> list[str]:
        """The ledger lines checkpoint ``cp`` signed, against its digest of them: a line
        changed since (a push moved to another seat with the totals kept) is named."""
        from dealer_assist.db.checkpoints import ledger_digests

        signed = {int(t["id"]): t for t in cp.data.get("tables", ()) if "ledger" in t}
        now = ledger_digests(self.conn, {t: int(v.get("last_line", 0))
                                         for t, v in signed.items()})
        return [f"table {t.get('name')} (id {table_id}): its ledger lines up to line "
                f"{t.get('last_line')} differ from those checkpoint {cp.number} signed (a line "
                "was changed since: a push, a fee or a seat)"
                for table_id, t in sorted(signed.items()) if now.get(table_id) != t["ledger"]]

    def _part(self, future: Future[Part] | None, reader: Reader, task: Task) -> Part:
        """The part from its worker; read here when there is no pool (or it broke)."""
        if future is not None:
            try:
                return future.result()
            except BrokenProcessPool:
                self.pool = None
        return check_part_on(reader, task)

    def _time_found(
        self, future: Future[TimeResult] | None, check: TableCheck
    ) -> list[tuple[int, str]] | None:
        """A worker's findings on the table's seat and period events, if it folded exactly the
        rows the chain gave (else None: :meth:`TableCheck.check_time` folds them here)."""
        if future is None or self.pool is None:
            return None
        try:
            rows, found = future.result()
        except BrokenProcessPool:
            self.pool = None
            return None
        return found if rows == check.time_rows else None

    def _jobs(
        self, reader: Reader, check: TableCheck, ids: Iterable[int], hands: Mapping[int, HandInfo]
    ) -> Iterator[HandJob]:
        """The hands the join replays itself (read in more than one part), read again whole."""
        for hand_id in ids:
            seqs, bodies = reader.hand_events(check.table_id, hand_id)
            ledger = reader.ledgers([hand_id]).get(hand_id)
            yield hand_id, hands[hand_id], seqs, bodies, ledger

    def _connect_args(self) -> tuple[tuple[str, Any], ...]:
        """psycopg's connect arguments for this database's URL."""
        engine = self.db.engine
        _, params = engine.dialect.create_connect_args(engine.url)
        params = {k: v for k, v in params.items() if isinstance(v, (str, int, float))}
        params.setdefault("connect_timeout", 5)
        return tuple(sorted(params.items()))

    def _event_tables(self) -> list[int]:
        """Every table id the events name (a loose index scan: one probe per table)."""
        rows = self._all(
            "WITH RECURSIVE t(id) AS (SELECT MIN(table_id) FROM events UNION ALL "
            "SELECT (SELECT MIN(table_id) FROM events WHERE table_id > t.id) FROM t "
            "WHERE t.id IS NOT NULL) SELECT id FROM t WHERE id IS NOT NULL"
        )
        return [int(r[0]) for r in rows]

    def _span(self, table_id: int) -> tuple[int | None, int | None]:
        """The table's lowest and highest seq (whole numbers; else None: read in one part)."""
        mark = "%s" if self.pg else "?"
        low, high = self.conn.exec_driver_sql(
            f"SELECT MIN(seq), MAX(seq) FROM events WHERE table_id = {mark}", (table_id,)
        ).one()
        if type(low) is not int or type(high) is not int:
            return None, None
        return low, high

    def _plan(
        self, table_id: int, name: str, low: int | None, high: int | None, size: int
    ) -> list[Task]:
        """The table's seq ranges: the first open below, the last open above, so every row is
        in exactly one; each inner bound at a hand's first event (where the row there says
        which number of its hand it is)."""
        mark = "%s" if self.pg else "?"
        cuts: list[int] = []
        if low is not None and high is not None:
            at = low + size
            while at <= high:
                cut = at
                if ALIGN_PARTS:
                    found = self.conn.exec_driver_sql(
                        f"SELECT hand_id, number FROM events WHERE table_id = {mark} "
                        f"AND seq = {mark}", (table_id, at),
                    ).first()
                    if found is not None and found[0] is not None and type(found[1]) is int:
                        cut = at - found[1] + 1
                if cut > (cuts[-1] if cuts else low):
                    cuts.append(cut)
                at += size
        bounds: list[int | None] = [None, *cuts, None]
        return [Task(table_id, name, bounds[i], bounds[i + 1]) for i in range(len(cuts) + 1)]

    def _versions(self) -> dict[int, list[SettingsVersion]]:
        out: dict[int, list[SettingsVersion]] = {}
        for r in self._all(
            "SELECT id, table_id, version, game, document, created_at, created_by "
            "FROM table_settings ORDER BY table_id, version"
        ):
            out.setdefault(r.table_id, []).append(SettingsVersion(
                id=r.id, table_id=r.table_id, version=r.version, game=r.game,
                document=json.loads(r.document), created_at=aware(r.created_at),
                created_by=r.created_by,
            ))
        return out

    def _time_lines(self) -> dict[int, list[LedgerLine]]:
        out: dict[int, list[LedgerLine]] = {}
        for table_id, seq, kind, detail, seat, amount, period in self._all(
            "SELECT table_id, seq, kind, detail, seat, amount, period FROM ledger_lines "
            "WHERE hand_id IS NULL ORDER BY id"
        ):
            out.setdefault(int(table_id or 0), []).append(LedgerLine(
                hand_id=None, kind=kind, amount=int(amount), seat=seat, detail=detail,
                settlement=0, table_id=table_id, period=period, seq=seq,
            ))
        return out

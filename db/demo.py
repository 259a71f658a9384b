"""``dealer-assist demo``: a database filled with realistic shifts, for trying the app out,
for tests, benchmarks and reports.

Several tables spreading the games (each as its own demo table says), each hand dealt by the
game's own ``sample_hand`` and replayed (so every stored hand is legal and its ledger lines are
its real settlement), fees on every table, carry-overs between hands of games that carry chips
over, shifts opened and closed by named dealers and floor people, a void, a misdeal, a dispute
with an adjustment, a reveal, sign-ins in the audit log. Rows go in with bulk inserts; the hands
are dealt on every CPU when there are many.

The hands are dealt by :mod:`.demo_plan`, their rows written by :mod:`.demo_rows`.
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, func, select

from dealer_assist.db.bootstrap import Database
from dealer_assist.db.demo_floor import fill_floor
from dealer_assist.db.demo_plan import PlannedHand, demo_kinds, plan_table, room_kinds, share_hands
from dealer_assist.db.demo_rotation import NewDown, record_downs
from dealer_assist.db.demo_rows import add_demo_table, add_demo_users, demo_users, table_dealers
from dealer_assist.db.models import (
    AuditRow,
    EventRow,
    HandRow,
    TableRow,
)
from dealer_assist.db.store.audit import append_audit
from dealer_assist.errors import BadInput
from dealer_assist.services.auth import Argon2PinHasher
from dealer_assist.services.ports import PinHasher
from dealer_assist.workers import pool_options

E, H, A = EventRow.__table__, HandRow.__table__, AuditRow.__table__


@dataclass
class DemoResult:
    tables: int = 0
    hands: int = 0
    events: int = 0
    seconds: float = 0.0
    users: dict[str, str] = field(default_factory=dict)

    def summary(self) -> str:
        rate = self.hands / self.seconds if self.seconds else 0.0
        return (f"demo: {self.hands} hands ({self.events} events) at {self.tables} tables in "
                f"{self.seconds:.1f} s ({rate:.0f} hands/s)")



def _last_hands(db: Database, table_games: Sequence[tuple[str, int]]) -> list[tuple[str, ...]]:
    """Per demo table (``Table 1``, ``Table 2``...), the event texts of its last stored hand
    when it exists and deals that game: the hand the demo's next hand there follows on from."""
    t = TableRow.__table__
    out: list[tuple[str, ...]] = []
    with db.engine.connect() as conn:
        ids = dict(conn.execute(select(t.c.name, t.c.id)).all())
        for i, (game, _) in enumerate(table_games):
            table_id = ids.get(f"Table {i + 1}")
            hand = None if table_id is None else conn.execute(
                select(H.c.id, H.c.game).where(H.c.table_id == table_id)
                .order_by(H.c.number.desc()).limit(1)
            ).first()
            if hand is None or hand.game != game:
                out.append(())
                continue
            out.append(tuple(conn.execute(
                select(E.c.body).where(E.c.hand_id == hand.id).order_by(E.c.seq)
            ).scalars()))
    return out


def fill_demo(
    db: Database,
    *,
    hands: int = 200,
    tables: int = 2,
    seed: int = 1,
    start: datetime | None = None,
    workers: int | None = None,
    hasher: PinHasher | None = None,
    repeat: bool = False,
) -> DemoResult:
    """Add ``hands`` hands spread over ``tables`` tables (alternating the games; how many at
    each: :func:`share_hands`).

    ``repeat``: deal each game's table once; every later table of the same game and size
    repeats the hands of the first (with its own rows, chain and times): a room-size database
    in a fraction of the time, for tests and benchmarks."""
    began = time.perf_counter()
    games = demo_kinds()
    if not games:
        raise BadInput("no installed game has a demo table")
    if hands < 1 or tables < 1:
        raise BadInput("the demo needs at least one hand and one table")
    tables = min(tables, hands)
    table_games = room_kinds(tables)
    per_table = share_hands(hands, table_games, seed)
    lasts = _last_hands(db, table_games)
    jobs = [(table_games[i][0], per_table[i], seed * 1000 + i, i == 0, table_games[i][1],
             lasts[i]) for i in range(tables)]
    procs = workers if workers is not None else (os.cpu_count() or 1)
    source = list(range(tables))
    if repeat:
        first_of: dict[tuple[str, int, int, tuple[str, ...]], int] = {}
        for i in range(tables):
            source[i] = first_of.setdefault((*table_games[i], per_table[i], lasts[i]), i)
        jobs = [job for i, job in enumerate(jobs) if source[i] == i]
    result = DemoResult(users={name: pin for name, _, _, pin in demo_users(tables)})
    base = start or (datetime.now(UTC) - timedelta(days=1)).replace(
        hour=18, minute=0, second=0, microsecond=0
    )
    if start is None:  # a demo filled again follows on from what is recorded: time runs on
        # (from the last event too: a long day's last hands run past the audit log's last
        # entry, and the floor's records of the new hands must come after its last ones)
        with db.engine.connect() as conn:
            recorded: list[Any] = [conn.execute(select(func.max(A.c.at))).scalar(),
                                   conn.execute(select(func.max(E.c.time))).scalar()]
        for last in recorded:
            if last is not None:
                when = datetime.fromisoformat(last) if isinstance(last, str) else last
                base = max(base, when.replace(tzinfo=UTC) + timedelta(minutes=1))
    with ExitStack() as stack:
        plans: Iterable[list[PlannedHand]]
        if procs > 1 and hands >= 400:  # deal on every CPU; store each table as it arrives
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=min(procs, tables),
                                                           **pool_options()))
            dealt: Iterable[list[PlannedHand]] = pool.map(plan_table, *zip(*jobs, strict=True))
        else:
            dealt = (plan_table(*job) for job in jobs)
        plans = _repeated(dealt, source) if len(jobs) < tables else dealt
        with db.engine.begin() as conn:
            add_demo_users(conn, hasher or Argon2PinHasher(), base, tables)
            before = dict(conn.execute(select(TableRow.__table__.c.name,
                                              TableRow.__table__.c.head_seq)).all())
            rng = random.Random(seed)
            audit: list[dict[str, Any]] = []
            downs: list[NewDown] = []
            for i, plan in enumerate(plans):
                name = f"Table {i + 1}"
                game, kind = table_games[i]
                result.events += add_demo_table(conn, name, game, plan, base, rng, kind=kind,
                                        first=source[i] == 0, sqlite=db.dialect == "sqlite",
                                        index=i, audit=audit, downs=downs)
                result.hands += len(plan)
                result.tables += 1
            fill_floor(conn, [f"Table {i + 1}" for i in range(tables)], seed)  # the floor's
            audit.sort(key=lambda r: r["at"])  # the room's log in time order, every table's
            append_audit(conn, audit)
            ids = dict(conn.execute(select(TableRow.__table__.c.name,
                                           TableRow.__table__.c.id)).all())
            record_downs(conn, downs, base, [(table_dealers(i), ids[f"Table {i + 1}"])
                                             for i in range(tables)])
            _record(conn, before, [g for g, _ in table_games],
                    max([datetime.now(UTC), *(r["at"] + timedelta(seconds=1) for r in audit)]))
    result.seconds = time.perf_counter() - began
    return result



def _repeated(dealt: Iterable[list[PlannedHand]], source: list[int]
              ) -> Iterable[list[PlannedHand]]:
    """Each table's plan: its own when dealt, else the plan of the table it repeats."""
    got: dict[int, list[PlannedHand]] = {}
    it = iter(dealt)
    for i, src in enumerate(source):
        if src == i:
            got[i] = next(it)
        yield got[src]


def _record(conn: Connection, before: dict[str, int], games: Sequence[str],
            at: datetime) -> None:
    """Record every row on the audit chain (the bulk inserts wrote none), with a baseline per
    table: the demo deals each hand's stacks on their own (they do not follow from the hand
    before), so continuity of stacks is not claimed for them."""
    from dealer_assist.db.records import record_stored

    t = TableRow.__table__
    heads = {r.name: (r.id, r.head_seq) for r in conn.execute(select(t.c.id, t.c.name,
                                                                     t.c.head_seq))}
    baseline: dict[int, int] = {}
    for i, game in enumerate(games):
        found = heads.get(f"Table {i + 1}")
        if found is None:
            continue
        table_id, head = found
        seq = head if per_hand_stacks(game) else before.get(f"Table {i + 1}", 0)
        if seq:
            baseline[table_id] = int(seq)
    record_stored(conn, at, baseline=baseline,
                  why="demo hands, dealt one by one")


def per_hand_stacks(game: str) -> bool:
    from dealer_assist.settings.table import per_hand_keys

    return "stacks" in per_hand_keys(game)

"""``dealer-assist demo``: a database filled with realistic shifts, for trying the app out,
for tests, benchmarks and reports.

Several tables spreading the games (each as its own demo table says), each hand dealt by the
game's own ``sample_hand`` and replayed (so every stored hand is legal and its ledger lines are
its real settlement), fees on every table, carry-overs between hands of games that carry chips
over, shifts opened and closed by named dealers and floor people, a void, a misdeal, a dispute
with an adjustment, a reveal, sign-ins in the audit log. Rows go in with bulk inserts; the hands
are dealt on every CPU when there are many.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from dealer_assist.db.bootstrap import Database
from dealer_assist.db.demo_floor import fill_floor
from dealer_assist.db.models import (
    AdjustmentRow,
    AuditRow,
    DisputeRow,
    EventRow,
    HandRow,
    LedgerRow,
    Setting,
    ShiftRow,
    TableRow,
    TableSettingsRow,
    UserRow,
)
from dealer_assist.db.store import append_audit
from dealer_assist.engine.base import DemoTable
from dealer_assist.engine.hand import Folded
from dealer_assist.engine.registry import game_names, get_game
from dealer_assist.engine.stored import fold
from dealer_assist.errors import BadInput
from dealer_assist.events import Event, Misdeal, Start, Void
from dealer_assist.services.approvals import adjustments_subject, shift_subject
from dealer_assist.services.auth import Argon2PinHasher
from dealer_assist.services.chain import canonical, event_hash, time_text
from dealer_assist.services.handrules import stakes_differences
from dealer_assist.services.ledger import ledger_lines
from dealer_assist.services.next_hand import carried_from
from dealer_assist.services.ports import PinHasher
from dealer_assist.settings.table import parse_table_settings, start_params
from dealer_assist.workers import pool_options

#: The demo's people: (name, full name, role, PIN). Documented in docs/store.md.
DEMO_USERS = (
    ("admin", "Alex Admin", "admin", "1000"),
    ("fran", "Fran Flores", "floor", "2000"),
    ("flo", "Florence Park", "floor", "2001"),
    ("dana", "Dana Whitfield", "dealer", "3001"),
    ("devon", "Devon Okafor", "dealer", "3002"),
    ("dale", "Dale Moreau", "dealer", "3003"),
    ("otto", "Otto Lindqvist", "auditor", "4000"),
)
DEALERS = ("dana", "devon", "dale")
FLOOR = ("fran", "flo")
#: Each demo table has its own two dealers, who take its shifts in turn, so no dealer is ever
#: signed in at two tables at once (the rule verify re-checks): dana and devon at Table 1, dale
#: and the first of these at Table 2, and so on; their PINs follow 3003 (3004, 3005, ...).
_MORE_DEALERS = (
    ("ana", "Ana Castillo"), ("ben", "Ben Achebe"), ("cruz", "Cruz Ibarra"),
    ("dev", "Dev Raman"), ("eli", "Eli Novak"), ("fay", "Fay Osei"), ("gus", "Gus Lindgren"),
    ("hana", "Hana Sato"), ("ivo", "Ivo Petrov"), ("jun", "Jun Tanaka"), ("kai", "Kai Mensah"),
    ("lena", "Lena Vogel"), ("milo", "Milo Duarte"), ("nia", "Nia Brooks"),
    ("omar", "Omar Haddad"), ("pia", "Pia Keller"), ("quin", "Quin Adler"),
    ("rosa", "Rosa Jimenez"), ("sami", "Sami Karlsson"), ("tess", "Tess Morgan"),
    ("uma", "Uma Reddy"), ("vic", "Vic Moreno"), ("wren", "Wren Kowalski"),
    ("xia", "Xia Lin"), ("yuri", "Yuri Volkov"), ("zoe", "Zoe Fontaine"),
)


def table_dealers(index: int) -> tuple[str, str]:
    """The two dealers of demo table ``index`` (0: Table 1)."""
    names = [*DEALERS[:2], DEALERS[2], *(n for n, _ in _MORE_DEALERS)]
    return names[(2 * index) % len(names)], names[(2 * index + 1) % len(names)]


def demo_users(tables: int = 1) -> tuple[tuple[str, str, str, str], ...]:
    """The demo's people for a room of ``tables`` tables: :data:`DEMO_USERS` and the dealers
    the tables beyond the first need (name, full name, role, PIN)."""
    extra = min(len(_MORE_DEALERS), max(0, 2 * tables - len(DEALERS)))
    return DEMO_USERS + tuple((n, f, "dealer", str(3004 + k))
                              for k, (n, f) in enumerate(_MORE_DEALERS[:extra]))

def demo_table(game_name: str, kind: int = 0) -> DemoTable:
    """How the demo spreads ``game_name`` (the game's own declaration); ``kind``: which of the
    game's demo tables (a game may declare one per betting structure)."""
    tables = get_game(game_name).demo_tables()
    if not tables:
        raise BadInput(f"{game_name} has no demo table")
    return tables[kind]


#: Halfway through its hands a table of a game whose demo says so switches to time collection (a
#: new settings version): the dealer then marks seats in and out between hands and collects
#: every period.
TIME_FEE: dict[str, Any] = {"kind": "time", "amount": 500, "period_minutes": 30}


def time_switch(game_name: str, hands: int, kind: int = 0) -> int | None:
    """The index of the table's first hand under time collection, or None (no switch)."""
    return hands // 2 if demo_table(game_name, kind).time_switch and hands >= 2 else None
SHIFT_LENGTH = timedelta(hours=4)
#: The demo's pace: each dealer input takes 2 to 9 seconds (5.5 on average), so a hand lasts as
#: long as its own inputs take; 20 to 60 seconds between hands (the push, gathering, the shuffle).
INPUT_SECONDS = (2.0, 9.0)
BETWEEN_SECONDS = (20.0, 60.0)
#: A room's demo day: where the even share of the hands would keep a table dealing longer than
#: this while the room's hands could all be dealt within it, each table is given hands in
#: proportion to its pace instead (fewer at a table of long hands), so the tables close the
#: day together.
DEMO_DAY = timedelta(hours=20)
#: Hands dealt per demo table to measure its pace (only for a demo that may not fit its day:
#: one whose even share at a table, each hand as long as the longest a demo game deals, would).
PACE_SAMPLE = 6
#: The share of the demo's day a table's measured pace may fill and keep the even share (a few
#: hands measure the pace of a game whose hands vary: a table may run longer than measured).
PACE_MARGIN = 0.8
LONGEST_HAND = timedelta(hours=2)
#: The time a shift change takes at the table (the next shift opens this much later).
SHIFT_CHANGE = timedelta(minutes=2)

E, H, SH, L, A = (
    EventRow.__table__, HandRow.__table__, ShiftRow.__table__, LedgerRow.__table__,
    AuditRow.__table__,
)


@dataclass
class PlannedHand:
    """One dealt hand: its events as JSON, its ledger lines, and when it was dealt."""

    bodies: list[str]  # canonical JSON texts, as stored
    types: list[str]
    seats: list[int]
    lines: list[tuple[str, str, int | None, int]]
    offsets: list[float]  # seconds after the hand's start, per event
    voided: int = 0  # the number of the void event in the hand, if any
    misdeal: int = 0  # the number of the misdeal event in the hand, if any


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


def demo_games() -> list[str]:
    """The games of this installation that have a demo table, in the registry's order."""
    return [g for g in game_names() if get_game(g).demo is not None]


def demo_kinds() -> list[tuple[str, int]]:
    """Every demo table of every game: (game, which of its tables), in the registry's order."""
    return [(g, k) for g in demo_games() for k in range(len(get_game(g).demo_tables()))]


def room_kinds(tables: int) -> list[tuple[str, int]]:
    """The demo tables of a room of ``tables``: the games' demo tables in turn (every demo
    table of every game, again from the first once all are dealt); a room with at least one
    table per game but fewer than every demo table deals every game, each game's other demo
    tables (other betting structures) filling the tables left, in the registry's order."""
    kinds = demo_kinds()
    games = len({g for g, _ in kinds})
    if not games <= tables < len(kinds):
        return [kinds[i % len(kinds)] for i in range(tables)]
    spare = tables - games
    out = []
    for g, k in kinds:
        if k == 0:
            out.append((g, k))
        elif spare > 0:
            out.append((g, k))
            spare -= 1
    return out


def plan_table(
    game_name: str, hands: int, seed: int, with_void: bool, kind: int = 0,
    last_hand: Sequence[str] = (),
) -> list[PlannedHand]:
    """Deal ``hands`` hands of one table (runs in a worker process when there are many).

    Each hand starts with what the hand before carries (the game's ``carries``, a carry-in),
    as the app starts it; ``last_hand``: the stored event texts of the table's last hand, when the
    demo adds hands to a table it filled before, so the first new hand follows on from it."""
    rng = random.Random(seed)
    game = get_game(game_name)
    switch = time_switch(game_name, hands, kind)
    table = demo_table(game_name, kind)
    low, high = table.players
    out: list[PlannedHand] = []
    carry_key = game.key("carry_in")
    before, carry = _hand_before(game_name, last_hand)  # the hand before: what it carries
    settings = parse_table_settings(table.settings)
    # every hand is dealt at the table's own settings (the smallest chip, the unit, the blinds
    # or antes...), as a hand the app starts at that table is: verify holds them to it
    stakes = {k: v for k, v in start_params(settings).items()
              if k not in ("type", "game", "seats", "fee")}
    for i in range(hands):
        n = rng.randint(low, high)
        timed = switch is not None and i >= switch
        fee = TIME_FEE if timed else table.settings.get("fee")
        params: dict[str, Any] = {**stakes, **table.sample}
        if fee is not None:
            params["fee"] = fee
        if "carry_in" in game.start_keys:
            params[carry_key] = carry
        if before is not None and game.carries:  # the hands follow on: a running total...
            last_start, last = before
            carried = carried_from(game, last_start, last.state, tuple(range(1, n + 1)),
                                   misdealt=last.misdeal is not None)
            params.update((k, v) for k, v in carried.items() if k in game.carries)
        events: list[Event] = list(game.sample_hand(rng, players=n, params=params))
        voided = 0
        if with_void and i == 2 and len(events) > 3:
            # the dealer keyed an input too early, voided it, then entered it again
            k = 3
            events = [*events[:k], events[k], Void(target=k + 1, reason="keyed too early"),
                      *events[k:]]
            voided = k + 2
        misdeal = 0
        if with_void and i == 7 and len(events) > 4:
            # a card exposed on the deal: the floor calls the hand off, every chip goes back
            events = [*events[:4], Misdeal(reason="card exposed on the deal")]
            misdeal = 5
        result = fold(events)
        if not isinstance(result, Folded):
            raise AssertionError(f"{game_name} dealt a hand that does not replay: {result}")
        differs = stakes_differences(events[0].to_json(), settings)
        if differs:
            raise AssertionError(f"{game_name} dealt a hand at other stakes than its table's: "
                                 + "; ".join(differs))
        settlement = result.settle()
        if not settlement.conserved:
            raise AssertionError(f"{game_name} dealt a hand that does not conserve chips")
        carry = settlement.carry_out if "carry_in" in game.start_keys else 0
        if isinstance(events[0], Start):
            before = (events[0], result)
        lines = [(x.kind, x.detail, x.seat, x.amount) for x in ledger_lines(0, settlement)]
        t, offsets = 0.0, []
        for _ in events:  # every input at the demo's pace: a long hand takes long
            offsets.append(t)
            t += rng.uniform(*INPUT_SECONDS)
        out.append(PlannedHand(
            bodies=[canonical(e.to_json()) for e in events], types=[e.TYPE for e in events],
            seats=list(getattr(events[0], "seats", ())), lines=lines, offsets=offsets,
            voided=voided, misdeal=misdeal,
        ))
    return out


def _hand_before(game_name: str, last: Sequence[str]) -> tuple[tuple[Start, Folded] | None, int]:
    """The table's last stored hand (its event texts) as the hand before the demo's next one,
    and the carry-in it leaves; (None, 0) when there is none of this game or it is not over."""
    from dealer_assist.engine.log import hand_events

    if not last:
        return None, 0
    events = hand_events(json.loads(b) for b in last)
    if not events or not isinstance(events[0], Start) or events[0].game != game_name:
        return None, 0
    result = fold(events)
    if not isinstance(result, Folded) or not result.over:
        return None, 0
    carry = result.settle().carry_out if "carry_in" in get_game(game_name).start_keys else 0
    return (events[0], result), carry


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
        with db.engine.connect() as conn:
            last = conn.execute(select(func.max(A.c.at))).scalar()
        if last is not None:
            last = datetime.fromisoformat(last) if isinstance(last, str) else last
            base = max(base, last.replace(tzinfo=UTC) + timedelta(minutes=1))
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
            _users(conn, hasher or Argon2PinHasher(), base, tables)
            before = dict(conn.execute(select(TableRow.__table__.c.name,
                                              TableRow.__table__.c.head_seq)).all())
            rng = random.Random(seed)
            audit: list[dict[str, Any]] = []
            for i, plan in enumerate(plans):
                name = f"Table {i + 1}"
                game, kind = table_games[i]
                result.events += _table(conn, name, game, plan, base, rng, kind=kind,
                                        first=source[i] == 0, sqlite=db.dialect == "sqlite",
                                        index=i, audit=audit)
                result.hands += len(plan)
                result.tables += 1
            fill_floor(conn, [f"Table {i + 1}" for i in range(tables)], seed)  # the floor's
            audit.sort(key=lambda r: r["at"])  # the room's log in time order, every table's
            append_audit(conn, audit)
            _record(conn, before, [g for g, _ in table_games],
                    max([datetime.now(UTC), *(r["at"] + timedelta(seconds=1) for r in audit)]))
    result.seconds = time.perf_counter() - began
    return result


def share_hands(hands: int, table_games: Sequence[tuple[str, int]], seed: int) -> list[int]:
    """How many of ``hands`` each table deals: an even share (the first tables one more where
    they do not divide), unless that could keep a table dealing past :data:`DEMO_DAY` (more
    than :data:`PACE_MARGIN` of it at its measured pace) while the room's hands fit the day at
    the tables' paces: then each table's share follows its pace
    (hands an hour, measured on :data:`PACE_SAMPLE` hands of its game), every table at least
    one hand."""
    tables = len(table_games)
    even = [hands // tables + (1 if i < hands % tables else 0) for i in range(tables)]
    if tables < 2 or max(even) * LONGEST_HAND <= DEMO_DAY:
        return even
    seconds = {kind: seconds_per_hand(*kind, seed) for kind in set(table_games)}
    per_hand = [seconds[kind] for kind in table_games]
    day = DEMO_DAY.total_seconds()
    if max(n * t for n, t in zip(even, per_hand, strict=True)) <= day * PACE_MARGIN:
        return even
    rates = [1.0 / t for t in per_hand]
    each = (hands - tables) / sum(rates)  # the time every table deals, one hand each aside
    if each + max(per_hand) > day:  # the room's hands do not fit one day at any share
        return even
    exact = [1 + each * r for r in rates]
    out = [int(x) for x in exact]
    by_remainder = sorted(range(tables), key=lambda i: (out[i] - exact[i], i))
    for i in by_remainder[:hands - sum(out)]:
        out[i] += 1
    return out


@lru_cache(maxsize=256)
def seconds_per_hand(game_name: str, kind: int, seed: int) -> float:
    """A demo table's seconds a hand at the demo's pace (its inputs, the time between hands),
    measured on :data:`PACE_SAMPLE` hands of its game."""
    plan = plan_table(game_name, PACE_SAMPLE, seed, False, kind)
    between = sum(BETWEEN_SECONDS) / 2
    dealing = sum(h.offsets[-1] + between for h in plan) / len(plan)
    return dealing * (1 + SHIFT_CHANGE / SHIFT_LENGTH)  # and the shift changes


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


def _users(conn: Connection, hasher: PinHasher, at: datetime, tables: int) -> None:
    u = UserRow.__table__
    existing = {r.name: r.full_name for r in conn.execute(select(u.c.name, u.c.full_name))}
    is_demo = conn.execute(
        select(Setting.__table__.c.value).where(Setting.__table__.c.key == "demo")
    ).scalar()
    demo_names = {n: f for n, f, _, _ in demo_users(len(_MORE_DEALERS))}
    real = [n for n, f in existing.items() if demo_names.get(n) != f]
    recorded = conn.execute(select(func.count()).select_from(TableRow.__table__)).scalar_one()
    recorded += conn.execute(select(func.count()).select_from(AuditRow.__table__)).scalar_one()
    if (existing or recorded) and not is_demo:
        raise BadInput(
            "this database already has records of its own: the demo fills only a new database "
            "(give --db a new file) or one it made"
        )
    if real:
        raise BadInput(
            f"this demo database has users the demo did not make ({', '.join(sorted(real))}): "
            "the demo writes no audit entry where a real user could be named; give --db a new "
            "file"
        )
    rows = [
        {"name": n, "full_name": f, "role": r, "pin_hash": hasher.hash(p), "failed": 0,
         "locked_until": None, "active": True, "created_at": at}
        for n, f, r, p in demo_users(tables) if n not in existing
    ]
    if rows:
        conn.execute(insert(u), rows)
    kv = Setting.__table__
    if not is_demo:
        conn.execute(insert(kv), [{"key": "demo", "value": "1"},
                                  {"key": "cardroom", "value": "Riverside Cardroom (demo)"}])


def _table(
    conn: Connection, name: str, game: str, plan: Sequence[PlannedHand], base: datetime,
    rng: random.Random, *, first: bool, sqlite: bool, kind: int = 0, index: int = 0,
    audit: list[dict[str, Any]] | None = None,
) -> int:
    t, ts = TableRow.__table__, TableSettingsRow.__table__
    doc = {"name": name, **demo_table(game, kind).settings}
    switch = time_switch(game, len(plan), kind)
    row = conn.execute(select(t).where(t.c.name == name)).first()
    if row is None:
        table_id = int(conn.execute(
            insert(t).values(name=name, created_at=base, head_seq=0,
                             head_hash="0" * 64).returning(t.c.id)
        ).scalar_one())
        head_seq, head_hash = 0, "0" * 64
    else:
        table_id, head_seq, head_hash = row.id, row.head_seq, row.head_hash
    version = conn.execute(
        select(ts.c.id, ts.c.version, ts.c.document).where(ts.c.table_id == table_id)
        .order_by(ts.c.version.desc()).limit(1)
    ).first()
    number0 = int(conn.execute(
        select(func.coalesce(func.max(H.c.number), 0)).where(H.c.table_id == table_id)
    ).scalar_one())
    last = conn.execute(select(func.max(H.c.started_at)).where(H.c.table_id == table_id)).scalar()
    now = max(base, (last.replace(tzinfo=UTC) if last else base) + timedelta(minutes=5))
    if version is None or json.loads(version.document) != json.loads(canonical(doc)):
        settings_id = int(conn.execute(
            insert(ts).values(
                table_id=table_id, version=(version.version + 1) if version else 1, game=game,
                document=canonical(doc), created_at=now, created_by="admin",
            ).returning(ts.c.id)
        ).scalar_one())
        version_no = (version.version + 1) if version else 1
    else:
        settings_id, version_no = version.id, version.version

    # Times: one hand after another; a new shift (dealer rotates) every few hours.
    starts: list[datetime] = []
    shift_of: list[int] = []
    shifts: list[dict[str, Any]] = []
    for i, hand in enumerate(plan):
        if not shifts or now - shifts[-1]["opened_at"] >= SHIFT_LENGTH:
            if shifts:
                shifts[-1].update(closed_at=now, closed_by=shifts[-1]["dealer"],
                                  closed_floor=shifts[-1]["floor"])
            k = len(shifts) + (0 if first else 1)
            crew = table_dealers(index)
            shifts.append({"table_id": table_id, "dealer": crew[len(shifts) % 2],
                           "floor": FLOOR[k % len(FLOOR)], "opened_at": now, "closed_at": None,
                           "closed_by": None, "closed_floor": None})
            now += SHIFT_CHANGE
        starts.append(now)
        shift_of.append(len(shifts) - 1)
        now += timedelta(seconds=hand.offsets[-1] + rng.uniform(*BETWEEN_SECONDS))
        del i
    shift_ids = [int(r[0]) for r in conn.execute(
        insert(SH).returning(SH.c.id, sort_by_parameter_order=True), shifts
    )]
    time_settings_id = settings_id
    if switch is not None:  # the floor switches the table to time collection between hands
        time_settings_id = int(conn.execute(
            insert(ts).values(
                table_id=table_id, version=version_no + 1, game=game,
                document=canonical({**doc, "fee": TIME_FEE}),
                created_at=starts[switch] - timedelta(seconds=15), created_by="admin",
            ).returning(ts.c.id)
        ).scalar_one())
    hand_rows = [
        {"table_id": table_id, "shift_id": shift_ids[shift_of[i]], "number": number0 + i + 1,
         "game": game, "seats": json.dumps(h.seats), "started_at": starts[i],
         "started_by": shifts[shift_of[i]]["dealer"],
         "settings_id": time_settings_id if switch is not None and i >= switch else settings_id,
         "status": "settled", "events": len(h.bodies)}
        for i, h in enumerate(plan)
    ]
    hand_ids = [int(r[0]) for r in conn.execute(
        insert(H).returning(H.c.id, sort_by_parameter_order=True), hand_rows
    )]
    events: list[tuple[Any, ...]] = []
    ledger: list[dict[str, Any]] = []
    seq, prev = head_seq, head_hash
    # Events go in through the driver's executemany: the bulk of the rows, without per-row
    # type processing; times as UTCDateTime stores them (naive UTC; SQLite: its text).
    cur = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    mark = "?" if sqlite else "%s"
    sql = (f"INSERT INTO events (table_id, seq, hand_id, number, time, actor, type, body, "
           f"prev_hash, hash) VALUES ({', '.join([mark] * 10)})")
    account = None
    if switch is not None:
        account = _TimeAccount(table_id, name, int(conn.execute(
            select(func.count()).select_from(E)
            .where(E.c.table_id == table_id, E.c.hand_id.is_(None))
        ).scalar_one()))
    for i, h in enumerate(plan):
        actor = shifts[shift_of[i]]["dealer"]
        if account is not None and switch is not None and i >= switch:
            for number, at, text, etype, collected in account.before_hand(starts[i], h.seats):
                seq += 1
                stamp = time_text(at)
                digest = event_hash(table_id=table_id, seq=seq, time=stamp, actor=actor,
                                    hand_id=None, body=text, prev_hash=prev)
                naive = at.astimezone(UTC).replace(tzinfo=None)
                events.append((table_id, seq, None, number,
                               naive.strftime("%Y-%m-%d %H:%M:%S.%f") if sqlite else naive,
                               actor, etype, text, prev, digest))
                prev = digest
                ledger.extend(
                    {"hand_id": None, "settlement": 0, "kind": "fee", "detail": "time",
                     "seat": seat, "amount": amount, "table_id": table_id, "period": period,
                     "seq": seq} for seat, amount, period in collected
                )
        for n, (text, etype, offset) in enumerate(
            zip(h.bodies, h.types, h.offsets, strict=True), start=1
        ):
            seq += 1
            at = starts[i] + timedelta(seconds=offset)
            at = at.replace(microsecond=(at.microsecond // 1000) * 1000)
            stamp = time_text(at)
            digest = event_hash(table_id=table_id, seq=seq, time=stamp, actor=actor,
                                hand_id=hand_ids[i], body=text, prev_hash=prev)
            naive = at.astimezone(UTC).replace(tzinfo=None)
            events.append((table_id, seq, hand_ids[i], n,
                           naive.strftime("%Y-%m-%d %H:%M:%S.%f") if sqlite else naive,
                           actor, etype, text, prev, digest))
            prev = digest
        ledger.extend(
            {"hand_id": hand_ids[i], "settlement": 1, "kind": k, "detail": d, "seat": s,
             "amount": a, "table_id": None, "period": None, "seq": None}
            for k, d, s, a in h.lines
        )
        if len(events) >= 20000:
            cur.executemany(sql, events)
            events = []
    if events:
        cur.executemany(sql, events)
    cur.close()
    if ledger:
        conn.execute(insert(L), ledger)
    conn.execute(update(TableRow.__table__).where(TableRow.__table__.c.id == table_id)
                 .values(head_seq=seq, head_hash=prev))
    rows = _table_audit(conn, table_id, name, plan, hand_ids, number0, starts, shifts,
                        shift_ids, first, get_game(game).floor_events)
    if audit is None:
        append_audit(conn, rows)
    else:
        audit.extend(rows)
    return seq - head_seq


class _TimeAccount:
    """The demo dealer's seat and period marks before each hand of a time-collection table:
    players not yet seated sit in, those not in the hand leave, and every half hour the
    period is marked. Collections come from the fee engine's own fold."""

    def __init__(self, table_id: int, name: str, events: int) -> None:
        from dealer_assist.fees import parse_fee_policy, time_start

        policy = parse_fee_policy(TIME_FEE)
        assert policy is not None
        self.table_id = table_id
        self.state = time_start(policy, smallest_chip=100, table=name)
        self.events = events  # the table's table-level events already stored
        self.last_mark: datetime | None = None

    def before_hand(
        self, start: datetime, seats: Sequence[int]
    ) -> list[tuple[int, datetime, str, str, list[tuple[int, int, int]]]]:
        from dealer_assist.events import Period, SeatIn, SeatOut
        from dealer_assist.fees import time_apply

        marks: list[Event] = [SeatOut(seat=s) for s in self.state.seated if s not in seats]
        marks += [SeatIn(seat=s) for s in seats if s not in self.state.since]
        period = timedelta(minutes=int(TIME_FEE["period_minutes"]))
        if self.last_mark is None or start - self.last_mark >= period:
            marks.append(Period())
            self.last_mark = start
        out = []
        at = start - timedelta(seconds=10)
        for ev in marks:
            at += timedelta(milliseconds=1)
            before = len(self.state.lines)
            self.state = time_apply(self.state, at, ev)
            self.events += 1
            made = [(x.from_seat or 0, x.amount, x.period or 0)
                    for x in self.state.lines[before:]]
            out.append((self.events, at, canonical(ev.to_json()), ev.TYPE, made))
        return out


def shift_of_hand(at: datetime, shifts: list[dict[str, Any]]) -> int:
    return max(i for i, s in enumerate(shifts) if s["opened_at"] <= at)


def _table_audit(
    conn: Connection, table_id: int, name: str, plan: Sequence[PlannedHand], hand_ids: list[int],
    number0: int, starts: list[datetime], shifts: list[dict[str, Any]], shift_ids: list[int],
    first: bool, floor_events: frozenset[str] = frozenset(),
) -> list[dict[str, Any]]:
    """Sign-ins and shift sign-offs; the floor's approval of each decision a game leaves to the
    floor (``floor_events``); on the first table a void, a dispute and a reveal."""
    audit: list[dict[str, Any]] = []
    for s, shift_id in zip(shifts, shift_ids, strict=True):
        t0 = s["opened_at"] - timedelta(minutes=1)
        audit += [
            {"at": t0, "actor": s["dealer"], "action": "login", "detail":
             f"{s['dealer']} signed in as dealer", "table_id": None, "hand_id": None},
            {"at": s["opened_at"], "actor": s["dealer"], "action": "shift-opened",
             "detail": f"{name}, floor {s['floor']}", "table_id": table_id, "hand_id": None},
        ]
        if s["closed_at"] is not None:
            audit += [
                {"at": s["closed_at"], "actor": s["floor"], "action": "approval",
                 "detail": shift_subject(shift_id), "table_id": table_id, "hand_id": None},
                {"at": s["closed_at"], "actor": s["dealer"], "action": "shift-closed",
                 "detail": f"floor {s['floor']}", "table_id": table_id, "hand_id": None},
            ]
    if first:
        for i, h in enumerate(plan):
            if h.voided:
                audit.append({
                    "at": starts[i] + timedelta(seconds=h.offsets[h.voided - 1]),
                    "actor": shifts[shift_of_hand(starts[i], shifts)]["dealer"],
                    "action": "void", "detail": f"event {h.voided - 1}: keyed too early",
                    "table_id": table_id, "hand_id": hand_ids[i],
                })
            if h.misdeal:
                at = starts[i] + timedelta(seconds=h.offsets[h.misdeal - 1])
                who = shifts[shift_of_hand(at, shifts)]
                audit += [
                    {"at": at, "actor": who["floor"], "action": "approval",
                     "detail": f"misdeal of hand {number0 + i + 1}", "table_id": table_id,
                     "hand_id": hand_ids[i]},
                    {"at": at, "actor": who["dealer"], "action": "misdeal",
                     "detail": f"hand {number0 + i + 1}: card exposed on the deal; approved by "
                     f"{who['floor']}", "table_id": table_id, "hand_id": hand_ids[i]},
                ]
        k = min(4, len(plan) - 1)
        floor = shifts[0]["floor"]
        at = starts[k] + timedelta(seconds=plan[k].offsets[-1] + 10)
        audit.append({"at": at, "actor": floor, "action": "reveal",
                      "detail": f"hand {number0 + k + 1} after event {len(plan[k].bodies)}: "
                                "dispute over the bonus pool push",
                      "table_id": table_id, "hand_id": hand_ids[k]})
        seat = plan[k].seats[0] if plan[k].seats else None
        dispute_id = int(conn.execute(
            insert(DisputeRow.__table__).values(
                hand_id=hand_ids[k], at=at + timedelta(minutes=1), floor=floor,
                notes=f"Seat {seat} says the dealer pushed the bonus pool before the last card.",
                ruling="Push stands as dealt; seat compensated $1 for the delay.",
            ).returning(DisputeRow.__table__.c.id)
        ).scalar_one())
        conn.execute(insert(AdjustmentRow.__table__), [
            {"dispute_id": dispute_id, "seat": seat, "amount": 100, "note": "goodwill"},
            {"dispute_id": dispute_id, "seat": None, "amount": -100, "note": "from the house"},
        ])
        second = next(f for f in FLOOR if f != floor)  # the adjustments' second floor person
        audit.append({"at": at + timedelta(seconds=50), "actor": second, "action": "approval",
                      "detail": adjustments_subject(number0 + k + 1, [(seat, 100), (None, -100)]),
                      "table_id": table_id, "hand_id": hand_ids[k]})
        audit.append({"at": at + timedelta(minutes=1), "actor": floor, "action": "dispute",
                      "detail": f"hand {number0 + k + 1}: push stands", "table_id": table_id,
                      "hand_id": hand_ids[k]})
    for i, h in enumerate(plan):  # the floor decides what the game leaves to the floor
        for n, kind in enumerate(h.types, start=1):
            if kind not in floor_events:
                continue
            at = starts[i] + timedelta(seconds=h.offsets[n - 1])
            who = shifts[shift_of_hand(at, shifts)]
            audit += [
                {"at": at, "actor": who["floor"], "action": "approval",
                 "detail": f"{kind} in hand {number0 + i + 1}", "table_id": table_id,
                 "hand_id": hand_ids[i]},
                {"at": at, "actor": who["dealer"], "action": "floor-decision",
                 "detail": f"hand {number0 + i + 1} event {n}: {h.bodies[n - 1]}; decided by "
                 f"{who['floor']}", "table_id": table_id, "hand_id": hand_ids[i]},
            ]
    audit.sort(key=lambda r: r["at"])
    return audit

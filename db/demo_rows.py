"""The demo's rows written: its people, and each table's settings, shifts, hands, events,
ledger lines, dispute and audit entries in bulk inserts (:mod:`dealer_assist.db.demo` says
what a demo room holds)."""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from dealer_assist.db.demo_plan import (
    BETWEEN_SECONDS,
    SHIFT_CHANGE,
    SHIFT_LENGTH,
    TIME_FEE,
    PlannedHand,
    demo_table,
    time_switch,
)
from dealer_assist.db.demo_rotation import NewDown, push_rotation
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
from dealer_assist.db.store.audit import append_audit
from dealer_assist.engine.registry import get_game
from dealer_assist.errors import BadInput
from dealer_assist.events import Event
from dealer_assist.services.approvals import adjustments_subject, shift_subject
from dealer_assist.services.chain import canonical, event_hash, time_text
from dealer_assist.services.ports import PinHasher

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
#: and the first of these at Table 2, and so on; their PINs follow 3003 (3004, 3005, ...). A
#: room of more tables than these names serve takes them again numbered (ana2, "Ana Castillo
#: 2"), so every table of the largest demo still has dealers of its own.
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
#: The most tables a demo deals (``dealer-assist demo --tables``): their dealers are the demo's.
_MOST_TABLES = 100


def _more_dealer(k: int) -> tuple[str, str]:
    """The ``k``-th dealer after dana, devon and dale (0: ana): name and full name."""
    name, full = _MORE_DEALERS[k % len(_MORE_DEALERS)]
    again = k // len(_MORE_DEALERS)
    return (name, full) if again == 0 else (f"{name}{again + 1}", f"{full} {again + 1}")


def _dealer(i: int) -> str:
    return DEALERS[i] if i < len(DEALERS) else _more_dealer(i - len(DEALERS))[0]


def table_dealers(index: int) -> tuple[str, str]:
    """The two dealers of demo table ``index`` (0: Table 1), nobody else's."""
    return _dealer(2 * index), _dealer(2 * index + 1)


def demo_users(tables: int = 1) -> tuple[tuple[str, str, str, str], ...]:
    """The demo's people for a room of ``tables`` tables: :data:`DEMO_USERS` and the dealers
    the tables beyond the first need (name, full name, role, PIN)."""
    extra = max(0, 2 * tables - len(DEALERS))
    return DEMO_USERS + tuple((*_more_dealer(k), "dealer", str(3004 + k)) for k in range(extra))


E, H, SH, L = (
    EventRow.__table__, HandRow.__table__, ShiftRow.__table__, LedgerRow.__table__,
)


def add_demo_users(conn: Connection, hasher: PinHasher, at: datetime, tables: int) -> None:
    u = UserRow.__table__
    existing = {r.name: r.full_name for r in conn.execute(select(u.c.name, u.c.full_name))}
    is_demo = conn.execute(
        select(Setting.__table__.c.value).where(Setting.__table__.c.key == "demo")
    ).scalar()
    demo_names = {n: f for n, f, _, _ in demo_users(_MOST_TABLES)}
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


def add_demo_table(
    conn: Connection, name: str, game: str, plan: Sequence[PlannedHand], base: datetime,
    rng: random.Random, *, first: bool, sqlite: bool, kind: int = 0, index: int = 0,
    audit: list[dict[str, Any]] | None = None, downs: list[NewDown] | None = None,
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
    dealer_of = push_rotation(plan, starts, shifts, shift_of, table_dealers(index), table_id,
                              downs)
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
         "started_by": dealer_of[i],
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
        actor = dealer_of[i]
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
                        shift_ids, first, get_game(game).floor_events, dealer_of)
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
    dealer_of: Sequence[str] = (),
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
                    "actor": dealer_of[i] if dealer_of else
                    shifts[shift_of_hand(starts[i], shifts)]["dealer"],
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
                    {"at": at, "actor": dealer_of[i] if dealer_of else who["dealer"],
                     "action": "misdeal",
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
                {"at": at, "actor": dealer_of[i] if dealer_of else who["dealer"],
                 "action": "floor-decision",
                 "detail": f"hand {number0 + i + 1} event {n}: {h.bodies[n - 1]}; decided by "
                 f"{who['floor']}", "table_id": table_id, "hand_id": hand_ids[i]},
            ]
    audit.sort(key=lambda r: r["at"])
    return audit

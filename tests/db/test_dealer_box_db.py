"""The dealer box on SQLite and PostgreSQL: every use case of tests/services/test_dealer_box.py
again over the sealed tables, two stations racing to place one dealer (exactly one wins), the
records sealed and walked by ``verify``, and an overlap of downs named by it."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from services import test_dealer_box as base
from services.dealer_room import DealerRoom, make_dealer_room
from services.support import FAST

from dealer_assist.db import sealed
from dealer_assist.db.bootstrap import Database
from dealer_assist.db.dealer_box import DOWNS, SqlDealerRecords
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.services.dealer_box import fold_downs, running
from dealer_assist.services.dealer_handlers import sign_in_at_table
from dealer_assist.services.dealer_hooks import StoreHands
from dealer_assist.services.errors import Conflict

for _name, _func in list(vars(base).items()):
    _code = getattr(_func, "__code__", None)
    if _name.startswith("test_") and _code and "make" in _code.co_varnames[: _code.co_argcount]:
        globals()[_name] = _func
del _name, _func, _code


@pytest.fixture
def make(database: Database) -> Callable[[], DealerRoom]:
    return lambda: make_dealer_room(SqlStore(database), SqlDealerRecords(database))


class _Racing(SqlDealerRecords):
    """Both stations read the records before either appends (the race made certain)."""

    def __init__(self, db: Database, barrier: threading.Barrier) -> None:
        super().__init__(db)
        self.barrier = barrier

    def downs(self) -> list[Any]:
        out = super().downs()
        self.barrier.wait(timeout=10)
        return out


def test_rule_two_stations_racing_to_sign_one_dealer_in_at_two_tables_exactly_one_wins(
    database: Database, make: Callable[[], DealerRoom],
) -> None:
    r = make()
    barrier = threading.Barrier(2)
    results: dict[str, str] = {}

    def station(table: str) -> None:
        box = _Racing(database, barrier)
        try:
            sign_in_at_table(box, StoreHands(r.svc), r.dealers["dana"], r.tables[table],
                             now=r.room.clock.now + timedelta(seconds=1))
            results[table] = "won"
        except Conflict as exc:
            results[table] = str(exc)

    threads = [threading.Thread(target=station, args=(t,)) for t in ("T1", "T2")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(results.values()).count("won") == 1, results
    lost = next(v for v in results.values() if v != "won")
    assert "dana was just placed by another station" in lost
    records = r.box.downs()
    assert len(records) == 1 and records[0].dealer == "dana"
    winner = next(t for t, v in results.items() if v == "won")
    assert running(fold_downs(records))["dana"].table_id == r.tables[winner]


def test_downs_are_sealed_rows_append_only_and_verify_intact(
    database: Database, make: Callable[[], DealerRoom],
) -> None:
    r = make()
    r.sit("dana", "T1")
    r.room.clock.advance(minutes=30)
    r.sit("eve", "T1")
    with sealed.reading(database) as conn:
        rows = sealed.read(conn, DOWNS)
    assert [(x.seq, x.values["dealer"], x.values["kind"]) for x in rows] == [
        (1, "dana", "deal"), (2, "eve", "deal")]
    assert rows[1].prev_hash == rows[0].hash
    with pytest.raises(Exception, match=r"append-only|UPDATE refused"), \
            database.engine.begin() as conn:
        conn.exec_driver_sql("UPDATE dealer_downs SET table_id = 99")
    report = verify_database(database)
    assert report.ok, report.lines() if hasattr(report, "lines") else report


def test_verify_names_two_downs_of_one_dealer_that_overlap(
    database: Database, make: Callable[[], DealerRoom],
) -> None:
    r = make()
    r.sit("dana", "T1")
    r.room.clock.advance(minutes=30)
    r.sit("dana", "T2")
    # a station whose clock ran behind: a record dated before dana's last one (written past
    # the handler, which refuses it)
    with sealed.writing(database) as conn:
        sealed.append(conn, DOWNS, at=r.room.clock.now - timedelta(minutes=10), actor="dana",
                      token=r.dealers["dana"].token,
                      values={"dealer": "dana", "kind": "deal", "table_id": r.tables["T3"]})
    report = verify_database(database)
    text = "\n".join(str(p) for p in getattr(report, "problems", [])) or str(report)
    assert "dana's downs overlap" in text


def test_demo_deals_its_day_with_a_rotation_one_dealer_one_table_and_verify_intact(
    database: Database,
) -> None:
    from collections import defaultdict

    from dealer_assist.db.demo import fill_demo
    from dealer_assist.services.dealer_box import BREAK, DEAL

    fill_demo(database, hands=240, tables=3, seed=1, workers=1, hasher=FAST)
    downs = fold_downs(SqlDealerRecords(database).downs())
    pushes = [d for d in downs if d.kind == DEAL]
    assert len({d.table_id for d in pushes}) == 3
    assert any(d.kind == BREAK for d in downs)  # the one pushed out goes on a break
    by_dealer: dict[str, list[Any]] = defaultdict(list)
    by_table: dict[int | None, list[Any]] = defaultdict(list)
    for d in downs:
        by_dealer[d.dealer].append(d)
        if d.kind == DEAL:
            by_table[d.table_id].append(d)
    for spans in [*by_dealer.values(), *by_table.values()]:  # one place at a time, each
        spans.sort(key=lambda d: d.start)
        for a, b in itertools.pairwise(spans):
            assert a.end is not None and a.end <= b.start
    assert max(d.minutes(d.end or d.start) for d in pushes) < 45  # pushed every half hour
    report = verify_database(database)
    assert report.ok, (report.findings, report.problems)


def test_demo_writes_its_rotation_so_the_floors_view_names_each_dealers_next_place(
    database: Database,
) -> None:
    """Issue 44: the demo's day is dealt by a rotation the floor can read: the rules, and the
    crews' dealers in order over the tables; the dealer view names where each dealer down goes
    next (a break: every push of the demo is one) and where the dealers on a
    break or between tables go back in (on the demo's data as it stood at that time)."""
    from dealer_assist.db.demo import fill_demo
    from dealer_assist.db.demo_rows import table_dealers
    from dealer_assist.services.dealer_box import NewDown
    from dealer_assist.services.dealer_handlers import dealer_view
    from dealer_assist.services.dealer_ports import MemoryDealerRecords

    fill_demo(database, hands=240, tables=3, seed=1, workers=1, hasher=FAST)
    box = SqlDealerRecords(database)
    rotation = box.rotation()
    ids = {t.name: t.id for t in SqlStore(database).list_tables()}
    assert rotation.dealers == (*table_dealers(0), *table_dealers(1), *table_dealers(2))
    assert rotation.tables == (ids["Table 1"], ids["Table 2"], ids["Table 3"])
    rules = box.rules()
    assert rules is not None and (rules.push_minutes, rules.break_after_minutes) == (30, 30)

    records = box.downs()
    names = {v: k for k, v in ids.items()}

    def view_at(minutes: int) -> dict[str, Any]:
        """The view as the floor saw it ``minutes`` into the day (the records written by
        then)."""
        when = records[0].at + timedelta(minutes=minutes)
        then = MemoryDealerRecords()
        then.add_rules(rules, at=records[0].at, actor="fran", token="")
        then.set_rotation(rotation, at=records[0].at, actor="fran", token="")
        then.append_downs([NewDown(at=r.at, actor=r.actor, dealer=r.dealer, kind=r.kind,
                                   table_id=r.table_id) for r in records if r.at <= when],
                          token="", check=lambda _: None)
        return {r.dealer: (r.where, r.next_place) for r in dealer_view(then, names, now=when)}

    # twenty minutes in: each table's first dealer goes on a break next, and the crew's
    # other dealer, not yet down, is the one who relieves that table
    crews = [table_dealers(i) for i in range(3)]
    assert view_at(20) == {
        **{a: (f"Table {i + 1}", "break") for i, (a, _) in enumerate(crews)},
        **{b: ("between tables", f"Table {i + 1}") for i, (_, b) in enumerate(crews)}}
    # eighty minutes in: three dealing, one at each table, each to a break next; the other
    # three on their breaks
    later = view_at(80)
    assert sorted(w for w, _ in later.values()) == ["Table 1", "Table 2", "Table 3", "break",
                                                     "break", "break"]
    assert all(nxt == "break" for w, nxt in later.values() if w != "break")


def test_regression_a_demo_of_sixteen_tables_gives_each_table_dealers_of_its_own(
    database: Database,
) -> None:
    """The demo's names ran out after fourteen tables and the fifteenth table's dealers were
    Table 1's: one dealer at two tables at once, and verify named their inputs. Past the
    list the names come again, numbered."""
    from dealer_assist.db.demo import fill_demo
    from dealer_assist.db.demo_rows import demo_users, table_dealers

    crews = [table_dealers(i) for i in range(16)]
    assert len({d for crew in crews for d in crew}) == 32
    assert crews[14] == ("zoe", "ana2")  # Table 15
    assert ("ana2", "Ana Castillo 2", "dealer", "3030") in demo_users(16)
    fill_demo(database, hands=320, tables=16, seed=1, workers=1, hasher=FAST, repeat=True)
    tables_of: dict[str, set[int | None]] = {}
    for d in fold_downs(SqlDealerRecords(database).downs()):
        tables_of.setdefault(d.dealer, set()).add(d.table_id)
    assert all(len(t - {None}) == 1 for t in tables_of.values()), tables_of
    report = verify_database(database)
    assert report.ok, (report.findings[:3], report.problems[:3])


def test_cli_dealers_toke_count_of_a_room_shift_prints_the_split_and_refuses_bad_input(
    sqlite_url: str, capsys: pytest.CaptureFixture[str],
) -> None:
    """The demo's day (from 18:00 UTC on 2026-11-21; its room names no shifts, so its room
    shift is the gaming day): the room's one toke box, split among every dealer of every
    table, in whole cents that sum to the count."""
    from datetime import UTC, datetime

    from dealer_assist.cli import main
    from dealer_assist.db.bootstrap import open_database
    from dealer_assist.db.demo import fill_demo
    from dealer_assist.db.demo_rows import table_dealers

    db = open_database(sqlite_url)
    fill_demo(db, hands=60, tables=2, seed=1, workers=1, hasher=FAST,
              start=datetime(2026, 11, 21, 18, 0, tzinfo=UTC))
    db.close()
    floor = ["--db", sqlite_url, "--as", "fran", "--pin", "2000"]
    assert main(["dealers", "rules", "--toke-rule", "tips", *floor]) == 2
    assert '"tips" is not one of the room\'s toke splits' in capsys.readouterr().err
    assert main(["dealers", "tokes", "--day", "2026-11-21", "--room-shift", "swing",
                 "--amount", "5", "--team", "A,B", *floor]) == 2
    assert 'the room names no shifts, so there is no "swing" shift' in capsys.readouterr().err
    assert main(["dealers", "tokes", "--day", "2026-11-21", "--amount", "100.01", "--team",
                 "Ann Count,Bob Count", *floor]) == 0
    out = capsys.readouterr().out
    assert "toke count recorded (record 1): gaming day 2026-11-21, $100.01" in out
    shares = [line.split() for line in out.splitlines()[1:]]
    assert sorted(s[0] for s in shares) == sorted([*table_dealers(0), *table_dealers(1)])
    assert sum(int(s[1].replace("$", "").replace(".", "")) for s in shares) == 10_001
    assert main(["dealers", "tokes", "--day", "2026-11-21", "--amount", "5", "--team", "A,B",
                 *floor]) == 2
    assert "already counted" in capsys.readouterr().err
    db = open_database(sqlite_url)
    try:
        assert verify_database(db).ok
    finally:
        db.close()


def test_a_room_shift_toke_count_is_a_sealed_record_held_to_its_writer(
    database: Database, make: Callable[[], DealerRoom],
) -> None:
    """Schema 0025 on SQLite and PostgreSQL: the room shift's count is written once, read back
    with its day and shift, split over both tables, and walked by verify."""
    from datetime import date

    from dealer_assist.services.dealer_hooks import enter_room_tokes, room_toke_split

    r = make()
    r.sit("dana", "T1")
    r.sit("gil", "T2")
    r.room.clock.advance(minutes=30)
    r.sit("eve", "T1")
    r.room.clock.advance(days=1)
    day = r.room.clock.now.date() - timedelta(days=1)
    assert day == date(2026, 11, 21)
    count = enter_room_tokes(r.svc, r.room.floor, day=day, room_shift="", amount=1000,
                             team=("Ann Count", "Bob Count"))
    [stored] = [t for t in SqlDealerRecords(database).toke_counts() if t.per_room_shift]
    assert (stored.seq, stored.day, stored.room_shift, stored.amount, stored.team) == (
        count.seq, day, "", 1000, ("Ann Count", "Bob Count"))
    shares = room_toke_split(r.svc, day, "")
    assert sorted(s.dealer for s in shares) == ["dana", "eve", "gil"]  # both tables
    assert sum(s.cents for s in shares) == 1000
    report = verify_database(database)
    assert report.ok, (report.findings, report.problems)


def test_verify_names_an_input_recorded_by_a_dealer_not_down_at_the_table(
    database: Database, make: Callable[[], DealerRoom],
) -> None:
    r = make()
    r.sit("dana", "T1")
    start = r.room.clock.now
    r.room.clock.advance(minutes=1)
    r.finish("dana", r.deal("dana", "T1", ["9d", "Kc", "2h"]))
    assert verify_database(database).ok
    # a down of eve at T1 from before dana's hand, written past the handler: dana's inputs
    # were then recorded at a table where eve was down
    with sealed.writing(database) as conn:
        sealed.append(conn, DOWNS, at=start + timedelta(seconds=30), actor="eve",
                      token=r.dealers["eve"].token,
                      values={"dealer": "eve", "kind": "deal", "table_id": r.tables["T1"]})
    findings = verify_database(database).findings
    named = [f for f in findings if "was recorded by dealer dana" in f]
    assert named and all(f.startswith("T1: input ") and f.endswith("when eve was down there")
                         for f in named)
    assert len(named) == 4  # the start and the three cards


def test_the_shift_close_check_names_a_down_dated_back_before_its_checkpoint(
    database: Database, make: Callable[[], DealerRoom], tmp_path: Any,
) -> None:
    """``verify --since-checkpoint`` holds only the inputs after the checkpoint to the downs,
    except that a down written after it but dated before it can make an older input one by
    a dealer not down there: every input from its time on is checked again, and named."""
    from dealer_assist.db.checkpoints import sign_checkpoint
    from dealer_assist.db.keys import create_key

    r = make()
    r.sit("dana", "T1")
    start = r.room.clock.now
    r.room.clock.advance(minutes=1)
    r.finish("dana", r.deal("dana", "T1", ["9d", "Kc", "2h"]))
    key = create_key(tmp_path / "room-key.pem")
    sign_checkpoint(database, key, reason="shift close", checked={"full": True})
    r.room.clock.advance(minutes=1)
    r.finish("dana", r.deal("dana", "T1", ["8d", "Qc", "3h"]))
    since = verify_database(database, key=key, since_checkpoint=True)
    assert since.since == 1 and since.ok, since.summary()
    with sealed.writing(database) as conn:  # written now, dated before the first hand
        sealed.append(conn, DOWNS, at=start + timedelta(seconds=30), actor="eve",
                      token=r.dealers["eve"].token,
                      values={"dealer": "eve", "kind": "deal", "table_id": r.tables["T1"]})
    since = verify_database(database, key=key, since_checkpoint=True)
    named = [f for f in since.findings if "was recorded by dealer dana" in f]
    assert len(named) == 8 and all(f.endswith("when eve was down there") for f in named)

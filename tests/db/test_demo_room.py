"""A demo room of fourteen tables or more deals every game, and no demo dealer is signed in at
two tables at once: ``verify`` (which re-checks that rule) says a demo database is intact, on
SQLite and PostgreSQL, filled once or twice."""

from __future__ import annotations

from datetime import UTC, datetime

from services.support import FAST

from dealer_assist.db.bootstrap import Database
from dealer_assist.db.demo import fill_demo
from dealer_assist.db.demo_plan import demo_games, room_kinds
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import check_rules_db, verify_database
from dealer_assist.services import HandFilter


def test_demo_tables_n_of_at_least_fourteen_deal_every_game() -> None:
    games = set(demo_games())  # the fourteen games (and a test game, when one is registered)
    assert len(games) >= 14
    for n in (len(games), len(games) + 1):
        assert {g for g, _ in room_kinds(n)} == games, n
        assert len(room_kinds(n)) == n
    assert room_kinds(3) == [("champs-and-cowards", 0), ("caro-holdem", 0), ("ofc", 0)]


def test_a_fourteen_table_demo_gives_each_table_its_own_dealers_and_verifies_intact(
        database: Database) -> None:
    n = len(demo_games())  # fourteen (with a test game registered, one more)
    fill_demo(database, hands=2 * n, tables=n, seed=3, hasher=FAST, workers=1,
              start=datetime(2026, 11, 20, 18, tzinfo=UTC))
    store = SqlStore(database)
    hands = store.list_hands(HandFilter(limit=None))
    assert {h.game for h in hands} == set(demo_games())
    dealers = {}
    for s in store.list_shifts():
        dealers.setdefault(s.dealer, set()).add(s.table_id)
    assert all(len(tables) == 1 for tables in dealers.values()), dealers
    assert check_rules_db(database) == []
    report = verify_database(database)
    assert report.ok, report.summary()
    # filled again: its times follow on from what is recorded, its dealers keep their tables
    fill_demo(database, hands=n, tables=n, seed=4, hasher=FAST, workers=1)
    assert check_rules_db(database) == []


def test_regression_a_demo_filled_again_after_a_day_past_the_clock_deals_after_all_of_it(
        sqlite_url: str) -> None:
    """The first fill's day runs past the clock (as a 10,000-hand demo's does): the audit
    log's last entry is then before the last hands, and a second fill dated from it dealt
    one table's new hands before another table's last ones, where the floor's records of
    their seats could not go (verify named them all as seated behind the floor's back)."""
    from dealer_assist.db.bootstrap import open_database

    db = open_database(sqlite_url)
    fill_demo(db, hands=24, tables=2, seed=3, hasher=FAST, workers=1,
              start=datetime(2100, 1, 1, 18, tzinfo=UTC))
    with db.engine.connect() as conn:
        last = conn.exec_driver_sql("SELECT MAX(started_at) FROM hands").scalar()
    fill_demo(db, hands=8, tables=2, seed=4, hasher=FAST, workers=1)
    report = verify_database(db)
    assert report.ok, report.summary()
    with db.engine.connect() as conn:
        first_new = conn.exec_driver_sql(
            "SELECT MIN(started_at) FROM hands WHERE number > 12").scalar()
    assert first_new > last

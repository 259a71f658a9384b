"""Database fixtures: a SQLite file per test, and a throwaway PostgreSQL cluster per session
(one fresh database per test), skipped with one line when PostgreSQL is not installed."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from services.support import Room, make_room

from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.store import SqlStore

from .pg import SKIP_REASON, PgCluster, pg_bin


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    if pg_bin() is None:
        pytest.skip(SKIP_REASON)
    with PgCluster() as pg:
        yield pg


@pytest.fixture(scope="session")
def pg_template(pg_cluster: PgCluster) -> str:
    """A database migrated once; each test's database is a copy of it."""
    url = pg_cluster.create_database("migrated")
    open_database(url).close()
    return "migrated"


@pytest.fixture
def pg_url(pg_cluster: PgCluster, pg_template: str) -> str:
    return pg_cluster.create_database(template=pg_template)


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "migrated.db"
    open_database(f"sqlite:///{path}").close()
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return path


@pytest.fixture
def sqlite_url(tmp_path: Path, sqlite_template: Path) -> str:
    shutil.copy(sqlite_template, tmp_path / "store.db")
    return f"sqlite:///{tmp_path}/store.db"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str:
    name = "sqlite_url" if request.param == "sqlite" else "pg_url"
    return str(request.getfixturevalue(name))


@pytest.fixture
def database(db_url: str) -> Iterator[Database]:
    db = open_database(db_url)
    yield db
    db.close()


@pytest.fixture
def room(database: Database) -> Room:
    """The services test cardroom, on a real database."""
    return make_room(SqlStore(database))

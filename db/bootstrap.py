"""The one place engines are built: choose the database, open it, upgrade it, wrap it.

Nothing connects at import time. :func:`open_database` resolves the URL (argument, then
``DEALER_ASSIST_DB``, then a SQLite file in the user's data folder), sets SQLite to WAL with full
sync and foreign keys, refuses a database newer than this program, copies a SQLite file aside and
upgrades an older one, and returns a :class:`Database`; :func:`open_services` puts the
application services on top.
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

from dealer_assist.errors import BadInput
from dealer_assist.services import Services
from dealer_assist.services.errors import SchemaTooNew, StoreUnavailable
from dealer_assist.services.floorboard.handlers import FloorBoard
from dealer_assist.services.ports import PinHasher

ENV_URL = "DEALER_ASSIST_DB"
APP_NAME = "dealer-assist"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: How long a station waits for another station's write before saying the database is busy.
BUSY_TIMEOUT_S = 5.0
#: PostgreSQL: how long any statement waits for a row or table lock another session holds
#: (a station holding ``SELECT ... FOR UPDATE`` on a table's row must not freeze the room).
#: Set for the whole session (``lock_timeout``), so it covers every recording transaction,
#: the one-statement append and the journal's sync alike, at no cost per input.
LOCK_TIMEOUT_S = 5.0
#: PostgreSQL: a session left idle inside a transaction this long is ended by the server (a
#: station stopped in a debugger, a half-open connection): what it held is freed and what it
#: had not committed is undone. Set on every connection the app makes and, by ``db upgrade
#: --station-role``, on the stations' roles; a long read (``verify``) switches it off for its
#: own transaction. A write waiting on a lock also asks the database to end the idle session
#: holding it (:func:`dealer_assist.db.store.free_held_locks`, schema 0012).
IDLE_IN_TRANSACTION_S = 30


def default_url() -> str:
    """The embedded default: a SQLite file in the user's data folder."""
    if os.environ.get("DEALER_ASSIST_NO_USER_DB"):
        raise StoreUnavailable(
            "no database given: pass --db URL or set DEALER_ASSIST_DB (the user's own database "
            "is switched off here by DEALER_ASSIST_NO_USER_DB)"
        )
    from platformdirs import user_data_dir

    folder = Path(user_data_dir(APP_NAME))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'dealer-assist.sqlite3'}"


def sqlite_file(url: str) -> str | None:
    """The file a SQLite URL names (None: not SQLite, or in memory)."""
    if not url.startswith("sqlite"):
        return None
    name = make_url(url).database
    return None if not name or name == ":memory:" else name


def resolve_url(url: str | None = None) -> str:
    """``--db URL``, else ``DEALER_ASSIST_DB``, else the default file. A bare path is SQLite;
    ``postgresql://`` becomes ``postgresql+psycopg://``."""
    chosen = url or os.environ.get(ENV_URL) or default_url()
    if "://" not in chosen:
        chosen = f"sqlite:///{Path(chosen).expanduser().resolve()}"
    if chosen.startswith(("postgresql://", "postgres://")):
        chosen = "postgresql+psycopg://" + chosen.split("://", 1)[1]
    return chosen


@dataclass
class Database:
    """An open, up-to-date database: its engine and what it is."""

    engine: Engine
    url: str
    backup: Path | None = None

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    @property
    def sqlite_path(self) -> Path | None:
        if self.dialect != "sqlite":
            return None
        db = make_url(self.url).database
        return Path(db) if db and db != ":memory:" else None

    def close(self) -> None:
        self.engine.dispose()

    def describe(self) -> str:
        return str(make_url(self.url).render_as_string(hide_password=True))


def build_engine(url: str, *, create: bool = True) -> Engine:
    """An engine with the settings this app relies on (no connection is made yet). With
    ``create`` False a SQLite file must already exist (and its folder is never made)."""
    try:
        u = make_url(url)
    except ArgumentError as exc:
        raise BadInput(f'"{url}" is not a database URL (try sqlite:///path/file.db or '
                       "postgresql+psycopg://user:password@host/dbname)") from exc
    try:
        if u.get_backend_name() == "sqlite":
            if not create:
                _must_exist(u.database)
            elif u.database and u.database != ":memory:":
                Path(u.database).expanduser().parent.mkdir(parents=True, exist_ok=True)
            engine = create_engine(
                u, connect_args={"timeout": BUSY_TIMEOUT_S, "isolation_level": None}
            )
            _sqlite_events(engine)
            return engine
        if u.get_backend_name() == "postgresql":
            return create_engine(
                u, pool_pre_ping=True, pool_size=2, connect_args={
                    "connect_timeout": 5,
                    "options": f"-c lock_timeout={int(LOCK_TIMEOUT_S * 1000)} "
                               "-c idle_in_transaction_session_timeout="
                               f"{int(IDLE_IN_TRANSACTION_S * 1000)}",
                })
    except NoSuchModuleError as exc:
        raise BadInput(f'no database driver for "{u.drivername}"') from exc
    raise BadInput(f'"{u.get_backend_name()}" databases are not supported: use SQLite or '
                   "PostgreSQL")


def _must_exist(database: str | None) -> None:
    """A command that only reads names an existing, non-empty SQLite file: it never creates
    one (a typo in --db must not leave an empty database that "verifies" as intact)."""
    if not database or database == ":memory:":
        raise BadInput("sqlite:// is an empty in-memory database: name the database file with "
                       "--db sqlite:///path/file.db; nothing was created")
    path = Path(database).expanduser()
    if not path.exists():
        raise BadInput(f"there is no database at {path}: check --db (this command only reads; "
                       "nothing was created)")
    if path.is_dir():
        raise BadInput(f"{path} is a folder, not a database file: check --db")
    if path.stat().st_size == 0:
        raise BadInput(f"{path} is an empty file, not a Dealer Assist database: check --db "
                       "(nothing was changed)")


def _sqlite_events(engine: Engine) -> None:
    """WAL, full sync, foreign keys; and writes that take the lock at BEGIN (no deadlocks)."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute(f"PRAGMA busy_timeout={int(BUSY_TIMEOUT_S * 1000)}")
        cur.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        read = conn.get_execution_options().get("dealer_assist_read", False)
        conn.exec_driver_sql("BEGIN" if read else "BEGIN IMMEDIATE")


def open_database(
    url: str | None = None, *, upgrade: bool = True, create: bool = True
) -> Database:
    """Open (creating if need be) and upgrade the database; refuse one newer than this app.

    ``create`` False (the commands that only read: verify, reports, export, users list):
    refuse a database that does not exist yet or holds no Dealer Assist tables, creating
    nothing."""
    resolved = resolve_url(url)
    engine = build_engine(resolved, create=create)
    db = Database(engine=engine, url=resolved)
    try:
        current, head, known = schema_state(db)
        if current is None and not create:
            engine.dispose()
            raise BadInput(
                f"{db.describe()} holds no Dealer Assist database: check --db (this command "
                "only reads; nothing was created). `dealer-assist db upgrade` creates one."
            )
        if current is not None and current not in known:
            engine.dispose()
            raise SchemaTooNew(
                f"{db.describe()} was written by a newer Dealer Assist (schema {current}; this "
                f"version knows up to {head}). Install the newer version; nothing was changed."
            )
        if current != head:
            if not upgrade:
                engine.dispose()
                raise StoreUnavailable(
                    f"{db.describe()} needs an upgrade (schema {current or 'empty'} -> {head}): "
                    "run `dealer-assist db upgrade`"
                )
            if current is not None:
                db.backup = backup_sqlite(db, current)
            try:
                run_upgrade(db)
            except DBAPIError as exc:
                if not _not_owner(exc):
                    raise
                # the stations' role (db upgrade --station-role) records and reads only: the
                # upgrade is the owner's, and the failed attempt changed nothing (one transaction)
                engine.dispose()
                raise StoreUnavailable(
                    f"this database needs an upgrade (schema {current or 'empty'} -> {head}), "
                    f"which the role opening {db.describe()} may not do: run `dealer-assist db "
                    "upgrade` as the owner role; nothing was changed"
                ) from exc
    except DBAPIError as exc:
        engine.dispose()
        raise unavailable(exc, db.describe()) from exc
    if db.sqlite_path is not None:
        _never_create(engine)
    return db


def _never_create(engine: Engine) -> None:
    """From now on, every new connection opens the SQLite file only if it is there (``mode=rw``):
    a file deleted while the station runs must never be replaced by a new, empty database. A
    database is created only when it is first opened (first run) or by ``db upgrade``."""

    @event.listens_for(engine, "do_connect")
    def _existing_only(_dialect: Any, _rec: Any, cargs: list[Any], cparams: dict[str, Any]) -> None:
        path = cargs[0] if cargs else cparams.get("database")
        if not isinstance(path, str) or path.startswith("file:") or path == ":memory:":
            return
        from urllib.parse import quote

        uri = "file:" + quote(str(Path(path).expanduser().resolve())) + "?mode=rw"
        if cargs:
            cargs[0] = uri
        else:
            cparams["database"] = uri
        cparams["uri"] = True

    engine.dispose()


def open_services(
    url: str | None = None, *, hasher: PinHasher | None = None, clock: Any = None,
    create: bool = True, journal: Path | None = None, key: str | Path | None = None,
) -> Services:
    """The application services on the chosen database (the UI's and the CLI's entry point);
    ``create`` False: only an existing database (see :func:`open_database`). With ``journal``
    (a file beside the app), a station deals on through a blip in the server
    (``dealer_assist.db.journal``). ``key``: the room's key file for the checkpoints it signs
    (None: ``DEALER_ASSIST_KEY``, else the data folder), passed on, never put in the
    environment."""
    from dealer_assist.db.sealer import DbSealer
    from dealer_assist.db.store import SqlStore

    db = open_database(url, create=create)
    kwargs: dict[str, Any] = {"hasher": hasher}
    if clock is not None:
        kwargs["clock"] = clock
    store: Any = SqlStore(db)
    if journal is not None:
        from dealer_assist.db.journal import JournalStore

        store = JournalStore(store, journal)
    services = Services(store, **kwargs)
    services.sealer = DbSealer(db, key)
    services.floor_board = floor_board(db, services.clock)
    services.floor_board.still_active = services.require_active
    from dealer_assist.db.dealer_box import SqlDealerRecords

    services.dealer_box = SqlDealerRecords(db)
    return services


def services_on(db: Database) -> Services:
    """The services on an open database with nothing more (no room key, floor board or dealer
    box): what the ``db`` commands read through and add the first admin with."""
    from dealer_assist.db.store import SqlStore

    return Services(SqlStore(db))


def floor_board(db: Database, clock: Any) -> FloorBoard:
    """The floor board on ``db``: its records, and the tables read in one query."""
    from dealer_assist.db.floor_records import SqlFloorRecords
    from dealer_assist.db.floor_tables import SqlTables

    return FloorBoard(SqlFloorRecords(db), SqlTables(db), clock)


ENV_JOURNAL = "DEALER_ASSIST_JOURNAL"


def station_journal(url: str | None) -> Path | None:
    """The journal a station deals against when its PostgreSQL server does not answer:
    ``DEALER_ASSIST_JOURNAL`` (``off``: none), else :func:`journal_path`. None for SQLite (the
    database is the station's own file)."""
    if not resolve_url(url).startswith("postgresql"):
        return None
    given = os.environ.get(ENV_JOURNAL, "")
    if given.lower() == "off":
        return None
    return Path(given).expanduser() if given else journal_path(resolve_url(url))


def journal_path(db_url: str) -> Path:
    """The station's journal for a server database: a SQLite file in the app's data folder,
    one per database (named by a digest of its address)."""
    import hashlib

    from platformdirs import user_data_dir

    digest = hashlib.sha256(make_url(resolve_url(db_url)).render_as_string(
        hide_password=True).encode()).hexdigest()[:12]
    return Path(user_data_dir(APP_NAME)) / f"station-journal-{digest}.sqlite3"


def _alembic_config(connection: Connection | None = None) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def schema_state(db: Database) -> tuple[str | None, str, set[str]]:
    """(the database's revision or None, this program's head, every revision it knows)."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(_alembic_config())
    head = script.get_current_head()
    assert head is not None
    known = {rev.revision for rev in script.walk_revisions()}
    with db.engine.connect() as conn:
        conn.execution_options(dealer_assist_read=True)
        current = MigrationContext.configure(conn).get_current_revision()
    return current, head, known


def run_upgrade(db: Database) -> None:
    from alembic import command

    with db.engine.connect() as conn:
        command.upgrade(_alembic_config(conn), "head")
        conn.commit()


def backup_sqlite(db: Database, revision: str) -> Path | None:
    """Copy a SQLite file aside before upgrading it (the online backup API: WAL-safe)."""
    path = db.sqlite_path
    if path is None or not path.exists():
        return None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    target = path.with_name(f"{path.name}.schema-{revision}.{stamp}.bak")
    src = sqlite3.connect(path)
    try:
        dst = sqlite3.connect(target)
        try:
            src.backup(dst)
        finally:
            dst.close()
    finally:
        src.close()
    return target


def _not_owner(exc: DBAPIError) -> bool:
    """Whether a database error is a missing privilege (PostgreSQL's 42501, "must be owner")."""
    sqlstate = str(getattr(exc.orig, "sqlstate", "") or "")
    low = str(exc.orig).lower()
    return sqlstate == "42501" or "permission denied" in low or "must be owner" in low


def unavailable(exc: BaseException, where: str) -> StoreUnavailable:
    """A database error as the message a person can act on; nothing was recorded."""
    text = str(getattr(exc, "orig", exc) or exc).strip().splitlines()[0] if str(exc) else ""
    low = text.lower()
    sqlstate = str(getattr(getattr(exc, "orig", None), "sqlstate", "") or "")
    if sqlstate.startswith("22") or "too long" in low or "out of range" in low:
        # a value the database cannot hold (PostgreSQL's class 22): the input, not the network
        return StoreUnavailable(
            f"the database {where} refused a value as too long or too large ({text}): "
            "shorten the name or amount and try again; nothing was recorded"
        )
    if sqlstate == "42501":
        # the database's own refusal (a role's rights, a trigger): not the network
        return StoreUnavailable(
            f"the database {where} refused this ({text}): nothing was recorded; try again, "
            "and if it lasts, call an admin (this station's database role may not do it)"
        )
    if sqlstate == "55P03" or "lock timeout" in low:
        return StoreUnavailable(
            f"the database {where} is busy: another station or program has held this table "
            f"for more than {LOCK_TIMEOUT_S:g} s, so nothing was recorded; try again in a "
            "moment, and if it lasts, call the floor (a station may be stuck)"
        )
    if "locked" in low or "busy" in low:
        return StoreUnavailable(
            f"the database {where} is busy (another program or station is writing to it): "
            "nothing was recorded; try again in a moment"
        )
    if "unable to open" in low or "readonly" in low or "read-only" in low:
        return StoreUnavailable(
            f"cannot write the database {where} ({text}): check the file and folder "
            "permissions and the disk; nothing was recorded"
        )
    if "disk" in low and ("full" in low or "i/o" in low):
        return StoreUnavailable(
            f"the disk holding {where} failed ({text}): free space or fix the disk, then retry; "
            "nothing was recorded"
        )
    if "not a database" in low or "malformed" in low or "file is encrypted" in low:
        return StoreUnavailable(
            f"{where} is not a Dealer Assist database, or it is damaged ({text}): check that "
            "--db names the right file; to recover, restore the latest copy (the app keeps one "
            "beside the file, ending in .bak, from each upgrade) or your backup; nothing was "
            "changed"
        )
    if where.startswith("sqlite"):
        return StoreUnavailable(
            f"the database file {where} did not answer ({text}): check the file and the disk, "
            "then retry; nothing was recorded"
        )
    return StoreUnavailable(
        f"cannot reach the database {where} ({text}): check the network and that the database "
        "server is running, then retry; nothing was recorded"
    )

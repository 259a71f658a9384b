"""Sealed typed rows (schema 0017): a room record in a table of its own, append-only, chained on
its own, walked by ``verify``; on PostgreSQL written only by a live sign-in of the table's
roles, in that person's name.

The tables here are made with the migrations' own :func:`create_sealed_table`, as a later
migration makes the room's record tables.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.migration import MigrationContext
from alembic.operations import Operations
from services.support import FAST, Room
from sqlalchemy.exc import DBAPIError

from dealer_assist.db import sealed
from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.migrations.sealed_ddl import create_sealed_table
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.services import Services

from .pg import PgCluster
from .stations import station_room

T0 = datetime(2026, 3, 7, 20, 0, tzinfo=UTC)
COUNTS = sa.Table(
    "test_counts", sa.MetaData(),
    sa.Column("id", sa.Integer, primary_key=True), sa.Column("seq", sa.BigInteger),
    sa.Column("at", sa.DateTime), sa.Column("actor", sa.String(40)),
    sa.Column("prev_hash", sa.String(64)), sa.Column("hash", sa.String(64)),
    sa.Column("table_id", sa.Integer), sa.Column("box", sa.String(20)),
    sa.Column("counted", sa.BigInteger, nullable=True), sa.Column("final", sa.Boolean),
    sa.Column("started", sa.DateTime, nullable=True),
)


def _make_table(db: Database, roles: tuple[str, ...] = ("floor", "admin")) -> None:
    with db.engine.begin() as conn, Operations.context(MigrationContext.configure(conn)):
        create_sealed_table(
            "test_counts",
            sa.Column("table_id", sa.Integer, nullable=False),
            sa.Column("box", sa.String(20), nullable=False),
            sa.Column("counted", sa.BigInteger, nullable=True),
            sa.Column("final", sa.Boolean, nullable=False),
            sa.Column("started", sa.DateTime, nullable=True),
            roles=roles,
        )


def _append(db: Database, n: int, *, actor: str = "fran", token: str = "") -> None:
    with sealed.writing(db) as conn:
        for i in range(n):
            sealed.append(conn, COUNTS, at=T0 + timedelta(minutes=i), actor=actor, token=token,
                          values={"table_id": 1, "box": f"B{i}", "counted": 10_050 + i,
                                  "final": i % 2 == 0, "started": T0 - timedelta(hours=1)})


@pytest.fixture
def room_file(tmp_path: Path) -> Iterator[tuple[Database, Path]]:
    path = tmp_path / "room.db"
    db = open_database(f"sqlite:///{path}")
    _make_table(db)
    yield db, path
    db.close()


def test_sealed_rows_read_back_typed_and_in_order(room_file: tuple[Database, Path]) -> None:
    db, _ = room_file
    _append(db, 3)
    with sealed.reading(db) as conn:
        rows = sealed.read(conn, COUNTS)
        assert [r.seq for r in rows] == [1, 2, 3]
        assert rows[1]["counted"] == 10_051 and rows[1]["box"] == "B1"
        assert rows[0]["final"] is True and rows[1]["final"] is False
        assert rows[0]["started"] == T0 - timedelta(hours=1)
        assert rows[2].prev_hash == rows[1].hash and rows[0].actor == "fran"
        assert sealed.read(conn, COUNTS, COUNTS.c.box == "B2")[0].seq == 3
        assert sealed.heads(conn)["test_counts"] == (3, rows[2].hash)
        assert sealed.sealed_faults(conn) == []
    assert verify_database(db, workers=1).ok


def test_sealed_rows_refuse_update_delete_and_replace(room_file: tuple[Database, Path]) -> None:
    db, _ = room_file
    _append(db, 2)
    for sql in ("UPDATE test_counts SET counted = 1", "DELETE FROM test_counts",
                "INSERT OR REPLACE INTO test_counts SELECT * FROM test_counts WHERE seq = 1"):
        with pytest.raises(DBAPIError, match="append-only"), db.engine.begin() as conn:
            conn.exec_driver_sql(sql)
    with sealed.reading(db) as conn:
        assert [r["counted"] for r in sealed.read(conn, COUNTS)] == [10_050, 10_051]


@pytest.mark.parametrize(("edit", "named"), [
    # an amount changed in place (the triggers dropped by whoever has the file)
    ("UPDATE test_counts SET counted = 99 WHERE seq = 2",
     "test_counts record 2 (row id 2): its contents differ"),
    # the middle record removed
    ("DELETE FROM test_counts WHERE seq = 2", "test_counts record 3 (row id 3): found where "
     "record 2 belongs"),
    # the last record cut and the head left as it was
    ("DELETE FROM test_counts WHERE seq = 3", "the head says 3 record(s), the table holds 2"),
    # the head row removed
    ("DELETE FROM record_heads WHERE kind = 'test_counts'", "the head that counts its records "
     "is missing"),
    # the whole table dropped
    ("DROP TABLE test_counts", "test_counts: the table of these records is gone"),
])
def test_verify_names_a_sealed_record_changed_behind_the_app(
    room_file: tuple[Database, Path], edit: str, named: str,
) -> None:
    """Regression: whoever has the SQLite file drops the triggers and edits; verify names it."""
    db, path = room_file
    _append(db, 3)
    db.engine.dispose()
    con = sqlite3.connect(path)
    for verb in ("update", "delete"):
        con.execute(f"DROP TRIGGER test_counts_no_{verb}")
    con.execute(edit)
    con.commit()
    con.close()
    report = verify_database(db, workers=1)
    assert not report.ok
    assert any(named in f for f in report.findings), report.findings


def test_a_record_written_after_a_lost_head_goes_on_from_the_last_one(
    room_file: tuple[Database, Path],
) -> None:
    db, _ = room_file
    _append(db, 2)
    with db.engine.begin() as conn:
        conn.exec_driver_sql("DELETE FROM record_heads WHERE kind = 'test_counts'")
    _append(db, 1)
    with sealed.reading(db) as conn:
        assert [r.seq for r in sealed.read(conn, COUNTS)] == [1, 2, 3]
        assert sealed.sealed_faults(conn) == []


def test_append_refuses_a_column_the_table_lacks(room_file: tuple[Database, Path]) -> None:
    db, _ = room_file
    with pytest.raises(TypeError, match="no column"), sealed.writing(db) as conn:
        sealed.append(conn, COUNTS, at=T0, actor="fran", token="", values={"tips": 5})
    with pytest.raises(TypeError, match="no column"), sealed.writing(db) as conn:
        sealed.append(conn, COUNTS, at=T0, actor="fran", token="", values={"seq": 5})


def test_checkpoint_names_sealed_records_rewritten_after_it(
    room_file: tuple[Database, Path], tmp_path: Path,
) -> None:
    """The signed checkpoint holds each sealed table's head: a table emptied and rebuilt with
    its chain recomputed (verify's walk alone would find it intact) is named."""
    from dealer_assist.db.checkpoints import check_checkpoints, sign_checkpoint
    from dealer_assist.db.keys import create_key

    db, path = room_file
    _append(db, 2)
    key = create_key(tmp_path / "room.key")
    sign_checkpoint(db, key, reason="test")
    db.engine.dispose()
    con = sqlite3.connect(path)
    con.execute("DROP TRIGGER test_counts_no_delete")
    con.execute("DELETE FROM test_counts")
    con.execute("UPDATE record_heads SET entries = 0, head_hash = ? WHERE kind = 'test_counts'",
                ("0" * 64,))
    con.commit()
    con.close()
    with sealed.writing(db) as conn:  # the same two records, with one amount changed
        sealed.append(conn, COUNTS, at=T0, actor="fran", token="",
                      values={"table_id": 1, "box": "B0", "counted": 1, "final": True})
        sealed.append(conn, COUNTS, at=T0, actor="fran", token="",
                      values={"table_id": 1, "box": "B1", "counted": 2, "final": False})
    with sealed.reading(db) as conn:
        assert sealed.sealed_faults(conn) == []
        anchored = check_checkpoints(conn, key, None, every=True)
    assert any("test_counts, record 2: its hash differs" in p for p in anchored.problems), \
        anchored.problems


def test_records_written_on_a_head_locked_once_chain_as_if_each_locked_it(
    room_file: tuple[Database, Path],
) -> None:
    """A caller that locked the head to decide (is the seat free?) writes on that head: no
    second lock, and the chain is the same as record by record."""
    db, _ = room_file
    _append(db, 1)
    with sealed.writing(db) as conn:
        head = sealed.lock_head(conn, COUNTS)
        assert (head.entries, head.kind) == (1, "test_counts")
        for i in range(2):
            sealed.append(conn, COUNTS, at=T0, actor="fran", token="", head=head,
                          values={"table_id": 2, "box": f"H{i}", "counted": i, "final": True})
        assert head.entries == 3
        other = sealed.Head("record_heads", 0, "0" * 64)
        with pytest.raises(TypeError, match="not test_counts's"):
            sealed.append(conn, COUNTS, at=T0, actor="fran", token="", head=other,
                          values={"table_id": 2, "box": "X", "final": True})
    _append(db, 1)
    with sealed.reading(db) as conn:
        assert [r.seq for r in sealed.read(conn, COUNTS)] == [1, 2, 3, 4]
        assert sealed.sealed_faults(conn) == []


@pytest.mark.postgres
def test_pg_sealed_rows_are_written_only_by_a_signed_in_person_of_the_tables_roles(
    pg_cluster: PgCluster, pg_template: str,
) -> None:
    """Regression (issue 40): a station's own login wrote counts in a floor person's name.
    A sealed table takes a station's row only with a live sign-in of one of its roles, in that
    person's name."""
    def as_owner(owner: Database, _room: Room) -> None:
        _make_table(owner)
        _append(owner, 1, actor="owner's tool")  # the owner writes as it likes

    station_url, room = station_room(pg_cluster, pg_template, "sealed_rows", prepare=as_owner)
    db = open_database(station_url)
    try:
        svc = Services(SqlStore(db), clock=room.clock, hasher=FAST)
        fran = svc.sign_in("fran", "2222")
        dee = svc.sign_in("dee", "1111")
        for actor, token, why in [
            ("fran", "", "not signed in"),
            ("fran", "forged-token", "not signed in"),
            ("fran", dee.token, "written by a floor or admin only"),
            ("fran", None, "not signed in"),
        ]:
            with pytest.raises(Exception, match=why):
                _append(db, 1, actor=actor, token=token or "")
        with pytest.raises(Exception, match="in the name of the person signed in"):
            _append(db, 1, actor="admin", token=fran.token)
        _append(db, 2, actor="fran", token=fran.token)
        with sealed.writing(db) as conn:  # a head locked first, the token set at the write
            head = sealed.lock_head(conn, COUNTS)
            sealed.append(conn, COUNTS, at=T0, actor="fran", token=fran.token, head=head,
                          values={"table_id": 1, "box": "L", "final": True})
        with sealed.reading(db) as conn:
            rows = sealed.read(conn, COUNTS)
            assert [(r.seq, r.actor) for r in rows] == [(1, "owner's tool"), (2, "fran"),
                                                       (3, "fran"), (4, "fran")]
            assert sealed.sealed_faults(conn) == []
        with pytest.raises(DBAPIError, match=r"permission denied|append-only"), \
                db.engine.begin() as conn:
            conn.exec_driver_sql("UPDATE test_counts SET counted = 1")
        with pytest.raises(DBAPIError, match="permission denied"), db.engine.begin() as conn:
            conn.exec_driver_sql("DELETE FROM test_counts")
    finally:
        db.close()

"""PostgreSQL: what a station's own login role can do, tried as that role on a throwaway cluster.

The attack was: the station role writes a new PIN hash for ``admin`` (``UPDATE users``),
appends a matching ``record-user`` entry and moves ``audit_head``, signs in as admin and adds
an admin, and every ``verify`` says intact. Since schema 0009 the role cannot read or change a
user row, users change only through the owner's functions (which check the signed-in admin's
token in the same transaction), and a trigger refuses every audit entry kind not in
:data:`dealer_assist.db.grants.STATION_AUDIT_ACTIONS` and any ``record-user`` that is not the
row as stored. The PIN is checked by the database (``da_pin_try``), by its own clock.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import pytest
from services.support import FAST, Room, make_room

from dealer_assist.cli import main
from dealer_assist.db.bootstrap import Database, open_database
from dealer_assist.db.grants import OWNER_ONLY, STATION_AUDIT_ACTIONS, STATION_UPDATES
from dealer_assist.db.store import SqlStore
from dealer_assist.db.verify import verify_database
from dealer_assist.services import Services
from dealer_assist.services.errors import LockedOut, NotAllowed, SignInFailed
from dealer_assist.services.model import Table

from .pg import PgCluster
from .stations import station_room

pytestmark = pytest.mark.postgres


@dataclass
class Station:
    owner_url: str
    url: str
    dsn: str
    db: Database
    svc: Services


@pytest.fixture(scope="module")
def station(pg_cluster: PgCluster, pg_template: str) -> Iterator[Station]:
    """One room for the module: made by the owner, then run as the login role ``st_t1`` of the
    group role ``st_group`` given the stations' rights by ``db upgrade --station-role``."""
    station_url, room = station_room(pg_cluster, pg_template, "station_rights")
    url = station_url.replace("st_t1@", "postgres@")
    db = open_database(station_url)
    svc = Services(SqlStore(db), clock=room.clock, hasher=FAST)
    yield Station(url, station_url, station_url.replace("postgresql+psycopg://", "postgresql://"),
                  db, svc)
    db.close()


def _refused(dsn: str, statements: list[str]) -> list[str]:
    """The statements the role was allowed to run (each in its own transaction)."""
    import psycopg

    ran = []
    with psycopg.connect(dsn, autocommit=True) as conn:
        for sql in statements:
            try:
                conn.execute(sql)
            except psycopg.errors.InsufficientPrivilege:
                continue
            ran.append(sql)
    return ran


def _forged_audit(action: str, detail: str) -> str:
    return ("INSERT INTO audit_log (at, actor, action, detail, seq, prev_hash, hash) VALUES "
            f"(now(), NULL, '{action}', '{detail}', (SELECT entries + 1 FROM audit_head), "
            "(SELECT head_hash FROM audit_head), repeat('0', 64))")


def test_regression_station_role_cannot_forge_an_admin(station: Station) -> None:
    """The takeover, step by step, as the station's role: every step is refused."""
    new = FAST.hash("0000")
    forged = ('{"active":true,"full_name":"Ada Admin","name":"admin","pin":"'
              + "1" * 64 + '","role":"admin"}')
    assert _refused(station.dsn, [
        f"UPDATE users SET pin_hash = '{new}' WHERE name = 'admin'",
        "UPDATE users SET role = 'admin' WHERE name = 'dee'",
        "INSERT INTO users (name, full_name, role, pin_hash, failed, active, created_at) "
        f"VALUES ('mallory', 'M', 'admin', '{new}', 0, true, now())",
        _forged_audit("record-user", forged),
        _forged_audit("record-baseline", '{"seq":999,"table_id":1,"why":"x"}'),
        f"SELECT da_user_pin('guessed', 'admin', '{new}')",
        "SELECT da_user_add('guessed', 'mallory', 'M', 'admin', 'x', now()::timestamp)",
        "INSERT INTO station_audit_actions VALUES ('record-baseline')",
    ]) == []
    assert station.svc.sign_in("admin", "9999").role == "admin"  # the admin's PIN held


def test_station_role_can_do_nothing_else_than_its_grants(station: Station) -> None:
    """Every table: no DELETE, no TRUNCATE, no UPDATE of a column outside STATION_UPDATES;
    no INSERT into users or the owner's sign-in tables; not a word of them read; no audit
    entry of a kind outside STATION_AUDIT_ACTIONS."""
    import psycopg

    with psycopg.connect(station.dsn.replace("st_t1@", "postgres@")) as conn:
        columns = conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = 'public' AND table_name IN (SELECT tablename FROM pg_tables "
            "WHERE schemaname = 'public') ORDER BY 1, 2").fetchall()
    tables = sorted({t for t, _ in columns})
    assert {"users", "audit_log", "pin_tries", "pin_sessions", "pin_secret"} <= set(tables)
    tries: list[str] = []
    for table in tables:
        tries += [f"DELETE FROM {table}", f"TRUNCATE {table}",
                  f"ALTER TABLE {table} DISABLE TRIGGER USER", f"DROP TABLE {table}"]
    tries += [f"UPDATE {t} SET {c} = {c}" for t, c in columns
              if c not in STATION_UPDATES.get(t, ())]
    for table in (*OWNER_ONLY, "users", "alembic_version"):
        tries.append(f"INSERT INTO {table} DEFAULT VALUES")
    for table in OWNER_ONLY:
        tries.append(f"SELECT * FROM {table}")
    tries.append("SELECT pin_hash FROM users")
    for action in ("record-baseline", "verify-passed", "anything"):
        assert action not in STATION_AUDIT_ACTIONS
        tries.append(_forged_audit(action, ""))
    assert _refused(station.dsn, tries) == []


def test_the_app_as_the_station_role_manages_users_through_the_owners_functions(
    station: Station,
) -> None:
    svc = station.svc
    admin = svc.sign_in("admin", "9999")
    assert admin.token
    svc.add_user(admin, name="nia", full_name="Nia New", role="dealer", pin="4444")
    nia = svc.sign_in("nia", "4444")
    svc.change_pin(nia, "4444", "4545")
    svc.reset_pin(admin, "otto", "3434")
    assert svc.sign_in("otto", "3434").role == "auditor"
    svc.set_user_active(admin, "nia", False)
    with pytest.raises(SignInFailed):
        svc.sign_in("nia", "4545")  # disabled: answered as a name nobody has
    svc.set_user_active(admin, "nia", True)
    assert svc.sign_in("nia", "4545").name == "nia"
    # a dealer's token is not an admin's, whatever the station does with it
    dee = svc.sign_in("dee", "1111")
    assert _refused(station.dsn, [
        f"SELECT da_user_pin('{dee.token}', 'admin', 'x')",
        f"SELECT da_user_add('{dee.token}', 'mal', 'M', 'admin', 'x', now()::timestamp)",
    ]) == []
    with pytest.raises(NotAllowed):
        svc.add_user(dee.__class__(user=admin.user, signed_in_at=admin.signed_in_at,
                                   token=dee.token),
                     name="mal", full_name="Mal Lory", role="admin", pin="1212")
    report = verify_database(station.db)
    assert report.ok, report.summary()


def test_pin_is_checked_by_the_database_and_never_read_by_the_station(station: Station) -> None:
    """A station gets only the argon2 salt of a name (a made-up one for a name nobody has);
    the database keeps the bcrypt of the argon2 hash's sha256."""
    import psycopg

    with psycopg.connect(station.dsn.replace("st_t1@", "postgres@")) as conn:
        stored = conn.execute("SELECT pin_hash FROM users WHERE name = 'dee'").fetchone()
    assert stored is not None and stored[0].startswith("da-bf:$argon2id$")
    assert "|$2a$08$" in stored[0]
    with psycopg.connect(station.dsn) as conn:
        known = conn.execute("SELECT da_pin_salt('dee')").fetchone()
        unknown = conn.execute("SELECT da_pin_salt('nobody-here')").fetchone()
        again = conn.execute("SELECT da_pin_salt('nobody-here')").fetchone()
    assert known is not None and unknown is not None and again is not None
    assert stored[0][len("da-bf:"):].split("|")[0] == known[0]
    assert unknown[0] == again[0] and unknown[0].startswith("$argon2id$v=19$m=8,t=1,p=1$")


def test_unknown_name_locks_in_the_database_like_a_real_one(station: Station) -> None:
    """Regression: unknown names were counted per process and never shared: two stations
    each gave an unknown name its own three tries. The database counts them by name."""
    other = Services(SqlStore(station.db), clock=station.svc.clock, hasher=FAST)
    for svc, name in ((station.svc, "ghost"), (other, "ghost"), (station.svc, "ghost")):
        with contextlib.suppress(SignInFailed, LockedOut):
            svc.sign_in(name, "0000")
    for svc in (station.svc, other):
        with pytest.raises(LockedOut, match="ghost is locked"):
            svc.sign_in("ghost", "0000")
    # and a real name locks the same way, by the server's clock, even for the right PIN
    for _ in range(3):
        with pytest.raises((SignInFailed, LockedOut)):
            other.sign_in("fran", "0000")
    with pytest.raises(LockedOut):
        station.svc.sign_in("fran", "2222")
    import psycopg

    with psycopg.connect(station.dsn.replace("st_t1@", "postgres@"), autocommit=True) as conn:
        conn.execute("UPDATE users SET locked_until = now() AT TIME ZONE 'UTC' - interval "
                     "'1 second' WHERE name = 'fran'")  # five minutes later
    assert station.svc.sign_in("fran", "2222").role == "floor"


def test_argon2_hashes_stored_before_schema_0009_keep_working(pg_url: str) -> None:
    """The upgrade wraps each argon2 hash (bcrypt of its sha256, the salt kept), records the
    users again, and every PIN goes on working; verify stays intact."""
    from alembic import command

    from dealer_assist.db.bootstrap import _alembic_config

    db = open_database(pg_url)
    room = make_room(SqlStore(db))
    with db.engine.connect() as conn:
        command.downgrade(_alembic_config(conn), "0008")
        conn.commit()
    from dealer_assist.db.store import append_audit
    from dealer_assist.services.records import record_entry, user_state

    with db.engine.begin() as conn:  # as an 0008 app left it: a plain argon2 hash, recorded
        argon = FAST.hash("1111")
        conn.exec_driver_sql("UPDATE users SET pin_hash = %s WHERE name = 'dee'", (argon,))
        append_audit(conn, [record_entry("user", user_state(
            name="dee", full_name="Dee Dealer", role="dealer", active=True, pin_hash=argon),
            datetime.now(UTC))])
    db.close()
    db = open_database(pg_url)
    with db.engine.connect() as conn:
        assert conn.exec_driver_sql(
            "SELECT count(*) FROM users WHERE pin_hash NOT LIKE 'da-bf:%%'").scalar() == 0
    svc = Services(SqlStore(db), clock=room.clock, hasher=FAST)
    assert svc.sign_in("dee", "1111").role == "dealer"
    assert svc.sign_in("admin", "9999").role == "admin"
    report = verify_database(db)
    assert report.ok, report.summary()
    db.close()


def test_a_closed_shift_and_its_record_cannot_be_rewritten_by_the_station(
    station: Station,
) -> None:
    """The forged record also hid a changed shift floor: a station closes a shift once, and a
    ``record-shift`` it writes must be the shift as stored."""
    from dealer_assist.services.app import Approval

    svc = station.svc
    dee = svc.sign_in("dee", "1111")
    shift = svc.store.current_shift(1)
    assert shift is not None
    svc.close_shift(dee, shift.id, approval=Approval("fran", "2222"))
    forged = (f'{{"closed_at":"2026-11-21T23:00:00.000000+00:00","closed_by":"dee",'
              f'"closed_floor":"admin","dealer":"dee","floor":"admin","id":{shift.id},'
              '"opened_at":"2026-11-21T20:00:00.000000+00:00","table_id":1}')
    assert _refused(station.dsn, [
        f"UPDATE shifts SET closed_floor = 'admin' WHERE id = {shift.id}",
        f"UPDATE shifts SET closed_at = NULL WHERE id = {shift.id}",
        _forged_audit("record-shift", forged),
    ]) == []
    report = verify_database(station.db)
    assert report.ok, report.summary()


def _forged_approval(actor: str) -> str:
    return ("INSERT INTO audit_log (at, actor, action, detail, seq, prev_hash, hash) VALUES "
            f"(now(), '{actor}', 'approval', 'void of hand 1', (SELECT entries + 1 FROM "
            "audit_head), (SELECT head_hash FROM audit_head), repeat('0', 64))")


def _approvals(station: Station) -> list[tuple[str, str]]:
    return [(e.actor or "", e.detail) for e in station.svc.store.audit_log(action="approval")]


def test_regression_station_role_cannot_forge_a_floor_approval(station: Station) -> None:
    """The station wrote the ``approval`` entry itself after checking the floor's PIN, so its
    role could write one with no PIN at all. Now the entry is taken only on a one-time ticket
    the database left when it saw that floor person's right PIN (``da_approval_try``)."""
    from dealer_assist.services.app import Approval

    svc = station.svc
    import psycopg

    def fran_sessions() -> int:
        with psycopg.connect(station.dsn.replace("st_t1@", "postgres@")) as conn:
            row = conn.execute("SELECT count(*) FROM pin_sessions s JOIN users u "
                               "ON u.id = s.user_id WHERE u.name = 'fran'").fetchone()
        return int(row[0]) if row else -1

    before, sessions = _approvals(station), fran_sessions()
    # no ticket: refused, whoever it names
    assert _refused(station.dsn, [_forged_approval("fran"), _forged_approval("admin"),
                                  _forged_audit("approval", "void of hand 1")]) == []
    # a wrong PIN gives no ticket (and is counted like a sign-in)
    with pytest.raises(SignInFailed) as wrong:
        svc.approve(Approval("fran", "0000"), what="void of hand 1", table_id=1)
    assert wrong.value.attempts_left == 2
    assert _refused(station.dsn, [_forged_approval("fran")]) == []
    # the right PIN through the app: the entry is taken, and the try count is cleared
    assert svc.approve(Approval("fran", "2222"), what="void of hand 1", table_id=1).name == "fran"
    assert _approvals(station) == [*before, ("fran", "void of hand 1")]
    secret = svc.store.user_secret("fran")
    assert secret is not None and secret.failed == 0
    # the ticket is spent: a second approval entry on it is refused
    assert _refused(station.dsn, [_forged_approval("fran")]) == []
    # and the approval left no session behind (only sign-in does)
    assert fran_sessions() == sessions
    report = verify_database(station.db)
    assert report.ok, report.summary()


def test_an_approval_ticket_is_one_time_and_runs_out(station: Station) -> None:
    """Through the store: a right floor PIN for an approval gives one ticket; the app's own
    second entry on it is refused; a ticket older than 120 s (by the server's clock) is not
    taken; a right PIN of a dealer gives none."""
    import psycopg

    from dealer_assist.services.base import LOCKOUT, MAX_FAILED_PINS
    from dealer_assist.services.errors import StoreUnavailable

    refused = "refused this .audit_log: an approval by {} needs their PIN tried"

    svc = station.svc
    from dealer_assist.services.model import ApprovalSubject

    def ticket(name: str, pin: str) -> str:
        return svc.store.try_pin(name, pin, FAST, now=svc.clock(), limit=MAX_FAILED_PINS,
                                 lockout=LOCKOUT, action="approval",
                                 subject=ApprovalSubject("misdeal of hand 2", 1)).outcome

    assert ticket("fran", "2222") == "right"
    svc._audit("fran", "approval", "misdeal of hand 2", table_id=1)
    with pytest.raises(StoreUnavailable, match=refused.format("fran")):
        svc._audit("fran", "approval", "misdeal of hand 2", table_id=1)
    assert ticket("fran", "2222") == "right"
    with psycopg.connect(station.dsn.replace("st_t1@", "postgres@"), autocommit=True) as conn:
        conn.execute("UPDATE approval_tickets SET issued_at = issued_at - interval "
                     "'121 seconds' WHERE used_at IS NULL")
    with pytest.raises(StoreUnavailable, match=refused.format("fran")):
        svc._audit("fran", "approval", "misdeal of hand 2", table_id=1)
    assert ticket("dee", "1111") == "right"
    with pytest.raises(StoreUnavailable, match=refused.format("dee")):
        svc._audit("dee", "approval", "misdeal of hand 2", table_id=1)
    report = verify_database(station.db)
    assert report.ok, report.summary()


def _ticket(svc: Services, name: str, pin: str, subject: object) -> str:
    from dealer_assist.services.base import LOCKOUT, MAX_FAILED_PINS

    return svc.store.try_pin(name, pin, FAST, now=svc.clock(), limit=MAX_FAILED_PINS,
                             lockout=LOCKOUT, action="approval", subject=subject).outcome


def test_regression_an_approval_ticket_is_bound_to_its_subject(station: Station) -> None:
    """Insider review: the floor approved a misdeal on hand 12, and the station spent that
    ticket on an approval of a void on hand 40. Since schema 0010 the ticket holds the subject
    it was asked for (detail, table, hand), and the trigger takes only the approval entry with
    exactly that subject, once. (On schema 0009 the second entry below was taken.)"""
    from dealer_assist.services.errors import StoreUnavailable
    from dealer_assist.services.model import ApprovalSubject

    svc = station.svc
    refused = r"refused this .audit_log: an approval by fran needs their PIN tried"
    misdeal = ApprovalSubject("misdeal of hand 12", table_id=1, hand_id=None)
    # asked for the misdeal: a void on another hand, the same words on another table, or
    # another amount are each refused, and leave the ticket unspent
    assert _ticket(svc, "fran", "2222", misdeal) == "right"
    for detail, table_id in (("void of event 3 in hand 40", 1), ("misdeal of hand 12", 2),
                             ("misdeal of hand 12; adjustments $400.00", 1)):
        with pytest.raises(StoreUnavailable, match=refused):
            svc._audit("fran", "approval", detail, table_id=table_id)
    assert _refused(station.dsn, [_forged_approval("fran")]) == []
    # the approval it was asked for is taken, once
    before = _approvals(station)
    svc._audit("fran", "approval", "misdeal of hand 12", table_id=1)
    assert _approvals(station) == [*before, ("fran", "misdeal of hand 12")]
    with pytest.raises(StoreUnavailable, match=refused):
        svc._audit("fran", "approval", "misdeal of hand 12", table_id=1)
    # through the app: the approval names what it approves, and gets a ticket for just that
    from dealer_assist.services.app import Approval

    assert svc.approve(Approval("fran", "2222"), what="void of event 7 in hand 12",
                       table_id=1).name == "fran"
    assert _approvals(station)[-1] == ("fran", "void of event 7 in hand 12")
    report = verify_database(station.db)
    assert report.ok, report.summary()


def test_regression_station_role_cannot_rename_the_cardroom(station: Station) -> None:
    """Insider review: the station's role could rewrite ``settings_kv`` and append a matching
    ``record-cardroom``, changing the name printed on every signed report with ``verify``
    intact. Since schema 0010 the name is written only by the owner's ``da_cardroom_name``
    with an active admin's session; a ``record-cardroom`` must be the name as stored."""
    from dealer_assist.services.errors import NotAllowed as Refused

    svc = station.svc
    admin = svc.sign_in("admin", "9999")
    svc.set_cardroom_name(admin, "Riverside Cardroom")  # the admin names it at a station
    fran = svc.sign_in("fran", "2222")
    assert _refused(station.dsn, [
        "UPDATE settings_kv SET value = 'Forged Room' WHERE key = 'cardroom'",
        "INSERT INTO settings_kv (key, value) VALUES ('cardroom2', 'Forged Room')",
        "DELETE FROM settings_kv",
        _forged_audit("record-cardroom", '{"name":"Forged Room"}'),
        "SELECT da_cardroom_name('guessed', 'Forged Room')",
        f"SELECT da_cardroom_name('{fran.token}', 'Forged Room')",
    ]) == []
    with pytest.raises(Refused, match="only admin can name the cardroom"):
        svc.set_cardroom_name(fran, "Forged Room")
    assert svc.cardroom_name() == "Riverside Cardroom"
    svc.set_cardroom_name(admin, "Harbor Card Room")
    assert svc.cardroom_name() == "Harbor Card Room"
    # a station set up with another name leaves a named room's name alone
    assert not svc.name_new_cardroom("Forged Room", unnamed="Cardroom", station="pc-9")
    assert svc.cardroom_name() == "Harbor Card Room"
    report = verify_database(station.db)
    assert report.ok, report.summary()


# --- approved changes (schema 0016): the station is the attacker -----------------------------

GUTS = {"game": "guts", "seats": [1, 2, 3], "smallest_chip": 100, "buy_in": 10000,
        "params": {"ante": 100, "max": 2000}}


@dataclass
class GutsRoom:
    station: Station
    table: int
    dealer: Any
    floor: Any


@pytest.fixture(scope="module")
def guts(pg_cluster: PgCluster, pg_template: str) -> Iterator[GutsRoom]:
    """A room of its own with a Guts table dealt by ``gus`` under ``fran`` (a second floor
    person, ``flo``), run by the station login ``st_appr``: one hand is settled, and its $3 pot
    carries into the next."""
    tables: list[Table] = []

    def people_and_table(_owner: Database, made: Room) -> None:
        made.svc.add_user(made.admin, name="flo", full_name="Flo Floor", role="floor",
                          pin="5555")
        made.svc.add_user(made.admin, name="gus", full_name="Gus Guts", role="dealer",
                          pin="4444")
        tables.append(made.svc.add_table(made.admin, dict(GUTS), name="Guts"))

    station_url, room = station_room(pg_cluster, pg_template, "approved_changes",
                                     login="st_appr", prepare=people_and_table)
    (table,) = tables
    db = open_database(station_url)
    svc = Services(SqlStore(db), clock=room.clock, hasher=FAST)
    gus = svc.sign_in("gus", "4444")
    svc.open_shift(gus, table.id, floor="fran")
    now = svc.start_hand(gus, table.id)
    for kind, seat, cards in (("in", 1, ""), ("in", 2, ""), ("out", 3, ""),
                              ("show", 1, "Ah Ad"), ("show", 2, "Kh Qd")):
        now = _act(svc, gus, now, kind, seat, cards)
    svc.settle(gus, now.hand.id)
    yield GutsRoom(Station(station_url.replace("st_appr@", "postgres@"), station_url,
                           station_url.replace("postgresql+psycopg://", "postgresql://"), db, svc),
                   table.id, gus, svc.sign_in("fran", "2222"))
    db.close()


def _act(svc: Services, who: Any, now: Any, kind: str, seat: int, cards: str = "") -> Any:
    from dealer_assist.cards import parse_cards
    from dealer_assist.engine.build import build_event

    action = next(a for a in now.prompt().actions if a.kind == kind and a.seat == seat)
    given = {"cards": parse_cards(cards)} if cards else None
    return svc.record(who, now.hand.id, build_event(action, given, vocab=now.game.events))


@contextlib.contextmanager
def _no_pin(svc: Services, entry: int = 0) -> Iterator[None]:
    """``Services.approve`` replaced by a function that checks no PIN and writes nothing: it
    says the floor person named approved, with the approval entry ``entry``."""
    from dealer_assist.services.model import Approver

    def approve(approval: Any, **_: Any) -> Approver:
        return Approver(id=2, name=approval.name, full_name="Fran Floor", role="floor",
                        entry=entry)

    real = svc.approve
    svc.approve = approve  # type: ignore[method-assign]
    try:
        yield
    finally:
        svc.approve = real  # type: ignore[method-assign]


REFUSED = r"needs a floor person's approval|needs a second floor person's approval"


def _settled(g: GutsRoom) -> Any:
    hands = g.station.svc.list_hands()
    return next(h for h in hands if h.table_id == g.table and h.status == "settled")


def test_regression_station_cannot_void_misdeal_or_reopen_a_settled_hand_without_approval(
    guts: GutsRoom,
) -> None:
    """Issue 40 item 1: with ``approve`` a no-op the station voided the winning show of a
    settled Guts hand and resettled it, and called a misdeal, "approved by fran", with no
    approval entry, and verify said intact. Now the database refuses each (a void in a settled
    hand, a misdeal, reopening a settled hand carry their approval, spent there), and the app's
    own path with the floor's PIN still works."""
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.services.app import Approval

    svc, gus = guts.station.svc, guts.dealer
    hand = _settled(guts)
    before = len(svc.hand_events(hand.id))
    with _no_pin(svc), pytest.raises(DealerAssistError, match=REFUSED):
        svc.void(gus, hand.id, 5, "wrong hand read", approval=Approval("fran", "0000"))
    with _no_pin(svc), pytest.raises(DealerAssistError, match=REFUSED):
        svc.misdeal(gus, hand.id, "exposed card", approval=Approval("fran", "0000"))
    svc._live.clear()
    head = svc.store.chain_head(guts.table)
    assert head is not None
    assert _refused(guts.station.dsn, [
        f"UPDATE hands SET status = 'open' WHERE id = {hand.id}",
        "INSERT INTO events (table_id, seq, hand_id, number, time, actor, type, body, "
        f"prev_hash, hash) VALUES ({guts.table}, {head.seq + 1}, {hand.id}, {before + 1}, "
        "now(), 'gus', 'misdeal', '{\"reason\":\"x\",\"type\":\"misdeal\"}', "
        f"'{head.hash}', repeat('1', 64))",
        "INSERT INTO events (table_id, seq, hand_id, number, time, actor, type, body, "
        f"prev_hash, hash, approval_id) VALUES ({guts.table}, {head.seq + 1}, {hand.id}, "
        f"{before + 1}, now(), 'gus', 'void', '{{\"reason\":\"x\",\"target\":5,"
        f"\"type\":\"void\"}}', '{head.hash}', repeat('1', 64), 1)",
    ]) == []
    assert len(svc.hand_events(hand.id)) == before and svc.hand(hand.id).status == "settled"
    # an approval for one thing is not spent on another: fran's PIN for a void of event 4
    real = svc.approve(Approval("fran", "2222"), what="void of event 4 in hand 1",
                       table_id=guts.table, hand_id=hand.id)
    with _no_pin(svc, entry=real.entry), pytest.raises(DealerAssistError, match=REFUSED):
        svc.void(gus, hand.id, 5, "wrong hand read", approval=Approval("fran", "0000"))
    svc._live.clear()
    assert verify_database(guts.station.db).ok
    # the floor's PIN, as the dialogs ask it: voided, reopened, shown again and resettled
    now = svc.void(gus, hand.id, 5, "wrong hand read", approval=Approval("fran", "2222"))
    assert svc.hand(hand.id).status == "open"
    now = _act(svc, gus, now, "show", 1, "2h 3d")
    svc.settle(gus, hand.id)
    void = svc.hand_events(hand.id)[-2]
    assert void.body["type"] == "void"
    report = verify_database(guts.station.db)
    assert report.ok, report.summary()


def test_regression_station_cannot_pay_the_house_to_a_seat_without_a_second_floor_person(
    guts: GutsRoom,
) -> None:
    """Issue 40 item 1: dispute adjustments paying $5,000 from the house to a seat were taken
    with ``approve`` a no-op. Now a dispute's adjustments need the second floor person's
    approval of exactly those amounts, checked by the database at commit."""
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.services.app import Approval
    from dealer_assist.services.model import Adjustment

    svc, fran = guts.station.svc, guts.floor
    hand = _settled(guts)
    pay = (Adjustment(amount=500000, seat=1), Adjustment(amount=-500000, seat=None))
    with _no_pin(svc), pytest.raises(DealerAssistError, match=REFUSED):
        svc.record_dispute(fran, hand.id, notes="n", ruling="r", adjustments=pay,
                           approval=Approval("flo", "0000"))
    assert _refused(guts.station.dsn, [
        "WITH d AS (INSERT INTO disputes (hand_id, notes, ruling, floor, at) VALUES "
        f"({hand.id}, 'n', 'r', 'fran', now()) RETURNING id) INSERT INTO dispute_adjustments "
        "(dispute_id, seat, amount, note) SELECT id, 1, 500000, '' FROM d",
    ]) == []
    # flo approves $4 to seat 1: that approval does not carry $5,000
    small = (Adjustment(amount=400, seat=1), Adjustment(amount=-400, seat=None))
    real = svc.approve(Approval("flo", "5555"),
                       what="adjustments in hand 1: seat 1 +$4, house -$4",
                       table_id=guts.table, hand_id=hand.id, session=fran)
    with _no_pin(svc, entry=real.entry), pytest.raises(DealerAssistError, match=REFUSED):
        svc.record_dispute(fran, hand.id, notes="n", ruling="r", adjustments=pay,
                           approval=Approval("flo", "0000"))
    assert svc.disputes(hand.id) == []
    done = svc.record_dispute(fran, hand.id, notes="n", ruling="r", adjustments=small,
                              approval=Approval("flo", "5555"))
    assert done.adjustments == small
    report = verify_database(guts.station.db)
    assert report.ok, report.summary()


def test_regression_station_cannot_configure_as_a_dealer_or_without_signing_in(
    guts: GutsRoom,
) -> None:
    """Issue 40 item 1: a hand-built ``Session`` (no sign-in) created a settings version with
    no fee and added a table. Now tables and settings versions are written only by the
    owner's ``da_table_add`` and ``da_settings_add``, with a floor person's or admin's
    session."""
    from dealer_assist.services.model import Session, User

    svc = guts.station.svc
    forged = Session(user=User(id=99, name="fran", full_name="Fran Floor", role="floor"),
                     signed_in_at=datetime(2026, 11, 28, tzinfo=UTC))
    dealer_as_floor = Session(user=User(id=3, name="gus", full_name="Gus", role="floor"),
                              signed_in_at=datetime(2026, 11, 28, tzinfo=UTC),
                              token=guts.dealer.token)
    no_fee = {**GUTS, "fee": None}
    for who in (forged, dealer_as_floor):
        with pytest.raises(NotAllowed):
            svc.change_settings(who, guts.table, no_fee)
        with pytest.raises(NotAllowed):
            svc.add_table(who, dict(GUTS), name="Forged")
    assert _refused(guts.station.dsn, [
        "INSERT INTO card_tables (name, created_at) VALUES ('Forged', now())",
        "INSERT INTO table_settings (table_id, version, game, document, created_at, created_by) "
        f"VALUES ({guts.table}, 99, 'guts', '{{}}', now(), 'fran')",
        f"SELECT da_table_add('{guts.dealer.token}', 'Forged', now()::timestamp)",
    ]) == []
    assert [t.name for t in svc.list_tables()] == ["T1", "Guts"]
    fran = svc.sign_in("fran", "2222")
    assert svc.change_settings(fran, guts.table, dict(GUTS)).created_by == "fran"
    report = verify_database(guts.station.db)
    assert report.ok, report.summary()


def test_regression_station_cannot_start_a_pot_from_nothing_or_cut_stacks(
    guts: GutsRoom,
) -> None:
    """Issue 40 item 3 and issue 45 item 11: a dealer started the next Guts hand with
    ``carry_in=5_000_000`` (the real carry $3 here) or cut a seat's stack while the pot
    carries. The app asks for the floor's approval; with ``approve`` a no-op the database
    refuses the start; with the floor's PIN it is taken, the approval saying what changed."""
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.services.app import Approval
    from dealer_assist.services.errors import ApprovalRequired

    svc, gus = guts.station.svc, guts.dealer
    with pytest.raises(ApprovalRequired, match=r"carry-in \$50,000 \(\$3 carried"):
        svc.start_hand(gus, guts.table, carry_in=5_000_000)
    with pytest.raises(ApprovalRequired, match=r"seat 1 \$10 \(\$\d+ kept"):
        svc.start_hand(gus, guts.table, stacks={1: 1000})
    for change in ({"carry_in": 5_000_000}, {"stacks": {1: 1000}}):
        with _no_pin(svc), pytest.raises(DealerAssistError, match=r"needs a floor person's"):
            svc.start_hand(gus, guts.table, approval=Approval("fran", "0000"),
                           **change)  # type: ignore[arg-type]
    assert svc.current_hand(guts.table) is None
    # a rebuy (more chips) is the dealer's, recorded; a cut is the floor's, with its PIN
    now = svc.start_hand(gus, guts.table, stacks={1: 1000, 3: 20000},
                         approval=Approval("fran", "2222"))
    assert now.replay.start.params["stacks"]["1"] == 1000
    approval = svc.store.audit_log(action="approval")[-1]
    assert approval.actor == "fran" and approval.detail.startswith("start at Guts after hand")
    assert re.search(r"seat 1 \$10 \(\$\d+ kept from the last hand\)", approval.detail)
    assert "seat 3" not in approval.detail
    stacks = svc.store.audit_log(action="stacks")[-1].detail
    assert "seat 3 $200" in stacks and stacks.endswith("approved by fran")
    report = verify_database(guts.station.db)
    assert report.ok, report.summary()


def test_regression_station_cannot_close_a_shift_without_its_floor(guts: GutsRoom) -> None:
    """Issue 40 item 1: a shift closed with ``approve`` a no-op. Now the close carries the
    floor person's approval of that close, checked by the database; a raw close is refused."""
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.services.app import Approval

    svc, gus = guts.station.svc, guts.dealer
    now = svc.current_hand(guts.table)
    while now is not None and not now.over:  # everyone out: the hand ends, the pot carries
        seat = next(a.seat for a in now.prompt().actions if a.kind == "out")
        now = _act(svc, gus, now, "out", seat)
    if now is not None:
        svc.settle(gus, now.hand.id)
    shift = svc.store.current_shift(guts.table)
    assert shift is not None
    with _no_pin(svc), pytest.raises(DealerAssistError, match=REFUSED):
        svc.close_shift(gus, shift.id, approval=Approval("fran", "0000"))
    assert _refused(guts.station.dsn, [
        "UPDATE shifts SET closed_at = now(), closed_by = 'gus', closed_floor = 'fran' "
        f"WHERE id = {shift.id}",
    ]) == []
    assert svc.store.current_shift(guts.table) is not None
    closed = svc.close_shift(gus, shift.id, approval=Approval("fran", "2222"))
    assert closed.closed_floor == "fran"
    report = verify_database(guts.station.db)
    assert report.ok, report.summary()


@pytest.mark.parametrize("cents", [0, 5, 100, 9050, -600, 5_000_000, 123_456_789_01, -1])
def test_the_databases_money_words_are_the_services(guts: GutsRoom, cents: int) -> None:
    """The database builds the subjects it holds approvals to (schema 0016) with the words the
    services write: its ``da_money`` is :func:`format_cents`."""
    import psycopg

    from dealer_assist.money import format_cents

    with psycopg.connect(guts.station.dsn) as conn:
        row = conn.execute("SELECT da_money(%s)", (cents,)).fetchone()
    assert row is not None and row[0] == format_cents(cents)


def test_regression_station_cannot_record_a_floor_decision_without_its_approval(
    guts: GutsRoom,
) -> None:
    """Issue 40 item 1, floor decisions (the test game's ruling): with ``approve`` a no-op the
    station wrote the ruling "decided by fran". Now ``game_rules`` (filled by ``db upgrade
    --station-role`` from the games installed) names the game's floor decisions and the
    database refuses one without the floor's approval of it."""
    from anygame.play import SETTINGS, move

    from dealer_assist.cards import parse_cards
    from dealer_assist.engine.build import build_event
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.services.app import Approval

    assert main(["--db", guts.station.owner_url, "db", "upgrade", "--station-role",
                 "st_group"]) == 0
    svc = guts.station.svc
    admin = svc.sign_in("admin", "9999")
    svc.add_user(admin, name="tia", full_name="Tia Tally", role="dealer", pin="6666")
    table = svc.add_table(admin, {**SETTINGS, "name": "Tally"}).id
    tia = svc.sign_in("tia", "6666")
    svc.open_shift(tia, table, floor="fran")
    now = svc.start_hand(tia, table)
    now = move(svc, tia, now, "call", {"cards": parse_cards("Qs Qs Qh"),
                                       "combination": "trips"})
    event = build_event(now.prompt().actions[0], {"decision": "void", "reason": "seen"},
                        vocab=now.game.events)
    with _no_pin(svc), pytest.raises(DealerAssistError, match=REFUSED):
        svc.record(tia, now.hand.id, event, approval=Approval("fran", "0000"))
    svc._live.clear()
    now = svc.record(tia, now.hand.id, event, approval=Approval("fran", "2222"))
    assert now.replay.steps[-1].event.TYPE == "ruling"
    report = verify_database(guts.station.db)
    assert report.ok, report.summary()


@contextlib.contextmanager
def _holding(dsn: str, sql: str) -> Iterator[Any]:
    """A station's own login left inside ``BEGIN; <sql>``: the lock held, the session idle
    (with the idle timeout its role was given switched off for the session)."""
    import psycopg

    conn = psycopg.connect(dsn)
    try:
        # a hostile login first switches off the server's idle timeout for itself
        conn.execute("SET idle_in_transaction_session_timeout = 0")
        conn.execute(sql)
        yield conn
    finally:
        with contextlib.suppress(psycopg.Error):
            conn.close()


def _ended(conn: Any) -> bool:
    """The server ended the session (its next statement finds the connection gone)."""
    import psycopg

    try:
        conn.execute("SELECT 1")
    except psycopg.OperationalError:
        return True
    return False


@pytest.fixture
def quick_station(station: Station, monkeypatch: pytest.MonkeyPatch) -> Iterator[Services]:
    """Another station at the same room, as the same login, waiting 1.5 s for a lock."""
    from dealer_assist.db import bootstrap

    monkeypatch.setattr(bootstrap, "LOCK_TIMEOUT_S", 1.5)
    db = open_database(station.url)
    yield Services(SqlStore(db), clock=station.svc.clock, hasher=FAST)
    db.close()


@pytest.mark.parametrize("held", [
    "SELECT id FROM card_tables FOR UPDATE",
    "SELECT id FROM audit_head FOR UPDATE",
    "SELECT id FROM hands FOR UPDATE",
    "SELECT id FROM shifts FOR UPDATE",
], ids=["card_tables", "audit_head", "hands", "shifts"])
def test_regression_one_station_left_holding_rows_does_not_freeze_the_room(
    station: Station, quick_station: Services, held: str,
) -> None:
    """Issue 40.4: a station's login left in ``BEGIN; SELECT id FROM card_tables FOR UPDATE``
    stopped hands starting at every table (5 s timeouts) for as long as it held it; on
    ``audit_head`` every sign-in and approval, on ``hands`` every input. Now the waiting
    station asks the database (``da_free_held_locks``, schema 0012) to end the session that
    sits idle holding what it waits for, and its write goes in."""
    from services.support import settings

    from dealer_assist.cards import parse_card
    from dealer_assist.events import CardDealt

    svc = quick_station
    admin = svc.sign_in("admin", "9999")
    what = held.split()[3]
    name = f"Held {what}"
    for who in ("a", "b"):  # two dealers of their own (a dealer deals at one table)
        svc.add_user(admin, name=f"{what}{who}", full_name=f"Dealer {who.upper()}",
                     role="dealer", pin="5151")
    table = svc.add_table(admin, settings(), name=name)
    dealer = svc.sign_in(f"{what}a", "5151")
    svc.open_shift(dealer, table.id, floor="fran")
    other = svc.add_table(admin, settings(), name=name + " 2")
    floor = svc.sign_in(f"{what}b", "5151")
    svc.open_shift(floor, other.id, floor="fran")
    first = svc.start_hand(dealer, table.id)
    with _holding(station.dsn, held) as holder:
        if "audit_head" in held:
            assert svc.sign_in("dee", "1111").name == "dee"  # a sign-in writes its entry
        elif "hands" in held:
            now = svc.record(dealer, first.hand.id, CardDealt(seat=1, card=parse_card("As")))
            assert now.last.number == 2
        else:  # a hand starts at another table, and takes its inputs
            started = svc.start_hand(floor, other.id)
            assert started.hand.number == 1
            now = svc.record(floor, started.hand.id, CardDealt(seat=1, card=parse_card("Kd")))
            assert now.last.number == 2
        assert _ended(holder)
    report = verify_database(station.db)
    assert report.ok, report.summary()


def test_regression_a_station_session_idle_in_a_transaction_is_ended_by_the_server(
    station: Station,
) -> None:
    """``db upgrade --station-role`` gives every station login of the role (and the role)
    ``idle_in_transaction_session_timeout``, whatever program the station runs."""
    import psycopg

    from dealer_assist.db.bootstrap import IDLE_IN_TRANSACTION_S

    with psycopg.connect(station.dsn) as conn:  # a plain login, none of the app's options
        row = conn.execute("SHOW idle_in_transaction_session_timeout").fetchone()
    assert row is not None and row[0] == f"{IDLE_IN_TRANSACTION_S}s"
    with station.db.engine.connect() as conn:  # and every connection the app makes
        shown = conn.exec_driver_sql("SHOW idle_in_transaction_session_timeout").scalar()
    assert shown == f"{IDLE_IN_TRANSACTION_S}s"


def test_an_owner_or_a_busy_session_is_not_ended_for_holding_a_lock(
    station: Station, quick_station: Services,
) -> None:
    """Only an idle holder is ended: the owner's session holding a row keeps it (the station
    gets the busy message), and a session that holds nothing anybody waits for is left alone."""
    import psycopg

    from dealer_assist.services.errors import StoreUnavailable

    owner_dsn = station.dsn.replace("st_t1@", "postgres@")
    with _holding(station.dsn, "SELECT 1") as idle, \
            _holding(owner_dsn, "SELECT id FROM audit_head FOR UPDATE") as owner:
        with pytest.raises(StoreUnavailable, match="is busy"):
            quick_station.sign_in("dee", "1111")
        assert not _ended(owner) and not _ended(idle)
        owner.rollback()
    assert quick_station.sign_in("dee", "1111").name == "dee"
    with contextlib.suppress(psycopg.Error):
        idle.rollback()


def test_regression_public_rights_a_station_never_uses_are_taken(station: Station) -> None:
    """Issue 40.10: ``lo_create`` (and the other defaults every role has) was open to a
    station's login. Large objects, session-long advisory locks (no timeout ends them),
    ending another session of the same login, temporary tables and objects in ``public`` are
    refused; the transaction-long advisory lock imports take stays."""
    import psycopg

    with psycopg.connect(station.dsn, autocommit=True) as other:
        pid = other.info.backend_pid
        assert _refused(station.dsn, [
            "SELECT lo_create(0)",
            "SELECT lo_creat(-1)",
            "SELECT lo_from_bytea(0, 'x'::bytea)",
            "SELECT lo_import('/etc/hostname')",
            "SELECT pg_advisory_lock(hashtext('dealer-assist-import'))",
            "SELECT pg_try_advisory_lock_shared(1)",
            f"SELECT pg_terminate_backend({pid})",
            f"SELECT pg_cancel_backend({pid})",
            "CREATE TEMP TABLE scratch (a int)",
            "CREATE TABLE public.scratch (a int)",
            "CREATE FUNCTION public.now() RETURNS int LANGUAGE sql AS 'SELECT 1'",
        ]) == []
        assert other.execute("SELECT 1").fetchone() == (1,)  # the other session lives on
    assert _refused(station.dsn, [
        "SELECT pg_advisory_xact_lock(hashtext('dealer-assist-import'))"]) != []


def test_a_row_inserted_under_a_table_does_not_hold_its_chain(
    station: Station, quick_station: Services,
) -> None:
    """A station's open transaction that added a row naming a table (a shift, an event) holds
    the table's row for its key only: the app locks a chain head with ``FOR NO KEY UPDATE``,
    which that does not block, so the table records on and nobody's session is ended."""
    from services.support import settings

    from dealer_assist.cards import parse_card
    from dealer_assist.events import CardDealt

    svc = quick_station
    admin = svc.sign_in("admin", "9999")
    svc.add_user(admin, name="keyshare", full_name="Kay Share", role="dealer", pin="5151")
    table = svc.add_table(admin, settings(), name="Key share")
    dealer = svc.sign_in("keyshare", "5151")
    svc.open_shift(dealer, table.id, floor="fran")
    with _holding(station.dsn, "INSERT INTO shifts (table_id, dealer, floor, opened_at) "
                  f"VALUES ({table.id}, 'x', 'x', now())") as holder:
        hand = svc.start_hand(dealer, table.id)
        now = svc.record(dealer, hand.hand.id, CardDealt(seat=1, card=parse_card("As")))
        assert now.last.number == 2
        assert not _ended(holder)
        holder.rollback()


def test_an_owner_who_is_not_a_superuser_is_told_what_to_run_as_one(
    pg_cluster: PgCluster, capsys: pytest.CaptureFixture[str],
) -> None:
    """Taking a right from PUBLIC on the server's own functions (``lo_create``), or setting a
    login's timeout, needs more than the tables' owner has: ``db upgrade --station-role``
    still gives the grants, and names each statement to run as a superuser."""
    import psycopg

    admin = f"host=127.0.0.1 port={pg_cluster.port} user=postgres dbname=postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("DROP DATABASE IF EXISTS owned_room")
        conn.execute("DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = "
                     "'room_owner') THEN CREATE ROLE room_owner LOGIN; CREATE ROLE st_group2 "
                     "NOLOGIN; CREATE ROLE st_t2 LOGIN IN ROLE st_group2; END IF; END $$")
        conn.execute("CREATE DATABASE owned_room OWNER room_owner")
    url = pg_cluster.url("owned_room").replace("postgres@", "room_owner@")
    owner = open_database(url)
    make_room(SqlStore(owner))
    owner.close()
    capsys.readouterr()
    assert main(["--db", url, "db", "upgrade", "--station-role", "st_group2"]) == 0
    said = capsys.readouterr()
    assert "the role st_group2 may now select and insert" in said.out
    assert "warning: the owner may not take these from st_group2" in said.err
    assert "REVOKE EXECUTE ON FUNCTION lo_create(oid) FROM PUBLIC;" in said.err
    assert ('ALTER ROLE "st_t2" IN DATABASE "owned_room" SET '
            "idle_in_transaction_session_timeout = '30s';") in said.err
    assert "REVOKE TEMPORARY" not in said.err  # the database's owner takes that itself


def test_a_station_holding_the_imports_turn_does_not_stop_an_import(
    station: Station, quick_station: Services,
) -> None:
    """Imports take turns on a transaction-long advisory lock (the session-long one is taken
    from PUBLIC): a login left idle holding the turn is ended by the station that waits."""
    from services.support import settings

    from dealer_assist.cards import parse_card
    from dealer_assist.events import CardDealt

    svc = quick_station
    admin = svc.sign_in("admin", "9999")
    svc.add_user(admin, name="importer", full_name="Ima Porter", role="dealer", pin="5151")
    table = svc.add_table(admin, settings(), name="Imports")
    dealer = svc.sign_in("importer", "5151")
    svc.open_shift(dealer, table.id, floor="fran")
    now = svc.start_hand(dealer, table.id)
    for seat, card in ((1, "Ad"), (2, "Kd"), (3, "Qd")):
        now = svc.record(dealer, now.hand.id, CardDealt(seat=seat, card=parse_card(card)))
    svc.settle(dealer, now.hand.id)
    lines = svc.export_hand(admin, now.hand.id).splitlines()
    with _holding(station.dsn, "SELECT pg_advisory_xact_lock(hashtext('dealer-assist-import'))"
                  ) as holder:
        hand = svc.import_hand(admin, table.id, lines)
        assert hand.imported and hand.number == 2
        assert _ended(holder)
    report = verify_database(station.db)
    assert report.ok, report.summary()


def test_regression_station_cannot_void_in_a_hand_over_but_not_settled_without_approval(
    guts: GutsRoom,
) -> None:
    """Issue 40 item 1's remainder: a void in a hand that is over but not yet settled needs the
    floor (the app asks), but the database checked it only when an approval was attached: the
    station's own code with the approval left off (entry None) voided the winning show of an
    over hand. Now the event that ends a hand carries its mark (schema 0018) and the database
    refuses a void after it without the floor's approval; the floor's PIN still works."""
    from dealer_assist.errors import DealerAssistError
    from dealer_assist.services.app import Approval

    svc = guts.station.svc
    admin = svc.sign_in("admin", "9999")
    svc.add_user(admin, name="oz", full_name="Oz Over", role="dealer", pin="7777")
    table = svc.add_table(admin, dict(GUTS), name="Guts-over").id
    oz = svc.sign_in("oz", "7777")
    svc.open_shift(oz, table, floor="fran")
    now = svc.start_hand(oz, table)
    for kind, seat, cards in (("in", 1, ""), ("in", 2, ""), ("out", 3, ""),
                              ("show", 1, "Ah Ad"), ("show", 2, "Kh Qd")):
        now = _act(svc, oz, now, kind, seat, cards)
    assert now.over and svc.hand(now.hand.id).status == "open"
    assert _marks(guts, now.hand.id)[-2:] == [None, "{}"]  # (Guts carries only its pot)
    with _no_pin(svc, entry=None), pytest.raises(  # type: ignore[arg-type]
            DealerAssistError, match=r"a void in a finished hand needs a floor person's "
            r"approval of it \(their PIN tried in the database for \"void of event 5 in hand "
            r"1\".*approval entry none does not approve it"):
        svc.void(oz, now.hand.id, 5, "wrong hand read", approval=Approval("fran", "0000"))
    svc._live.clear()
    head = svc.store.chain_head(table)
    assert head is not None
    assert _refused(guts.station.dsn, [
        "INSERT INTO events (table_id, seq, hand_id, number, time, actor, type, body, "
        f"prev_hash, hash) VALUES ({table}, {head.seq + 1}, {now.hand.id}, 7, now(), 'oz', "
        "'void', '{\"reason\":\"x\",\"target\":5,\"type\":\"void\"}', "
        f"'{head.hash}', repeat('1', 64))",
    ]) == []
    assert len(svc.hand_events(now.hand.id)) == 6
    # the floor's PIN: voided, shown again, settled; and verify finds it all in order
    again = svc.void(oz, now.hand.id, 5, "wrong hand read", approval=Approval("fran", "2222"))
    assert _marks(guts, now.hand.id)[-1] is None  # the hand goes on after the void
    again = _act(svc, oz, again, "show", 1, "2h 3d")
    svc.settle(oz, now.hand.id)
    report = verify_database(guts.station.db)
    assert report.ok, report.summary()


def test_regression_station_cannot_drop_a_running_total_as_a_new_game_without_approval(
    guts: GutsRoom,
) -> None:
    """Issue 40 item 1's remainder: a "new game" drops what the game carries (a running total),
    which the app lets only a floor person approve, but the database checked the start only
    when an approval was attached: with the approval left off (entry None) the station started
    a Tally hand without the totals. Now the hand that ends says what it carries (its mark,
    schema 0018): the next hand at the same seats takes it over exactly, or is a new game the
    floor approved; a raw start with the total changed is refused too."""
    from anygame.play import play_rolls, tally_table

    from dealer_assist.errors import DealerAssistError
    from dealer_assist.services.app import Approval

    svc = guts.station.svc
    admin = svc.sign_in("admin", "9999")
    table, tess = tally_table(svc, admin, name="Tally-NG")
    first = play_rolls(svc, tess, table, [[6], [5], [4], [3]])
    assert _marks(guts, first.hand.id)[-1] == '{"totals_in":{"1":6,"2":5,"3":4,"4":3}}'
    with _no_pin(svc, entry=None), pytest.raises(  # type: ignore[arg-type]
            DealerAssistError, match=r"a hand start that changes what the last hand left \(new "
            r"game: totals_in not taken over from hand 1\) needs a floor person's approval "
            r"saying so: approval entry none does not"):
        svc.start_hand(tess, table, new_game=True, approval=Approval("fran", "0000"))
    svc._live.clear()
    assert svc.current_hand(table) is None
    # the app's own start carries the totals over, taken without any approval
    second = svc.start_hand(tess, table)
    assert second.replay.start.params["totals_in"] == {"1": 6, "2": 5, "3": 4, "4": 3}
    for _ in range(4):
        second = _tally_stop(svc, tess, second, 1)
    svc.settle(tess, second.hand.id)
    # a new game with the floor's PIN: the approval says "new game", the totals start again
    third = svc.start_hand(tess, table, new_game=True, approval=Approval("fran", "2222"))
    assert "totals_in" not in third.replay.start.params
    approval = svc.store.audit_log(action="approval")[-1]
    assert approval.actor == "fran" and "new game: totals_in not carried" in approval.detail
    report = verify_database(guts.station.db)
    assert report.ok, report.summary()


def _marks(g: GutsRoom, hand_id: int) -> list[str | None]:
    """The hand's events' marks (``events.over_mark``), in order."""
    with g.station.db.engine.connect() as conn:
        return [r[0] for r in conn.exec_driver_sql(
            "SELECT over_mark FROM events WHERE hand_id = %s ORDER BY number", (hand_id,))]


def _tally_stop(svc: Services, who: Any, now: Any, value: int) -> Any:
    from anygame.play import move

    now = move(svc, who, now, "roll", {"value": value})
    now = move(svc, who, now, "stop")
    prompt = now.prompt()
    if prompt.phase == "choice":
        from dealer_assist.engine.build import build_event

        action = next(a for a in prompt.actions if a.label == "Go on")
        now = svc.record(who, now.hand.id, build_event(action, vocab=now.game.events))
    return now

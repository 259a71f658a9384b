"""Users in the database: rows, the sign-in state (failed PINs, lockout) and role changes.

PINs arrive already hashed (argon2id, by the services); this module never sees a PIN.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.sql.elements import ColumnElement

from dealer_assist.db.models import PinTryRow, Setting, UserRow
from dealer_assist.db.store.audit import append_audit
from dealer_assist.db.store.base import StoreBase
from dealer_assist.errors import BadInput
from dealer_assist.services.auth import argon2_with
from dealer_assist.services.chain import utc
from dealer_assist.services.errors import NotAllowed
from dealer_assist.services.model import (
    DEFAULT_CARDROOM,
    ApprovalSubject,
    PinResult,
    PinTry,
    User,
    UserSecret,
)
from dealer_assist.services.pins import counted_try
from dealer_assist.services.ports import PinHasher
from dealer_assist.services.records import (
    cardroom_state,
    digest,
    record_entry,
    user_state,
)

USERS = UserRow.__table__
KV = Setting.__table__
TRIES = PinTryRow.__table__


#: The columns of a user a station reads (never the PIN hash: on PostgreSQL it cannot).
SHOWN = (USERS.c.id, USERS.c.name, USERS.c.full_name, USERS.c.role, USERS.c.active,
         USERS.c.failed, USERS.c.locked_until)


def pin_digest(conn: Any, name: str) -> str:
    """What the records hold of a user's PIN hash (its sha256); on PostgreSQL the database's
    ``da_pin_digest`` gives it, the hash itself staying with the owner."""
    if conn.dialect.name == "postgresql":
        return str(conn.exec_driver_sql("SELECT da_pin_digest(%s)", (name,)).scalar() or "")
    h = conn.execute(select(USERS.c.pin_hash).where(USERS.c.name == name)).scalar()
    return digest(h or "")


def record_user(conn: Any, user_id: int, at: datetime | None = None) -> None:
    """Append the user's state (after a change, in the change's transaction) to the audit
    chain's records (:mod:`dealer_assist.services.records`). On PostgreSQL a station's role
    may write such a record only when it is the user's row exactly as stored (a trigger)."""
    r = conn.execute(select(*SHOWN).where(USERS.c.id == user_id)).first()
    if r is not None:
        append_audit(conn, [record_entry("user", user_state(
            name=r.name, full_name=r.full_name, role=r.role, active=bool(r.active),
            pin=pin_digest(conn, r.name),
        ), at or datetime.now(UTC))])


def _definer(conn: Any, sql: str, params: tuple[Any, ...]) -> Any:
    """Call one of the owner's functions that change users (schema 0009); its refusal (not
    signed in as an admin) is :class:`NotAllowed` with the database's words."""
    from sqlalchemy.exc import DBAPIError

    try:
        return conn.exec_driver_sql(sql, params).scalar()
    except DBAPIError as exc:
        orig: Any = exc.orig  # the driver's error (psycopg's has a diag)
        if getattr(orig, "sqlstate", None) == "42501":
            text = str((getattr(orig, "diag", None) and orig.diag.message_primary)
                       or orig)
            raise NotAllowed(text) from exc
        raise


def _user(r: Any) -> User:
    return User(id=r.id, name=r.name, full_name=r.full_name, role=r.role, active=bool(r.active))


class UserStore(StoreBase):
    """The users part of :class:`~dealer_assist.db.store.SqlStore` (mixed in)."""

    def cardroom_name(self) -> str:
        with self._read() as conn:
            value = conn.execute(select(KV.c.value).where(KV.c.key == "cardroom")).scalar()
        return str(value) if value else DEFAULT_CARDROOM

    def set_cardroom_name(self, name: str, *, token: str = "") -> None:
        """Name the cardroom and record the name on the audit chain, in one transaction. On
        PostgreSQL only the owner's ``da_cardroom_name`` writes it (schema 0010): ``token``
        must be an active admin's session, except for the first naming of a room never
        named; the record is then taken only as the name stored."""
        with self._write() as conn:
            if conn.dialect.name == "postgresql":
                _definer(conn, "SELECT da_cardroom_name(%s, %s)", (token, name))
            else:
                done = conn.execute(update(KV).where(KV.c.key == "cardroom").values(value=name))
                if done.rowcount == 0:
                    conn.execute(insert(KV).values(key="cardroom", value=name))
            append_audit(conn, [record_entry("cardroom", cardroom_state(name), datetime.now(UTC))])

    def end_sign_in(self, token: str) -> None:
        if self.db.dialect == "postgresql" and token:
            with self._write() as conn:
                conn.exec_driver_sql("SELECT da_sign_out(%s)", (token,))

    def count_users(self) -> int:
        with self._read() as conn:
            return int(conn.execute(select(func.count()).select_from(USERS)).scalar_one())

    def add_user(
        self, *, name: str, full_name: str, role: str, pin_hash: str, at: datetime,
        token: str = "",
    ) -> User:
        try:
            with self._write() as conn:
                if conn.dialect.name == "postgresql":
                    new_id = _definer(conn, "SELECT da_user_add(%s, %s, %s, %s, %s, %s)", (
                        token, name, full_name, role, pin_hash,
                        utc(at).replace(tzinfo=None)))
                else:
                    new_id = conn.execute(
                        insert(USERS).values(
                            name=name, full_name=full_name, role=role, pin_hash=pin_hash,
                            failed=0, locked_until=None, active=True, created_at=at,
                        ).returning(USERS.c.id)
                    ).scalar_one()
                record_user(conn, int(new_id), at)
        except IntegrityError as exc:
            raise BadInput(f'a user named "{name}" already exists') from exc
        return User(id=int(new_id), name=name, full_name=full_name, role=role)

    def user_secret(self, name: str) -> UserSecret | None:
        """The user and their sign-in state; never the PIN hash (:meth:`try_pin` checks it)."""
        with self._read() as conn:
            r = conn.execute(select(*SHOWN).where(USERS.c.name == name)).first()
        if r is None:
            return None
        return UserSecret(
            user=_user(r), pin_hash="", failed=r.failed, locked_until=r.locked_until
        )

    def try_pin(
        self, name: str, pin: str, hasher: PinHasher, *, now: datetime, limit: int,
        lockout: timedelta, action: str = "login", subject: ApprovalSubject | None = None,
    ) -> PinResult:
        """SQLite: counted here (:func:`~dealer_assist.services.pins.counted_try`). PostgreSQL:
        the database gives the argon2 salt of the name (``da_pin_salt``), takes the PIN's
        argon2 hash under it, and counts and checks it in one transaction with the row
        locked, by its own clock (``da_pin_try``): the hash never leaves the server, and the
        limit and lockout are the database's (schema 0009), whatever a station sends. For an
        ``approval`` the database's ``da_approval_try`` counts it the same way and, on a right
        PIN by a floor person, leaves no session but a one-time ticket that the ``approval``
        entry written next spends (without one, the database refuses that entry). The ticket
        is bound to ``subject`` (schema 0010): the entry must carry that very detail, table
        and hand."""
        if self.db.dialect != "postgresql":
            return counted_try(self, name, pin, hasher, now=now, limit=limit, lockout=lockout)
        with self._write() as conn:
            prefix = str(conn.exec_driver_sql("SELECT da_pin_salt(%s)", (name,)).scalar() or "")
        secret = argon2_with(prefix, pin) or "-"
        with self._write() as conn:
            if action == "approval":
                about = subject or ApprovalSubject("")
                r = conn.exec_driver_sql(
                    "SELECT outcome, user_id, failed, locked_until, token FROM "
                    "da_approval_try(%s, %s, %s, %s, %s)",
                    (name, secret, about.detail, about.table_id, about.hand_id)).one()
            else:
                r = conn.exec_driver_sql(
                    "SELECT outcome, user_id, failed, locked_until, token FROM "
                    "da_pin_try(%s, %s)", (name, secret)).one()
            user = None
            if r[1] is not None:
                u = conn.execute(select(*SHOWN).where(USERS.c.id == r[1])).first()
                user = _user(u) if u is not None else None
        until = None if r[3] is None else utc(r[3])
        return PinResult(str(r[0]), user, int(r[2] or 0), until, str(r[4] or ""))

    def claim_name_try(
        self, name: str, *, now: datetime, limit: int, lockout: timedelta
    ) -> PinTry:
        """A name nobody has (or a disabled one), counted in ``pin_tries`` (schema 0009) like a
        user's row, in one write transaction."""
        with self._write() as conn:
            # names tried a day ago are forgotten (an attacker's list of names fills nothing)
            conn.execute(TRIES.delete().where(TRIES.c.at < now - timedelta(days=1)))
            r = conn.execute(select(TRIES.c.failed, TRIES.c.locked_until)
                             .where(TRIES.c.name == name)).first()
            failed0, until = (0, None) if r is None else (
                int(r.failed), None if r.locked_until is None else utc(r.locked_until))
            if until is not None and now < until:
                return PinTry(allowed=False, failed=failed0, locked_until=until)
            failed = (0 if until is not None else failed0) + 1
            lock = now + lockout if failed >= limit else None
            values = {"failed": 0 if lock else failed, "locked_until": lock, "at": now}
            if r is None:
                conn.execute(insert(TRIES).values(name=name, **values))
            else:
                conn.execute(update(TRIES).where(TRIES.c.name == name).values(**values))
        return PinTry(allowed=True, failed=failed, locked_until=lock)

    def set_login_state(self, user_id: int, *, failed: int, locked_until: datetime | None) -> None:
        with self._write() as conn:
            conn.execute(
                update(USERS).where(USERS.c.id == user_id)
                .values(failed=failed, locked_until=locked_until)
            )

    def claim_pin_try(
        self, user_id: int, *, now: datetime, limit: int, lockout: timedelta
    ) -> PinTry:
        """Count the try before the PIN is checked: the user's row is read and written in one
        transaction that holds it (``BEGIN IMMEDIATE`` on SQLite, ``FOR UPDATE`` on
        PostgreSQL), so parallel tries queue up and each sees the count the one before left."""
        with self._write() as conn:
            stmt = select(USERS.c.failed, USERS.c.locked_until, USERS.c.pin_hash).where(
                USERS.c.id == user_id
            )
            if conn.dialect.name == "postgresql":
                stmt = stmt.with_for_update(key_share=True)
            r = conn.execute(stmt).first()
            if r is None:
                return PinTry(allowed=False, failed=0)
            until = None if r.locked_until is None else utc(r.locked_until)
            if until is not None and now < until:
                return PinTry(allowed=False, failed=int(r.failed), locked_until=until)
            failed = (0 if until is not None else int(r.failed)) + 1
            lock = now + lockout if failed >= limit else None
            conn.execute(
                update(USERS).where(USERS.c.id == user_id)
                .values(failed=0 if lock else failed, locked_until=lock)
            )
        return PinTry(allowed=True, failed=failed, pin_hash=r.pin_hash, locked_until=lock)

    def pin_try_right(self, user_id: int, *, locked_until: datetime | None) -> None:
        running: ColumnElement[bool] = USERS.c.locked_until.is_(None)
        if locked_until is not None:
            running = running | (USERS.c.locked_until == locked_until)
        with self._write() as conn:
            conn.execute(
                update(USERS).where(USERS.c.id == user_id, running)
                .values(failed=0, locked_until=None)
            )

    def set_pin_hash(self, user_id: int, pin_hash: str, *, token: str = "") -> None:
        with self._write() as conn:
            name = conn.execute(select(USERS.c.name).where(USERS.c.id == user_id)).scalar()
            if conn.dialect.name == "postgresql":
                _definer(conn, "SELECT da_user_pin(%s, %s, %s)", (token, name, pin_hash))
            else:
                conn.execute(update(USERS).where(USERS.c.id == user_id).values(
                    pin_hash=pin_hash, failed=0, locked_until=None))
                conn.execute(TRIES.delete().where(TRIES.c.name == name))
            record_user(conn, user_id)

    def set_user_active(
        self, user_id: int, active: bool, *, by: int | None = None, token: str = ""
    ) -> bool:
        """Enable or disable a user; with ``by`` (the admin doing it), only while that admin is
        still active, read in the same transaction with both rows locked in id order (SQLite's
        write transaction holds the whole file): two admins disabling each other at the same
        moment cannot both succeed. False, and nothing written, when ``by`` is not active."""
        with self._write() as conn:
            if conn.dialect.name == "postgresql":
                name = conn.execute(select(USERS.c.name).where(USERS.c.id == user_id)).scalar()
                if not _definer(conn, "SELECT da_user_active(%s, %s, %s)",
                                (token, name, active)):
                    return False
                record_user(conn, user_id)
                return True
            if by is not None:
                rows = conn.execute(
                    select(USERS.c.id, USERS.c.active)
                    .where(USERS.c.id.in_(sorted({by, user_id})))
                    .order_by(USERS.c.id)
                    .with_for_update(key_share=True)
                ).all()
                if not any(r.id == by and r.active for r in rows):
                    return False
            conn.execute(update(USERS).where(USERS.c.id == user_id).values(active=active))
            record_user(conn, user_id)
        return True

    def list_users(self) -> list[User]:
        with self._read() as conn:
            rows = conn.execute(select(*SHOWN).order_by(USERS.c.name)).all()
        return [_user(r) for r in rows]

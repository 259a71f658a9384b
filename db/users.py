"""Users in the database: rows, the sign-in state (failed PINs, lockout) and role changes.

PINs arrive already hashed (argon2id, by the services); this module never sees a PIN.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.exc import IntegrityError

from dealer_assist.db.models import Setting, UserRow
from dealer_assist.errors import BadInput
from dealer_assist.services.chain import utc
from dealer_assist.services.model import PinTry, User, UserSecret
from dealer_assist.services.records import (
    cardroom_state,
    record_entry,
    user_state,
)

USERS = UserRow.__table__
KV = Setting.__table__
DEFAULT_CARDROOM = "Cardroom"


def record_user(conn: Any, user_id: int, at: datetime | None = None) -> None:
    """Append the user's state (after a change, in the change's transaction) to the audit
    chain's records (:mod:`dealer_assist.services.records`)."""
    from dealer_assist.db.store import append_audit

    r = conn.execute(select(USERS).where(USERS.c.id == user_id)).first()
    if r is not None:
        append_audit(conn, [record_entry("user", user_state(
            name=r.name, full_name=r.full_name, role=r.role, active=bool(r.active),
            pin_hash=r.pin_hash,
        ), at or datetime.now(UTC))])


def _user(r: Any) -> User:
    return User(id=r.id, name=r.name, full_name=r.full_name, role=r.role, active=bool(r.active))


class UserStore:
    """The users half of :class:`~dealer_assist.db.store.SqlStore` (mixed in)."""

    def _read(self) -> Any: ...  # provided by SqlStore

    def _write(self) -> Any: ...  # provided by SqlStore

    def cardroom_name(self) -> str:
        with self._read() as conn:
            value = conn.execute(select(KV.c.value).where(KV.c.key == "cardroom")).scalar()
        return str(value) if value else DEFAULT_CARDROOM

    def set_cardroom_name(self, name: str) -> None:
        with self._write() as conn:
            done = conn.execute(update(KV).where(KV.c.key == "cardroom").values(value=name))
            if done.rowcount == 0:
                conn.execute(insert(KV).values(key="cardroom", value=name))
            from dealer_assist.db.store import append_audit

            append_audit(conn, [record_entry("cardroom", cardroom_state(name), datetime.now(UTC))])

    def count_users(self) -> int:
        with self._read() as conn:
            return int(conn.execute(select(func.count()).select_from(USERS)).scalar_one())

    def add_user(
        self, *, name: str, full_name: str, role: str, pin_hash: str, at: datetime
    ) -> User:
        try:
            with self._write() as conn:
                new_id = conn.execute(
                    insert(USERS).values(
                        name=name, full_name=full_name, role=role, pin_hash=pin_hash, failed=0,
                        locked_until=None, active=True, created_at=at,
                    ).returning(USERS.c.id)
                ).scalar_one()
                record_user(conn, int(new_id), at)
        except IntegrityError as exc:
            raise BadInput(f'a user named "{name}" already exists') from exc
        return User(id=int(new_id), name=name, full_name=full_name, role=role)

    def user_secret(self, name: str) -> UserSecret | None:
        with self._read() as conn:
            r = conn.execute(select(USERS).where(USERS.c.name == name)).first()
        if r is None:
            return None
        return UserSecret(
            user=_user(r), pin_hash=r.pin_hash, failed=r.failed, locked_until=r.locked_until
        )

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
                stmt = stmt.with_for_update()
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
        running = USERS.c.locked_until.is_(None)
        if locked_until is not None:
            running = running | (USERS.c.locked_until == locked_until)
        with self._write() as conn:
            conn.execute(
                update(USERS).where(USERS.c.id == user_id, running)
                .values(failed=0, locked_until=None)
            )

    def set_pin_hash(self, user_id: int, pin_hash: str) -> None:
        with self._write() as conn:
            conn.execute(update(USERS).where(USERS.c.id == user_id).values(pin_hash=pin_hash))
            record_user(conn, user_id)

    def set_user_active(self, user_id: int, active: bool, *, by: int | None = None) -> bool:
        """Enable or disable a user; with ``by`` (the admin doing it), only while that admin is
        still active, read in the same transaction with both rows locked in id order (SQLite's
        write transaction holds the whole file): two admins disabling each other at the same
        moment cannot both succeed. False, and nothing written, when ``by`` is not active."""
        with self._write() as conn:
            if by is not None:
                rows = conn.execute(
                    select(USERS.c.id, USERS.c.active)
                    .where(USERS.c.id.in_(sorted({by, user_id})))
                    .order_by(USERS.c.id)
                    .with_for_update()
                ).all()
                if not any(r.id == by and r.active for r in rows):
                    return False
            conn.execute(update(USERS).where(USERS.c.id == user_id).values(active=active))
            record_user(conn, user_id)
        return True

    def list_users(self) -> list[User]:
        with self._read() as conn:
            rows = conn.execute(select(USERS).order_by(USERS.c.name)).all()
        return [_user(r) for r in rows]

"""The users' use cases: the first admin, sign-in and out, users added, PINs reset and
changed, names enabled and disabled, the cardroom's name. Handlers over only the ports they
use: the users' port (:class:`~dealer_assist.services.ports.UserRecords`), the audit log's and
the authorizer (which tries every PIN and checks every approval);
:class:`~dealer_assist.services.app.Services` passes its calls on to them."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import suppress
from datetime import datetime

from dealer_assist.errors import BadInput
from dealer_assist.services.authorizer import Authorizer, aware
from dealer_assist.services.errors import NotAllowed, NotFound, SignInFailed, StoreUnavailable
from dealer_assist.services.model import ROLES, AuditEntry, Session, User, UserSecret, UserState
from dealer_assist.services.ports import AuditLogRecords, UserRecords
from dealer_assist.version import version_line


class UserHandlers:
    """Users and sign-in: PINs and lockouts (the authorizer's), who may manage users."""

    def __init__(self, users: UserRecords, audit: AuditLogRecords, authorizer: Authorizer,
                 clock: Callable[[], datetime]) -> None:
        self.users = users
        self.audit = audit
        self.authorizer = authorizer
        self.clock = clock

    def _log(self, actor: str | None, action: str, detail: str = "") -> AuditEntry:
        return self.audit.add_audit(at=self.clock(), actor=actor, action=action, detail=detail)

    def _secret(self, name: str) -> UserSecret:
        secret = self.users.user_secret(name)
        if secret is None:
            raise NotFound(f'there is no user "{name}"')
        return secret

    def needs_first_admin(self) -> bool:
        """True on a new database: the first run must create the admin."""
        return self.users.count_users() == 0

    def create_first_admin(self, *, name: str, full_name: str, pin: str) -> User:
        """The first user of a new database; refused once any user exists."""
        if not self.needs_first_admin():
            raise NotAllowed("an admin already exists: sign in as the admin to add users")
        user = self.users.add_user(
            name=_check_name(name), full_name=_check_full_name(full_name), role="admin",
            pin_hash=self.authorizer.hasher.hash(_check_pin(pin)), at=self.clock(), token="",
        )
        self._log(user.name, "user-added", f"{user.name} ({user.full_name}) as admin, first run")
        return user

    def sign_in(self, name: str, pin: str) -> Session:
        """Check a PIN. Three wrong PINs in a row lock the user for five minutes; logged."""
        user, token = self.authorizer.check_pin(name, pin, action="login")
        self._log(user.name, "login", f"{user.name} signed in as {user.role} · {version_line()}")
        return Session(user=user, signed_in_at=self.clock(), token=token)

    def sign_out(self, session: Session) -> None:
        self._log(session.name, "logout", f"{session.name} signed out")
        if session.token:
            # unreachable now: the sign-in ends by itself at the end of its day
            with suppress(StoreUnavailable):
                self.users.end_sign_in(session.token)

    def add_user(
        self, session: Session, *, name: str, full_name: str, role: str, pin: str
    ) -> User:
        self.require_admin(session, "add users")
        if role not in ROLES:
            raise BadInput(f'unknown role "{role}": choose one of {", ".join(ROLES)}')
        clean = _check_name(name)
        if self.users.user_secret(clean) is not None:
            raise BadInput(f'a user named "{clean}" already exists')
        user = self.users.add_user(
            name=clean, full_name=_check_full_name(full_name), role=role,
            pin_hash=self.authorizer.hasher.hash(_check_pin(pin)), at=self.clock(),
            token=session.token,
        )
        self._log(session.name, "user-added", f"{user.name} ({user.full_name}) as {role}")
        return user

    def reset_pin(self, session: Session, name: str, pin: str) -> None:
        """Admin: set a new PIN (also lifts a lockout and clears the wrong-PIN count)."""
        self.require_admin(session, "reset PINs")
        secret = self._secret(name)
        new_hash = self.authorizer.hasher.hash(_check_pin(pin))
        locked = secret.locked_until is not None and self.clock() < aware(secret.locked_until)
        self.users.set_pin_hash(secret.user.id, new_hash, token=session.token)
        self._log(session.name, "pin-reset",
                  f"new PIN for {name}" + ("; lockout lifted" if locked else ""))

    def change_pin(self, session: Session, old_pin: str, new_pin: str) -> None:
        """A user changes their own PIN, giving the old one. The new PIN is checked first, so a
        mistyped new PIN never costs a try; a wrong old PIN counts toward the lockout."""
        _check_pin(new_pin)
        if new_pin == old_pin:
            raise BadInput("the new PIN is the same as the old one: choose another")
        secret = self.users.user_secret(session.name)
        if secret is None or not secret.user.active:
            self._log(session.name, "pin-change-refused", "disabled user")
            raise NotAllowed(f"{session.name} is disabled: an admin must enable the name first")
        try:
            _, token = self.authorizer.check_pin(session.name, old_pin, action="pin-change")
        except SignInFailed as exc:
            left = exc.attempts_left
            raise SignInFailed(
                f"the old PIN is wrong ({left} more {'try' if left == 1 else 'tries'} before "
                f"{session.name} is locked for 5 minutes)",
                attempts_left=left,
            ) from exc
        self.users.set_pin_hash(secret.user.id, self.authorizer.hasher.hash(new_pin), token=token)
        self._log(session.name, "pin-changed", f"{session.name} changed their PIN")

    def set_user_active(self, session: Session, name: str, active: bool) -> None:
        """Admin: disable a user (they can no longer sign in or approve) or enable them again.

        The room always keeps an admin who can sign in: an admin cannot disable their own name,
        and only an active admin may act (:meth:`require_admin`), so whoever disables an admin
        is another active admin and the last active admin can never be disabled."""
        self.require_admin(session, "enable or disable users")
        user = self._secret(name).user
        if user.active == active:
            raise BadInput(f"{user.name} is already {'active' if active else 'disabled'}")
        if not active and user.name == session.name:
            raise NotAllowed(f"{user.name} cannot disable their own name: another admin must do "
                             "it (the room keeps at least one active admin)")
        me = self.users.user_secret(session.name)
        # checked again where it is written: an admin disabled a moment ago (by another admin
        # at another station, perhaps disabling this one) can no longer act
        if me is None or not self.users.set_user_active(user.id, active, by=me.user.id,
                                                        token=session.token):
            raise NotAllowed(f"{session.name} is disabled: sign out; only an active admin can "
                             "enable or disable users")
        self.authorizer.seen_active.pop(user.name, None)
        self._log(session.name, "user-enabled" if active else "user-disabled", user.name)

    def list_users(self, session: Session) -> list[User]:
        self.require_admin(session, "list users")
        return self.users.list_users()

    def user_states(self, session: Session) -> list[UserState]:
        """Admin: every user (by name) with their sign-in state: wrong PINs in a row and a
        lockout still running (one that has run out is not shown). Never the PIN hash."""
        self.require_admin(session, "see the users")
        now = self.clock()
        out: list[UserState] = []
        for listed in self.users.list_users():
            secret = self.users.user_secret(listed.name)
            if secret is None:  # users are never deleted; a rename cannot happen either
                continue
            until = None if secret.locked_until is None else aware(secret.locked_until)
            out.append(UserState(
                user=secret.user, failed=secret.failed,
                locked_until=until if until is not None and now < until else None,
            ))
        return out

    def require_admin(self, session: Session, what: str) -> None:
        """The users permission, held by a name that is still active: an admin disabled at
        another station cannot go on managing users from a window left signed in."""
        self.authorizer.require(session, "users", what)
        secret = self.users.user_secret(session.name)
        if secret is None or not secret.user.active:
            self.authorizer.refuse(session, what, f"{session.name} is disabled: sign out; only "
                                   f"an active admin can {what}")

    def floor_people(self) -> list[User]:
        """Active floor users (the names a dealer chooses from when opening a shift)."""
        return [u for u in self.users.list_users() if u.role == "floor" and u.active]

    def cardroom_name(self) -> str:
        return self.users.cardroom_name()

    def set_cardroom_name(self, session: Session, name: str) -> None:
        """Admin: rename the cardroom. The name is printed on every report a board signs, so
        only an admin (still active) renames it; on PostgreSQL the database checks the admin's
        session itself (``da_cardroom_name``) and a station's role cannot write it."""
        self.require_admin(session, "name the cardroom")
        if not name.strip():
            raise BadInput("the cardroom needs a name")
        self.users.set_cardroom_name(name.strip(), token=session.token)
        self._log(session.name, "cardroom-named", name.strip())

    def name_new_cardroom(self, name: str, *, unnamed: str, station: str) -> bool:
        """The name a station was set up with, given to a database that was never named (it
        still reads ``unnamed``); a named cardroom keeps its name, so a station cannot rename
        the room on every report. Logged; True if it named the room."""
        if not name.strip() or self.users.cardroom_name() != unnamed:
            return False
        self.users.set_cardroom_name(name.strip())
        self._log(None, "cardroom-named", f"{name.strip()} (set up at station {station})")
        return True


def _check_pin(pin: str) -> str:
    """A PIN as typed, checked before it is hashed or tried."""
    if not (pin.isdigit() and pin.isascii() and 4 <= len(pin) <= 12):
        raise BadInput("a PIN is 4 to 12 digits")
    return pin


def _check_name(name: str) -> str:
    n = name.strip()
    if not n or len(n) > 40 or any(c.isspace() for c in n):
        raise BadInput("a user name is one word of at most 40 characters")
    return n


def _check_full_name(full_name: str) -> str:
    n = " ".join(full_name.split())
    if not n:
        raise BadInput("give the person's full name (it goes on signed reports)")
    return n

"""The one place a signed-in user's role and active name are checked, a PIN is tried, and a
floor approval is checked and bound to what it approves; every refusal is written to the audit
log. Use cases (and the commands and reports that check a role) ask it instead of reading
``PERMISSIONS`` themselves, so a rule about who may do what lives in one module over a narrow
port (users, PIN tries and the audit log)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import NoReturn, Protocol

from dealer_assist.services.auth import Argon2PinHasher
from dealer_assist.services.errors import LockedOut, NotAllowed, SignInFailed
from dealer_assist.services.model import (
    PERMISSIONS,
    ROLES,
    ApprovalSubject,
    Approver,
    AuditEntry,
    PinResult,
    Session,
    User,
    UserSecret,
)
from dealer_assist.services.ports import PinHasher

#: Seconds a name seen active is trusted before the store is asked again.
ACTIVE_RECHECK_S = 30.0
#: Wrong PINs in a row that lock a user, and for how long.
MAX_FAILED_PINS = 3
LOCKOUT = timedelta(minutes=5)
#: The one answer to a wrong PIN and to an unknown name alike (names cannot be found by trying).
WRONG_PIN = (
    f"unknown name or wrong PIN ({MAX_FAILED_PINS} wrong PINs in a row lock a name for 5 minutes)"
)


@dataclass(frozen=True, slots=True)
class Approval:
    """A floor person's name and PIN, typed at the station to approve an action."""

    name: str
    pin: str


class AuthPort(Protocol):
    """What the authorizer reads and writes: a user's record, a PIN's try and the audit log."""

    def user_secret(self, name: str) -> UserSecret | None: ...

    def try_pin(
        self, name: str, pin: str, hasher: PinHasher, *, now: datetime, limit: int,
        lockout: timedelta, action: str = "login", subject: ApprovalSubject | None = None,
    ) -> PinResult:
        """Count and check a try of ``pin`` on ``name`` in one go (the store's
        :meth:`~dealer_assist.services.ports.Store.try_pin`)."""
        ...

    def add_audit(
        self, *, at: datetime, actor: str | None, action: str, detail: str = "",
        table_id: int | None = None, hand_id: int | None = None, token: str = "",
    ) -> AuditEntry: ...


class Authorizer:
    """Checks roles, active names, PINs and approvals for every use case; refusals are
    logged."""

    def __init__(self, port: AuthPort, clock: Callable[[], datetime],
                 monotonic: Callable[[], float] = time.monotonic, *,
                 hasher: PinHasher | None = None) -> None:
        self.port = port
        self.clock = clock
        self.monotonic = monotonic
        #: How PINs are hashed and checked (argon2 unless given).
        self.hasher: PinHasher = hasher or Argon2PinHasher()
        #: When each signed-in name was last seen active (a monotonic clock): a name disabled
        #: at another station stops working here within ACTIVE_RECHECK_S.
        self.seen_active: dict[str, float] = {}

    def require(self, session: Session, permission: str, what: str, *,
                users: bool = False) -> None:
        """The session's role holds ``permission`` and its name is still active. ``users``:
        the refusal names the roles as kinds of user, as the reports and the commands word it
        ("only a floor, auditor or admin user can generate reports"); else as the services
        do ("only floor or auditor or admin can read the audit log")."""
        if session.role not in PERMISSIONS[permission]:
            roles = [r for r in ROLES if r in PERMISSIONS[permission]]
            allowed = f"a {_either(roles)} user" if users else " or ".join(roles)
            self.refuse(session, what,
                        f"{session.name} is {a_role(session.role)}: only {allowed} can {what}")
        self.require_active(session, what)

    def may(self, session: Session, permission: str) -> bool:
        """Whether the session's role holds ``permission`` (asked, nothing logged: a screen
        enables a button from it; :meth:`require` is the check that refuses)."""
        return session.role in PERMISSIONS[permission]

    def refuse(self, session: Session, what: str, message: str) -> NoReturn:
        """Refuse a signed-in user's action, and write the refusal to the audit log (a dealer
        trying to add users leaves more than a sign-in behind)."""
        self.port.add_audit(at=self.clock(), actor=session.name, action="refused",
                            detail=f"{session.role} tried to {what}")
        raise NotAllowed(message)

    def require_active(self, session: Session, what: str) -> None:
        """The session's name must still be active: a name disabled while signed in (here or
        at another station) can do nothing more. Read at most every ``ACTIVE_RECHECK_S``
        seconds per name, so dealing costs no extra read per input."""
        now = self.monotonic()
        seen = self.seen_active.get(session.name)
        if seen is not None and now - seen < ACTIVE_RECHECK_S:
            return
        secret = self.port.user_secret(session.name)
        if secret is None or not secret.user.active:
            self.seen_active.pop(session.name, None)
            self.refuse(session, what, f"{session.name} is disabled: sign out; a disabled "
                        f"name cannot {what}")
        self.seen_active[session.name] = now


    def _audit(self, actor: str | None, action: str, detail: str = "", *,
               table_id: int | None = None, hand_id: int | None = None) -> AuditEntry:
        return self.port.add_audit(at=self.clock(), actor=actor, action=action, detail=detail,
                                   table_id=table_id, hand_id=hand_id)

    # --- PINs ------------------------------------------------------------------------------
    def check_pin(
        self, name: str, pin: str, *, action: str, subject: ApprovalSubject | None = None,
    ) -> tuple[User, str]:
        """The user whose name and PIN these are, and the store's token for the right PIN
        (:attr:`Session.token`). The try is counted and checked by the store in one go
        (:meth:`Store.try_pin`; on PostgreSQL by the database), so parallel tries cannot run
        past the lockout; a name nobody has (or a disabled one) is counted there the same way,
        by name: the same message with the tries left, the same lockout after
        ``MAX_FAILED_PINS`` and the same refusals while it runs, at every station, so trying
        names shows nothing about which exist. A PIN-like name is never written."""
        now = self.clock()
        res = self.port.try_pin(name, pin, self.hasher, now=now, limit=MAX_FAILED_PINS,
                                lockout=LOCKOUT, action=action, subject=subject)
        real = res.user is not None and res.user.active
        actor = res.user.name if res.user is not None else None
        why = "" if real else ("disabled user" if res.user is not None else _unknown_name(name))
        shown = _shown_name(res.user.name if real and res.user is not None else name)
        if res.outcome == "locked":
            until = aware(res.locked_until or now)
            self._audit(actor, f"{action}-refused", "locked out" if real else f"{why}; locked out")
            raise LockedOut(_locked_text(shown, until, now), until=until)
        if res.outcome == "right" and real and res.user is not None:
            return res.user, res.token
        if res.locked_until is not None:
            until = aware(res.locked_until)
            self._audit(actor, "lockout",
                        (f"{res.failed} wrong PINs ({action}); locked 5 minutes" if real else
                         f"{why}: {res.failed} wrong PINs ({action}); locked 5 minutes"))
            raise LockedOut(
                f"wrong PIN {res.failed} times: {shown} is locked until {until:%H:%M} UTC "
                "(5 minutes), or until an admin resets the PIN",
                until=until,
            )
        self._audit(actor, f"{action}-failed",
                    f"wrong PIN ({res.failed} of {MAX_FAILED_PINS})" if real else why)
        raise SignInFailed(WRONG_PIN, attempts_left=MAX_FAILED_PINS - res.failed)

    # --- approvals -------------------------------------------------------------------------
    def approve(
        self, approval: Approval, *, what: str, permission: str = "approve",
        table_id: int | None = None, hand_id: int | None = None,
        session: Session | None = None,
    ) -> Approver:
        """Check a floor approval and bind it to what it approves: the approver's name and PIN
        (the same lockout as sign-in), tried for ``what`` ("misdeal of hand 8") at the table
        and hand it concerns (on PostgreSQL the right PIN's one-time ticket is bound to that
        subject, schema 0010), then logged as the ``approval`` entry whose id the approved
        change carries (``approval_id``, schema 0016). With the ``session`` asking, the
        approver must be someone else: a floor person dealing never approves their own void,
        misdeal or shift close (refused before the PIN is tried)."""
        if (session is not None and session.role in PERMISSIONS[permission]
                and approval.name.strip().lower() == session.name.lower()):
            self._audit(session.name, "approval-refused",
                        f"{session.name} tried to approve their own {what}",
                        table_id=table_id, hand_id=hand_id)
            raise NotAllowed(
                f"{session.name} is signed in at this station and cannot approve their own "
                f"{what}: another floor person types their name and PIN"
            )
        user, _ = self.check_pin(approval.name, approval.pin, action="approval",
                                 subject=ApprovalSubject(what, table_id, hand_id))
        if user.role not in PERMISSIONS[permission]:
            self._audit(user.name, "approval-refused", f"{user.role} cannot approve {what}",
                        table_id=table_id, hand_id=hand_id)
            raise NotAllowed(
                f"{user.name} is {a_role(user.role)}: only a floor person can approve {what}"
            )
        entry = self._audit(user.name, "approval", what, table_id=table_id, hand_id=hand_id)
        return Approver(id=user.id, name=user.name, full_name=user.full_name, role=user.role,
                        active=user.active, entry=entry.id)


def _either(roles: list[str]) -> str:
    """"admin", "dealer or floor", "floor, auditor or admin"."""
    return ", ".join(roles[:-1]) + f" or {roles[-1]}" if len(roles) > 1 else roles[0]


def aware(t: datetime) -> datetime:
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t


def _locked_text(name: str, until: datetime, now: datetime) -> str:
    """A running lockout as of ``now``: until when, and how long that still is."""
    left = max(1, -int(-(until - now).total_seconds() // 60))
    return (f"{name} is locked after {MAX_FAILED_PINS} wrong PINs: try again after "
            f"{until:%H:%M} UTC (in {left} minute{'s' if left != 1 else ''}), or ask an admin "
            "to reset the PIN")


def _shown_name(name: str) -> str:
    """A name as a lockout message repeats it: one that may be a PIN typed in the name box
    (four digits in a row, or very long) is not shown back, known or not, alike."""
    if re.search(r"\d{4}", name) or len(name) > 40:
        return "this name"
    return name


def _unknown_name(name: str) -> str:
    """The audit line for a name nobody has. A name with four or more digits in a row may be
    a PIN typed into the name box: it is not written down."""
    if re.search(r"\d{4}", name) or len(name) > 40:
        return "unknown name (not written: it may be a PIN typed in the name box)"
    return f'unknown name "{name}"'


def a_role(role: str) -> str:
    """"a dealer", "an admin"."""
    return f"an {role}" if role[0] in "aeiou" else f"a {role}"

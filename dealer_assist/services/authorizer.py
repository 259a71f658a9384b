"""The one place a signed-in user's role and active name are checked, and a refusal is
written to the audit log: use cases ask it instead of reading ``PERMISSIONS`` themselves, so a
rule about who may do what lives in one module over a narrow port (users and the audit log)."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import NoReturn, Protocol

from dealer_assist.services.errors import NotAllowed
from dealer_assist.services.model import PERMISSIONS, ROLES, AuditEntry, Session, UserSecret

#: Seconds a name seen active is trusted before the store is asked again.
ACTIVE_RECHECK_S = 30.0


class AuthPort(Protocol):
    """What the authorizer reads and writes: a user's record and the audit log."""

    def user_secret(self, name: str) -> UserSecret | None: ...

    def add_audit(
        self, *, at: datetime, actor: str | None, action: str, detail: str = "",
        table_id: int | None = None, hand_id: int | None = None, token: str = "",
    ) -> AuditEntry: ...


class Authorizer:
    """Checks roles and active names for every use case; refusals are logged."""

    def __init__(self, port: AuthPort, clock: Callable[[], datetime],
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self.port = port
        self.clock = clock
        self.monotonic = monotonic
        #: When each signed-in name was last seen active (a monotonic clock): a name disabled
        #: at another station stops working here within ACTIVE_RECHECK_S.
        self.seen_active: dict[str, float] = {}

    def require(self, session: Session, permission: str, what: str) -> None:
        """The session's role holds ``permission`` and its name is still active."""
        if session.role not in PERMISSIONS[permission]:
            allowed = " or ".join(r for r in ROLES if r in PERMISSIONS[permission])
            self.refuse(session, what,
                        f"{session.name} is {a_role(session.role)}: only {allowed} can {what}")
        self.require_active(session, what)

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


def a_role(role: str) -> str:
    """"a dealer", "an admin"."""
    return f"an {role}" if role[0] in "aeiou" else f"a {role}"

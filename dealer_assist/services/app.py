"""The application services: every use case the UI, the CLI and the reports call.

Each call checks the role of the signed-in user, checks the input against the game (a
:class:`~dealer_assist.errors.RuleViolation` means nothing was stored), then makes one store call
(one transaction). The screen changes only from what a call returns, after it is recorded.

:class:`Services` is the one entry point; its calls are written by concern in the modules it is
made of, each part building on the one before: ``users`` (sign-in, PINs, approvals), ``tables``
(tables and their settings versions), ``hands`` (start, record, void, misdeal, settle; the next
hand's button, stacks and carry-overs are the pure functions of ``next_hand``), ``shifts``,
``timecollect`` (time collection) and ``floor`` (reveals, disputes, hand logs out and in), on
the state and helpers of ``base``.
"""

from __future__ import annotations

from dealer_assist.services.base import (
    ACTIVE_RECHECK_S,
    LOCKOUT,
    MAX_FAILED_PINS,
    WRONG_PIN,
    Approval,
    HandNow,
    TimeNow,
    utcnow,
)
from dealer_assist.services.floor import FloorServices
from dealer_assist.services.hand_reads import _LastHand


class Services(FloorServices):
    """The one entry point of the application. Construct it with a store (see
    ``dealer_assist.db.bootstrap.open_services`` for the database one)."""


__all__ = [
    "ACTIVE_RECHECK_S", "LOCKOUT", "MAX_FAILED_PINS", "WRONG_PIN", "Approval", "HandNow",
    "Services", "TimeNow", "_LastHand", "utcnow",
]

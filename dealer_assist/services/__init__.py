"""The application services: the one API the UI, the CLI and the reports call.

Pure Python over a store port (:class:`Store`); ``dealer_assist.db`` provides the database store,
:class:`InMemoryStore` an in-memory one. See docs/services.md.
"""

from dealer_assist.services.app import (
    MAX_FAILED_PINS,
    Approval,
    HandNow,
    Services,
    TimeNow,
    utcnow,
)
from dealer_assist.services.auth import Argon2PinHasher
from dealer_assist.services.errors import (
    ApprovalRequired,
    ChainError,
    Conflict,
    LockedOut,
    NotAllowed,
    NotFound,
    SchemaTooNew,
    SignInFailed,
    StoreUnavailable,
)
from dealer_assist.services.fake import InMemoryStore
from dealer_assist.services.ledger import ledger_lines
from dealer_assist.services.model import (
    PERMISSIONS,
    ROLES,
    Adjustment,
    AuditEntry,
    ChainHead,
    Dispute,
    Hand,
    HandFilter,
    LedgerLine,
    Session,
    SettingsVersion,
    Shift,
    StoredEvent,
    Table,
    User,
)
from dealer_assist.services.ports import PinHasher, Store
from dealer_assist.services.verify import VerifyReport, verify_store

__all__ = [
    "MAX_FAILED_PINS",
    "PERMISSIONS",
    "ROLES",
    "Adjustment",
    "Approval",
    "ApprovalRequired",
    "Argon2PinHasher",
    "AuditEntry",
    "ChainError",
    "ChainHead",
    "Conflict",
    "Dispute",
    "Hand",
    "HandFilter",
    "HandNow",
    "InMemoryStore",
    "LedgerLine",
    "LockedOut",
    "NotAllowed",
    "NotFound",
    "PinHasher",
    "SchemaTooNew",
    "Services",
    "Session",
    "SettingsVersion",
    "Shift",
    "SignInFailed",
    "Store",
    "StoreUnavailable",
    "StoredEvent",
    "Table",
    "TimeNow",
    "User",
    "VerifyReport",
    "ledger_lines",
    "utcnow",
    "verify_store",
]

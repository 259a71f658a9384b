"""Errors the application services raise; each says what is wrong and what to do next."""

from __future__ import annotations

from datetime import datetime

from dealer_assist.errors import DealerAssistError


class StoreUnavailable(DealerAssistError):
    """The database cannot be reached or is locked. Nothing was recorded; retry the input."""


class DatabaseFileChanged(StoreUnavailable):
    """The station's SQLite file was deleted, moved away or replaced by another file since the
    station opened it. Nothing was recorded (nor written anywhere else); the message says what
    to do. The input is kept, as for any database that does not answer."""


class SchemaTooNew(DealerAssistError):
    """The database was written by a newer Dealer Assist than this one."""


class NotFound(DealerAssistError):
    """A table, shift, hand, user or dispute that does not exist."""


class NotAllowed(DealerAssistError):
    """The signed-in user's role may not do this (e.g. a dealer revealing a destroyed hand)."""


class SignInFailed(DealerAssistError):
    """A wrong name or PIN. ``attempts_left`` before the account locks."""

    def __init__(self, message: str, *, attempts_left: int) -> None:
        super().__init__(message)
        self.attempts_left = attempts_left


class LockedOut(DealerAssistError):
    """Too many wrong PINs: the user is locked until ``until`` (UTC)."""

    def __init__(self, message: str, *, until: datetime) -> None:
        super().__init__(message)
        self.until = until


class ApprovalRequired(DealerAssistError):
    """The action needs a floor approval (name and PIN), e.g. a void in a finished hand."""


class Conflict(DealerAssistError):
    """Someone else recorded in the same hand at the same moment; reload the hand and retry."""


class ChainError(DealerAssistError):
    """The stored events of a table fail verification; names the table and sequence number."""

    def __init__(self, message: str, *, table: str | None = None, seq: int | None = None) -> None:
        super().__init__(message)
        self.table = table
        self.seq = seq

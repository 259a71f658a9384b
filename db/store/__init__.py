"""The event store on SQLite or PostgreSQL: the services' store port in SQL.

:class:`SqlStore` is the one class the app constructs; it is composed of one part per
aggregate, each in its own module on the connection core (:mod:`.base`): users and sign-in
(:mod:`.users`), tables and settings (:mod:`.tables`), shifts and disputes (:mod:`.shifts`),
the hand log (:mod:`.hands` reads it, :mod:`.hand_log` writes it), the ledger (:mod:`.ledger`),
the audit log (:mod:`.audit`) and the room's typed records (:mod:`.room_records`). Each method
is one transaction.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from dealer_assist.db.bulk_reads import SqlBulkReads
from dealer_assist.db.store.audit import AuditStore, append_audit
from dealer_assist.db.store.base import free_held_locks, lock_timed_out
from dealer_assist.db.store.hand_log import HandLogStore
from dealer_assist.db.store.ledger import LedgerStore
from dealer_assist.db.store.room_records import RoomRecordStore
from dealer_assist.db.store.shifts import ShiftStore
from dealer_assist.db.store.tables import TableStore
from dealer_assist.db.store.users import UserStore
from dealer_assist.services.errors import StoreUnavailable

__all__ = ["SqlStore", "append_audit", "free_held_locks", "lock_timed_out"]


class SqlStore(TableStore, ShiftStore, HandLogStore, LedgerStore, AuditStore, RoomRecordStore,
               UserStore):
    """Implements :class:`~dealer_assist.services.ports.Store` on a :class:`Database`."""

    def bulk_reads(self) -> SqlBulkReads:
        """The reports' bulk reads, straight from this database's tables."""
        return SqlBulkReads(self)


_W = TypeVar("_W", bound=Callable[..., Any])


def _frees_held_locks(method: _W) -> _W:
    """A write that gave up waiting for a lock asks the database to end the idle session that
    holds it, then runs once more: one station left holding a row cannot freeze the room. A
    write that timed out wrote nothing (its transaction was undone), so running it again is
    the dealer's own retry, made at once."""

    @functools.wraps(method)
    def run(self: SqlStore, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except StoreUnavailable as exc:
            if not (self._pg and lock_timed_out(exc) and free_held_locks(self.db)):
                raise
        return method(self, *args, **kwargs)

    return cast(_W, run)


#: The store's writes that wait for a row lock on PostgreSQL (a table's chain head, a hand, the
#: audit chain's head, a user's sign-in row, a sign-in's session row).
_LOCKING_WRITES = (
    "add_table", "add_settings", "open_shift", "close_shift", "start_hand", "import_hand",
    "append_event", "append_table_event", "settle_hand", "reopen_hand", "add_dispute",
    "add_audit", "add_room_record", "set_cardroom_name", "add_user", "try_pin", "set_login_state",
    "claim_name_try", "claim_pin_try", "pin_try_right", "set_pin_hash", "set_user_active",
    "end_sign_in",
)
for _name in _LOCKING_WRITES:
    setattr(SqlStore, _name, _frees_held_locks(getattr(SqlStore, _name)))

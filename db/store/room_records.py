"""The room's records as typed rows (schema 0022): the part of
:class:`~dealer_assist.db.store.SqlStore` that keeps the
:class:`~dealer_assist.services.room_rows.RoomRecords` port (the SQL is
:mod:`dealer_assist.db.room_records`)."""

from __future__ import annotations

from typing import Any

from dealer_assist.db import room_records
from dealer_assist.db.store.base import StoreBase
from dealer_assist.services.model import AuditEntry
from dealer_assist.services.sealed import SealedRow


class RoomRecordStore(StoreBase):
    """Drop boxes, drop counts, count sign-offs and room clocks (mixed in)."""

    def add_room_record(self, **record: Any) -> AuditEntry:
        """A room record: its audit entry and typed row in one transaction."""
        with self._write() as conn:
            return room_records.add_room_record(conn, **record)

    def room_records(self, kind: str) -> list[SealedRow]:
        with self._read() as conn:
            return room_records.read_room_records(conn, kind)

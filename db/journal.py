"""A station that rides out a blip: the local journal, and its sync to the server.

:class:`JournalStore` stands in front of the station's :class:`~dealer_assist.db.store.SqlStore`.
While the server answers, everything goes straight to it, and the station remembers what it
needs to go on alone: each table's chain head, the hands it deals and their events, a few hand
ids reserved on the server, and the last answer to each read the dealing path makes. When the
server does not answer, a dealer's input (a hand's start, an event, a settlement, a void or
misdeal's reopening, an audit entry) is appended to a SQLite file beside the app, the
**journal**, with the same sequence number and hash it will have on the server: the station
extends the table's chain from the head it knows. From then on the table's inputs go to the
journal, in order, until it is synced.

Sync sends a table's unsynced inputs to the server in one transaction, in order, with the
table's row locked: each event goes in with its own sequence number and hash if the chain's head
is the one it follows; an event already there with the same table, sequence and hash (sent
before a crash, or committed by a write whose answer was lost) is passed over, so nothing is
recorded twice; a settlement goes in only if the hand is not settled already. If another
station wrote the table meanwhile (the head moved elsewhere, or the hand number was taken), the
table is **stopped**: nothing of the batch is written, the journal keeps it, an audit entry
(``sync-conflict``) tells the floor, and the station refuses further inputs at that table with a
message saying so, instead of forking the chain. Each batch also writes an audit entry
(``journal-sync``) naming the journal and the inputs it carried; a batch whose entry is already
on the server is not sent again.

Seat and period marks go the same way, with the time they collect. What waits for the server
(the dealer is told so): signing in, approvals with a floor PIN (a void in a finished hand, a
misdeal), shifts, settings and disputes.

The station's state and the reads it answers alone are in :mod:`.journal_core`, the inputs kept
in the journal in :mod:`.journal_inputs`, the sync in :mod:`.journal_sync`, the journal file
itself in :mod:`.journal_file` and a batch's checks before it is sent in :mod:`.journal_check`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path

from dealer_assist.db.journal_core import JOURNAL_SYNC, JournalStatus, TableStopped
from dealer_assist.db.journal_inputs import JournalInputs
from dealer_assist.db.store import SqlStore
from dealer_assist.services.errors import StoreUnavailable

__all__ = ["JOURNAL_SYNC", "JournalStatus", "JournalStore", "TableStopped"]


class JournalStore(JournalInputs):
    """The station's store: the server's, with the journal behind it (see the module's
    docstring). Every method of the store port not named here goes to the server as is."""

    def __init__(self, server: SqlStore, journal: Path, *, station: str = "",
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(server, journal, station=station, clock=clock)
        if self.journal.count():  # started again after a crash: send what was kept, if it can
            with suppress(StoreUnavailable, TableStopped):
                self.sent_at_open = self.sync()

    @property
    def closed(self) -> bool:
        return self.journal.closed

    def bulk_reads(self) -> None:
        """None: a station's journal is read through the port, so a report sees what the
        station keeps as well as what the server has."""
        return None

    def close(self) -> None:
        self.journal.close()
        self.server.close()

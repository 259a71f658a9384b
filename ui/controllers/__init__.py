"""Controllers: what the dealer screen and the floor console do, through the services only.

A controller calls one service, and only when the call returns (the event is recorded) does it
change what it holds and emit ``changed``; the views redraw from that. A failing or locked
database (``StoreUnavailable``) keeps the operation as ``pending`` for Retry and leaves the
screen as it was, so nothing typed is lost and nothing unrecorded is shown. While an input is
kept, every other operation is refused until it is sent (``retry``) or dropped (``drop``): a
second input must never silently take the first one's place. A drop is written to the audit log
when the database answers again.

`running` runs one operation (kept input, drops, refusals), `dealer` is the dealer's
controller built on it, `floor` the floor console's.
"""

from __future__ import annotations

from dealer_assist.ui.controllers.dealer import (
    DealerController,
    build_event,
    unsigned_close,
)
from dealer_assist.ui.controllers.floor import FloorController
from dealer_assist.ui.controllers.running import Operations

__all__ = [
    "DealerController",
    "FloorController",
    "Operations",
    "build_event",
    "unsigned_close",
]

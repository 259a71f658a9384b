"""Dialogs: sign in (and the first run's admin), add a user, reset a PIN, change my PIN, open a
table and shift, add a table from a settings file, close the shift, the reason for a void, the
floor's PIN, a dispute, the seats of a time-collected table and the void of a seat or period
mark.

Each dialog shows a refused input in a red line inside itself and stays open, so nothing typed
is lost; it returns plain values and the caller makes the service call.

One module per family: `base` (the form every dialog is built on, the PIN boxes), `people`
(sign in, users, PINs), `tables` (open a table, add one from a file), `approvals` (the
floor's PIN, a void's reason, disputes) and `seats` (a time-collected table's seats, the void
of a mark, the time to collect).
"""

from __future__ import annotations

from dealer_assist.ui.dialogs.approvals import (
    ApprovalDialog,
    DisputeDialog,
    VoidReasonDialog,
    parse_adjustments,
)
from dealer_assist.ui.dialogs.base import (
    PIN_IN_NAME_BOX,
    NotesEdit,
    _Dialog,
    confirm_quit,
    looks_like_pin,
    mask_pin_like,
)
from dealer_assist.ui.dialogs.people import (
    AddUserDialog,
    ChangePinDialog,
    FirstAdminDialog,
    ResetPinDialog,
    SignInDialog,
)
from dealer_assist.ui.dialogs.seats import (
    CollectTimeDialog,
    SeatsDialog,
    VoidMarkDialog,
)
from dealer_assist.ui.dialogs.tables import (
    OpenTableDialog,
    add_table_from_file,
    settings_lines,
)

__all__ = [
    "PIN_IN_NAME_BOX",
    "AddUserDialog",
    "ApprovalDialog",
    "ChangePinDialog",
    "CollectTimeDialog",
    "DisputeDialog",
    "FirstAdminDialog",
    "NotesEdit",
    "OpenTableDialog",
    "ResetPinDialog",
    "SeatsDialog",
    "SignInDialog",
    "VoidMarkDialog",
    "VoidReasonDialog",
    "_Dialog",
    "add_table_from_file",
    "confirm_quit",
    "looks_like_pin",
    "mask_pin_like",
    "parse_adjustments",
    "settings_lines",
]

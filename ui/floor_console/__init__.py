"""The floor manager's console: hands across tables with filters, a replay with a step slider,
reveal a destroyed hand (logged), record a dispute, export a hand, a shift or a table's game as
PDF, verify.

Replays come from the store (``Services.hand_replay``), so the floor sees the table exactly as
it stood after each recorded event, voids included.

`layout` lays the console out, `find`, `replay` and `actions` are what it does, `screen`
puts the parts together, `times` keeps its times in UTC.
"""

from __future__ import annotations

from dealer_assist.ui.floor_console.actions import FloorActions
from dealer_assist.ui.floor_console.find import FindPart
from dealer_assist.ui.floor_console.layout import (
    COLUMNS,
    FloorLayout,
    ReasonBox,
)
from dealer_assist.ui.floor_console.replay import ReplayPart
from dealer_assist.ui.floor_console.screen import FloorConsole
from dealer_assist.ui.floor_console.times import (
    _aware,
    _wall_clock,
    utc_time_box,
)

__all__ = [
    "COLUMNS",
    "FindPart",
    "FloorActions",
    "FloorConsole",
    "FloorLayout",
    "ReasonBox",
    "ReplayPart",
    "_aware",
    "_wall_clock",
    "utc_time_box",
]

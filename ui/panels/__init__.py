"""The dealer screen's parts built from engine records: the action bar (from a Prompt), the
discard chooser (for a discard that may be face down), the push checklist (from a Settlement),
the hand's history and the database banner. Views only: they emit what the dealer chose;
controllers act on it.

One module per part: `actions` (the action bar and its keys), `discards`, `push` (the push
checklist), `history` (the hand's history, the banner) and `time` (the time to collect).
"""

from __future__ import annotations

from dealer_assist.ui.panels.actions import (
    GROUP_OVER,
    ActionBar,
    FlowLayout,
    action_keys,
    button_text,
    kind_heading,
    needs_cards,
    shortcut,
)
from dealer_assist.ui.panels.discards import DiscardPanel
from dealer_assist.ui.panels.history import (
    Banner,
    HistoryList,
)
from dealer_assist.ui.panels.push import (
    PushChecklist,
    PushLine,
    StepRow,
    push_lines,
)
from dealer_assist.ui.panels.time import (
    TimeChecklist,
    time_lines,
    time_total_text,
)

__all__ = [
    "GROUP_OVER",
    "ActionBar",
    "Banner",
    "DiscardPanel",
    "FlowLayout",
    "HistoryList",
    "PushChecklist",
    "PushLine",
    "StepRow",
    "TimeChecklist",
    "action_keys",
    "button_text",
    "kind_heading",
    "needs_cards",
    "push_lines",
    "shortcut",
    "time_lines",
    "time_total_text",
]

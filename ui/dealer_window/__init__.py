"""The dealer's table screen (the main window holds it beside the floor console).

The screen is a view: it lays out the table, the prompt, the action bar, the card entry, the
discard chooser and the push checklist, and redraws them all from the controller's hand after
each recorded event. Every action has a key, all of them in one table
(``dealer_assist.ui.keys.DEALER_KEYS``, which F1 shows): the action's letter, digits for Caro
Hold 'em's kept count, Enter for cards, T to tick a push step, N for the next hand, O to open a
table, X to close the shift, Ctrl+Z to undo, F4 for a misdeal, F2 for the card picker, F5 to
retry. In games played with stacks, F3 (between hands) sets the next hand's stacks: a rebuy, an
add-on, a new player. At a table whose fee is a time collection, F6 opens the seats (who sits
in, who leaves) and F7 marks the period and lists the time to collect from each seat.

`layout` lays the screen out and draws it, `hand_entry`, `between_hands` and `fixes` are
what its buttons do, `keys` runs the key table of `dealer_assist.ui.keys` (the table F1's help
is written from), `screen` puts the parts together.
"""

from __future__ import annotations

from dealer_assist.ui.dealer_window.between_hands import BetweenHands
from dealer_assist.ui.dealer_window.fixes import Fixes
from dealer_assist.ui.dealer_window.hand_entry import HandEntry
from dealer_assist.ui.dealer_window.keys import (
    DealerKeys,
    matches,
)
from dealer_assist.ui.dealer_window.layout import DealerLayout
from dealer_assist.ui.dealer_window.pages import (
    PAGE_ACT,
    PAGE_DISCARD,
    PAGE_IDLE,
    PAGE_PUSH,
    SEAT_LINE,
    BottomPages,
    fee_before_deal,
    grouped_by_seat,
)
from dealer_assist.ui.dealer_window.screen import DealerScreen

__all__ = [
    "PAGE_ACT",
    "PAGE_DISCARD",
    "PAGE_IDLE",
    "PAGE_PUSH",
    "SEAT_LINE",
    "BetweenHands",
    "BottomPages",
    "DealerKeys",
    "DealerLayout",
    "DealerScreen",
    "Fixes",
    "HandEntry",
    "fee_before_deal",
    "grouped_by_seat",
    "matches",
]

"""The dealer's table screen, put together from its parts."""

from __future__ import annotations

from dealer_assist.ui.dealer_window.between_hands import BetweenHands
from dealer_assist.ui.dealer_window.fixes import Fixes
from dealer_assist.ui.dealer_window.hand_entry import HandEntry
from dealer_assist.ui.dealer_window.keys import DealerKeys


class DealerScreen(DealerKeys, HandEntry, BetweenHands, Fixes):
    """One table, as the dealer runs it."""

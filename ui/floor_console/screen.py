"""The floor console, put together from its parts."""

from __future__ import annotations

from dealer_assist.ui.floor_console.actions import FloorActions
from dealer_assist.ui.floor_console.find import FindPart
from dealer_assist.ui.floor_console.replay import ReplayPart


class FloorConsole(FindPart, ReplayPart, FloorActions):
    """Hands list on the left, the chosen hand's replay and the floor's actions on the right."""

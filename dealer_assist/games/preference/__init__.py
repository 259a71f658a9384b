"""Preference (Austrian): three active players bid for the talon or a Game, ten tricks, a pot
seeded in tens of stakes and carried from hand to hand."""

from __future__ import annotations

from dealer_assist.games.preference.game import Preference

GAME = Preference()

__all__ = ["GAME", "Preference"]

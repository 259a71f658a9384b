"""Rams: five tricks for a pot carried from hand to hand; each player plays, passes, switches
for the widow or bids Rams (all five tricks)."""

from __future__ import annotations

from dealer_assist.games.rams.game import RamsGame

GAME = RamsGame()

__all__ = ["GAME", "RamsGame"]

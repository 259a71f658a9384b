"""Mille: two-player rummy with two decks, its score sheet carried from hand to hand, naturals
and chapeaux, and the settlement at stakes when the game ends."""

from __future__ import annotations

from dealer_assist.games.mille.game import GAME, Mille
from dealer_assist.games.mille.state import MilleSettings, MilleState

__all__ = ["GAME", "Mille", "MilleSettings", "MilleState"]

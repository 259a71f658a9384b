"""Tally, a game package that lives only in the tests (see ``game.py``): importing this package
registers it, as a game's registry line would."""

from anygame.game import GAME, NAME
from dealer_assist.engine.registry import register

register(NAME, "anygame")

__all__ = ["GAME", "NAME"]

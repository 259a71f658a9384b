"""Guts: two cards, declare in or out, the losers pay the pot into the next one."""

from dealer_assist.games.guts.game import Guts

GAME = Guts()

__all__ = ["GAME", "Guts"]

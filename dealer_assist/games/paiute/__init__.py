"""Paiute: five cards each, a wild rank turned up, draws and discards, calls of five- and
six-card combinations and the last turns after them."""

from dealer_assist.games.paiute.game import GAME, Paiute

__all__ = ["GAME", "Paiute"]

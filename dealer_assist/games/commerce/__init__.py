"""Commerce: three cards each and three face up in the middle, exchanges with the board, a
knock and last turns, the best three-card combination takes the pot."""

from dealer_assist.games.commerce.game import GAME, Commerce

__all__ = ["GAME", "Commerce"]

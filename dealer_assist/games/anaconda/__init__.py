"""Anaconda: seven cards, two passing rounds, a high-low declaration, four cards rolled face up
one at a time, on the shared betting engine; what cannot be split stays in the pot."""

from dealer_assist.games.anaconda.game import Anaconda

GAME = Anaconda()

__all__ = ["GAME", "Anaconda"]

"""Pineapple, Crazy Pineapple and Crazy Pineapple Hi-Lo: hold 'em with three hole cards and one
discard, in fixed limit, pot-limit or no-limit, on the shared betting engine."""

from dealer_assist.games.pineapple.game import Pineapple

GAME = Pineapple()

__all__ = ["GAME", "Pineapple"]

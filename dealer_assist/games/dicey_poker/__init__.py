"""Dicey Poker: cards and dice, chips on face-up cards, jokers won in wild challenges, a
running total over hands to the target."""

from dealer_assist.games.dicey_poker.game import DiceyPoker

GAME = DiceyPoker()

__all__ = ["GAME", "DiceyPoker"]

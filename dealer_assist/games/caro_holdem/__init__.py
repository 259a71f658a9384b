"""Caro Hold 'em: five private cards, a 2-1-2 board, wagers paid per card held, discards face up
and at most two private cards at the showdown."""

from __future__ import annotations

from dealer_assist.games.caro_holdem.game import CaroHoldem

GAME = CaroHoldem()

__all__ = ["GAME", "CaroHoldem"]

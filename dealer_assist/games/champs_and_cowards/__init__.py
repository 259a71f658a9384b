"""Champs and Cowards: one up card each, champs buy cards into a bonus pool, cowards stop, and
only the best three stopped hands are paid from the players' stacked antes."""

from __future__ import annotations

from dealer_assist.games.champs_and_cowards.game import ChampsAndCowards

GAME = ChampsAndCowards()

__all__ = ["GAME", "ChampsAndCowards"]

"""A Champs and Cowards whose dossier declares a measure under a common figure's name ("pot"):
the registry refuses it as it loads."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.declare import GameDossier, Measure
from dealer_assist.games.champs_and_cowards.game import ChampsAndCowards


class ClashingDossier(ChampsAndCowards):
    def dossier(self) -> Any:
        return GameDossier(rules=(), rulings=(), strategy="",
                           measures=(Measure("pot", "The pot played for", "money"),))


GAME = ClashingDossier()

"""A Champs and Cowards that loses a chip in every settlement: the dossier must name it."""

from __future__ import annotations

from dataclasses import replace

from dealer_assist.engine.base import Settlement
from dealer_assist.games.champs_and_cowards.game import ChampsAndCowards
from dealer_assist.games.champs_and_cowards.state import CCState


class LosesAChip(ChampsAndCowards):
    def settle(self, state: CCState) -> Settlement:
        s = super().settle(state)
        seat = min(s.payouts)
        return replace(s, payouts={**s.payouts, seat: s.payouts[seat] - 100})


GAME = LosesAChip()

"""Chinese Poker: thirteen cards set into three rows, naturals and surrenders, scored player to
player."""

from __future__ import annotations

from dealer_assist.games.chinese_poker.game import GAME, ChinesePoker
from dealer_assist.games.chinese_poker.sample import sample_events
from dealer_assist.games.chinese_poker.settle import (
    natural_kind,
    natural_problem,
    natural_strength,
    outcome,
)
from dealer_assist.games.chinese_poker.state import (
    SCOOP_BONUS,
    SURRENDER_UNITS,
    ChineseSettings,
    ChineseState,
)

__all__ = [
    "GAME", "SCOOP_BONUS", "SURRENDER_UNITS", "ChinesePoker", "ChineseSettings", "ChineseState",
    "natural_kind", "natural_problem", "natural_strength", "outcome", "sample_events",
]

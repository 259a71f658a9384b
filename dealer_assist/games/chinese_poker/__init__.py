"""Chinese Poker: thirteen cards set into three rows, naturals and surrenders, scored player to
player."""

from __future__ import annotations

from dealer_assist.games.chinese_poker.game import (
    GAME,
    SCOOP_BONUS,
    SURRENDER_UNITS,
    ChinesePoker,
    ChineseSettings,
    ChineseState,
    natural_kind,
    natural_problem,
    natural_strength,
    outcome,
    sample_events,
)

__all__ = [
    "GAME", "SCOOP_BONUS", "SURRENDER_UNITS", "ChinesePoker", "ChineseSettings", "ChineseState",
    "natural_kind", "natural_problem", "natural_strength", "outcome", "sample_events",
]

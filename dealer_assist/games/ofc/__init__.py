"""Open-Face Chinese Poker (with Pineapple OFC and fantasyland): cards placed one by one into
three rows, scored player to player with royalties."""

from __future__ import annotations

from dealer_assist.games.ofc.game import GAME, OpenFaceChinesePoker
from dealer_assist.games.ofc.sample import sample_events
from dealer_assist.games.ofc.settle import (
    Outcome,
    earns_fantasyland,
    next_button,
    outcome,
    stays_in_fantasyland,
)
from dealer_assist.games.ofc.state import (
    ENTRY_RANKS,
    FIRST_DEAL,
    FOUL_PENALTY,
    PINEAPPLE_MAX_PLAYERS,
    SCOOP_BONUS,
    Fantasyland,
    OfcSettings,
    OfcState,
)

__all__ = [
    "ENTRY_RANKS", "FIRST_DEAL", "FOUL_PENALTY", "GAME", "PINEAPPLE_MAX_PLAYERS", "SCOOP_BONUS",
    "Fantasyland", "OfcSettings", "OfcState", "OpenFaceChinesePoker", "Outcome",
    "earns_fantasyland", "next_button", "outcome", "sample_events", "stays_in_fantasyland",
]

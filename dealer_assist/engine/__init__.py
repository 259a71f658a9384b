"""The game engine: the interface every game module implements, the registry and the hand fold."""

from dealer_assist.engine.base import (
    Action,
    FeeLine,
    Game,
    Option,
    Prompt,
    PushStep,
    SeatView,
    Settlement,
    TableView,
)
from dealer_assist.engine.hand import HandReplay, Step, read_log, replay
from dealer_assist.engine.registry import game_names, get_game

__all__ = [
    "Action",
    "FeeLine",
    "Game",
    "HandReplay",
    "Option",
    "Prompt",
    "PushStep",
    "SeatView",
    "Settlement",
    "Step",
    "TableView",
    "game_names",
    "get_game",
    "read_log",
    "replay",
]

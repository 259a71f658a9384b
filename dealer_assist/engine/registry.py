"""The registry of games: name -> module, imported on first use."""

from __future__ import annotations

import importlib
import importlib.util
from typing import Any

from dealer_assist.engine.base import Game
from dealer_assist.errors import BadInput

#: Game name (as in a hand log's start event) -> module defining ``GAME``.
_MODULES: dict[str, str] = {
    "champs-and-cowards": "dealer_assist.games.champs_and_cowards",
    "caro-holdem": "dealer_assist.games.caro_holdem",
    "ofc": "dealer_assist.games.ofc",
    "chinese-poker": "dealer_assist.games.chinese_poker",
    "pineapple": "dealer_assist.games.pineapple",
    "guts": "dealer_assist.games.guts",
    "anaconda": "dealer_assist.games.anaconda",
    "dicey-poker": "dealer_assist.games.dicey_poker",
    "mille": "dealer_assist.games.mille",
    "commerce": "dealer_assist.games.commerce",
    "paiute": "dealer_assist.games.paiute",
    "rams": "dealer_assist.games.rams",
    "preference": "dealer_assist.games.preference",
    "markets": "dealer_assist.games.markets",
}
_LOADED: dict[str, Game[Any]] = {}


def register(name: str, module: str) -> None:
    """Make a game module known (plug-ins and tests)."""
    _MODULES[name] = module
    _LOADED.pop(name, None)


def game_names() -> list[str]:
    """Games whose module is present in this installation."""
    names = []
    for name, module in _MODULES.items():
        if importlib.util.find_spec(module) is not None:
            names.append(name)
    return names


def get_game(name: str) -> Game[Any]:
    if name in _LOADED:
        return _LOADED[name]
    module = _MODULES.get(name)
    if module is None or importlib.util.find_spec(module) is None:
        known = ", ".join(game_names())
        raise BadInput(f'unknown game "{name}": this version knows {known}')
    game = importlib.import_module(module).GAME
    if not isinstance(game, Game):
        raise TypeError(f"{module}.GAME is not a Game")
    try:  # its dossier's declaration is checked as it registers (a measure's name, say)
        game.dossier()
    except ValueError as exc:
        raise TypeError(f"{module}: {exc}") from exc
    _LOADED[name] = game
    return game

"""How a simulated table deals (Plan): the table's settings document, the start settings every
hand takes, the players per hand, the pace the hours are worked out at and the buy-in."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealer_assist.engine.base import Game
from dealer_assist.engine.declare import GameDossier
from dealer_assist.engine.registry import get_game
from dealer_assist.settings.table import TableSettings, parse_table_settings, start_params


@dataclass(frozen=True, slots=True)
class Pace:
    """The stated pace the hands per hour are worked out at: seconds per dealer input, and
    seconds between hands (the push, gathering and shuffling)."""

    per_input: int = 5
    between: int = 45

    def seconds(self, inputs: int) -> int:
        return self.per_input * inputs + self.between


@dataclass(frozen=True, slots=True)
class Plan:
    """How the simulated table deals: the settings document (as read from its file), the
    start settings every hand takes, the players per hand and the pace; for a game of many
    hands, the buy-in every stack starts from."""

    document: Mapping[str, Any]
    base: str | None
    game: str
    params: Mapping[str, Any]
    players: int
    carries: bool
    pace: Pace = Pace()
    buy_in: int | None = None

    def settings(self) -> TableSettings:
        return parse_table_settings(self.document, base=Path(self.base) if self.base else None)


def plan(document: Mapping[str, Any], settings: TableSettings, *, players: int | None = None,
         pace: Pace | None = None, base: str | None = None) -> Plan:
    """The plan for a table: every hand starts with the table's ``start_params`` (without the
    per-hand keys) and the game's own settings the table leaves out at the values the game
    plays them (:attr:`GameDossier.defaults`), the fee for its limit, and a carry-in where the
    game carries."""
    game = get_game(settings.game)
    spec = game.dossier()
    params = dict(spec.defaults) if spec is not None else {}
    params.update((k, v) for k, v in start_params(settings).items()
                  if k not in ("type", "game", "seats"))
    low, high = game.players
    most = min(high, len(settings.seats))
    n = most if players is None else players
    if not low <= n <= most:
        from dealer_assist.errors import BadInput

        raise BadInput(f"{game.title} is dealt to {low} to {high} players and the table has "
                       f"{len(settings.seats)} seats: give --players from {low} to {most}")
    return Plan(dict(document), base, settings.game, params, n,
                "carry_in" in game.start_keys, pace or Pace(), settings.buy_in)


def dossier_of(game: Game[Any]) -> GameDossier | None:
    return game.dossier()

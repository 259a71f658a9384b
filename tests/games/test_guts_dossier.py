"""Guts in the game-approval dossier: the simulation deals its hands in a run at one table,
each starting with the pot the hand before left, under the game's own name (``pot_in``)."""

from __future__ import annotations

from typing import Any

from dealer_assist.dossier.simulate import plan, simulate
from dealer_assist.games.guts import GAME
from dealer_assist.settings.table import parse_table_settings

GUTS: dict[str, Any] = {
    "game": "guts", "seats": 5, "smallest_chip": 100, "buy_in": 10000,
    "params": {"ante": 100, "max": 2000}, "fee": {"kind": "rake", "percent": "5", "cap": 200},
}


def test_regression_the_dossier_threads_the_carried_pot_under_the_games_name() -> None:
    p = plan(GUTS, parse_table_settings(GUTS))
    t = simulate(p, 120, seed=3, workers=1, chunk=120)
    # whole games: the run's last game is played to its end (a few more hands)
    assert t.checked == t.hands >= 120 and t.failed == 0, t.failures
    carried = t.numbers["carry"]
    starts = t.numbers["carry_in"]
    assert carried.n > 0 and starts.total > 0
    # every pot carried is the next hand's pot_in; the run ends with a game, its pot empty
    assert starts.total == carried.total
    assert GAME.dossier().measures[0].key == "nobody_in"

"""A Champs and Cowards that loses a chip in every settlement: the dossier must name it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
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


@contextmanager
def in_place_of_champs() -> Iterator[None]:
    """Champs and Cowards hands are dealt and replayed by the broken game meanwhile; the
    caches that remember a game by its start text are emptied on the way in and out."""
    from dealer_assist.engine import registry, stored

    def forget() -> None:
        stored._begin_text.cache_clear()
        stored._PARSERS.clear()

    real = registry._MODULES["champs-and-cowards"]
    registry.register("champs-and-cowards", __name__)
    forget()
    try:
        yield
    finally:
        registry.register("champs-and-cowards", real)
        forget()

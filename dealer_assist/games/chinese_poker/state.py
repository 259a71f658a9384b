"""Chinese Poker: the settings (unit, pair units) and the immutable state of a hand."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from dealer_assist.cards import Card
from dealer_assist.engine.base import (
    FeeLine,
)
from dealer_assist.engine.seats import from_left
from dealer_assist.games.open_face.rows import (
    Rows,
    Stakes,
)

#: The game's name in its hand logs.
NAME = "chinese-poker"
SCOOP_BONUS = 3


SURRENDER_UNITS = 2


#: Naturals from highest to lowest: (order, units each opponent pays).
NATURALS: Mapping[str, tuple[int, int]] = {
    "dragon": (4, 13),
    "three-flushes": (3, 3),
    "three-straights": (2, 3),
    "six-pairs": (1, 3),
}


NATURAL_NAMES: Mapping[str, str] = {
    "dragon": "a dragon", "three-flushes": "three flushes",
    "three-straights": "three straights", "six-pairs": "six pairs",
}


@dataclass(frozen=True, slots=True)
class ChineseSettings:
    seats: tuple[int, ...]
    button: int
    stakes: Stakes
    #: House fees collected before the deal (per-player, or a fixed fee from the button).
    fees: tuple[FeeLine, ...]

    @property
    def unit(self) -> int:
        return self.stakes.unit

    @property
    def order(self) -> tuple[int, ...]:
        return from_left(self.seats, self.button)


@dataclass(frozen=True, slots=True)
class ChineseState:
    settings: ChineseSettings
    sets: Mapping[int, Rows] = field(default_factory=dict)
    naturals: Mapping[int, str] = field(default_factory=dict)
    #: A seat that declared a natural and has not yet shown it.
    showing: int | None = None
    surrendered: tuple[int, ...] = ()
    #: True once an ordinary hand has been shown: declarations are closed.
    revealed: bool = False
    where: Mapping[Card, int] = field(default_factory=dict)

    @property
    def waiting(self) -> tuple[int, ...]:
        """Seats whose hand is not yet recorded, surrendered or declared, in turn order."""
        return tuple(s for s in self.settings.order
                     if s not in self.sets and s not in self.surrendered)

    @property
    def over(self) -> bool:
        return self.showing is None and not self.waiting

    def plays_rows(self, seat: int) -> bool:
        return seat in self.sets and seat not in self.naturals

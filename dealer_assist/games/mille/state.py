"""Mille's immutable state: the table's settings for the hand, the score sheet's lines so far
and, when the play is recorded turn by turn, the pile, the stock and each hand's size."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.base import FeeLine
from dealer_assist.games.mille.rules import SeatScore, seat_score, winner_of

#: Turn phases of the turn-by-turn setting.
UPCARD, DRAW, TAKE, PLAY = "upcard", "draw", "take", "play"


@dataclass(frozen=True, slots=True)
class MilleSettings:
    seats: tuple[int, ...]
    dealer: int
    #: [small, large] in cents.
    stakes: tuple[int, int]
    turns: bool
    totals_in: Mapping[int, int]
    naturals_in: Mapping[int, int]
    chapeaux_in: Mapping[int, int]
    fees: tuple[FeeLine, ...] = ()
    #: The ``_in`` maps as the start gave them (what a hand dealt again keeps).
    given: Mapping[str, Any] = field(default_factory=dict)

    def other(self, seat: int) -> int:
        return self.seats[1] if seat == self.seats[0] else self.seats[0]

    @property
    def first(self) -> int:
        """The non-dealer plays first."""
        return self.other(self.dealer)


def _empty() -> dict[Any, Any]:
    return {}


@dataclass(frozen=True, slots=True)
class MilleState:
    settings: MilleSettings
    #: seat -> rank -> the cards melded of that rank (2 for the meld of 2s), in order.
    melds: Mapping[int, Mapping[int, tuple[Card, ...]]] = field(default_factory=_empty)
    #: seat -> the cards left in hand, once recorded.
    left: Mapping[int, tuple[Card, ...]] = field(default_factory=_empty)
    out: int | None = None
    #: Copies of each card recorded where they can be seen (melds, cards left, the pile, cards
    #: known to be in a hand): two decks hold two of each.
    seen: Mapping[Card, int] = field(default_factory=_empty)
    # --- turn by turn ---
    phase: str = PLAY
    turn: int | None = None
    pile: tuple[Card, ...] = ()
    stock: int = 0
    #: seat -> how many cards it holds.
    held: Mapping[int, int] = field(default_factory=_empty)
    #: seat -> cards known to be in its hand (taken with the pile, not yet melded or thrown).
    known: Mapping[int, tuple[Card, ...]] = field(default_factory=_empty)

    @property
    def over(self) -> bool:
        return self.out is not None and self.settings.other(self.out) in self.left

    def closed(self, seat: int) -> bool:
        """A seat whose hand is finished on the sheet: it went out or its cards left are in."""
        return seat == self.out or seat in self.left

    def score(self, seat: int) -> SeatScore:
        return seat_score(self.melds.get(seat, {}), self.left.get(seat, ()))

    def hand_scores(self) -> dict[int, int]:
        return {s: self.score(s).score for s in self.settings.seats}

    def totals(self) -> dict[int, int]:
        """Running totals: carried in, plus this hand's score once the hand is over."""
        st = self.settings
        return {s: st.totals_in.get(s, 0) + (self.score(s).score if self.over else 0)
                for s in st.seats}

    def naturals(self) -> dict[int, int]:
        st = self.settings
        return {s: st.naturals_in.get(s, 0) + (self.score(s).naturals if self.over else 0)
                for s in st.seats}

    def chapeaux(self) -> dict[int, int]:
        st = self.settings
        return {s: st.chapeaux_in.get(s, 0) + (1 if self.over and self.score(s).chapeau else 0)
                for s in st.seats}

    @property
    def winner(self) -> int | None:
        return winner_of(self.totals()) if self.over else None

"""The immutable state of one Pineapple hand.

Hole cards are dealt face down and never typed: the state knows how many each seat holds, and
which only once they are shown (or discarded face up). The money is the betting engine's
:class:`BettingState`; the game keeps the cards, the discards owed and the showdown.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.cards import Card
from dealer_assist.engine.base import FeeLine
from dealer_assist.engine.betting import BettingState
from dealer_assist.engine.evolve import evolver
from dealer_assist.games.pineapple.settings import Settings

BETTING = "betting"
BOARD = "board"
SHOWDOWN = "showdown"
OVER = "over"


@dataclass(frozen=True, slots=True)
class State:
    """The hand after some events.

    - ``held``: hole cards each seat holds (3, then 2 after its discard), by seat.
    - ``discards``: each seat's discards shown face up (a face-down discard names none).
    - ``shown``/``mucked``: the showdown so far; ``killed``: hands the dealer declared dead.
    - ``pre_fees``: fees taken from the stacks before the deal (a fee per player).
    """

    settings: Settings
    bet: BettingState
    held: tuple[tuple[int, int], ...]
    phase: str = BETTING
    street: int = 0
    board: tuple[Card, ...] = ()
    discards: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    shown: tuple[tuple[int, tuple[Card, ...]], ...] = ()
    mucked: frozenset[int] = frozenset()
    killed: tuple[tuple[int, str], ...] = ()
    known: frozenset[Card] = frozenset()
    pre_fees: tuple[FeeLine, ...] = ()
    #: the showdown order, fixed when the last betting round closes
    order: tuple[int, ...] = ()

    def holding(self, seat: int) -> int:
        return dict(self.held)[seat]

    @property
    def live(self) -> tuple[int, ...]:
        return self.bet.live

    def owing(self) -> tuple[int, ...]:
        """Seats still in that owe their discard now (the discard's betting round is over and
        the next board card not yet dealt), clockwise."""
        if self.phase != BOARD or self.street != self.settings.discard_after:
            return ()
        held = dict(self.held)
        return tuple(s for s in self.live if held[s] == 3)

    def shown_cards(self) -> dict[int, tuple[Card, ...]]:
        return dict(self.shown)

    def to_show(self) -> int | None:
        """The next seat to show or muck at the showdown, in order."""
        if self.phase != SHOWDOWN:
            return None
        done = set(dict(self.shown)) | self.mucked
        return next((s for s in self.order if s not in done and s in self.live), None)

    def must_show(self, seat: int) -> bool:
        """The first to show must (the last aggressor, else the first left of the button); with
        a player all-in every hand still in is tabled."""
        if self.shown:
            return any(self.bet.stacks[self.bet.index(s)] == 0 for s in self.live)
        return True


evolve = evolver(State)

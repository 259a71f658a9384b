"""Mille: a two-player rummy game with two decks, played over many hands to 1,200 points and
settled at stakes "small-large" when the game ends.

Each hand is one logged hand: the melds, the cards left and who went out (or, with the table
setting ``"turns": true``, the play turn by turn, from which the same sheet follows). The
running totals, naturals and chapeaux carry from hand to hand in the start (``totals_in``,
``naturals_in``, ``chapeaux_in``); the dealer is ``dealer`` in the log. Money moves only at
the end of the game: the loser pays the winner."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.engine.base import (
    DemoTable,
    Game,
    Prompt,
    ScoreSheet,
    Setting,
    Settlement,
    TableView,
)
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Start
from dealer_assist.games.mille import play, present
from dealer_assist.games.mille.events import EVENTS
from dealer_assist.games.mille.sample import sample_events
from dealer_assist.games.mille.settle import paid_before_deal, settlement
from dealer_assist.games.mille.state import MilleState

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier

NAME = "mille"


class Mille(Game[MilleState]):
    name = NAME
    title = "Mille"
    players: ClassVar[tuple[int, int]] = (2, 2)
    has_button = False  # the deal alternates; no dealer's button
    start_keys: ClassVar[tuple[str, ...]] = ("button",)
    start_key_names: ClassVar[Mapping[str, str]] = MappingProxyType({"button": "dealer"})
    carries: ClassVar[tuple[str, ...]] = play.CARRIED
    events = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("stakes", "stakes (small, large)", "money"),
        Setting("turns", "play recorded turn by turn", "flag"),
    )
    statuses: ClassVar[Mapping[str, str]] = MappingProxyType({"went_out": "went out"})
    demo = DemoTable(
        settings={"game": NAME, "seats": 2, "smallest_chip": 100, "stakes": "$1-$5",
                  "params": {"stakes": [100, 500]}},
        players=(2, 2), sample={"turns": False},
    )

    def start(self, event: Start) -> MilleState:
        return play.start(event, button_key=self.key("button"))

    def check(self, state: MilleState, event: Event) -> None:
        play.check(state, event)

    def transition(self, state: MilleState, event: Event) -> MilleState:
        return play.transition(state, event)

    def prompt(self, state: MilleState) -> Prompt:
        return present.prompt(state)

    def is_over(self, state: MilleState) -> bool:
        return state.over

    def view(self, state: MilleState, *, reveal: bool = False) -> TableView:
        return present.view(state, self.name)

    def report(self, state: MilleState) -> dict[str, Any]:
        return present.report(state)

    def narrate(self, before: MilleState, event: Event, after: MilleState) -> list[str]:
        return present.narrate(before, event, after)

    def secret_seats(self, state: MilleState) -> frozenset[int]:
        """Every card of a finished hand is on the sheet: nothing stays secret."""
        return frozenset()

    # --- money --------------------------------------------------------------------------------

    def contributions(self, state: MilleState) -> Mapping[int, int]:
        return paid_before_deal(state)

    def settle(self, state: MilleState) -> Settlement:
        if not state.over:
            raise RuleViolation(f"the hand is not over: {self.prompt(state).message}",
                                rule="input")
        return settlement(state)

    # --- from hand to hand ------------------------------------------------------------------

    def game_over(self, state: MilleState) -> bool:
        return state.winner is not None

    def score_sheet(self, states: Sequence[MilleState]) -> ScoreSheet | None:
        return present.score_sheet(states)

    def next_hand(self, state: MilleState) -> dict[str, Any]:
        """The running totals, naturals and chapeaux, until the game is over; then nothing
        (the next hand starts a new game from zero)."""
        if not state.over or self.game_over(state):
            return {}
        return play.carried_keys(state)

    def next_hand_seats(self, state: MilleState, seats: tuple[int, ...]) -> dict[str, Any]:
        """The sheet belongs to the two players: the same two seats listed in another order
        keep it; any other pair starts a new game."""
        if set(seats) != set(state.settings.seats):
            return {}
        return self.next_hand(state)

    def redeal(self, state: MilleState) -> dict[str, Any]:
        """A hand dealt again keeps what this one carried in."""
        return dict(state.settings.given)

    def dossier(self) -> GameDossier:
        from dealer_assist.games.mille.dossier import DOSSIER

        return DOSSIER

    def sample_hand(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> list[Event]:
        given = dict(params or {})
        unknown = sorted(set(given) - {"fee", "smallest_chip", *play.KEYS})
        if unknown:
            raise ValueError(f"{self.title} sample hands do not take {', '.join(unknown)}")
        if players != 2:
            raise ValueError(f"{self.title} is played by two, not {players}")
        return sample_events(rng, given)


GAME = Mille()

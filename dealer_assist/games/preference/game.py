"""The :class:`Game` for Preference (Austrian): the ante, the bidding, the talon and trumps, the
defenders, the ten tricks and the pot carried from hand to hand, on the screen and the replay."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.engine.base import DemoTable, Prompt, ScoreSheet, Setting, Settlement, TableView
from dealer_assist.events import Event, Start, Vocabulary
from dealer_assist.games.preference import present
from dealer_assist.games.preference.events import EVENTS
from dealer_assist.games.preference.play import check, step, transition
from dealer_assist.games.preference.settle import settlement
from dealer_assist.games.preference.state import NAME, PrefState, start_state
from dealer_assist.games.tricks.table import PotTrickGame

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier


class Preference(PotTrickGame[PrefState]):
    """Austrian Preference: three active players bid for the talon or a Game, ten tricks, a pot
    seeded in tens of stakes and carried from hand to hand."""

    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Preference"
    players: ClassVar[tuple[int, int]] = (3, 4)
    events: ClassVar[Vocabulary] = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("stake", "stake", "money"),
        Setting("revoke", "revoke", "choice", ("floor",)),
    )
    demo: ClassVar[DemoTable | None] = DemoTable(
        settings={"game": NAME, "seats": 4, "smallest_chip": 100, "stakes": "$1 stakes",
                  "params": {"stake": 100}},
        players=(3, 4), sample={"stake": 100})

    def start(self, event: Start) -> PrefState:
        return start_state(event)

    def check(self, state: PrefState, event: Event) -> None:
        check(state, event)

    def transition(self, state: PrefState, event: Event) -> PrefState:
        return transition(state, event)

    apply = staticmethod(step)

    def settle(self, state: PrefState) -> Settlement:
        return settlement(state)

    def antes(self, state: PrefState) -> dict[int, int]:
        """The ante of each active player."""
        return {s: state.ante * state.stake for s in state.active if state.ante}

    def next_hand(self, state: PrefState) -> dict[str, Any]:
        """After everyone passed, the same dealer deals again."""
        return {"dealer": state.dealer} if state.all_passed and not state.ended else {}

    def game_over(self, state: PrefState) -> bool:
        """The game ends when the players choose to end it and share the pot."""
        return state.ended

    # --- the screen (present.py) -----------------------------------------------------------------
    def prompt(self, state: PrefState) -> Prompt:
        return present.prompt(state)

    def view(self, state: PrefState, *, reveal: bool = False) -> TableView:
        return present.view(state, self)

    def report(self, state: PrefState) -> dict[str, Any]:
        return present.report(state)

    def narrate(self, before: PrefState, event: Event, after: PrefState) -> list[str]:
        lines = present.narrate(before, event, after)
        return super().narrate(before, event, after) if lines is None else lines

    def score_sheet(self, states: Sequence[PrefState]) -> ScoreSheet | None:
        return present.score_sheet(states, self)

    def dossier(self) -> GameDossier:
        from dealer_assist.games.preference.dossier import DOSSIER

        return DOSSIER

    def sample(self, rng: random.Random, *, players: int, **params: Any) -> list[Event]:
        from dealer_assist.games.preference.sample import sample_hand

        return sample_hand(rng, players=players, **params)

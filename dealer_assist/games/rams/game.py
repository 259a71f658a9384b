"""The :class:`Game` for Rams: the declarations, the tricks and the pot carried from hand to hand,
as the dealer runs them on the screen and the replay reads them."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.engine.base import DemoTable, Prompt, ScoreSheet, Setting, Settlement, TableView
from dealer_assist.events import Event, Start, Vocabulary
from dealer_assist.games.rams import present
from dealer_assist.games.rams.events import EVENTS
from dealer_assist.games.rams.play import check, step, transition
from dealer_assist.games.rams.settle import settlement
from dealer_assist.games.rams.state import NAME, RamsState, start_state
from dealer_assist.games.tricks.table import PotTrickGame

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier


class RamsGame(PotTrickGame[RamsState]):
    """Five tricks for a pot that carries: play, pass, take the widow, or bid Rams."""

    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Rams"
    players: ClassVar[tuple[int, int]] = (3, 5)
    events: ClassVar[Vocabulary] = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("stake", "counter", "money"),
        Setting("revoke", "revoke", "choice", ("floor",)),
    )
    statuses: ClassVar[Mapping[str, str]] = MappingProxyType({})
    demo: ClassVar[DemoTable | None] = DemoTable(
        settings={"game": NAME, "seats": 5, "smallest_chip": 100, "stakes": "$1 counters",
                  "params": {"stake": 100},
                  "fee": {"kind": "per-player", "amount": 100}},
        players=(3, 5), sample={"stake": 100})

    def start(self, event: Start) -> RamsState:
        return start_state(event)

    def check(self, state: RamsState, event: Event) -> None:
        check(state, event)

    def transition(self, state: RamsState, event: Event) -> RamsState:
        return transition(state, event)

    apply = staticmethod(step)

    def settle(self, state: RamsState) -> Settlement:
        return settlement(state)

    def antes(self, state: RamsState) -> dict[int, int]:
        """The dealer's ante."""
        return {state.dealer: state.ante}

    def next_hand(self, state: RamsState) -> dict[str, Any]:
        """After everyone before the dealer passed, the same dealer deals again."""
        return {"dealer": state.dealer} if state.redeal else {}

    def game_over(self, state: RamsState) -> bool:
        """The game (the pot's life) ends when a hand leaves the pot empty."""
        return state.over and self.settle(state).carry_out == 0

    # --- the screen (present.py) -----------------------------------------------------------------
    def prompt(self, state: RamsState) -> Prompt:
        return present.prompt(state)

    def view(self, state: RamsState, *, reveal: bool = False) -> TableView:
        return present.view(state, self)

    def report(self, state: RamsState) -> dict[str, Any]:
        return present.report(state)

    def narrate(self, before: RamsState, event: Event, after: RamsState) -> list[str]:
        lines = present.narrate(before, event, after)
        return super().narrate(before, event, after) if lines is None else lines

    def score_sheet(self, states: Sequence[RamsState]) -> ScoreSheet | None:
        return present.score_sheet(states, self)

    def dossier(self) -> GameDossier:
        from dealer_assist.games.rams.dossier import DOSSIER

        return DOSSIER

    def sample(self, rng: random.Random, *, players: int, **params: Any) -> list[Event]:
        from dealer_assist.games.rams.sample import sample_hand

        return sample_hand(rng, players=players, **params)

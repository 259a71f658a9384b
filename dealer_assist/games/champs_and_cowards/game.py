"""The :class:`Game` for Champs and Cowards, wiring the pure functions of its modules."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from dealer_assist.engine.base import Game, Prompt, Settlement, TableView
from dealer_assist.events import Event, Start
from dealer_assist.games.champs_and_cowards import play, present, settle
from dealer_assist.games.champs_and_cowards.sample import sample_hand
from dealer_assist.games.champs_and_cowards.state import CCState, start_state


class ChampsAndCowards(Game[CCState]):
    """Up cards set the order; champs pay two chips a card, cowards stop; three places paid."""

    name: ClassVar[str] = "champs-and-cowards"
    title: ClassVar[str] = "Champs and Cowards"

    def start(self, event: Start) -> CCState:
        return start_state(event)

    def check(self, state: CCState, event: Event) -> None:
        play.check(state, event)

    def transition(self, state: CCState, event: Event) -> CCState:
        return play.transition(state, event)

    #: ``apply`` is :func:`play.step` itself (the check and the new state in one pass), with no
    #: method of its own in between: a replay calls it for every event.
    apply = staticmethod(play.step)

    def prompt(self, state: CCState) -> Prompt:
        return present.prompt(state)

    def is_over(self, state: CCState) -> bool:
        return state.over

    def settle(self, state: CCState) -> Settlement:
        return settle.settle(state)

    def contributions(self, state: CCState) -> dict[int, int]:
        """The antes, champ payments and fees each seat has put in so far."""
        return {seat: state.put_in(seat) for seat in state.seats}

    def carried_in(self, state: CCState) -> int:
        return state.carry_in

    def view(self, state: CCState, *, reveal: bool = False) -> TableView:
        return present.view(state, reveal=reveal)

    def report(self, state: CCState) -> dict[str, Any]:
        return present.report(state)

    def narrate(self, before: CCState, event: Event, after: CCState) -> list[str]:
        return present.narrate(before, event, after)

    def sample_hand(
        self,
        rng: random.Random,
        *,
        players: int,
        decks: int = 1,
        chip: int = 200,
        carry_in: int = 0,
        fee: dict[str, Any] | None = None,
    ) -> list[Event]:
        return sample_hand(
            rng, players=players, decks=decks, chip=chip, carry_in=carry_in, fee=fee
        )

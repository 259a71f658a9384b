"""The :class:`Game` for Anaconda, wiring the pure functions of its modules."""

from __future__ import annotations

import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.engine.base import (
    DemoTable,
    Game,
    Prompt,
    SampleDeal,
    Setting,
    Settlement,
    TableView,
)
from dealer_assist.events import Event, Start, Vocabulary
from dealer_assist.games.anaconda import present
from dealer_assist.games.anaconda.events import EVENTS
from dealer_assist.games.anaconda.play import start_state, step
from dealer_assist.games.anaconda.sample import sample_deal, sample_hand
from dealer_assist.games.anaconda.settle import settlement
from dealer_assist.games.anaconda.state import MAX_SEATS, OVER, STRUCTURES, State

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier

_STAKES = {"structure": "limit", "ante": 100, "small_bet": 200, "big_bet": 400, "cap": 4}


class Anaconda(Game[State]):
    """Seven cards, two passes, high or low declared, four cards rolled, the pot split."""

    name: ClassVar[str] = "anaconda"
    title: ClassVar[str] = "Anaconda"
    players: ClassVar[tuple[int, int]] = (2, MAX_SEATS)
    start_keys: ClassVar[tuple[str, ...]] = ("button", "stacks", "carry_in")
    start_key_names: ClassVar[Mapping[str, str]] = MappingProxyType({"carry_in": "pot_in"})
    events: ClassVar[Vocabulary] = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("structure", "structure", "choice", STRUCTURES),
        Setting("ante", "ante", "money"),
        Setting("small_bet", "small bet", "money"), Setting("big_bet", "big bet", "money"),
        Setting("cap", "cap", "count"),
        Setting("heads_up_uncapped", "heads-up uncapped", "flag"),
        Setting("bet_each_roll", "a betting round after each roll", "flag"),
    )
    demo: ClassVar[DemoTable | None] = DemoTable(
        settings={"game": "anaconda", "seats": 7, "smallest_chip": 100,
                  "stakes": "$2/$4 limit Anaconda, $1 ante", "buy_in": 20000,
                  "params": _STAKES, "fee": {"kind": "rake", "percent": "5", "cap": 300}},
        players=(3, 6),
        sample=_STAKES,
    )

    def start(self, event: Start) -> State:
        return start_state(event, self.key("carry_in"))

    def check(self, state: State, event: Event) -> None:
        step(state, event)

    def transition(self, state: State, event: Event) -> State:
        return step(state, event)

    apply = staticmethod(step)

    def prompt(self, state: State) -> Prompt:
        return present.prompt(state)

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def settle(self, state: State) -> Settlement:
        return settlement(state)

    def contributions(self, state: State) -> dict[int, int]:
        """Antes and wagers each seat has in the pot, and fees taken before the deal."""
        bet = state.bet
        out = {s: bet.put_in[i] - bet.returned[i] for i, s in enumerate(bet.seats)}
        for line in state.pre_fees:
            if line.from_seat is not None:
                out[line.from_seat] = out.get(line.from_seat, 0) + line.amount
        return out

    def carried_in(self, state: State) -> int:
        return state.table.pot_in

    def game_over(self, state: State) -> bool:
        """The game ends when a hand leaves nothing in the pot (ruling anaconda-3: what cannot
        be split evenly stays in the pot for the next hand)."""
        return state.phase == OVER and settlement(state).carry_out == 0

    def stacks_left(self, state: State) -> dict[int, int]:
        bet = state.bet
        return {s: bet.stacks[i] - bet.returned[i] for i, s in enumerate(bet.seats)}

    def view(self, state: State, *, reveal: bool = False) -> TableView:
        return present.view(state, reveal=reveal)

    def report(self, state: State) -> dict[str, Any]:
        return present.report(state)

    def narrate(self, before: State, event: Event, after: State) -> list[str]:
        return present.narrate(before, event, after)

    def dossier(self) -> GameDossier:
        from dealer_assist.games.anaconda.dossier import DOSSIER

        return DOSSIER

    def sample_hand(
        self, rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
    ) -> list[Event]:
        return sample_hand(rng, players=players, params=params)

    def sample_deal(
        self, rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
    ) -> SampleDeal[State]:
        """:meth:`sample_hand`'s hand with the state its dealing reached."""
        return sample_deal(rng, players=players, params=params)

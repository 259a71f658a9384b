"""The :class:`Game` for Pineapple, Crazy Pineapple and Crazy Pineapple Hi-Lo, wiring the pure
functions of its modules. The variant and the betting structure are start settings."""

from __future__ import annotations

import random
from collections.abc import Mapping
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
from dealer_assist.games.pineapple import present
from dealer_assist.games.pineapple.events import EVENTS
from dealer_assist.games.pineapple.play import start_state, step
from dealer_assist.games.pineapple.sample import deal_hand
from dealer_assist.games.pineapple.settings import MAX_SEATS
from dealer_assist.games.pineapple.settle import settlement
from dealer_assist.games.pineapple.state import OVER, State

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier


def _demo(variant: str, structure: str, stakes: str, blinds: dict[str, Any],
          fee: dict[str, Any]) -> DemoTable:
    """A demo table of one variant in one structure; its hands are dealt in the same."""
    params = {"variant": variant, "structure": structure, **blinds}
    return DemoTable(
        settings={"game": "pineapple", "seats": 9, "smallest_chip": 100, "stakes": stakes,
                  "buy_in": 20000, "params": params, "fee": fee},
        players=(2, 6),
        sample=params,
    )


class Pineapple(Game[State]):
    """Hold 'em with three hole cards, one discarded before the flop (Pineapple) or before the
    turn (Crazy Pineapple, and its hi-lo split), in limit, pot-limit or no-limit."""

    name: ClassVar[str] = "pineapple"
    title: ClassVar[str] = "Pineapple"
    players: ClassVar[tuple[int, int]] = (2, MAX_SEATS)
    start_keys: ClassVar[tuple[str, ...]] = ("button", "stacks")
    events: ClassVar[Vocabulary] = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("variant", "variant", "choice", ("pineapple", "crazy", "crazy-hi-lo")),
        Setting("structure", "structure", "choice", ("limit", "pot-limit", "no-limit")),
        Setting("blinds", "blinds", "money"), Setting("ante", "ante", "money"),
        Setting("small_bet", "small bet", "money"), Setting("big_bet", "big bet", "money"),
        Setting("cap", "cap", "count"),
        Setting("heads_up_uncapped", "heads-up uncapped", "flag"),
    )
    demo: ClassVar[DemoTable | None] = _demo(
        "pineapple", "limit", "$2/$4 limit Pineapple",
        {"blinds": [100, 200], "small_bet": 200, "big_bet": 400, "cap": 4},
        {"kind": "rake", "percent": "10", "cap": 400},
    )
    more_demos: ClassVar[tuple[DemoTable, ...]] = (
        _demo("crazy", "pot-limit", "$1/$2 pot-limit Crazy Pineapple", {"blinds": [100, 200]},
              {"kind": "rake", "percent": "5", "cap": 500}),
        _demo("crazy-hi-lo", "no-limit", "$1/$2 no-limit Crazy Pineapple Hi-Lo",
              {"blinds": [100, 200]}, {"kind": "rake", "percent": "5", "cap": 300}),
    )

    def start(self, event: Start) -> State:
        return start_state(event)

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
        """Antes, blinds and wagers each seat has in the pot, and fees taken before the deal."""
        bet = state.bet
        out = {s: bet.put_in[i] - bet.returned[i] for i, s in enumerate(bet.seats)}
        for line in state.pre_fees:
            if line.from_seat is not None:
                out[line.from_seat] = out.get(line.from_seat, 0) + line.amount
        return out

    def view(self, state: State, *, reveal: bool = False) -> TableView:
        return present.view(state, reveal=reveal)

    def report(self, state: State) -> dict[str, Any]:
        return present.report(state)

    def narrate(self, before: State, event: Event, after: State) -> list[str]:
        return present.narrate(before, event, after)

    def stacks_left(self, state: State) -> dict[int, int]:
        """Chips behind: uncalled chips come back with the settlement's pushes."""
        bet = state.bet
        return {s: bet.stacks[i] - bet.returned[i] for i, s in enumerate(bet.seats)}

    def held(self, state: State, seat: int) -> int:
        return dict(state.held).get(seat, 0)

    def dossier(self) -> GameDossier:
        from dealer_assist.games.pineapple.dossier import DOSSIER

        return DOSSIER

    def sample_hand(
        self, rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
    ) -> list[Event]:
        return self._deal(rng, players=players, params=params).events

    def sample_deal(
        self, rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
    ) -> SampleDeal[State]:
        """:meth:`sample_hand`'s hand with the state its dealing reached."""
        return self._deal(rng, players=players, params=params)

    def _deal(
        self, rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
    ) -> SampleDeal[State]:
        return deal_hand(rng, players=players, params=params)

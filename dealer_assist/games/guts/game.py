"""The :class:`Game` for Guts, wiring the pure functions of its modules."""

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
from dealer_assist.games.guts import play, present
from dealer_assist.games.guts.events import EVENTS
from dealer_assist.games.guts.sample import sample_deal, sample_hand
from dealer_assist.games.guts.settle import outcome, settlement
from dealer_assist.games.guts.state import (
    DECLARE_MODES,
    MAX_SEATS,
    OVER,
    SHORT_MODES,
    State,
    start_state,
)

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier

_STAKES = {"ante": 100, "max": 2000}


class Guts(Game[State]):
    """Two cards, in or out; the players in who lose pay the pot into the next one."""

    name: ClassVar[str] = "guts"
    title: ClassVar[str] = "Guts"
    players: ClassVar[tuple[int, int]] = (2, MAX_SEATS)
    start_keys: ClassVar[tuple[str, ...]] = ("button", "stacks", "carry_in")
    start_key_names: ClassVar[Mapping[str, str]] = MappingProxyType({"carry_in": "pot_in"})
    events: ClassVar[Vocabulary] = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("ante", "ante", "money"),
        Setting("max", "most a loser pays", "money"),
        Setting("declare", "declarations", "choice", DECLARE_MODES),
        Setting("short", "a player who cannot cover the pot", "choice", SHORT_MODES),
    )
    demo: ClassVar[DemoTable | None] = DemoTable(
        settings={"game": "guts", "seats": 7, "smallest_chip": 100,
                  "stakes": "$1 ante, $20 most a loser pays", "buy_in": 10000,
                  "params": _STAKES, "fee": {"kind": "rake", "percent": "5", "cap": 200}},
        players=(3, 7),
        sample=_STAKES,
    )

    def start(self, event: Start) -> State:
        return start_state(event, self.key("carry_in"))

    def check(self, state: State, event: Event) -> None:
        play.check(state, event)

    def transition(self, state: State, event: Event) -> State:
        return play.transition(state, event)

    apply = staticmethod(play.step)

    def prompt(self, state: State) -> Prompt:
        return present.prompt(state)

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def settle(self, state: State) -> Settlement:
        return settlement(state)

    def contributions(self, state: State) -> dict[int, int]:
        """Fees before the deal and antes: what a misdeal gives back."""
        out = dict.fromkeys(state.table.seats, 0)
        for line in state.pre_fees:
            if line.from_seat is not None:
                out[line.from_seat] += line.amount
        for s, a in state.antes.items():
            out[s] += a
        return out

    def carried_in(self, state: State) -> int:
        return state.table.pot_in

    def game_over(self, state: State) -> bool:
        """The game (the pot's life, ruling guts-1) ends when a hand leaves the pot empty: the
        next hand everyone antes again."""
        return state.phase == OVER and outcome(state).carry == 0

    def stacks_left(self, state: State) -> dict[int, int]:
        """Chips behind after fees, antes and, once the hand is over, what a loser paid."""
        pays = outcome(state).pays if state.phase == OVER else {}
        return {s: state.behind[s] - pays.get(s, 0) for s in state.table.seats}

    def view(self, state: State, *, reveal: bool = False) -> TableView:
        return present.view(state, reveal=reveal)

    def report(self, state: State) -> dict[str, Any]:
        return present.report(state)

    def narrate(self, before: State, event: Event, after: State) -> list[str]:
        return present.narrate(before, event, after)

    def held(self, state: State, seat: int) -> int:
        return 0 if seat in state.shown else 2

    def dossier(self) -> GameDossier:
        from dealer_assist.games.guts.dossier import DOSSIER

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

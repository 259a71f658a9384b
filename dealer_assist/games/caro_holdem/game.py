"""The :class:`Game` for Caro Hold 'em, wiring the pure functions of its modules."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.engine.base import (
    DemoTable,
    EarlierRule,
    Game,
    Prompt,
    SampleDeal,
    Setting,
    Settlement,
    TableView,
)
from dealer_assist.events import Event, Start
from dealer_assist.games.caro_holdem import present
from dealer_assist.games.caro_holdem.play import start_state, step
from dealer_assist.games.caro_holdem.sample import TABLE_SETTINGS, deal_hand, sample_start
from dealer_assist.games.caro_holdem.settings import MAX_SEATS
from dealer_assist.games.caro_holdem.showdown import settlement
from dealer_assist.games.caro_holdem.state import OVER, State

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier


class CaroHoldem(Game[State]):
    """Five private cards, a 2-1-2 board, and every wager paid once per card still held."""

    name: ClassVar[str] = "caro-holdem"
    title: ClassVar[str] = "Caro Hold 'em"
    players: ClassVar[tuple[int, int]] = (2, MAX_SEATS)
    start_keys: ClassVar[tuple[str, ...]] = ("button", "stacks")
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("unit", "unit", "money"), Setting("ante", "ante", "money"),
        Setting("blinds", "blinds", "money"), Setting("cap", "cap", "count"),
        Setting("heads_up_uncapped", "heads-up uncapped", "flag"),
        Setting("multipliers", "round multipliers", "count"),
    )
    demo: ClassVar[DemoTable | None] = DemoTable(
        settings={
            "game": "caro-holdem", "seats": 8, "smallest_chip": 100,
            "stakes": "$10 unit, $1 ante", "limit": 1000, "buy_in": 100000,
            "params": {"unit": 1000, "ante": 100, "cap": 4},
            "fee": {"kind": "rake", "percent": "5", "cap": 500, "min_pot": 1000},
        },
        players=(2, 6),
        time_switch=True,
    )

    def start(self, event: Start) -> State:
        return start_state(event)

    def check(self, state: State, event: Event) -> None:
        step(state, event)

    def transition(self, state: State, event: Event) -> State:
        return step(state, event)

    #: ``apply`` is :func:`step` itself (which checks an input by computing its result), with
    #: no method of its own in between: a replay calls it for every event.
    apply = staticmethod(step)

    def prompt(self, state: State) -> Prompt:
        return present.prompt(state)

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def settle(self, state: State) -> Settlement:
        return settlement(state)

    def earlier_rules(self, state: State) -> Sequence[EarlierRule]:
        from dealer_assist.games.caro_holdem._legacy import earlier_rules

        return earlier_rules(state)

    def contributions(self, state: State) -> dict[int, int]:
        """Antes, blinds and wagers each seat has put in so far, and fees taken before the
        deal."""
        put_in = {s.seat: s.hand_in for s in state.seats}
        for line in state.pre_fees:
            if line.from_seat is not None:
                put_in[line.from_seat] = put_in.get(line.from_seat, 0) + line.amount
        return put_in

    def view(self, state: State, *, reveal: bool = False) -> TableView:
        return present.view(state, reveal=reveal)

    def report(self, state: State) -> dict[str, Any]:
        return present.report(state)

    def narrate(self, before: State, event: Event, after: State) -> list[str]:
        return present.narrate(before, event, after)

    def stacks_left(self, state: State) -> dict[int, int]:
        return {s.seat: s.stack for s in state.seats}

    def dossier(self) -> GameDossier:
        from dealer_assist.games.caro_holdem.dossier import DOSSIER

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
        given = dict(params or {})
        unknown = sorted(set(given) - {"fee", *TABLE_SETTINGS})
        if unknown:
            raise ValueError(f"{self.title} sample hands do not take {', '.join(unknown)}")
        fee = given.pop("fee", None)
        start = sample_start(rng, players=players, fee=fee, fixed=given) if given else None
        return deal_hand(rng, players=players, fee=fee, start=start)

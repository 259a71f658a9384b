"""The :class:`Game` for Champs and Cowards, wiring the pure functions of its modules."""

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
from dealer_assist.games.champs_and_cowards import play, present, settle
from dealer_assist.games.champs_and_cowards.events import EVENTS
from dealer_assist.games.champs_and_cowards.sample import deal_hand
from dealer_assist.games.champs_and_cowards.state import CCState, start_state

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier


class ChampsAndCowards(Game[CCState]):
    """Up cards set the order; champs pay two chips a card, cowards stop; three places paid."""

    name: ClassVar[str] = "champs-and-cowards"
    title: ClassVar[str] = "Champs and Cowards"
    players: ClassVar[tuple[int, int]] = (3, 12)  # (three and up, as many as a table seats)
    has_button: ClassVar[bool] = False
    start_keys: ClassVar[tuple[str, ...]] = ("carry_in",)
    events: ClassVar[Vocabulary] = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("chip", "chip", "money"), Setting("decks", "decks", "count"),
    )
    statuses: ClassVar[Mapping[str, str]] = MappingProxyType({
        "voluntarily_destroyed": "destroyed (stopped low)",
        "dealer_destroyed": "destroyed by the dealer",
    })
    demo: ClassVar[DemoTable | None] = DemoTable(
        settings={
            "game": "champs-and-cowards", "seats": 8, "smallest_chip": 100,
            "stakes": "$2 chips", "params": {"chip": 200, "decks": 1},
            "fee": {"kind": "per-player", "amount": 100},
        },
        players=(4, 8),
    )

    def start(self, event: Start) -> CCState:
        return start_state(event)

    def check(self, state: CCState, event: Event) -> None:
        play.check(state, event)

    def transition(self, state: CCState, event: Event) -> CCState:
        return play.transition(state, event)

    #: ``apply`` is :func:`play.step` itself (the check and the new state in one pass), with no
    #: method of its own in between: a replay calls it for every event.
    apply = staticmethod(play.step)

    def working(self, state: CCState) -> play.CCWork:
        """The hand worked on in place (:class:`play.CCWork`): ``apply`` is its ``put`` on a
        fresh copy, so a fold through it and a fold through ``apply`` are the same rules."""
        return play.CCWork(state)

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

    def dossier(self) -> GameDossier:
        from dealer_assist.games.champs_and_cowards.dossier import DOSSIER

        return DOSSIER

    def sample_hand(
        self, rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
    ) -> list[Event]:
        return self._deal(rng, players=players, params=params).events

    def sample_deal(
        self, rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
    ) -> SampleDeal[CCState]:
        """:meth:`sample_hand`'s hand with the state its dealing reached."""
        return self._deal(rng, players=players, params=params)

    def _deal(
        self, rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
    ) -> SampleDeal[CCState]:
        given = dict(params or {})
        unknown = sorted(set(given) - {"chip", "decks", "carry_in", "fee", "smallest_chip"})
        if unknown:
            raise ValueError(f"{self.title} sample hands do not take {', '.join(unknown)}")
        return deal_hand(rng, players=players, **given)

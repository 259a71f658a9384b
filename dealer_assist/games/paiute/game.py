"""Paiute (rulings Paiute 1-2).

Each seat antes and is dealt five cards the app never sees. The card turned up (``wild``)
names the wild rank and stays out of play; the ``upcard`` starts the discard pile. From the
dealer's left a turn draws from the stock (unseen) or takes the top of the discard pile, then
discards one card face up; the card just taken from the pile cannot go straight back. A seat
calls by showing its hand as a combination: five cards after its discard, or six straight
after its draw when the sixth card is part of the combination; a paiute only on the seat's
first turn. After the first call every seat after the caller, through the dealer, has one last
turn (draw, discard, then call or pass) and may call only with a combination that beats or ties
the best call so far. If the dealer calls first, the dealer wins at once. The best call takes
the pot; tied best calls split it (the odd chips from the dealer's left).

The app keeps the discard pile exactly, counts the stock, and knows which seat holds each card
taken from the pile: a discard or a call must not name a card known to be elsewhere, and a call
must show every card its seat took from the pile and kept.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.engine.base import DemoTable, Prompt, Setting, TableView
from dealer_assist.events import Event, Vocabulary
from dealer_assist.games.ante_pot import AnteGame, AnteTable
from dealer_assist.games.paiute import play, present
from dealer_assist.games.paiute.events import EVENTS
from dealer_assist.games.paiute.state import NAME, PLAYERS, State

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier


class Paiute(AnteGame[State]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Paiute"
    players: ClassVar[tuple[int, int]] = PLAYERS
    events: ClassVar[Vocabulary] = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (Setting("ante", "ante", "money"),)
    ante_key: ClassVar[str] = "ante"
    ante_what: ClassVar[str] = "each seat's ante"
    demo: ClassVar[DemoTable | None] = DemoTable(
        settings={"game": NAME, "seats": 5, "smallest_chip": 100, "stakes": "$1 ante",
                  "params": {"ante": 100}},
        players=(2, 5), sample={"ante": 100},
    )

    # --- start, check, transition (play.py) ------------------------------------------------------
    def new_hand(self, table: AnteTable) -> State:
        return State(table=table)

    def check(self, state: State, event: Event) -> None:
        play.check(state, event)

    def transition(self, state: State, event: Event) -> State:
        return play.transition(state, event)

    # --- prompt, view, report (present.py) -------------------------------------------------------

    def prompt(self, state: State) -> Prompt:
        return present.prompt(state)

    def view(self, state: State, *, reveal: bool = False) -> TableView:
        return present.view(state)

    def secret_seats(self, state: State) -> frozenset[int]:
        return present.secret_seats(state)

    def report(self, state: State) -> dict[str, Any]:
        return present.report(state)

    def narrate(self, before: State, event: Event, after: State) -> list[str]:
        lines = present.narrate(before, event, after)
        return super().narrate(before, event, after) if lines is None else lines

    # --- money -----------------------------------------------------------------------------------

    def won(self, state: State) -> tuple[list[int], str]:
        winners = state.winners()
        top = state.best()
        assert top is not None
        why = ("the best call, " if len(winners) == 1 else "tied best calls, ") + top.description
        return winners, why

    def dossier(self) -> GameDossier:
        from dealer_assist.games.paiute.dossier import DOSSIER

        return DOSSIER

    def deal_sample(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any]) -> list[Event]:
        from dealer_assist.games.paiute.sample import sample_hand

        return sample_hand(self, rng, players=players, params=params)


GAME = Paiute()

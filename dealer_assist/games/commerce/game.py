"""Commerce (rulings Commerce 1-3).

Each seat antes one stake and is dealt three cards the app never sees; three cards go face up in
the middle (the ``board`` line). Before the first turn the dealer may exchange one to three
cards blind with the board. From the dealer's left each turn is an exchange of one to three
cards with the board, or a knock; a three-card exchange once per seat per hand. After a knock
every other seat takes one last turn (an exchange or a stand), ending with the seat on the
knocker's right; then every seat shows its three cards, in any order, and the best hand takes
the pot (a tie splits it in the smallest chip, the odd chips from the dealer's left).

The app keeps the board exactly, and where each card taken from it went: a card given to the
board must not be on it already or known in another hand, and a hand shown must hold every
card its seat took and kept, and no card known to be elsewhere.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.engine.base import DemoTable, Prompt, Setting, TableView
from dealer_assist.events import Event, Vocabulary
from dealer_assist.games.ante_pot import AnteGame, AnteTable
from dealer_assist.games.commerce import play, present
from dealer_assist.games.commerce.events import EVENTS
from dealer_assist.games.commerce.state import NAME, PLAYERS, State, best

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier


class Commerce(AnteGame[State]):
    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Commerce"
    players: ClassVar[tuple[int, int]] = PLAYERS
    events: ClassVar[Vocabulary] = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (Setting("stake", "stake", "money"),)
    ante_key: ClassVar[str] = "stake"
    ante_what: ClassVar[str] = "one stake, the ante"
    demo: ClassVar[DemoTable | None] = DemoTable(
        settings={"game": NAME, "seats": 6, "smallest_chip": 100, "stakes": "$1 stake",
                  "params": {"stake": 100}},
        players=(3, 6), sample={"stake": 100},
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
        winners, hands = best(state)
        why = "the best hand, " + hands[winners[0]].description
        if len(winners) > 1:
            why = "a tie, " + hands[winners[0]].description
        return winners, why

    def dossier(self) -> GameDossier:
        from dealer_assist.games.commerce.dossier import DOSSIER

        return DOSSIER

    def deal_sample(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any]) -> list[Event]:
        from dealer_assist.games.commerce.sample import sample_hand

        return sample_hand(self, rng, players=players, params=params)


GAME = Commerce()

"""Chinese Poker: thirteen cards each set into three rows, settled player to player in units.

Before any hand is shown, naturals are declared (and shown: the holder's ``set`` follows its
``natural``), then players may surrender. The first ordinary hand recorded is the reveal: from
then on only the remaining hands are recorded. Naturals and surrenderers play no rows."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.engine.base import DemoTable, Game, Prompt, Setting, Settlement, TableView
from dealer_assist.events import Event, Start
from dealer_assist.fees.table import fees_by_seat
from dealer_assist.games.chinese_poker import play, present
from dealer_assist.games.chinese_poker.events import EVENTS
from dealer_assist.games.chinese_poker.sample import sample_events
from dealer_assist.games.chinese_poker.settle import outcome
from dealer_assist.games.chinese_poker.state import NAME, ChineseState
from dealer_assist.games.open_face.rows import require_finished, settle_pairs

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier


class ChinesePoker(Game[ChineseState]):
    name = NAME
    title = "Chinese Poker"
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("unit", "unit", "money"), Setting("pair_units", "units by pair", "text"),
    )
    players = (2, 4)
    events = EVENTS
    demo = DemoTable(
        settings={"game": "chinese-poker", "seats": 4, "smallest_chip": 100,
                  "stakes": "$1 a unit", "params": {"unit": 100}},
        players=(2, 4),
    )

    # --- the rules (play.py) ---------------------------------------------------------------------

    def start(self, event: Start) -> ChineseState:
        return play.start(event)

    def check(self, state: ChineseState, event: Event) -> None:
        play.check(state, event)

    def transition(self, state: ChineseState, event: Event) -> ChineseState:
        return play.transition(state, event)

    # --- prompt, view (present.py) ---------------------------------------------------------------

    def is_over(self, state: ChineseState) -> bool:
        return state.over

    def prompt(self, state: ChineseState) -> Prompt:
        return present.prompt(state)

    def view(self, state: ChineseState, *, reveal: bool = False) -> TableView:
        return present.view(state, reveal=reveal)

    # --- settle, report --------------------------------------------------------------------------

    def contributions(self, state: ChineseState) -> dict[int, int]:
        """Only the house fees taken before the deal are on the table until the settlement."""
        return fees_by_seat(state.settings.seats, state.settings.fees)

    def settle(self, state: ChineseState) -> Settlement:
        require_finished(state.over, self.prompt(state).message if not state.over else "")
        return settle_pairs(state.settings.seats, outcome(state).pairs, state.settings.stakes,
                            state.settings.fees)

    def report(self, state: ChineseState) -> dict[str, Any]:
        return present.report(state)

    def narrate(self, before: ChineseState, event: Event, after: ChineseState) -> list[str]:
        return present.narrate(before, event, after)

    def dossier(self) -> GameDossier:
        from dealer_assist.games.chinese_poker.dossier import DOSSIER

        return DOSSIER

    def sample_hand(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> list[Event]:
        given = dict(params or {})
        unknown = sorted(set(given) - {"fee", "unit", "smallest_chip"})
        if unknown:
            raise ValueError(f"{self.title} sample hands do not take {', '.join(unknown)}")
        return sample_events(rng, players=players, **given)


GAME = ChinesePoker()

"""Open-Face Chinese Poker: thirteen cards placed face up into three rows, settled pair by pair.

Turn order starts on the button's left. Each player places a first five cards, then one card a turn
(Pineapple: three cards a turn, two placed and one discarded) until every row is full. Seats in
fantasyland set all thirteen cards at once, after everyone else's first five."""

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
from dealer_assist.events import Event, Start
from dealer_assist.fees.table import fees_by_seat
from dealer_assist.games.ofc import play, present
from dealer_assist.games.ofc.events import EVENTS
from dealer_assist.games.ofc.sample import deal_events
from dealer_assist.games.ofc.settle import next_button, outcome
from dealer_assist.games.ofc.state import NAME, OfcState
from dealer_assist.games.open_face.rows import require_finished, settle_pairs

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier


class OpenFaceChinesePoker(Game[OfcState]):
    name = NAME
    title = "Open-Face Chinese Poker"
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("unit", "unit", "money"), Setting("pair_units", "units by pair", "text"),
        Setting("pineapple", "pineapple deal", "flag"),
        Setting("royalties", "royalties", "choice", ("rules-text", "pineapple")),
        Setting("fantasyland", "fantasyland", "text"),
    )
    players = (2, 4)
    events = EVENTS
    #: A seat that earns fantasyland is dealt it in the next hand: verify holds the next start
    #: to it (a seat put into fantasyland or left out of it without a new game is named).
    carries = ("in_fantasyland",)
    demo = DemoTable(
        settings={"game": "ofc", "seats": 4, "smallest_chip": 100, "stakes": "$1 a point",
                  "params": {"unit": 100}},
        players=(2, 3),
    )

    # --- the rules (play.py) ---------------------------------------------------------------------

    def start(self, event: Start) -> OfcState:
        return play.start(event)

    def check(self, state: OfcState, event: Event) -> None:
        play.check(state, event)

    def transition(self, state: OfcState, event: Event) -> OfcState:
        return play.transition(state, event)

    # --- prompt, view (present.py) ---------------------------------------------------------------

    def is_over(self, state: OfcState) -> bool:
        return state.over

    def prompt(self, state: OfcState) -> Prompt:
        return present.prompt(state)

    def view(self, state: OfcState, *, reveal: bool = False) -> TableView:
        return present.view(state, reveal=reveal)

    # --- settle, report --------------------------------------------------------------------------

    def contributions(self, state: OfcState) -> dict[int, int]:
        """Only the house fees taken before the deal are on the table until the settlement."""
        return fees_by_seat(state.settings.seats, state.settings.fees)

    def settle(self, state: OfcState) -> Settlement:
        require_finished(state.over, self.prompt(state).message if not state.over else "")
        out = outcome(state)
        st = state.settings
        return settle_pairs(st.seats, out.pairs, st.stakes, st.fees, extra={
            "fantasyland": list(out.fantasyland), "next_button": next_button(state)})

    def report(self, state: OfcState) -> dict[str, Any]:
        return present.report(state)

    def redeal(self, state: OfcState) -> dict[str, Any]:
        """After a misdeal the same seats play in fantasyland again."""
        seats = state.settings.in_fantasyland
        return {"in_fantasyland": sorted(seats)} if seats else {}

    def next_hand(self, state: OfcState) -> dict[str, Any]:
        """Fantasyland seats for the next hand, and the button (it stays after fantasyland)."""
        if not state.over:
            return {}
        out = outcome(state)
        carried: dict[str, Any] = {"button": next_button(state)}
        if out.fantasyland:
            carried["in_fantasyland"] = sorted(out.fantasyland)
        return carried

    def next_hand_seats(self, state: OfcState, seats: tuple[int, ...]) -> dict[str, Any]:
        """When a player sits down or leaves (ruling 5): each seat that earned fantasyland and
        still plays keeps it, a seat that left takes it away with it (nobody else gets it),
        and after a hand anyone played in fantasyland the button stays where it was if that
        seat still plays (if it left, the table moves the button on as usual)."""
        if not state.over:
            return {}
        carried: dict[str, Any] = {}
        button = next_button(state)
        if button == state.settings.button and button in seats:
            carried["button"] = button
        kept = sorted(s for s in outcome(state).fantasyland if s in seats)
        if kept:
            carried["in_fantasyland"] = kept
        return carried

    def narrate(self, before: OfcState, event: Event, after: OfcState) -> list[str]:
        return present.narrate(before, event, after)

    # --- sample hands ----------------------------------------------------------------------------

    def dossier(self) -> GameDossier:
        from dealer_assist.games.ofc.dossier import DOSSIER

        return DOSSIER

    def sample_hand(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> list[Event]:
        return self._deal(rng, players=players, params=params).events

    def sample_deal(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> SampleDeal[Any]:
        """:meth:`sample_hand`'s hand with the state its dealing reached."""
        return self._deal(rng, players=players, params=params)

    def _deal(self, rng: random.Random, *, players: int,
              params: Mapping[str, Any] | None = None) -> SampleDeal[Any]:
        given = dict(params or {})
        unknown = sorted(set(given) - {"fee", "unit", "pineapple", "fantasyland", "royalties",
                                     "smallest_chip", *self.carries})
        if unknown:
            raise ValueError(f"{self.title} sample hands do not take {', '.join(unknown)}")
        if "royalties" in given:
            given["royalties_table"] = given.pop("royalties")
        if "fantasyland" in given:
            given["fantasyland"] = tuple(given["fantasyland"])
        if "in_fantasyland" in given:  # carried from the hand before (the demo's next hand)
            given["in_fantasyland"] = tuple(given["in_fantasyland"])
        return deal_events(rng, players=players, **given)


GAME = OpenFaceChinesePoker()

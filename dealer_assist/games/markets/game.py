"""The :class:`Game` for Markets poker, wiring the pure functions of its modules.

Three to five players keep their chips from hand to hand; a game ends when anyone ends a hand
below 12 chips. What carries from hand to hand within a game is the advantage cards the folded
players chose (``advantage``); the stacks carry as in every game played with stacks.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.engine.base import (
    DemoTable,
    Game,
    Prompt,
    ScoreSheet,
    Setting,
    Settlement,
    TableView,
)
from dealer_assist.events import Event, Start, Vocabulary
from dealer_assist.games.markets import present
from dealer_assist.games.markets.events import EVENTS
from dealer_assist.games.markets.play import NAME, start_state, step
from dealer_assist.games.markets.sample import sample_hand
from dealer_assist.games.markets.settle import (
    settlement,
    short_seats,
    stacks_after,
    stacks_left,
)
from dealer_assist.games.markets.state import GAME_FLOOR, OVER, State

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier


class Markets(Game[State]):
    """Markets poker: products, a disclosure, the supplier auction, the market leader's half
    and the niche's half of the pot."""

    name: ClassVar[str] = NAME
    title: ClassVar[str] = "Markets poker"
    players: ClassVar[tuple[int, int]] = (3, 5)
    start_keys: ClassVar[tuple[str, ...]] = ("button", "stacks")
    start_key_names: ClassVar[Mapping[str, str]] = MappingProxyType({"button": "dealer"})
    carries: ClassVar[tuple[str, ...]] = ("advantage",)
    events: ClassVar[Vocabulary] = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (Setting("chip", "chip value", "money"),)
    demo: ClassVar[DemoTable | None] = DemoTable(
        settings={"game": NAME, "seats": 5, "smallest_chip": 100, "buy_in": 3000,
                  "stakes": "$1 chips Markets poker", "params": {"chip": 100}},
        players=(3, 5),
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
        """Antes and bets each seat has in the pot, and its fee paid before the deal (the
        auction's price moves only at the settlement)."""
        bet = state.bet
        out = {s: bet.put_in[i] - bet.returned[i] for i, s in enumerate(bet.seats)}
        for line in state.pre_fees:
            if line.from_seat is not None:
                out[line.from_seat] += line.amount
        return out

    def view(self, state: State, *, reveal: bool = False) -> TableView:
        return present.view(state, reveal=reveal)

    def report(self, state: State) -> dict[str, Any]:
        return present.report(state)

    def narrate(self, before: State, event: Event, after: State) -> list[str]:
        return present.narrate(before, event, after)

    def stacks_left(self, state: State) -> dict[int, int]:
        return stacks_left(state)

    def secret_seats(self, state: State) -> frozenset[int]:
        """Every card a Markets poker log names is face up at the table (advantage cards,
        disclosures, the middle, the shows, the card kept for the next hand): none is secret."""
        return frozenset()

    def held(self, state: State, seat: int) -> int:
        if seat in state.shown or seat not in state.disclosed:
            return 0
        return 5 - len(state.product_face_up(seat))

    def game_over(self, state: State) -> bool:
        """Over when anyone ends the hand below 12 chips (ruling markets-1)."""
        return state.phase == OVER and bool(short_seats(state))

    def next_hand(self, state: State) -> dict[str, Any]:
        if state.phase != OVER or short_seats(state):
            return {}
        return present.carry(state)

    def next_hand_seats(self, state: State, seats: tuple[int, ...]) -> dict[str, Any]:
        """A player left or joined: the game goes on with the advantage cards of the seats
        still playing (a newcomer has none)."""
        if state.phase != OVER or short_seats(state):
            return {}
        kept = {str(s): c.code for s, c in sorted(state.chosen.items()) if s in seats}
        return {"advantage": kept}

    def redeal(self, state: State) -> dict[str, Any]:
        """A misdealt hand dealt again keeps the advantage cards it was carried in with."""
        if state.first:
            return {}
        return {"advantage": {str(s): c.code for s, c in sorted(state.advantage.items())}}

    def score_sheet(self, states: Sequence[State]) -> ScoreSheet | None:
        """The standings: each seat's chips after each hand of the game, then who leads."""
        if not states:
            return None
        seats = sorted({s for st in states for s in st.seats})
        rows = []
        last: dict[int, int] = {}
        for n, st in enumerate(states, start=1):
            if st.phase == OVER:
                after = {s: c // st.chip for s, c in stacks_after(st).items()}
            else:  # (a misdealt hand: every chip went back)
                after = dict(st.stacks_in)
            last.update(after)
            rows.append((str(n), *(str(after[s]) if s in after else "-" for s in seats)))
        ranked = sorted(last.items(), key=lambda kv: (-kv[1], kv[0]))
        lines = ["standings: " + ", ".join(f"seat {s} {c} chips" for s, c in ranked)]
        final = states[-1]
        if self.game_over(final):
            short = ", ".join(f"seat {s}" for s in short_seats(final))
            lines.append(f"game over: {short} ended below {GAME_FLOOR} chips; final standings "
                         "above")
        else:
            lines.append(f"the game goes on until a player ends a hand below {GAME_FLOOR} "
                         "chips")
        return ScoreSheet(title="Markets poker standings (chips)",
                          columns=("hand", *(f"seat {s}" for s in seats)), rows=tuple(rows),
                          lines=tuple(lines))

    def dossier(self) -> GameDossier:
        from dealer_assist.games.markets.dossier import DOSSIER

        return DOSSIER

    def sample_hand(
        self, rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
    ) -> list[Event]:
        events = sample_hand(rng, players=players, params=params)
        return events

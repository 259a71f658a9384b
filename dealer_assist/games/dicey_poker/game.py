"""Dicey Poker: cards and dice. Ten hole cards each (open to the dealer), dice that match
cards to put face up, chips on face-up cards, jokers won in wild challenges, and a running
total over hands to the target. One round of the game is one logged hand."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from dealer_assist.engine.base import (
    DemoTable,
    Game,
    Prompt,
    SampleDeal,
    ScoreSheet,
    Setting,
    Settlement,
    TableView,
)
from dealer_assist.events import Event, Start
from dealer_assist.games.dicey_poker import apply, play, present, settle
from dealer_assist.games.dicey_poker.events import EVENTS
from dealer_assist.games.dicey_poker.sample import sample_deal, sample_events
from dealer_assist.games.dicey_poker.state import DiceyState

if TYPE_CHECKING:
    from dealer_assist.engine.declare import GameDossier

NAME = play.NAME


class DiceyPoker(Game[DiceyState]):
    name = NAME
    title = "Dicey Poker"
    players: ClassVar[tuple[int, int]] = (1, 6)
    has_button = False  # the deal moves round; there is no dealer's button to post from
    start_keys: ClassVar[tuple[str, ...]] = ("button", "carry_in")
    start_key_names: ClassVar[Mapping[str, str]] = MappingProxyType({"button": "dealer"})
    carries: ClassVar[tuple[str, ...]] = ("totals_in",)
    jokers: ClassVar[bool] = True
    events = EVENTS
    settings: ClassVar[tuple[Setting, ...]] = (
        Setting("target", "game to (points)", "count"),
        Setting("dice", "dice", "choice", ("app", "table")),
        Setting("entry", "entry per player", "money"),
    )
    demo = DemoTable(settings={"game": NAME, "seats": 4, "smallest_chip": 100,
                               "params": {"target": 60, "dice": "app", "entry": 500}},
                     players=(2, 4), sample={"target": 60, "dice": "app", "entry": 500})

    def start(self, event: Start) -> DiceyState:
        return play.start(event)

    def check(self, state: DiceyState, event: Event) -> None:
        play.check(state, event)

    def transition(self, state: DiceyState, event: Event) -> DiceyState:
        return apply.transition(state, event)

    def prompt(self, state: DiceyState) -> Prompt:
        return present.prompt(state)

    def is_over(self, state: DiceyState) -> bool:
        return state.over

    def game_over(self, state: DiceyState) -> bool:
        return bool(present.winners(state))

    def settle(self, state: DiceyState) -> Settlement:
        return settle.settle(state)

    def view(self, state: DiceyState, *, reveal: bool = False) -> TableView:
        return present.view(state, reveal=reveal)

    def report(self, state: DiceyState) -> dict[str, Any]:
        out = present.report(state, self.game_over(state))
        st = state.settings
        if (st.entry or st.carry_in) and state.over:
            s = settle.settle(state)
            out["payouts"] = {str(k): v for k, v in s.payouts.items()}
            out["carry"] = s.carry_out
        return out

    def narrate(self, before: DiceyState, event: Event, after: DiceyState) -> list[str]:
        return present.narrate(before, event, after)

    def contributions(self, state: DiceyState) -> Mapping[int, int]:
        return settle.put_in(state)

    def carried_in(self, state: DiceyState) -> int:
        return state.settings.carry_in

    def held(self, state: DiceyState, seat: int) -> int:
        return len(state.hole.get(seat, ()))

    def secret_seats(self, state: DiceyState) -> frozenset[int]:
        return frozenset()  # hole cards are open to the dealer and scored at the end

    # --- from hand to hand -------------------------------------------------------------------
    def next_hand(self, state: DiceyState) -> dict[str, Any]:
        if self.game_over(state):
            return {}
        return {"totals_in": {str(s): v for s, v in present.totals(state).items()}}

    def next_hand_seats(self, state: DiceyState, seats: tuple[int, ...]) -> dict[str, Any]:
        """The totals are kept by seat: the seats still playing keep theirs."""
        if self.game_over(state):
            return {}
        totals = present.totals(state)
        kept = {str(s): totals[s] for s in seats if s in totals}
        return {"totals_in": kept} if kept else {}

    def redeal(self, state: DiceyState) -> dict[str, Any]:
        t = state.settings.totals_in
        return {"totals_in": {str(s): v for s, v in t.items()}} if t else {}

    def score_sheet(self, states: Sequence[DiceyState]) -> ScoreSheet | None:
        """Each round's points per seat, then the running totals and who won."""
        seats = sorted({s for st in states for s in st.settings.seats})
        rows = []
        for i, st in enumerate(states, start=1):
            pts = present.round_points(st)
            rows.append((str(i), *(str(pts[s]) if s in pts else "-" for s in seats)))
        last = states[-1]
        totals = present.totals(last)
        lines = ["totals: " + ", ".join(f"seat {s} {totals[s]}" for s in last.settings.seats)]
        won = present.winners(last)
        if won:
            lines.append("game over: " + ", ".join(f"seat {s}" for s in won) + " won")
        else:
            lines.append(f"game to {last.settings.target}")
        return ScoreSheet(title="Dicey Poker score sheet", columns=("round", *map(str, seats)),
                          rows=tuple(rows), lines=tuple(lines))

    def dossier(self) -> GameDossier:
        from dealer_assist.games.dicey_poker.dossier import DOSSIER

        return DOSSIER

    def sample_hand(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> list[Event]:
        return sample_events(rng, players=players, params=params)

    def sample_deal(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> SampleDeal[DiceyState]:
        """:meth:`sample_hand`'s hand with the state its dealing reached."""
        return sample_deal(rng, players=players, params=params)

"""A tiny complete game for testing the services and the store without the real games.

Each seat antes ``ante`` cents and gets one card, in seat order; the highest rank wins the pot
less a ``rake`` (odd cents to the first winner in seat order). Cards below 5 are "destroyed":
face down on the dealer's screen, shown only on a reveal.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from dealer_assist.cards import Card, parse_card
from dealer_assist.engine.base import (
    Action,
    FeeLine,
    Game,
    Prompt,
    PushStep,
    SeatView,
    Settlement,
    TableView,
)
from dealer_assist.engine.inputs import Cards
from dealer_assist.engine.registry import register
from dealer_assist.errors import RuleViolation
from dealer_assist.events import CardDealt, Event, Start

NAME = "high-card-test"


@dataclass(frozen=True)
class State:
    seats: tuple[int, ...]
    ante: int
    fee: int
    carry_in: int
    cards: tuple[tuple[int, Card], ...] = ()


class HighCard(Game[State]):
    name = NAME
    title = "High card (test)"
    has_button = False
    start_keys = ("carry_in",)

    def start(self, event: Start) -> State:
        ante = event.get("ante", 100)
        if not isinstance(ante, int) or ante <= 0:
            raise RuleViolation("the ante must be a positive number of cents")
        if len(event.seats) < 2:
            raise RuleViolation("high card needs two seats")
        return State(event.seats, ante, int(event.get("rake", 0)), int(event.get("carry_in", 0)))

    def check(self, state: State, event: Event) -> None:
        if not isinstance(event, CardDealt):
            raise RuleViolation(f"high card takes only cards, not {event.TYPE}")
        if self.is_over(state):
            raise RuleViolation("the hand is over")
        due = state.seats[len(state.cards)]
        if event.seat != due:
            raise RuleViolation(f"the card goes to seat {due}, not seat {event.seat}")
        if any(c == event.card for _, c in state.cards):
            raise RuleViolation(f"{event.card} already dealt")

    def transition(self, state: State, event: Event) -> State:
        assert isinstance(event, CardDealt)
        return replace(state, cards=(*state.cards, (event.seat, event.card)))

    def prompt(self, state: State) -> Prompt:
        if self.is_over(state):
            return Prompt("done", None, "settle the hand", done=True)
        due = state.seats[len(state.cards)]
        return Prompt("deal", due, f"deal a card to seat {due}",
                      (Action("card", "card", seat=due, input=Cards(1, 1, field="card")),))

    def is_over(self, state: State) -> bool:
        return len(state.cards) == len(state.seats)

    def settle(self, state: State) -> Settlement:
        pot = state.ante * len(state.seats) + state.carry_in - state.fee
        best = max(c.rank for _, c in state.cards)
        winners = [s for s, c in state.cards if c.rank == best]
        share, odd = divmod(pot, len(winners))
        payouts = {s: share + (odd if i == 0 else 0) for i, s in enumerate(winners)}
        fees = (FeeLine("rake", state.fee),) if state.fee else ()
        steps = tuple(PushStep(i + 1, f"push {a} to seat {s}", a, s)
                      for i, (s, a) in enumerate(payouts.items()))
        return Settlement(
            put_in={s: state.ante for s in state.seats}, payouts=payouts,
            carry_in=state.carry_in, fees=fees, steps=steps,
        )

    def view(self, state: State, *, reveal: bool = False) -> TableView:
        seats = []
        for s, c in state.cards:
            down = c.rank < 5
            seats.append(SeatView(
                seat=s, cards=(c.code,) if reveal or not down else (),
                hidden=1 if down and not reveal else 0, face_down=down,
                status="destroyed" if down else "standing",
            ))
        return TableView(game=NAME, seats=tuple(seats))

    def report(self, state: State) -> dict[str, Any]:
        return {"cards": {str(s): c.code for s, c in state.cards}}

    def sample_hand(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> list[Event]:
        seats = tuple(range(1, players + 1))
        deck = [parse_card(r + s) for r in "23456789TJQKA" for s in "cdhs"]
        rng.shuffle(deck)
        params = {"ante": 100, "rake": 10, "carry_in": 0}
        out: list[Event] = [Start(game=NAME, seats=seats, params=params)]
        out += [CardDealt(seat=s, card=deck[i]) for i, s in enumerate(seats)]
        return out


GAME = HighCard()
register(NAME, __name__)

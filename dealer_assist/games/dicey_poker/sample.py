"""Random complete legal hands of Dicey Poker (one round of the game), for the demo, the
benchmarks and the property tests: the pack shuffled and dealt, each die rolled by the app's
way (uniform), and every choice a player makes taken at random among the legal ones."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.base import SampleDeal
from dealer_assist.events import Event, Start
from dealer_assist.games.dicey_poker import apply, play
from dealer_assist.games.dicey_poker.events import (
    Chip,
    Deal,
    Discard,
    Draw,
    Joker,
    Roll,
    Stop,
    Swap,
    Up,
)
from dealer_assist.games.dicey_poker.rules import DICE, HOLE, deck_for
from dealer_assist.games.dicey_poker.state import (
    DISCARD_ANY,
    DISCARD_MATCH,
    FIVE,
    PLACE,
    ROLL,
    DiceyState,
)

#: Start settings a sample hand takes.
TAKES = ("dealer", "target", "dice", "entry", "totals_in", "carry_in", "smallest_chip",
         "fee")
#: A hand that has not ended after this many events is a bug, not bad luck.
LIMIT = 20_000


def die(rng: random.Random, name: str) -> int:
    faces, low, step = DICE[name]
    return low + step * rng.randrange(faces)


def next_event(state: DiceyState, rng: random.Random, pile: list[Card]) -> Event:
    """One legal event for ``state``, chosen at random (``pile``: the physical draw pile, in
    order; refilled from the shuffled discards when it runs out)."""
    if state.joker_due is not None:
        seat = state.joker_due
        ups = state.face_up(seat)
        if len(ups) < 5:
            return Joker(seat=seat)
        back = rng.choice([f.card for f in ups if not f.card.is_joker])
        out = rng.choice([*state.hole[seat], back])
        return Joker(seat=seat, back=back, out=out)
    if state.wild is not None:
        return Roll(seat=state.wild, die="d4", value=die(rng, "d4"))
    if state.challenge is not None:
        ch = state.challenge
        seat = ch.order[ch.at]
        rolls = ch.current_rolls()
        total = sum(rolls)
        if len(rolls) < ch.least_rolls():
            return Roll(seat=seat, die="d100", value=die(rng, "d100"))
        if total >= 100 or total >= 70 + 10 * rng.randrange(3) or rng.random() < 0.15:
            return Stop(seat=seat)
        return Roll(seat=seat, die="d100", value=die(rng, "d100"))
    seat = state.seat
    if state.step == ROLL:
        name = rng.choice(play.dice_allowed(state, seat))
        return Roll(seat=seat, die=name, value=die(rng, name))
    match = play.matching(state, seat)
    if state.step == PLACE:
        return Up(seat=seat, card=rng.choice(match))
    if state.step == FIVE:
        free = [f.card for f in state.face_up(seat) if not f.chipped]
        if rng.random() < 0.5:
            return Swap(seat=seat, up=rng.choice(free), hole=rng.choice(match))
        return Chip(seat=seat, card=rng.choice(free))
    if state.step == DISCARD_MATCH:
        return Discard(seat=seat, card=rng.choice(match))
    if state.step == DISCARD_ANY:
        return Discard(seat=seat, card=rng.choice(state.hole[seat]))
    if not pile:
        pile.extend(state.discards)
        rng.shuffle(pile)
    return Draw(seat=seat, card=pile.pop())


def sample_events(rng: random.Random, *, players: int,
                  params: Mapping[str, Any] | None = None) -> list[Event]:
    """A random complete hand (:func:`sample_deal`'s events)."""
    return sample_deal(rng, players=players, params=params).events


def sample_deal(rng: random.Random, *, players: int,
                params: Mapping[str, Any] | None = None) -> SampleDeal[DiceyState]:
    """A hand dealt and played by the sample strategy, with the state it reached."""
    given = {k: v for k, v in (params or {}).items() if not (k == "fee" and v is None)}
    unknown = sorted(set(given) - set(TAKES))
    if unknown:
        raise ValueError(f"Dicey Poker sample hands do not take {', '.join(unknown)}")
    seats = tuple(range(1, players + 1))
    start_params: dict[str, Any] = {"dealer": rng.choice(seats), "target": 150, "dice": "app",
                                    "carry_in": 0}
    start_params.update(given)
    start = Start(game=play.NAME, seats=seats, params=start_params)
    state = play.start(start)
    pile = [c for c, n in sorted(deck_for(players).items()) for _ in range(n)]
    rng.shuffle(pile)
    out: list[Event] = [start]
    for seat in state.settings.order:
        ev: Event = Deal(seat=seat, cards=tuple(pile.pop() for _ in range(HOLE)))
        out.append(ev)
        state = apply.transition(state, ev)
    while not state.over:
        ev = next_event(state, rng, pile)
        play.check(state, ev)
        state = apply.transition(state, ev)
        out.append(ev)
        if len(out) > LIMIT:
            raise AssertionError("a Dicey Poker sample hand did not end")
    return SampleDeal(out, state)

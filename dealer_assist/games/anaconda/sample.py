"""Random complete legal Anaconda hands, for property tests, the demo and the benchmarks."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from dealer_assist.cards import Card, full_deck
from dealer_assist.engine import betting
from dealer_assist.engine.base import SampleDeal
from dealer_assist.engine.start import sample_unit
from dealer_assist.evaluate.low import low_hand
from dealer_assist.events import Event, Show, Start
from dealer_assist.games.anaconda.events import EVENTS, Declare, Pass, Roll
from dealer_assist.games.anaconda.play import start_state, step
from dealer_assist.games.anaconda.state import (
    BETTING,
    DECLARING,
    HIGH,
    KEEP,
    LOW,
    OVER,
    PASSING,
    ROLLING,
    STRUCTURES,
    State,
)

#: Start settings a sample hand takes from its caller.
PARAMS = frozenset({"fee", "structure", "stacks", "button", "ante", "small_bet", "big_bet",
                    "cap", "heads_up_uncapped", "smallest_chip", "pot_in", "bet_each_roll"})


#: How often a sample player takes each kind of wager it may.
_WEIGHTS = {"check": 6, "call": 6, "fold": 1, "bet": 2, "raise": 2, "all-in": 1}


def _wager(rng: random.Random, state: State) -> Event:
    opts = betting.options(state.bet)
    assert opts is not None
    return betting.random_wager(rng, opts, _WEIGHTS, EVENTS,
                                typed=state.table.rules.structure is not betting.Structure.LIMIT)


def sample_hand(
    rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
) -> list[Event]:
    """A random complete hand (:func:`sample_deal`'s events)."""
    return sample_deal(rng, players=players, params=params).events


def sample_deal(
    rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
) -> SampleDeal[State]:
    """Each player keeps five of the seven cards they end with (the passes only move cards
    between them), declares low with a low of eight or better, else high (one time in ten the
    other way), and rolls four of the five in a random order."""
    given = dict(params or {})
    unknown = sorted(set(given) - PARAMS)
    if unknown:
        raise ValueError(f"Anaconda sample hands do not take {', '.join(unknown)}")
    seats = list(range(1, players + 1))
    structure = given.pop("structure", rng.choice(STRUCTURES))
    unit = sample_unit(given)  # $1, or the smallest chip given when it is more
    settings: dict[str, Any] = {"structure": structure, "button": rng.choice(seats),
                                "ante": unit, "pot_in": 0,
                                "stacks": {str(s): rng.randrange(10, 200) * unit for s in seats}}
    if structure == "limit":
        settings.update(small_bet=2 * unit, big_bet=4 * unit, cap=4)
    settings.update(given)
    start = Start(game="anaconda", seats=tuple(seats), params=settings)
    deck: list[Card] = list(full_deck())
    rng.shuffle(deck)
    kept: dict[int, list[Card]] = {}
    for s in seats:
        seven = [deck.pop() for _ in range(7)]
        rng.shuffle(seven)
        kept[s] = seven[:KEEP]
    to_roll = {s: list(cards[:4]) for s, cards in kept.items()}
    events: list[Event] = [start]
    state = start_state(start)
    while state.phase != OVER:
        event: Event
        if state.phase == BETTING:
            event = _wager(rng, state)
        elif state.phase == PASSING:
            event = Pass()
        elif state.phase == DECLARING:
            seat = rng.choice(state.to_declare())
            low = low_hand(kept[seat], 8) is not None
            if rng.random() < 0.1:
                low = not low
            event = Declare(seat=seat, way=LOW if low else HIGH)
        elif state.phase == ROLLING:
            roller = state.to_roll()
            assert roller is not None
            event = Roll(seat=roller, card=to_roll[roller].pop(0))
        else:
            shower = state.to_show()
            assert shower is not None
            event = Show(seat=shower, cards=tuple(kept[shower]))
        state = step(state, event)
        events.append(event)
    return SampleDeal(events, state)

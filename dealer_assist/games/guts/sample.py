"""Random complete legal Guts hands, for property tests, the demo and the benchmarks."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from dealer_assist.cards import Card, full_deck
from dealer_assist.engine.base import SampleDeal
from dealer_assist.engine.start import sample_unit
from dealer_assist.events import Event, Show, Start
from dealer_assist.games.guts.events import In, Out
from dealer_assist.games.guts.play import step
from dealer_assist.games.guts.state import DECLARING, OVER, State, start_state

#: Start settings a sample hand takes from its caller.
PARAMS = frozenset({"ante", "pot_in", "max", "declare", "short", "stacks", "button", "fee",
                    "smallest_chip"})


def sample_hand(
    rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
) -> list[Event]:
    """A random complete hand (:func:`sample_deal`'s events)."""
    return sample_deal(rng, players=players, params=params).events


def sample_deal(
    rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
) -> SampleDeal[State]:
    """Each player declares in a little less than half the time (more often with a strong
    hand), out when barred; the players in show in a random order."""
    given = dict(params or {})
    unknown = sorted(set(given) - PARAMS)
    if unknown:
        raise ValueError(f"Guts sample hands do not take {', '.join(unknown)}")
    seats = list(range(1, players + 1))
    unit = sample_unit(given)  # $1, or the smallest chip given when it is more
    settings: dict[str, Any] = {
        "button": rng.choice(seats), "ante": unit, "pot_in": 0,
        "stacks": {str(s): rng.randrange(20, 200) * unit for s in seats},
    }
    settings.update(given)
    start = Start(game="guts", seats=tuple(seats), params=settings)
    deck: list[Card] = list(full_deck())
    rng.shuffle(deck)
    hole = {s: (deck.pop(), deck.pop()) for s in seats}
    events: list[Event] = [start]
    state = start_state(start)
    while state.phase != OVER:
        event: Event
        if state.phase == DECLARING:
            waiting = list(state.to_declare)
            seat = waiting[0] if state.table.declare == "in-turn" else rng.choice(waiting)
            a, b = hole[seat]
            keen = 0.7 if a.rank == b.rank or max(a.rank, b.rank) >= 13 else 0.3
            if rng.random() < keen and not state.barred(seat):
                event = In(seat=seat)
            else:
                event = Out(seat=seat)
        else:
            seat = rng.choice(state.to_show)
            event = Show(seat=seat, cards=hole[seat])
        state = step(state, event)
        events.append(event)
    return SampleDeal(events, state)

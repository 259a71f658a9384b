"""Random complete legal hands, for property tests, the demo and the benchmarks."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from dealer_assist.cards import Card, full_deck
from dealer_assist.engine import betting
from dealer_assist.engine.base import SampleDeal
from dealer_assist.engine.start import sample_unit
from dealer_assist.events import (
    BoardDealt,
    Discard,
    Event,
    Show,
    Start,
)
from dealer_assist.games.pineapple.events import EVENTS, Kill, Muck
from dealer_assist.games.pineapple.play import start_state, step
from dealer_assist.games.pineapple.settings import BOARD_COUNTS, STRUCTURES, VARIANTS
from dealer_assist.games.pineapple.state import BETTING, BOARD, OVER, SHOWDOWN, State

#: Start settings a sample hand takes from its caller.
PARAMS = frozenset({"fee", "variant", "structure", "stacks", "button", "blinds", "ante",
                    "small_bet", "big_bet", "cap", "heads_up_uncapped", "smallest_chip"})


def sample_params(rng: random.Random, seats: list[int], structure: str,
                  unit: int = 100) -> dict[str, Any]:
    """A table's settings in ``structure``: blinds $1/$2 mostly, an ante now and then
    (``unit``: the $1, a whole number of the table's smallest chip)."""
    params: dict[str, Any] = {"structure": structure, "button": rng.choice(seats)}
    if rng.random() < 0.8:
        params["blinds"] = [unit, 2 * unit]
    else:
        params["ante"] = unit
    if structure == "limit":
        params.update(small_bet=2 * unit, big_bet=4 * unit, cap=4,
                      heads_up_uncapped=rng.random() < 0.8)
    params["stacks"] = {str(s): rng.randrange(5, 200) * unit for s in seats}
    return params


#: How often a sample player takes each kind of wager it may.
_WEIGHTS = {"check": 6, "call": 6, "fold": 2, "bet": 2, "raise": 2, "all-in": 1}


def _wager(rng: random.Random, state: State) -> Event:
    opts = betting.options(state.bet)
    assert opts is not None
    return betting.random_wager(
        rng, opts, _WEIGHTS, EVENTS,
        typed=state.settings.rules.structure is not betting.Structure.LIMIT)


def sample_hand(
    rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
) -> list[Event]:
    """One random complete hand (:func:`deal_hand`'s events)."""
    return deal_hand(rng, players=players, params=params).events


def deal_hand(
    rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
) -> SampleDeal[State]:
    """One random complete hand with the state it led to (each event applied as dealt)."""
    given = dict(params or {})
    unknown = sorted(set(given) - PARAMS)
    if unknown:
        raise ValueError(f"Pineapple sample hands do not take {', '.join(unknown)}")
    seats = list(range(1, players + 1))
    variant = given.pop("variant", rng.choice(VARIANTS))
    structure = given.pop("structure", rng.choice(STRUCTURES))
    settings = sample_params(rng, seats, structure, sample_unit(given))
    if "blinds" in given or "ante" in given:  # the table's forced bets, not the sample's
        settings.pop("blinds", None)
        settings.pop("ante", None)
    settings.update(given)
    settings["variant"] = variant
    start = Start(game="pineapple", seats=tuple(seats), params=settings)
    deck: list[Card] = list(full_deck())
    rng.shuffle(deck)
    hole = {s: [deck.pop(), deck.pop(), deck.pop()] for s in seats}
    events: list[Event] = [start]
    state = start_state(start)
    while state.phase != OVER:
        event: Event
        if state.phase == BETTING:
            event = _wager(rng, state)
        elif state.phase == BOARD:
            owing = state.owing()
            if owing:
                seat = owing[0]
                if rng.random() < 0.02:
                    event = Kill(seat=seat, reason="missed discard")
                else:
                    card = hole[seat].pop(rng.randrange(3))
                    event = (Discard(seat=seat, cards=(card,)) if rng.random() < 0.1
                             else Discard(seat=seat, count=1))
            else:
                event = BoardDealt(cards=tuple(deck.pop()
                                               for _ in range(BOARD_COUNTS[state.street + 1])))
        else:
            assert state.phase == SHOWDOWN
            seat_no = state.to_show()
            assert seat_no is not None
            if state.must_show(seat_no) or rng.random() < 0.8:
                event = Show(seat=seat_no, cards=tuple(hole[seat_no]))
            else:
                event = Muck(seat=seat_no)
        state = step(state, event)
        events.append(event)
    return SampleDeal(events, state)

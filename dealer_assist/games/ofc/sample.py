"""Open-Face Chinese Poker: random complete legal hands (rows chosen at random among those with
room), for property tests, the demo and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from dealer_assist.cards import full_deck
from dealer_assist.engine.base import SampleDeal
from dealer_assist.events import Discard, Event, Start
from dealer_assist.games.ofc.events import Place, SetHand
from dealer_assist.games.open_face.rows import (
    HAND_SIZE,
)


def sample_events(rng: random.Random, *, players: int, pineapple: bool = False,
                  fantasyland: tuple[int, ...] = (), royalties_table: str = "rules-text",
                  unit: int = 100, fee: Mapping[str, Any] | None = None,
                  smallest_chip: int | None = None) -> list[Event]:
    """A random complete legal hand: rows chosen at random among those with room."""
    return deal_events(rng, players=players, pineapple=pineapple, fantasyland=fantasyland,
                       royalties_table=royalties_table, unit=unit, fee=fee,
                       smallest_chip=smallest_chip).events


def deal_events(rng: random.Random, *, players: int, pineapple: bool = False,
                fantasyland: tuple[int, ...] = (), royalties_table: str = "rules-text",
                unit: int = 100, fee: Mapping[str, Any] | None = None,
                smallest_chip: int | None = None,
                in_fantasyland: tuple[int, ...] = ()) -> SampleDeal[Any]:
    """:func:`sample_events`'s hand with the state it led to (each event applied as dealt).
    ``in_fantasyland``: the seats the hand before sent to fantasyland (what a table carries
    from hand to hand, as the app starts the next hand), dealt their hands to set."""
    seats = tuple(range(1, players + 1))
    button = rng.choice(seats)
    params: dict[str, Any] = {"button": button, "unit": unit, "royalties": royalties_table}
    if pineapple:
        params["pineapple"] = True
    if fantasyland:
        params["fantasyland"] = list(fantasyland)
    if in_fantasyland:
        params["in_fantasyland"] = sorted(in_fantasyland)
    if fee is not None:
        params["fee"] = dict(fee)
    if smallest_chip is not None:
        params["smallest_chip"] = smallest_chip
    start = Start(game="ofc", seats=seats, params=params)
    events: list[Event] = [start]
    deck = list(full_deck())
    rng.shuffle(deck)
    from dealer_assist.games.ofc.game import GAME  # (the game deals its own sample)

    game = GAME
    state = game.start(start)

    def push(ev: Event) -> None:
        nonlocal state
        state = game.apply(state, ev)
        events.append(ev)

    while not state.over:
        if state.first_five_done and state.pending_sets:
            fl_seat = state.pending_sets[0]
            hand = [deck.pop() for _ in range(HAND_SIZE)]
            push(SetHand(seat=fl_seat, front=tuple(hand[:3]), middle=tuple(hand[3:8]),
                         back=tuple(hand[8:])))
            continue
        seat = state.current
        assert seat is not None
        places, discards = state.quota()
        if state.placed < places:
            row = rng.choice(state.rows[seat].open_rows())
            push(Place(seat=seat, card=deck.pop(), row=row))
        elif state.discarded < discards:
            push(Discard(seat=seat, cards=(deck.pop(),)))
    return SampleDeal(events, state)

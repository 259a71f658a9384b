"""Chinese Poker: random complete legal hands, for property tests, the demo and benchmarks."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from dealer_assist.cards import full_deck
from dealer_assist.events import Event, Start
from dealer_assist.games.chinese_poker.events import Natural, SetHand, Surrender
from dealer_assist.games.chinese_poker.settle import (
    natural_problem,
)
from dealer_assist.games.open_face.rows import (
    HAND_SIZE,
    Rows,
)


def sample_events(rng: random.Random, *, players: int, surrender_chance: float = 0.1,
                  unit: int = 100, fee: Mapping[str, Any] | None = None,
                  smallest_chip: int | None = None) -> list[Event]:
    """A random complete legal hand: each hand sorted into rows (so it rarely fouls), a natural
    declared when the deal holds a dragon or six pairs, and the odd surrender."""
    seats = tuple(range(1, players + 1))
    params: dict[str, Any] = {"button": rng.choice(seats), "unit": unit}
    if fee is not None:
        params["fee"] = dict(fee)
    if smallest_chip is not None:
        params["smallest_chip"] = smallest_chip
    start = Start(game="chinese-poker", seats=seats, params=params)
    deck = list(full_deck())
    rng.shuffle(deck)
    hands = {s: [deck.pop() for _ in range(HAND_SIZE)] for s in seats}
    events: list[Event] = [start]
    surrenders: list[Event] = []
    reveals: list[Event] = []
    for s in seats:
        cards = hands[s]
        if rng.random() < 0.5:
            cards.sort(key=lambda c: c.rank)
        else:
            rng.shuffle(cards)
        hand = SetHand(seat=s, front=tuple(cards[:3]), middle=tuple(cards[3:8]),
                       back=tuple(cards[8:]))
        rows = Rows(hand.front, hand.middle, hand.back)
        natural = next((k for k in ("dragon", "six-pairs")
                        if natural_problem(rows, k) is None), None)
        if natural is not None:
            events.extend([Natural(seat=s, kind=natural), hand])
        elif rng.random() < surrender_chance:
            surrenders.append(Surrender(seat=s))
        else:
            reveals.append(hand)
    return events + surrenders + reveals

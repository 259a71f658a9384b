"""Commerce: random complete legal hands from a shuffled deck, for property tests, the demo and
the benchmarks. Each seat makes the exchange that improves its hand most (one or two cards, now
and then three), or a random one when none does; it knocks once its hand is a pair or better
(or at random after the first round); a last turn exchanges only to improve, else stands."""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import combinations
from typing import TYPE_CHECKING, Any

from dealer_assist.cards import Card, full_deck
from dealer_assist.events import BoardDealt, Event, Show
from dealer_assist.games.ante_pot import sample_start
from dealer_assist.games.commerce.events import Exchange, Knock, Stand
from dealer_assist.games.commerce.rank import ORDER, rank_hand

if TYPE_CHECKING:
    from dealer_assist.games.commerce.game import Commerce


def _best_swap(hand: list[Card], board: list[Card], most: int
               ) -> tuple[tuple[int, ...], tuple[Card, ...], tuple[Card, ...]]:
    """The best hand reachable by one exchange of up to ``most`` cards: (value, give, take)."""
    found: tuple[tuple[int, ...], tuple[Card, ...], tuple[Card, ...]] = (
        rank_hand(hand).value, (), ())
    for n in range(1, most + 1):
        for give in combinations(hand, n):
            for take in combinations(board, n):
                new = [c for c in hand if c not in give] + list(take)
                value = rank_hand(new).value
                if value > found[0]:
                    found = (value, give, take)
    return found


def sample_hand(game: Commerce, rng: random.Random, *, players: int,
                params: Mapping[str, Any]) -> list[Event]:
    start = sample_start(game, rng, players=players, ante_key="stake", params=params)
    seats = start.seats
    state = game.start(start)
    deck = list(full_deck())
    rng.shuffle(deck)
    hands = {s: [deck.pop() for _ in range(3)] for s in seats}
    board = [deck.pop() for _ in range(3)]
    events: list[Event] = [start]

    def record(event: Event) -> None:
        nonlocal state
        state = game.apply(state, event)
        events.append(event)

    def exchange(seat: int, give: tuple[Card, ...], take: tuple[Card, ...],
                 blind: bool = False) -> None:
        hands[seat] = [c for c in hands[seat] if c not in give] + list(take)
        board[:] = [c for c in board if c not in take] + list(give)
        record(Exchange(seat=seat, take=take, give=give, blind=blind))

    record(BoardDealt(cards=tuple(board)))
    dealer = state.table.dealer
    if rng.random() < 0.3:
        n = rng.randint(1, 3)
        exchange(dealer, tuple(rng.sample(hands[dealer], n)), tuple(rng.sample(board, n)),
                 blind=True)
    rounds = 0
    while state.knocker is None:
        seat = state.to_act
        assert seat is not None
        if seat == state.table.order[0] and state.turns:
            rounds += 1
        value = rank_hand(hands[seat]).value
        if (value[0] >= ORDER["pair"] and rng.random() < 0.7) or rounds >= 3 or (
                rounds >= 1 and rng.random() < 0.2):
            record(Knock(seat=seat))
            break
        most = 3 if seat not in state.threes and rng.random() < 0.3 else 2
        _, give, take = _best_swap(hands[seat], board, most)
        if not give:
            n = rng.randint(1, 2)
            give, take = tuple(rng.sample(hands[seat], n)), tuple(rng.sample(board, n))
        exchange(seat, give, take)
    while state.last:
        seat = state.last[0]
        _, give, take = _best_swap(hands[seat], board, 2 if seat in state.threes else 3)
        if give:
            exchange(seat, give, take)
        else:
            record(Stand(seat=seat))
    order = list(seats)
    rng.shuffle(order)
    for seat in order:
        record(Show(seat=seat, cards=tuple(hands[seat])))
    return events

"""Paiute: random complete legal hands from a shuffled deck, for property tests, the demo and the
benchmarks.

Each seat takes the top of the discard pile when it matches a rank it holds (or is wild) and it
holds no other card taken from the pile, else draws from the stock; it calls the best
combination it can (eight times in ten before any call; in a last turn whenever its call beats
or ties the best), else discards the card of its rarest rank. After four rounds without a call
the seat to play is dealt, by the shuffle, a three/three from its unseen cards and the stock
(with a wild card among them, a four/two: a call names the best combination its cards make),
so every hand ends."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from itertools import permutations
from typing import TYPE_CHECKING, Any

from dealer_assist.cards import Card, full_deck
from dealer_assist.events import Event, Reshuffle
from dealer_assist.games.ante_pot import sample_start
from dealer_assist.games.paiute.combos import FIVE, SIX, Value, strength, value_as
from dealer_assist.games.paiute.events import Call, Discard, Draw, Pass, Upcard, Wild

if TYPE_CHECKING:
    from dealer_assist.games.paiute.game import Paiute
    from dealer_assist.games.paiute.state import State

ROUNDS = 4


def _best(cards: list[Card], names: tuple[str, ...], wild: int) -> tuple[Value, str] | None:
    found: tuple[Value, str] | None = None
    for name in names:
        value = value_as(cards, name, wild)
        if value is not None and (found is None or strength(name, value) > found[0]):
            found = (strength(name, value), name)
    return found


def _stack(hand: list[Card], known: tuple[Card, ...], stock: list[Card], wild: int,
           rng: random.Random) -> list[Card] | None:
    """Six cards making three/three from ``known`` and what the seat's unseen cards and the
    stock hold (the shuffle's luck), or None."""
    pool = [c for c in hand if c not in known] + stock
    pairs = list(permutations(range(2, 15), 2))
    rng.shuffle(pairs)
    for a, b in pairs:
        if wild in (a, b):
            continue
        chosen = list(known)
        for rank in (a, b):
            have = sum(1 for c in chosen if c.rank == rank)
            chosen += [c for c in pool if c.rank == rank and c not in chosen][:3 - have]
        chosen += [c for c in pool if c.rank == wild and c not in chosen][:6 - len(chosen)]
        if len(chosen) == 6 and value_as(chosen, "three/three", wild) is not None:
            return chosen
    return None


def sample_hand(game: Paiute, rng: random.Random, *, players: int,
                params: Mapping[str, Any]) -> list[Event]:
    start = sample_start(game, rng, players=players, ante_key="ante", params=params)
    seats = start.seats
    state: State = game.start(start)
    events: list[Event] = [start]

    def record(event: Event) -> None:
        nonlocal state
        state = game.apply(state, event)
        events.append(event)

    deck = list(full_deck())
    rng.shuffle(deck)
    hands = {s: [deck.pop() for _ in range(5)] for s in seats}
    wild_card = deck.pop()
    wild = wild_card.rank
    record(Wild(card=wild_card))
    pile = [deck.pop()]
    record(Upcard(card=pile[0]))
    stock = deck
    rounds = 0
    while not state.over:
        seat = state.drawer
        assert seat is not None
        if not state.calls and seat == state.table.order[0] and state.done.get(seat):
            rounds += 1
        hand = hands[seat]
        if not stock and len(pile) > 1:
            record(Reshuffle())
            stock, pile = pile[:-1], pile[-1:]
            rng.shuffle(stock)
        ranks = Counter(c.rank for c in hand)
        helps = bool(pile) and (pile[-1].rank == wild or ranks[pile[-1].rank] > 0)
        taken = None
        if (not stock and pile) or (helps and not state.known(seat) and rng.random() < 0.7):
            record(Draw(seat=seat, source="discard"))
            taken = pile.pop()
            hand.append(taken)
        else:
            record(Draw(seat=seat, source="stock"))
            hand.append(stock.pop())
        first = not state.done.get(seat)
        bar = state.best().strength if state.calls else None  # type: ignore[union-attr]
        six = _best(hand, SIX if first else tuple(n for n in SIX if n != "paiute"), wild)
        five: tuple[Value, str, Card] | None = None
        for card in hand:
            if card == taken:
                continue
            rest = [c for c in hand if c != card]
            got = _best(rest, FIVE, wild)
            if got is not None and (five is None or got[0] > five[0]):
                five = (got[0], got[1], card)
        if (six is None and five is None and not state.calls and rounds >= ROUNDS
                and taken is None):
            stacked = _stack(hand, state.known(seat), stock, wild, rng)
            if stacked is not None:
                back = [c for c in hand if c not in stacked]
                stock = [c for c in stock if c not in stacked] + back
                rng.shuffle(stock)
                hands[seat] = hand = stacked
                six = _best(hand, SIX if first else tuple(n for n in SIX if n != "paiute"),
                            wild)
        calling = (bar is not None) or rng.random() < 0.8
        options = [o for o in (six, five) if o is not None
                   and (bar is None or o[0] >= bar)]
        if options and calling:
            pick = max(options, key=lambda o: o[0])
            if pick is six:
                record(Call(seat=seat, cards=tuple(hand), combination=pick[1]))
                continue
            assert five is not None
            card = five[2]
            hand.remove(card)
            pile.append(card)
            record(Discard(seat=seat, card=card))
            record(Call(seat=seat, cards=tuple(hand), combination=five[1]))
            continue
        counts = Counter(c.rank for c in hand)
        throw = min((c for c in hand if c != taken and c.rank != wild),
                    key=lambda c: (counts[c.rank], rng.random()), default=None)
        if throw is None:
            throw = next(c for c in hand if c != taken)
        hand.remove(throw)
        pile.append(throw)
        record(Discard(seat=seat, card=throw))
        if state.calls:
            record(Pass(seat=seat))
    return events

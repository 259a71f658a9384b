"""Random complete Mille hands: two decks dealt, then played turn by turn by a plain strategy
(take the pile when two naturals of its top card are in hand, meld every rank of three or more,
sometimes complete a pair with a 2, throw the least useful card). The same play gives both log
forms: turn by turn, or the score sheet's lines (melds, cards left, who went out)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from typing import Any

from dealer_assist.cards import Card, full_deck
from dealer_assist.events import Event, Reshuffle, Start
from dealer_assist.games.mille.events import Discard, Draw, Left, Meld, Out, Upcard
from dealer_assist.games.mille.rules import HAND_CARDS, WILD, value

#: A hand that has not ended after this many turns is dealt again (the sample's strategy is
#: plain; a real hand ends long before).
MOST_TURNS = 150


def sample_events(rng: random.Random, given: Mapping[str, Any]) -> list[Event]:
    params: dict[str, Any] = {"dealer": rng.choice((1, 2)), "stakes": [100, 500]}
    params.update((k, v) for k, v in given.items() if v is not None)
    turns = params.get("turns")
    if turns is None:
        turns = rng.random() < 0.3
        params["turns"] = turns
    while True:
        played = _play(rng, dealer=int(params["dealer"]))
        if played is not None:
            break
    start = Start(game="mille", seats=(1, 2), params=params)
    events, melds, left, out = played
    loser = 2 if out == 1 else 1
    if turns:
        return [start, *events, Left(seat=loser, cards=left)]
    sheet: list[Event] = [Meld(seat=s, cards=c) for s, c in melds]
    ends: list[Event] = [Left(seat=loser, cards=left), Out(seat=out)]
    if rng.random() < 0.5:
        ends.reverse()
    if rng.random() < 0.2:
        ends.insert(0, Left(seat=out, cards=()))
    return [start, *sheet, *ends]


def _play(rng: random.Random, *, dealer: int
          ) -> tuple[list[Event], list[tuple[int, tuple[Card, ...]]], tuple[Card, ...], int] | None:
    deck = list(full_deck()) * 2
    rng.shuffle(deck)
    hands = {1: deck[:HAND_CARDS], 2: deck[HAND_CARDS:2 * HAND_CARDS]}
    stock = deck[2 * HAND_CARDS:]
    pile = [stock.pop()]
    events: list[Event] = [Upcard(card=pile[-1])]
    melds: list[tuple[int, tuple[Card, ...]]] = []
    use_wilds = {s: rng.random() < 0.6 for s in (1, 2)}
    seat = 2 if dealer == 1 else 1
    for _ in range(MOST_TURNS):
        hand = hands[seat]
        top = pile[-1]
        same = [c for c in hand if c.rank == top.rank]
        if top.rank != WILD and len(same) >= 2 and rng.random() < 0.85:
            events.append(Draw(seat=seat, source="pile"))
            taken = pile[:]
            pile.clear()
            meld = (top, *same)
            for c in same:
                hand.remove(c)
            hand.extend(taken[:-1])
            events.append(Meld(seat=seat, cards=meld))
            melds.append((seat, meld))
        else:
            if not stock:
                if len(pile) < 2:
                    return None
                stock = pile[:-1]
                rng.shuffle(stock)
                del pile[:-1]
                events.append(Reshuffle())
            events.append(Draw(seat=seat, source="stock"))
            hand.append(stock.pop())
        for meld in _melds(rng, hand, use_wilds[seat]):
            for c in meld:
                hand.remove(c)
            events.append(Meld(seat=seat, cards=meld))
            melds.append((seat, meld))
        if not hand:
            return events, melds, tuple(hands[2 if seat == 1 else 1]), seat
        throw = _throw(rng, hand)
        hand.remove(throw)
        pile.append(throw)
        events.append(Discard(seat=seat, card=throw))
        if not hand:
            return events, melds, tuple(hands[2 if seat == 1 else 1]), seat
        seat = 2 if seat == 1 else 1
    return None


def _melds(rng: random.Random, hand: list[Card], wilds: bool) -> list[tuple[Card, ...]]:
    """Every rank of three or more; with ``wilds``, a pair made three with a 2, and three or
    more 2s as their own meld. Melding all but one card is fine (the last is thrown)."""
    out: list[tuple[Card, ...]] = []
    counts = Counter(c.rank for c in hand)
    twos = [c for c in hand if c.rank == WILD]
    for rank, n in sorted(counts.items()):
        if rank != WILD and n >= 3:
            out.append(tuple(c for c in hand if c.rank == rank))
    if wilds:
        for rank, n in sorted(counts.items()):
            if rank != WILD and n == 2 and twos and rng.random() < 0.5:
                out.append((*(c for c in hand if c.rank == rank), twos.pop()))
        if len(twos) >= 3:
            out.append(tuple(twos))
    return out


def _throw(rng: random.Random, hand: list[Card]) -> Card:
    """A lone card of little value (never a 2 while another card will do)."""
    counts = Counter(c.rank for c in hand)
    lone = [c for c in hand if counts[c.rank] == 1 and c.rank != WILD]
    pool = lone or [c for c in hand if c.rank != WILD] or hand
    low = min(value(c) for c in pool)
    return rng.choice([c for c in pool if value(c) == low])

"""Random complete legal hands, for property tests, the demo and the benchmarks."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from dealer_assist.cards import Card, full_deck
from dealer_assist.engine import betting
from dealer_assist.events import Bet, Call, Check, Event, Fold, Raise, Show, Start
from dealer_assist.games.markets.events import (
    Advantage,
    Bid,
    Choose,
    Disclose,
    DrawOrder,
    Externality,
    Replace,
    Supplier,
    Withdraw,
)
from dealer_assist.games.markets.play import NAME, start_state, step
from dealer_assist.games.markets.settle import draws_needed
from dealer_assist.games.markets.state import (
    ADVANTAGE,
    AUCTION,
    BETTING,
    CHOOSE,
    DISCLOSE,
    DRAW,
    EXTERNALITY,
    OVER,
    REPLACE,
    SHOW,
    SUPPLIER,
    State,
)

#: Start settings a sample hand takes from its caller.
PARAMS = frozenset({"dealer", "stacks", "chip", "advantage", "smallest_chip", "fee"})
_WEIGHTS = {"check": 6, "call": 6, "fold": 3, "bet": 2, "raise": 2}


def _wager(rng: random.Random, state: State) -> Event:
    opts = betting.options(state.bet)
    assert opts is not None
    choices = [c for c in opts.choices if c.kind in _WEIGHTS]
    c = rng.choices(choices, weights=[_WEIGHTS[x.kind] for x in choices])[0]
    seat = opts.seat
    if c.kind == "check":
        return Check(seat=seat)
    if c.kind == "call":
        return Call(seat=seat)
    if c.kind == "fold":
        return Fold(seat=seat)
    assert c.low is not None and c.high is not None
    to = rng.randint(c.low, c.high) // state.chip
    return Bet(seat=seat, to=to) if c.kind == "bet" else Raise(seat=seat, to=to)


def sample_hand(
    rng: random.Random, *, players: int, params: Mapping[str, Any] | None = None
) -> list[Event]:
    given = {k: v for k, v in (params or {}).items() if not (k == "fee" and v is None)}
    unknown = sorted(set(given) - PARAMS)
    if unknown:
        raise ValueError(f"Markets poker sample hands do not take {', '.join(unknown)}")
    seats = list(range(1, players + 1))
    chip = given.get("chip", given.get("smallest_chip", 100))
    start_params: dict[str, Any] = {
        "dealer": rng.choice(seats),
        "stacks": {str(s): rng.randint(12, 60) * chip for s in seats},
    }
    start_params.update(given)
    if isinstance(start_params.get("advantage"), Mapping):  # (only the seats dealt in)
        start_params["advantage"] = {k: v for k, v in start_params["advantage"].items()
                                     if int(k) in seats}
    start = Start(game=NAME, seats=tuple(seats), params=start_params)
    state = start_state(start)
    deck = [c for c in full_deck() if c not in state.known]
    rng.shuffle(deck)
    products: dict[int, list[Card]] = {}
    out: list[Event] = [start]
    while state.phase != OVER:
        ev: Event
        p = state.phase
        if p == ADVANTAGE:
            seat = state.to_deal_advantage()
            assert seat is not None
            ev = Advantage(seat=seat, card=deck.pop())
        elif p == DISCLOSE:
            seat = state.to_disclose()
            assert seat is not None
            products[seat] = [deck.pop() for _ in range(5)]
            ev = Disclose(seat=seat, card=products[seat][0])
        elif p == SUPPLIER:
            ev = Supplier(card=deck.pop())
        elif p == EXTERNALITY:
            ev = Externality(card=deck.pop())
        elif p == BETTING:
            ev = _wager(rng, state)
        elif p == AUCTION:
            a = state.auction
            assert a is not None and a.turn is not None
            low = 1 if a.high is None else a.high[1] + 1
            behind = state.behind(a.turn)
            if behind >= low and rng.random() < (0.6 if a.high is None else 0.35):
                ev = Bid(seat=a.turn, chips=rng.randint(low, min(behind, low + 3)))
            else:
                ev = Withdraw(seat=a.turn)
        elif p == REPLACE:
            seat = state.buyer
            assert seat is not None and state.supplier is not None
            k = rng.randrange(5)
            ev = Replace(seat=seat, card=products[seat][k])
            products[seat][k] = state.supplier
        elif p == SHOW:
            seat = state.to_show()
            assert seat is not None
            ev = Show(seat=seat, cards=tuple(products[seat]))
        elif p == DRAW:
            _, group = draws_needed(state)[len(state.draws)]
            order = list(group)
            rng.shuffle(order)
            ev = DrawOrder(order=tuple(order))
        else:
            assert p == CHOOSE
            seat = state.to_choose()
            assert seat is not None
            ev = Choose(seat=seat, card=rng.choice(products[seat]))
        state = step(state, ev)
        out.append(ev)
    return out



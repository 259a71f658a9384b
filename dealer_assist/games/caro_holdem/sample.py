"""Random complete hands played from a real shuffled deck: for property tests, demos, benchmarks.

The generator knows every private card, so discards name real cards and the shows at the end
are the cards each player actually kept; the engine itself never sees them until then.
"""

from __future__ import annotations

import random
import types
from collections.abc import Mapping
from typing import Any

from dealer_assist.cards import Card, full_deck
from dealer_assist.engine.base import SampleDeal
from dealer_assist.events import (
    Bet,
    BoardDealt,
    Call,
    Check,
    Discard,
    Event,
    Fold,
    Raise,
    Show,
    Start,
)
from dealer_assist.games.caro_holdem.betting import owed
from dealer_assist.games.caro_holdem.play import start_state, step
from dealer_assist.games.caro_holdem.present import wager_options
from dealer_assist.games.caro_holdem.settings import BOARD_COUNTS, MAX_SEATS
from dealer_assist.games.caro_holdem.state import BETTING, BOARD, OVER, SHOWDOWN, State

#: The settings a table gives every hand, which a sample hand may be asked to keep.
TABLE_SETTINGS = frozenset(
    {"unit", "ante", "blinds", "cap", "smallest_chip", "heads_up_uncapped"}
)

_WAGER_EVENTS: dict[str, type[Bet] | type[Call] | type[Raise]] = {
    "bet": Bet, "call": Call, "raise": Raise,
}


def sample_start(
    rng: random.Random,
    *,
    players: int,
    blinds: bool | None = None,
    short_stacks: bool = True,
    fee: dict[str, Any] | None = None,
    heads_up_uncapped: bool | None = None,
    fixed: Mapping[str, Any] | None = None,
) -> Start:
    """Random table settings: unit, antes or blinds, stacks (some short, to force all-ins).

    ``fixed``: a table's own settings (any of :data:`TABLE_SETTINGS`), kept as they are; the
    rest is drawn."""
    if not 2 <= players <= MAX_SEATS:
        raise ValueError(f"Caro Hold 'em deals 2 to {MAX_SEATS} players")
    # at a table (``fixed``), seats 1 to ``players`` as the other games deal their samples;
    # otherwise any of a table's 1 to 8
    seats = (list(range(1, players + 1)) if fixed
             else sorted(rng.sample(range(1, MAX_SEATS + 1), players)))
    unit = rng.choice([100, 200, 500, 1000])
    if fixed and isinstance(fixed.get("unit"), int):
        unit = fixed["unit"]  # stacks in the table's own units
    params: dict[str, Any] = {
        "button": rng.choice(seats),
        "unit": unit,
        "cap": rng.choice([3, 4, 4, 4]),
        "smallest_chip": rng.choice([25, 100, 100]),
    }
    use_blinds = rng.random() < 0.4 if blinds is None else blinds
    if use_blinds:
        bb = unit * rng.choice([1, 1, 2])
        params["blinds"] = [bb // 2, bb]
    else:
        params["ante"] = rng.choice([0, unit // 10, unit // 4, unit])
    stacks = {}
    for s in seats:
        if short_stacks and rng.random() < 0.35:
            # Short, odd-sized stacks (in whole chips) force all-ins; at least $3 so that a
            # per-player fee can be paid.
            stacks[str(s)] = 300 + rng.randint(1, 30) * unit // 2 + rng.choice([0, 25, 50])
        else:
            stacks[str(s)] = unit * rng.randint(60, 400)
    params["stacks"] = stacks
    hu = rng.random() < 0.3 if heads_up_uncapped is None else heads_up_uncapped
    if hu:
        params["heads_up_uncapped"] = True
    if fee is not None:
        params["fee"] = fee
    if fixed:
        if "blinds" in fixed or "ante" in fixed:  # the table's forced bets, not the sample's
            params.pop("blinds", None)
            params.pop("ante", None)
        if "heads_up_uncapped" not in fixed:
            params.pop("heads_up_uncapped", None)
        params.update(fixed)
    _in_chips(params, fixed or {})
    return Start(game="caro-holdem", seats=tuple(seats), params=types.MappingProxyType(params))


def _in_chips(params: dict[str, Any], fixed: Mapping[str, Any]) -> None:
    """The drawn antes, blinds and stacks in whole chips of the hand's smallest chip (a forced
    bet at least one chip), as a table holds them; the table's own (``fixed``) as given."""
    chip = params["smallest_chip"]

    def whole(amount: int) -> int:
        return max(chip, amount - amount % chip) if amount else 0

    if "ante" in params and "ante" not in fixed:
        params["ante"] = whole(params["ante"])
    if "blinds" in params and "blinds" not in fixed:
        params["blinds"] = [whole(b) for b in params["blinds"]]
    if "stacks" not in fixed:
        params["stacks"] = {s: whole(v) for s, v in params["stacks"].items()}


def sample_hand(
    rng: random.Random,
    *,
    players: int,
    start: Start | None = None,
    fee: dict[str, Any] | None = None,
    fold_rate: float = 0.12,
    unseen_discards: float = 0.1,
) -> list[Event]:
    """Play one hand with random legal choices; returns every event, the start first."""
    return deal_hand(rng, players=players, start=start, fee=fee, fold_rate=fold_rate,
                     unseen_discards=unseen_discards).events


def deal_hand(
    rng: random.Random,
    *,
    players: int,
    start: Start | None = None,
    fee: dict[str, Any] | None = None,
    fold_rate: float = 0.12,
    unseen_discards: float = 0.1,
) -> SampleDeal[State]:
    """:func:`sample_hand`'s hand with the state it led to (each event applied as dealt)."""
    first = start or sample_start(rng, players=players, fee=fee)
    deck = list(full_deck())
    rng.shuffle(deck)
    state = start_state(first)
    hands: dict[int, list[Card]] = {}
    for _ in range(5):
        for seat in state.settings.seats:
            hands.setdefault(seat, []).append(deck.pop())
    events: list[Event] = [first]

    def do(event: Event) -> None:
        nonlocal state
        state = step(state, event)
        events.append(event)

    while state.phase != OVER:
        if state.phase == BOARD:
            deck.pop()
            n = BOARD_COUNTS[state.street + 1]
            do(BoardDealt(cards=tuple(deck.pop() for _ in range(n))))
        elif state.phase == SHOWDOWN:
            waiting = [s.seat for s in state.live() if s.shown is None]
            if len(waiting) > 1 and rng.random() < 0.1:
                do(Fold(seat=waiting[0]))
            else:
                do(Show(seat=waiting[0], cards=tuple(hands[waiting[0]])))
        elif state.phase == BETTING:
            _betting_turn(rng, state, hands, do, fold_rate, unseen_discards)
    return SampleDeal(events, state)


def _betting_turn(
    rng: random.Random,
    state: State,
    hands: dict[int, list[Card]],
    do: Any,
    fold_rate: float,
    unseen_discards: float,
) -> None:
    assert state.to_act is not None
    seat = state.seat(state.to_act)
    choices: list[tuple[str, int]] = []
    for kind in ("bet", "call", "raise"):
        for keep, _ in wager_options(state, seat, kind):
            weight = 3 if keep == 2 else 1
            choices.extend([(kind, keep)] * weight)
    can_check = owed(state, seat) == 0
    if can_check:
        choices.extend([("check", seat.held)] * max(2, len(choices)))
    if (rng.random() < fold_rate and state.level > 0) or not choices:
        do(Fold(seat=seat.seat))
        return
    kind, keep = rng.choice(choices)
    if kind == "check":
        do(Check(seat=seat.seat))
        return
    if keep < seat.held:
        cards = hands[seat.seat]
        rng.shuffle(cards)
        thrown = tuple(cards[keep:])
        del cards[keep:]
        if rng.random() < unseen_discards:
            do(Discard(seat=seat.seat, count=len(thrown)))
        else:
            do(Discard(seat=seat.seat, cards=thrown))
    do(_WAGER_EVENTS[kind](seat=seat.seat))

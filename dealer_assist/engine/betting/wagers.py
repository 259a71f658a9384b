"""A betting game's wager events played on the betting engine: a ``check``, ``call``, ``fold``,
``all-in``, ``bet`` or ``raise`` line read the same way in every game, and a random legal wager
for a game's sample hands."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

from dealer_assist.engine.betting.actions import all_in, bet, call, check, fold, raise_to
from dealer_assist.engine.betting.options import Options
from dealer_assist.engine.betting.rules import Structure
from dealer_assist.engine.betting.state import BettingState
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Vocabulary, event_type


@event_type("all-in", shared=False)
@dataclass(frozen=True, kw_only=True)
class AllIn(Event):
    """The player puts in the whole stack: a call, a bet or a raise, whichever it amounts to.
    Not a shared event: a betting game that takes it names it in its vocabulary."""

    seat: int


#: The tags of the wager events.
WAGERS = frozenset({"check", "call", "fold", "all-in", "bet", "raise"})
_SIMPLE = {"check": check, "call": call, "fold": fold, "all-in": all_in}


def is_wager(event: Event) -> bool:
    """Whether ``event`` is a wager the betting engine plays."""
    return event.TYPE in WAGERS


def wager(state: BettingState, event: Event) -> BettingState:
    """The betting after ``event``, a wager of the seat to act; a :class:`RuleViolation` with
    the engine's reason when it is not legal now. A ``bet`` or ``raise`` takes a ``to`` (the
    seat's total in the round after it) except in fixed limit, where each is one size."""
    seat = event.seat_of
    if seat is None or event.TYPE not in WAGERS:
        raise RuleViolation(f'"{event.TYPE}" is not a wager')
    if event.TYPE in ("bet", "raise"):
        to = getattr(event, "to", None)
        if to is not None and state.rules.structure is Structure.LIMIT:
            raise RuleViolation(
                f'in limit every {event.TYPE} is one fixed size: a {event.TYPE} takes no "to" '
                '(an all-in short of it is "all-in")')
        if event.TYPE == "bet":
            return bet(state, seat, to=to)
        return raise_to(state, seat, to=to)
    return _SIMPLE[event.TYPE](state, seat)


def random_wager(rng: random.Random, opts: Options, weights: Mapping[str, int],
                 vocab: Vocabulary, *, typed: bool) -> Event:
    """One of ``opts``'s choices drawn with ``weights`` (by kind), as the game's event (from
    ``vocab``). A bet or raise whose total is the player's choice (``typed``: not fixed limit)
    goes to its smallest, its largest or a total drawn between them (in whole chips)."""
    c = rng.choices(opts.choices, weights=[weights[x.kind] for x in opts.choices])[0]
    made: Any = vocab[c.kind]  # the game's class for the tag: each takes a seat
    if c.kind not in ("bet", "raise"):
        return cast(Event, made(seat=opts.seat))
    to = None
    if typed:
        assert c.low is not None and c.high is not None
        to = rng.choice((c.low, c.high, rng.randint(c.low, c.high)))
        if to != c.high:  # a whole number of the table's chips (all-in is the whole stack)
            to = max(c.low, to - to % opts.chip)
    return cast(Event, made(seat=opts.seat, to=to))

"""Per-card betting: what each player owes, what each wager costs, and who acts next.

A player holding k cards at level L owes L x limit x k for the round in total; owed now is that
less what they already put in this round, never below zero. A bet takes level 0 to 1, a raise
adds one level (up to the cap), a call pays what is owed. A player short of a call goes all-in
for what they have and keeps every card; there are no partial bets or raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.engine.evolve import builder, setter
from dealer_assist.errors import RuleViolation
from dealer_assist.games.caro_holdem.settings import ROUND_NAMES
from dealer_assist.games.caro_holdem.state import (
    BETTING,
    BOARD,
    OVER,
    SHOWDOWN,
    SeatState,
    State,
    Wager,
    evolve_state,
)
from dealer_assist.money import format_cents

WAGERS = ("bet", "call", "raise")


def violation(text: str, ruling: int) -> RuleViolation:
    """A refusal tagged with the house ruling it rests on (a replay cites it: "ruling caro-5")."""
    return RuleViolation(text, rule=f"caro-{ruling}")


def owed(state: State, seat: SeatState, keep: int | None = None) -> int:
    """Cents the player owes now to stay in at the current level, holding ``keep`` cards."""
    k = seat.held if keep is None else keep
    settings = state.settings  # state.limit, read without the property
    due = state.level * settings.unit * settings.multipliers[state.street] * k - seat.round_in
    return due if due > 0 else 0


def uncapped(state: State) -> bool:
    """The heads-up option: no cap while exactly two players are still in."""
    return state.settings.heads_up_uncapped and len(state.live()) == 2


@dataclass(frozen=True, slots=True)
class Cost:
    """What a wager would do: cents put in, the level after it, and whether it is all-in."""

    amount: int
    level: int
    all_in: bool

    def total(self, seat: SeatState) -> int:
        return seat.round_in + self.amount


#: ``Cost(...)`` without the frozen constructor's cost: every wager's check asks for one.
_cost = builder(Cost)


def why_not(state: State, seat: SeatState, kind: str, keep: int | None = None) -> str | None:
    """The dealer-facing reason a bet/call/raise/check is refused now, or ``None``."""
    try:
        cost(state, seat, kind, keep)
    except RuleViolation as exc:
        return exc.message
    return None


def cost(state: State, seat: SeatState, kind: str, keep: int | None = None) -> Cost:
    """The cost of ``kind`` (check, bet, call, raise) for ``seat`` keeping ``keep`` cards."""
    k = seat.held if keep is None else keep
    level = state.level
    if kind == "call":
        if level == 0:
            raise violation(
                f"seat {seat.seat} cannot call: nobody has bet; check or bet instead", 4
            )
        due = owed(state, seat, k)
        if due == 0 and state.discarding != seat.seat:
            raise violation(f"seat {seat.seat} owes nothing holding {k} cards: that is a check", 5)
        if due >= seat.stack:
            return _cost(seat.stack, level, True)
        return _cost(due, level, False)
    if kind == "check":
        due = owed(state, seat, k)
        if due:
            raise violation(
                f"seat {seat.seat} cannot check: holding {k} cards they owe {format_cents(due)} "
                f"at level {level}; they may call, raise or fold",
                4,
            )
        return _cost(0, level, False)
    if kind == "raise":
        if level == 0:
            raise violation(f"seat {seat.seat} cannot raise: nobody has bet; bet instead", 4)
        if level >= state.settings.cap and not uncapped(state):
            raise violation(
                f"seat {seat.seat} cannot raise: the {state.round_name} is capped at level "
                f"{state.settings.cap}; they may call or fold",
                1,
            )
        return _full(state, seat, k, level + 1, "raise")
    if kind == "bet":
        if level > 0:
            raise violation(
                f"seat {seat.seat} cannot bet: the {state.round_name} is already at level "
                f"{level}; call or raise instead",
                4,
            )
        return _full(state, seat, k, 1, "bet")
    raise ValueError(kind)


def _full(state: State, seat: SeatState, k: int, level: int, kind: str) -> Cost:
    """A bet or raise must be made in full: no partial bets or raises."""
    me = seat.seat
    for s in state.seats:
        if not s.folded and not s.all_in and s.seat != me:
            break  # another player can still act
    else:
        raise violation(
            f"seat {me} cannot {kind}: every other player still in is all-in; "
            "they may only call",
            6,
        )
    settings = state.settings  # state.limit, read without the property
    amount = level * settings.unit * settings.multipliers[state.street] * k - seat.round_in
    if amount < 0:
        amount = 0
    if amount > seat.stack:
        raise violation(
            f"seat {me} cannot {kind}: holding {k} cards it costs "
            f"{format_cents(amount)} and they have {format_cents(seat.stack)}; no partial "
            f"{kind}s: they may {'check' if kind == 'bet' else 'call'} (or keep fewer cards)",
            6,
        )
    return _cost(amount, level, amount == seat.stack)


def pay(seat: SeatState, amount: int, *, all_in: bool) -> SeatState:
    return _put_paid(
        seat,
        seat.stack - amount,
        seat.round_in + amount,
        seat.hand_in + amount,
        all_in or (seat.stack == amount and amount > 0),
    )


#: The copies every wager makes, with their changed fields fixed once (see ``setter``).
_put_paid = setter(SeatState, "stack", "round_in", "hand_in", "all_in")
_put_turn = setter(State, "to_act", "discarding", "seats", "acted", "level", "actions")
_put_phase = setter(
    State, "phase", "to_act", "discarding", "seats", "acted", "level", "actions"
)


def needs_action(state: State, seat: SeatState) -> bool:
    """Whether ``seat`` must still act this round (ruling caro-6, the end of a round).

    Chips are compared over the whole hand. A player still able to act is not asked when every
    other player still in is all-in for a total no larger than theirs: whatever they added could
    not be won. Otherwise a player must act who has not acted since the last bet or raise, except
    that, facing only all-in players, they are asked only while they owe chips by ruling 4.
    """
    return _needs_action(state.seats, state.acted, seat, state.level * state.limit)


def _needs_action(
    seats: tuple[SeatState, ...], acted: frozenset[int], seat: SeatState, per_card: int
) -> bool:
    """:func:`needs_action`, ``per_card`` being the round's level times its limit."""
    if seat.folded or seat.all_in or seat.seat in acted:
        return False
    most = None  # the most any other player still in put in over the hand, all of them all-in
    for s in seats:
        if s.folded or s.seat == seat.seat:
            continue
        if not s.all_in:
            return True
        if most is None or s.hand_in > most:
            most = s.hand_in
    if most is None:
        return True
    return seat.hand_in < most and per_card * seat.held > seat.round_in


def advance(
    state: State,
    actor: int,
    *,
    seats: tuple[SeatState, ...] | None = None,
    acted: frozenset[int] | None = None,
    **changes: Any,
) -> State:
    """After ``actor`` acted: the next player to act, or the end of the round or the hand.

    ``seats``, ``acted`` and ``changes`` are the action's own changes to ``state``, made in the
    same copy (a replay does this for most events, so it saves building the state twice).
    """
    seats = state.seats if seats is None else seats
    acted = state.acted if acted is None else acted
    changes["seats"] = seats
    changes["acted"] = acted
    if sum(1 for s in seats if not s.folded) == 1:
        return evolve_state(state, phase=OVER, to_act=None, discarding=None, **changes)
    order = state.settings.seats
    n = len(order)
    i = order.index(actor)
    per_card = changes.get("level", state.level) * state.limit
    for k in range(i + 1, i + n + 1):
        seat = seats[k % n]
        if _needs_action(seats, acted, seat, per_card):
            return evolve_state(state, to_act=seat.seat, discarding=None, **changes)
    return end_round(state, **changes)


def advance_after(
    state: State,
    i: int,
    seats: tuple[SeatState, ...],
    acted: frozenset[int],
    level: int,
    actions: tuple[Wager, ...],
) -> State:
    """:func:`advance` for the actor ``state.settings.seats[i]``, whose action gives the state
    these ``seats``, ``acted``, ``level`` and ``actions`` (every wager and fold comes here)."""
    live = 0
    for s in seats:
        if not s.folded:
            live += 1
            if live > 1:  # more than one player in: enough to know
                break
    if live == 1:
        return _put_phase(state, OVER, None, None, seats, acted, level, actions)
    n = len(seats)
    settings = state.settings  # state.limit, read without the property
    per_card = level * settings.unit * settings.multipliers[state.street]
    for k in range(i + 1, i + n + 1):
        seat = seats[k % n]
        if _needs_action(seats, acted, seat, per_card):
            return _put_turn(state, seat.seat, None, seats, acted, level, actions)
    phase = SHOWDOWN if state.street >= len(ROUND_NAMES) - 1 else BOARD
    return _put_phase(state, phase, None, None, seats, acted, level, actions)


def end_round(state: State, **changes: Any) -> State:
    """The round is over: the next board cards, or the showdown after the reflip."""
    if state.street >= len(ROUND_NAMES) - 1:
        return evolve_state(state, phase=SHOWDOWN, to_act=None, discarding=None, **changes)
    return evolve_state(state, phase=BOARD, to_act=None, discarding=None, **changes)


def open_round(state: State, *, first_after: int) -> State:
    """Start a betting round, the first to act being the first player who must, left of
    ``first_after``; a round nobody needs to act in (all but one all-in) is skipped."""
    first = first_to_act(state, first_after)
    if first is not None:
        return _put_open(state, BETTING, _NOBODY, None, first)
    return end_round(state, acted=_NOBODY)


def first_to_act(state: State, first_after: int) -> int | None:
    """The seat that opens a betting round in ``state``: the first, left of ``first_after``, who
    must act; ``None`` when nobody must (all but one all-in), so the round is skipped."""
    return first_to_act_among(
        state.seats, state.settings.seats, first_after, per_card=state.level * state.limit
    )


def first_to_act_among(
    seats: tuple[SeatState, ...], order: tuple[int, ...], first_after: int, *, per_card: int = 0
) -> int | None:
    """:func:`first_to_act` for a state with these ``seats`` (``order`` its seat numbers) and
    ``per_card`` owed a card at the round's level (none at a new round's level 0)."""
    n = len(order)
    i = order.index(first_after)
    for k in range(i + 1, i + n + 1):
        seat = seats[k % n]
        if _needs_action(seats, _NOBODY, seat, per_card):
            return seat.seat
    return None


#: Nobody has acted yet in a new betting round.
_NOBODY: frozenset[int] = frozenset()
_put_open = setter(State, "phase", "acted", "discarding", "to_act")

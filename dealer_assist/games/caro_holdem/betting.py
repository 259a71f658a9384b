"""Per-card betting: what each player owes, what each wager costs, and who acts next.

A player holding k cards at level L owes L x limit x k for the round in total; owed now is that
less what they already put in this round, never below zero. A bet takes level 0 to 1, a raise
adds one level (up to the cap), a call pays what is owed. A player short of a call goes all-in
for what they have and keeps every card; there are no partial bets or raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.errors import RuleViolation
from dealer_assist.games.caro_holdem.settings import ROUND_NAMES
from dealer_assist.games.caro_holdem.state import (
    BETTING,
    BOARD,
    OVER,
    SHOWDOWN,
    SeatState,
    State,
    evolve_seat,
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
    return max(0, state.level * state.limit * k - seat.round_in)


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
    who = f"seat {seat.seat}"
    if kind == "check":
        due = owed(state, seat, k)
        if due:
            raise violation(
                f"{who} cannot check: holding {k} cards they owe {format_cents(due)} "
                f"at level {state.level}; they may call, raise or fold",
                4,
            )
        return Cost(0, state.level, False)
    if kind == "bet":
        if state.level > 0:
            raise violation(
                f"{who} cannot bet: the {state.round_name} is already at level {state.level}; "
                "call or raise instead",
                4,
            )
        return _full(state, seat, k, 1, "bet")
    if kind == "raise":
        if state.level == 0:
            raise violation(f"{who} cannot raise: nobody has bet; bet instead", 4)
        if state.level >= state.settings.cap and not uncapped(state):
            raise violation(
                f"{who} cannot raise: the {state.round_name} is capped at level "
                f"{state.settings.cap}; they may call or fold",
                1,
            )
        return _full(state, seat, k, state.level + 1, "raise")
    if kind == "call":
        if state.level == 0:
            raise violation(f"{who} cannot call: nobody has bet; check or bet instead", 4)
        due = owed(state, seat, k)
        if due == 0 and state.discarding != seat.seat:
            raise violation(f"{who} owes nothing holding {k} cards: that is a check", 5)
        if due >= seat.stack:
            return Cost(seat.stack, state.level, True)
        return Cost(due, state.level, False)
    raise ValueError(kind)


def _full(state: State, seat: SeatState, k: int, level: int, kind: str) -> Cost:
    """A bet or raise must be made in full: no partial bets or raises."""
    others = [s for s in state.actors() if s.seat != seat.seat]
    if not others:
        raise violation(
            f"seat {seat.seat} cannot {kind}: every other player still in is all-in; "
            "they may only call",
            6,
        )
    amount = max(0, level * state.limit * k - seat.round_in)
    if amount > seat.stack:
        raise violation(
            f"seat {seat.seat} cannot {kind}: holding {k} cards it costs "
            f"{format_cents(amount)} and they have {format_cents(seat.stack)}; no partial "
            f"{kind}s: they may {'check' if kind == 'bet' else 'call'} (or keep fewer cards)",
            6,
        )
    return Cost(amount, level, amount == seat.stack)


def pay(seat: SeatState, amount: int, *, all_in: bool) -> SeatState:
    return evolve_seat(
        seat,
        stack=seat.stack - amount,
        round_in=seat.round_in + amount,
        hand_in=seat.hand_in + amount,
        all_in=all_in or (seat.stack == amount and amount > 0),
    )


def needs_action(state: State, seat: SeatState) -> bool:
    """Whether ``seat`` must still act this round.

    A player who has not acted since the last bet or raise must, except the last player able to
    act once they have put in at least as much as every all-in opponent: anything more they put
    in could only come back to them.
    """
    return _needs_action(state.seats, state.acted, seat)


def _needs_action(
    seats: tuple[SeatState, ...], acted: frozenset[int], seat: SeatState
) -> bool:
    if seat.folded or seat.all_in or seat.seat in acted:
        return False
    most = None  # the most any other player still in has put in, while all of them are all-in
    for s in seats:
        if s.folded or s.seat == seat.seat:
            continue
        if not s.all_in:
            return True
        if most is None or s.round_in > most:
            most = s.round_in
    return most is None or seat.round_in < most


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
    for k in range(i + 1, i + n + 1):
        seat = seats[k % n]
        if _needs_action(seats, acted, seat):
            return evolve_state(state, to_act=seat.seat, discarding=None, **changes)
    return end_round(state, **changes)


def end_round(state: State, **changes: Any) -> State:
    """The round is over: the next board cards, or the showdown after the reflip."""
    if state.street >= len(ROUND_NAMES) - 1:
        return evolve_state(state, phase=SHOWDOWN, to_act=None, discarding=None, **changes)
    return evolve_state(state, phase=BOARD, to_act=None, discarding=None, **changes)


def open_round(state: State, *, first_after: int) -> State:
    """Start a betting round, the first to act being the first player who must, left of
    ``first_after``; a round nobody needs to act in (all but one all-in) is skipped."""
    acted: frozenset[int] = frozenset()
    for seat in state.clockwise_after(first_after):
        if _needs_action(state.seats, acted, seat):
            return evolve_state(
                state, phase=BETTING, acted=acted, discarding=None, to_act=seat.seat
            )
    return end_round(state, acted=acted)

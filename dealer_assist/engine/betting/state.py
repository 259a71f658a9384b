"""The betting state of one hand, and how a hand and each betting round begin.

The state is immutable: every action returns a new one (``actions.py``). Per-seat values are
tuples in the table's clockwise seat order (``seats``), indexed by position, so the order of
play is a walk along them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from dealer_assist.engine.betting.rules import BettingRules, Structure
from dealer_assist.engine.evolve import builder, evolver
from dealer_assist.errors import RuleViolation
from dealer_assist.money import format_cents


@dataclass(frozen=True, slots=True)
class Act:
    """One betting action as it happened: ``kind`` is what it amounted to (``check``, ``call``,
    ``fold``, ``bet``, ``raise``; ``kill`` for a hand the dealer declared dead), ``amount`` the
    cents it put in, ``to`` the seat's total in the round after it, ``all_in`` whether it took
    the whole stack."""

    seat: int
    kind: str
    amount: int
    to: int
    all_in: bool
    round: int


@dataclass(frozen=True, slots=True)
class BettingState:
    """Where the betting of a hand stands.

    - ``put_in``: every cent each seat pushed forward this hand (antes, blinds, bets), before any
      uncalled chips came back (those are in ``returned``).
    - ``in_round``: each seat's total in the current round (blinds count, antes do not).
    - ``acted_at``: the bet a seat last acted on this round (``None``: not yet), which says
      whether a later short all-in reopened the betting to it.
    - ``bet``: the highest total in the round; ``full_raise``: the last full bet or raise (the
      smallest raise); ``full_level``: the total of the last full bet or raise (a limit raise
      goes one bet above it); ``raises``: bets and raises counted toward the limit cap.
    - ``to_act``: the position to act, ``None`` when the round (or the hand) is closed.
    - ``pot_in``: money in the pot before anyone put anything in (carried from another hand).
    """

    rules: BettingRules
    seats: tuple[int, ...]
    button: int
    stacks: tuple[int, ...]
    put_in: tuple[int, ...]
    returned: tuple[int, ...]
    in_round: tuple[int, ...]
    folded: tuple[bool, ...]
    acted_at: tuple[int | None, ...]
    round: int
    bet: int
    full_raise: int
    full_level: int
    raises: int
    to_act: int | None
    aggressor: int | None
    pot_in: int
    log: tuple[Act, ...]

    # -- reading the state ---------------------------------------------------------------

    def index(self, seat: int) -> int:
        """The position of ``seat`` in the clockwise order."""
        try:
            return self.seats.index(seat)
        except ValueError:
            raise RuleViolation(
                f"seat {seat} is not in this hand (seats {', '.join(map(str, self.seats))})",
                rule="betting-seat",
            ) from None

    @property
    def seat_to_act(self) -> int | None:
        return None if self.to_act is None else self.seats[self.to_act]

    @property
    def live(self) -> tuple[int, ...]:
        """Seats still in the hand, clockwise from the button's left."""
        seats, folded = self.seats, self.folded
        return tuple([seats[i] for i in _from_button(seats, self.button) if not folded[i]])

    @property
    def hand_over(self) -> bool:
        """Everyone but one has folded: that seat wins without a showdown."""
        return self.folded.count(False) == 1

    @property
    def round_closed(self) -> bool:
        """Nobody is left to act in this betting round."""
        return self.to_act is None

    @property
    def betting_done(self) -> bool:
        """No more betting this hand: one seat left, or the round is closed with at most one
        seat still in holding chips (the rest of the board is dealt without betting)."""
        if self.hand_over:
            return True
        if self.to_act is not None:
            return False
        with_chips = sum(
            1 for i, f in enumerate(self.folded) if not f and self.stacks[i] > 0
        )
        return with_chips <= 1

    @property
    def pot(self) -> int:
        """Everything in the middle now, bets in front of the players included."""
        return self.pot_in + sum(self.put_in) - sum(self.returned)

    def contributions(self) -> dict[int, int]:
        """Each seat's stake in the pots: what it put in less what came back to it."""
        return {s: self.put_in[i] - self.returned[i] for i, s in enumerate(self.seats)}

    def owed(self, seat: int) -> int:
        """What ``seat`` must add to call now, before its stack limits it."""
        i = self.index(seat)
        return max(0, self.bet - self.in_round[i])

    def _from_button(self) -> list[int]:
        return list(_from_button(self.seats, self.button))

    def needs_to_act(self, i: int) -> bool:
        """Position ``i`` still has a decision this round."""
        if self.folded[i] or self.stacks[i] == 0:
            return False
        if self.acted_at[i] is not None and self.in_round[i] >= self.bet:
            return False
        if self.in_round[i] >= self.bet:
            # nobody else can still bet against it: no decision to make
            others = any(
                not self.folded[j] and self.stacks[j] > 0
                for j in range(len(self.seats))
                if j != i
            )
            return others
        return True

    def next_to_act(self, after: int) -> int | None:
        """The first position clockwise after ``after`` with a decision, or ``None``:
        :meth:`needs_to_act` asked of each in turn, written out (every betting input asks it),
        the seats still holding chips counted once for all."""
        folded = self.folded
        if folded.count(False) == 1:  # (hand_over)
            return None
        stacks, in_round, acted_at, bet = self.stacks, self.in_round, self.acted_at, self.bet
        n = len(folded)
        with_chips = -1
        for k in range(1, n + 1):
            i = (after + k) % n
            if folded[i] or stacks[i] == 0:
                continue
            if in_round[i] >= bet:
                if acted_at[i] is not None:
                    continue
                # nobody else can still bet against it: no decision to make
                if with_chips < 0:
                    with_chips = sum(1 for j in range(n) if not folded[j] and stacks[j] > 0)
                if with_chips > 1:  # (another besides this one)
                    return i
                continue
            return i
        return None

    def describe(self, seat: int) -> str:
        """A line for the dealer: ``seat 3 ($1,200 behind, $40 in this round)``."""
        i = self.index(seat)
        return (
            f"seat {seat} ({format_cents(self.stacks[i])} behind, "
            f"{format_cents(self.in_round[i])} in this round)"
        )


evolve = evolver(BettingState)
#: ``BettingState(...)`` without the frozen constructor's cost (a hand's start makes one).
_build = builder(BettingState)
#: The turn's slot of a :class:`BettingState`, written past its frozen guard (on a record just
#: made, before anyone else holds it).
put_to_act: Callable[[BettingState, int | None], None] = vars(BettingState)["to_act"].__set__


@lru_cache(maxsize=256)
def _from_button(seats: tuple[int, ...], button: int) -> tuple[int, ...]:
    """The positions clockwise from the button's left (asked on every betting input; a table
    has few seatings and buttons, so each is worked out once)."""
    b = seats.index(button)
    n = len(seats)
    return tuple((b + 1 + k) % n for k in range(n))


def start(
    rules: BettingRules,
    *,
    seats: Sequence[int],
    button: int,
    stacks: Mapping[int, int],
    antes: Mapping[int, int] | None = None,
    pot_in: int = 0,
) -> BettingState:
    """A hand's betting with the antes and blinds posted and the first player to act.

    ``seats`` are listed clockwise; ``stacks`` give each seat's chips before the hand; ``antes``
    overrides ``rules.ante`` per seat (Markets poker: two chips for the dealer and the next
    seat). A forced bet bigger than a stack takes the whole stack (the seat is all-in). Heads-up
    the button posts the small blind and acts first before the flop, last after it.
    """
    order = tuple(seats)
    if len(order) < 2:
        raise RuleViolation("a betting hand needs at least two players", rule="betting-seat")
    if len(set(order)) != len(order):
        raise RuleViolation("a seat is listed twice", rule="betting-seat")
    if button not in order:
        raise RuleViolation(f"the button seat {button} is not in the hand", rule="betting-seat")
    if not isinstance(pot_in, int) or pot_in < 0:
        raise RuleViolation("the pot brought in must be 0 or more cents", rule="betting-seat")
    stack = []
    for s in order:
        chips = stacks.get(s)
        if not isinstance(chips, int) or isinstance(chips, bool) or chips < 0:
            raise RuleViolation(f"seat {s} needs a stack in whole cents", rule="betting-seat")
        if chips == 0:
            raise RuleViolation(
                f"seat {s} has no chips: leave it out of the hand", rule="betting-seat"
            )
        stack.append(chips)
    n = len(order)
    put = [0] * n
    for i, s in enumerate(order):
        ante = rules.ante if antes is None else antes.get(s, 0)
        if ante < 0:
            raise RuleViolation(f"seat {s}'s ante cannot be negative", rule="betting-seat")
        paid = min(ante, stack[i])
        stack[i] -= paid
        put[i] += paid
    in_round = [0] * n
    b = order.index(button)
    bet = 0
    raises = 0
    first_after = b  # the first to act is the first with a decision after this position
    if rules.big_blind > 0:
        if n == 2:
            sb, bb = b, (b + 1) % n
        else:
            sb, bb = (b + 1) % n, (b + 2) % n
        for i, blind in ((sb, rules.small_blind), (bb, rules.big_blind)):
            paid = min(blind, stack[i])
            stack[i] -= paid
            put[i] += paid
            in_round[i] += paid
        bet = rules.big_blind
        raises = 1
        first_after = bb
    state = _build(
        rules=rules,
        seats=order,
        button=button,
        stacks=tuple(stack),
        put_in=tuple(put),
        returned=(0,) * n,
        in_round=tuple(in_round),
        folded=(False,) * n,
        acted_at=(None,) * n,
        round=0,
        bet=bet,
        full_raise=rules.bet_size(0),
        full_level=bet,
        raises=raises,
        to_act=None,
        aggressor=None,
        pot_in=pot_in,
        log=(),
    )
    put_to_act(state, state.next_to_act(first_after))  # (a new record nobody holds yet)
    return state


def next_round(state: BettingState) -> BettingState:
    """The next betting round (after the board cards or the draw the game deals in between):
    nothing in front of anyone, first to act the first seat with chips left of the button."""
    if state.hand_over:
        raise RuleViolation("the hand is over: everyone else folded", rule="betting-closed")
    if state.to_act is not None:
        raise RuleViolation(
            f"the betting round is not over: seat {state.seat_to_act} is to act",
            rule="betting-turn",
        )
    n = len(state.seats)
    fresh = evolve(
        state,
        in_round=(0,) * n,
        acted_at=(None,) * n,
        round=state.round + 1,
        bet=0,
        full_raise=state.rules.bet_size(state.round + 1),
        full_level=0,
        raises=0,
        aggressor=None,
    )
    return evolve(fresh, to_act=fresh.next_to_act(fresh.seats.index(fresh.button)))


def bet_size(state: BettingState) -> int:
    """Limit: the one size of a bet or raise this round."""
    return state.rules.bet_size(state.round)


def is_limit(state: BettingState) -> bool:
    return state.rules.structure is Structure.LIMIT

"""The hand's start and each input's effect: :func:`step` returns the next state or raises a
:class:`RuleViolation` in the dealer's words (the betting engine's rule, or the Anaconda
ruling)."""

from __future__ import annotations

from types import MappingProxyType

from dealer_assist.cards import Card
from dealer_assist.engine import betting
from dealer_assist.engine.evolve import copied
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Show, Start
from dealer_assist.fees import FeeContext, pre_deal_fees
from dealer_assist.games.anaconda.events import Declare, Pass, Roll
from dealer_assist.games.anaconda.state import (
    BETTING,
    DECLARING,
    HIGH,
    KEEP,
    LOW,
    OVER,
    PASSES,
    PASSING,
    ROLLING,
    ROLLS,
    SHOWDOWN,
    State,
    evolve,
    read_table,
)
from dealer_assist.money import format_cents


def violation(text: str, n: int) -> RuleViolation:
    """A refusal under Anaconda ruling ``n`` (the house rulings)."""
    return RuleViolation(text, rule=f"anaconda-{n}")


def start_state(start: Start, pot_key: str = "pot_in") -> State:
    """Fees before the deal, the antes (by the betting engine, the carried pot in its main
    pot), seven cards face down to each seat."""
    t = read_table(start, pot_key)
    stacks = dict(t.stacks)
    pre = tuple(pre_deal_fees(t.policy, FeeContext(
        seats=t.seats, button=t.button, pot=0, saw_flop=False, smallest_chip=t.smallest_chip)))
    for line in pre:
        if line.from_seat is None or line.from_seat not in stacks:
            raise RuleViolation(f"the fee policy's {line.kind} names no seat at this table")
        if stacks[line.from_seat] <= line.amount:
            raise RuleViolation(
                f"seat {line.from_seat} has {format_cents(stacks[line.from_seat])}: not enough "
                f"to pay the {line.kind} of {format_cents(line.amount)} and play")
        stacks[line.from_seat] -= line.amount
    bet = betting.start(t.rules, seats=t.seats, button=t.button, stacks=stacks,
                        pot_in=t.pot_in)
    return _after_betting(State(table=t, bet=bet, pre_fees=pre))


def _after_betting(state: State) -> State:
    """Where the hand goes once the betting engine has moved: on with the round, to the next
    pass, the declarations, the rolls or the showdown; over when one player is left."""
    bet = state.bet
    if bet.hand_over:
        phase = OVER
    elif bet.to_act is not None:
        phase = BETTING
    elif bet.round <= 1:
        phase = PASSING
    elif bet.round == 2:
        phase = DECLARING
    elif state.rolls_done() < ROLLS:
        phase = ROLLING
    else:
        return evolve(state, phase=SHOWDOWN, order=betting.showdown_order(bet))
    return state if phase == state.phase else evolve(state, phase=phase)


def _next_round(state: State) -> State:
    """The next betting round (skipped by the engine when nobody can bet)."""
    return _after_betting(evolve(state, bet=betting.next_round(state.bet)))


def step(state: State, event: Event) -> State:
    """The state after ``event``, or a :class:`RuleViolation` saying why not."""
    if state.phase == OVER:
        raise RuleViolation("the hand is over: settle it and start the next hand")
    seat = event.seat_of
    if seat is not None and seat not in state.table.seats:
        raise RuleViolation(f"seat {seat} is not in this hand")
    if isinstance(event, Pass):
        return _pass(state)
    if isinstance(event, Declare):
        return _declare(state, event)
    if isinstance(event, Roll):
        return _roll(state, event)
    if isinstance(event, Show):
        return _show(state, event)
    if betting.is_wager(event):
        _betting_now(state)
        try:
            bet = betting.wager(state.bet, event)
        except RuleViolation as refusal:  # the betting engine's rule, under ruling 1
            raise violation(refusal.message, 1) from refusal
        return _after_betting(evolve(state, bet=bet))
    raise RuleViolation(f'Anaconda has no "{event.TYPE}" input')


def next_step(state: State) -> str:
    """What the dealer does next, in words (for a refusal)."""
    if state.phase == PASSING:
        return f"every player still in passes {PASSES[state.passes]} (Passed)"
    if state.phase == DECLARING:
        left = ", ".join(map(str, state.to_declare()))
        return f"the players still in declare high or low (still to declare: seat {left})"
    if state.phase == ROLLING:
        return f"seat {state.to_roll()} rolls a card"
    if state.phase == SHOWDOWN:
        return f"seat {state.to_show()} shows five cards"
    return f"seat {state.bet.seat_to_act} acts"


def _betting_now(state: State) -> None:
    if state.phase != BETTING:
        raise RuleViolation(f"no betting now: {next_step(state)}", rule="betting-closed")


def _pass(state: State) -> State:
    if state.phase != PASSING:
        if state.phase == BETTING:
            raise violation(f"the betting round is not over: {next_step(state)} before the "
                            "cards are passed", 1)
        raise violation(f"no passing now (both passing rounds are done): {next_step(state)}", 1)
    return _next_round(evolve(state, passes=state.passes + 1))


def _declare(state: State, event: Declare) -> State:
    seat = event.seat
    if state.phase != DECLARING:
        when = ("the declarations come after the second pass and its betting"
                if state.phase in (BETTING, PASSING) and state.bet.round < 3 and
                not state.declared else "the declarations are done")
        raise violation(f"{when}: {next_step(state)}", 2)
    if seat not in state.live:
        raise violation(f"seat {seat} is out of the hand: only the players still in declare", 2)
    if seat in state.declared:
        raise violation(f"seat {seat} has already declared {state.declared[seat]}: a "
                        "declaration is final", 2)
    if event.way not in (HIGH, LOW):
        raise violation(f'a declaration is "high" or "low", not {event.way!r}', 2)
    declared = copied(state.declared)
    declared[seat] = event.way
    moved = evolve(state, declared=MappingProxyType(declared))
    if moved.to_declare():
        return moved
    return evolve(moved, phase=ROLLING)


def _check_cards(state: State, cards: tuple[Card, ...], what: str, own: tuple[Card, ...] = ()
                 ) -> None:
    if len(set(cards)) != len(cards):
        raise violation(f"{what} names the same card twice", 2)
    rolled, shown = state.rolled.values(), state.shown.values()
    for card in cards:
        if card.is_joker:
            raise RuleViolation("Anaconda is played without jokers")
        # (state.known() less ``own``, asked card by card without gathering every card)
        if card not in own and (any(card in seq for seq in rolled)
                                or any(card in seq for seq in shown)):
            raise violation(f"{card.code} is already face up at the table: {what} cannot "
                            "hold it", 2)


def _roll(state: State, event: Roll) -> State:
    seat = event.seat
    if state.phase != ROLLING:
        if state.phase == DECLARING:
            raise violation("every declaration is recorded before anything is rolled: "
                            f"{next_step(state)}", 2)
        raise violation(f"no card is rolled now: {next_step(state)}", 2)
    # (state.rolls_done() and state.to_roll(), the phase being ROLLING: the players still in
    # and the cards each has turned counted once)
    live = state.live
    rolled_now = state.rolled
    counts = [len(rolled_now.get(s, ())) for s in live]
    before = min(counts, default=0)
    nxt = next((s for s, n in zip(live, counts, strict=True) if n == before), None)
    if seat != nxt:
        raise violation(f"seat {nxt} rolls next (each player still in turns one card, from the "
                        f"button's left, round by round), not seat {seat}", 2)
    _check_cards(state, (event.card,), f"seat {seat}'s roll")
    rolled = copied(state.rolled)
    rolled[seat] = (*rolled.get(seat, ()), event.card)
    moved = evolve(state, rolled=MappingProxyType(rolled))
    done = min((len(rolled.get(s, ())) for s in live), default=0)  # (a roll folds nobody)
    if done == before:  # the round of rolls goes on
        return moved
    if state.table.bet_each_roll or done == ROLLS:
        return _next_round(moved)
    return moved


def _show(state: State, event: Show) -> State:
    seat = event.seat
    if state.phase != SHOWDOWN:
        raise violation(f"no hand is shown before the last betting round: {next_step(state)}", 2)
    nxt = state.to_show()
    if seat != nxt:
        done = "has already shown" if seat in state.shown else "is not next"
        raise violation(f"seat {seat} {done}: seat {nxt} shows first (showdown order "
                        f"{', '.join(map(str, state.order))}: the last to bet or raise first, "
                        "then clockwise)", 2)
    cards = tuple(event.cards)
    if len(cards) != KEEP:
        raise violation(f"seat {seat} keeps five cards: show all five, not {len(cards)}", 2)
    own = state.rolled.get(seat, ())
    missing = [c.code for c in own if c not in cards]
    if missing:
        raise violation(f"seat {seat} rolled {' '.join(c.code for c in own)}: its five must "
                        f"hold them ({' '.join(missing)} missing)", 2)
    _check_cards(state, cards, f"seat {seat}'s hand", own)
    shown = copied(state.shown)
    shown[seat] = cards
    moved = evolve(state, shown=MappingProxyType(shown))
    if moved.to_show() is None:
        return evolve(moved, phase=OVER)
    return moved

"""The hand's start and each input's effect: :func:`step` returns the next state or raises
:class:`RuleViolation` naming the rule (the betting engine's tag, or the Pineapple ruling)."""

from __future__ import annotations

from dealer_assist.cards import Card
from dealer_assist.engine import betting
from dealer_assist.errors import RuleViolation
from dealer_assist.events import (
    BoardDealt,
    Discard,
    Event,
    Show,
    Start,
)
from dealer_assist.fees import FeeContext, pre_deal_fees
from dealer_assist.games.pineapple.events import Kill, Muck
from dealer_assist.games.pineapple.settings import (
    BOARD_COUNTS,
    HOLE_CARDS,
    ROUND_NAMES,
    parse_settings,
)
from dealer_assist.games.pineapple.state import (
    BETTING,
    BOARD,
    OVER,
    SHOWDOWN,
    State,
    evolve,
)
from dealer_assist.money import format_cents


def violation(text: str, n: int) -> RuleViolation:
    """A refusal under Pineapple ruling ``n`` (RULINGS.md)."""
    return RuleViolation(text, rule=f"pineapple-{n}")


def start_state(start: Start) -> State:
    """Fees before the deal, antes and blinds posted (by the betting engine), three cards face
    down to each seat."""
    cfg = parse_settings(start)
    stacks = dict(cfg.stacks)
    pre = tuple(pre_deal_fees(cfg.policy, FeeContext(
        seats=cfg.seats, button=cfg.button, pot=0, saw_flop=False,
        smallest_chip=cfg.smallest_chip)))
    for line in pre:
        if line.from_seat is None or line.from_seat not in stacks:
            raise RuleViolation(f"the fee policy's {line.kind} names no seat at this table")
        if stacks[line.from_seat] <= line.amount:
            raise RuleViolation(
                f"seat {line.from_seat} has {format_cents(stacks[line.from_seat])}: not enough "
                f"to pay the {line.kind} of {format_cents(line.amount)} and play")
        stacks[line.from_seat] -= line.amount
    bet = betting.start(cfg.rules, seats=cfg.seats, button=cfg.button, stacks=stacks)
    state = State(settings=cfg, bet=bet, held=tuple((s, HOLE_CARDS) for s in cfg.seats),
                  pre_fees=pre)
    return _after_betting(state)


def _after_betting(state: State) -> State:
    """Where the hand goes once the betting engine has moved: on, to the board, to the
    showdown, or over when one player is left."""
    bet = state.bet
    if bet.hand_over:
        return evolve(state, phase=OVER)
    if bet.to_act is not None:  # (a round going on: mostly no change of phase, no copy)
        return state if state.phase == BETTING else evolve(state, phase=BETTING)
    if state.street == 3:
        return _showdown(state)
    return state if state.phase == BOARD else evolve(state, phase=BOARD)


def _showdown(state: State) -> State:
    return evolve(state, phase=SHOWDOWN, order=betting.showdown_order(state.bet))


def step(state: State, event: Event) -> State:
    """The state after ``event``, or a :class:`RuleViolation` saying why not."""
    if state.phase == OVER:
        raise RuleViolation("the hand is over: settle it and start the next hand")
    seat = event.seat_of
    if seat is not None and seat not in state.settings.seats:
        raise RuleViolation(f"seat {seat} is not in this hand")
    if isinstance(event, Kill):
        return _kill(state, event.seat, event.reason)
    if isinstance(event, Discard):
        return _discard(state, event)
    if isinstance(event, BoardDealt):
        return _board(state, event)
    if isinstance(event, Show):
        return _show(state, event)
    if isinstance(event, Muck):
        return _muck(state, event.seat)
    if betting.is_wager(event):
        _betting_now(state)
        try:
            bet = betting.wager(state.bet, event)
        except RuleViolation as refusal:  # the betting engine's rule, under ruling 1
            raise violation(refusal.message, 1) from refusal
        return _after_betting(evolve(state, bet=bet))
    raise RuleViolation(f'{state.settings.title} has no "{event.TYPE}" input')


def _betting_now(state: State) -> None:
    if state.phase == BOARD:
        owing = state.owing()
        if owing:
            raise violation(
                f"the {ROUND_NAMES[state.street]} betting is over: seat "
                f"{', '.join(map(str, owing))} still owe{'s' if len(owing) == 1 else ''} "
                "a discard, then the next board card is dealt", 2)
        nxt = state.street + 1
        raise RuleViolation(
            f"the {ROUND_NAMES[state.street]} betting is over: deal the {ROUND_NAMES[nxt]} "
            "first", rule="betting-closed")
    if state.phase == SHOWDOWN:
        raise violation("the betting is over: the players still in show or muck", 3)


def _check_cards(state: State, cards: tuple[Card, ...], what: str) -> None:
    if len(set(cards)) != len(cards):
        raise RuleViolation(f"{what} names the same card twice")
    for card in cards:
        if card.is_joker:
            raise RuleViolation("Pineapple is played without jokers")
        if card in state.known:
            raise RuleViolation(f"{card.code} is already face up: {what} cannot hold it")


def _discard(state: State, event: Discard) -> State:
    seat = event.seat
    d = state.settings.discard_after
    if seat not in state.live:
        raise RuleViolation(f"seat {seat}'s hand is out: it has nothing to discard")
    if state.holding(seat) < HOLE_CARDS:
        raise violation(f"seat {seat} has already discarded: it keeps two cards", 2)
    if state.street < d or (state.street == d and state.phase == BETTING):
        raise violation(
            f"too early: {state.settings.title} players discard after the {ROUND_NAMES[d]} "
            f"betting, before the {ROUND_NAMES[d + 1]}", 2)
    if state.phase != BOARD or state.street != d:
        raise violation(f"too late: the discard came before the {ROUND_NAMES[d + 1]}", 2)
    # ruling pineapple-5: a discard with neither cards nor count is one card face down
    n = event.n if event.cards or event.count is not None else 1
    if event.cards and event.count is not None and event.count != len(event.cards):
        raise RuleViolation(
            f"the discard names {len(event.cards)} cards but says count {event.count}")
    if n != 1:
        raise violation(f"each player discards exactly one hole card, not {n}", 2)
    cards = tuple(event.cards)
    _check_cards(state, cards, f"seat {seat}'s discard")
    held = tuple((s, h - 1 if s == seat else h) for s, h in state.held)
    discards = (*state.discards, (seat, cards)) if cards else state.discards
    return evolve(state, held=held, discards=discards, known=state.known | frozenset(cards))


def _board(state: State, event: BoardDealt) -> State:
    if state.phase == BETTING:
        raise RuleViolation(
            f"too early for the board: the {ROUND_NAMES[state.street]} betting is not over "
            f"(seat {state.bet.seat_to_act} is to act)", rule="betting-turn")
    if state.phase == SHOWDOWN:
        raise RuleViolation("the board is complete: five cards")
    owing = state.owing()
    if owing:
        names = ", ".join(f"seat {s}" for s in owing)
        raise violation(
            f"{names} must discard before the {ROUND_NAMES[state.street + 1]} "
            "is dealt; or kill a hand that will not (a hand still holding three cards when "
            "the next board card comes is dead)", 2)
    nxt = state.street + 1
    count = BOARD_COUNTS[nxt]
    cards = tuple(event.cards)
    if len(cards) != count:
        raise RuleViolation(
            f"the {ROUND_NAMES[nxt]} is {count} card{'s' if count > 1 else ''}, not {len(cards)}")
    _check_cards(state, cards, f"the {ROUND_NAMES[nxt]}")
    bet = betting.next_round(state.bet)
    # (one copy: the new street, its board and its betting round, and the phase they make)
    if bet.to_act is None:  # nobody left to bet: the rest of the board comes
        if nxt == 3:
            return _showdown(evolve(state, street=nxt, board=state.board + cards,
                                    known=state.known | frozenset(cards), bet=bet))
        phase = BOARD
    else:
        phase = BETTING
    return evolve(state, street=nxt, board=state.board + cards,
                  known=state.known | frozenset(cards), bet=bet, phase=phase)


def _kill(state: State, seat: int, why: str = "") -> State:
    if state.phase == SHOWDOWN:
        raise violation(
            f"at the showdown a hand is shown or mucked: seat {seat} mucks instead", 3)
    bet = betting.kill(state.bet, seat)
    reason = why.strip() or ("missed discard" if seat in state.owing() else "killed by the dealer")
    return _after_betting(evolve(state, bet=bet, killed=(*state.killed, (seat, reason))))


def _turn_at_showdown(state: State, seat: int, what: str) -> None:
    if state.phase != SHOWDOWN:
        raise violation(f"no hand is {what} before the showdown", 3)
    if seat not in state.live:
        raise RuleViolation(f"seat {seat}'s hand is out: only players still in show")
    nxt = state.to_show()
    if nxt != seat:
        done = "has already shown" if seat in dict(state.shown) else "is not next"
        raise violation(
            f"seat {seat} {done}: seat {nxt} shows or mucks first (showdown order "
            f"{', '.join(map(str, state.order))})", 3)


def _show(state: State, event: Show) -> State:
    seat = event.seat
    _turn_at_showdown(state, seat, "shown")
    cards = tuple(event.cards)
    held = state.holding(seat)
    if len(cards) != held:
        raise violation(f"seat {seat} holds {held} cards: show exactly those, not {len(cards)}",
                        3)
    _check_cards(state, cards, f"seat {seat}'s hand")
    moved = evolve(state, shown=(*state.shown, (seat, cards)),
                   known=state.known | frozenset(cards))
    return _maybe_over(moved)


def _muck(state: State, seat: int) -> State:
    _turn_at_showdown(state, seat, "mucked")
    if state.must_show(seat):
        why = ("a player is all-in, so every hand still in is tabled" if state.shown
               else "the first hand at the showdown is shown")
        raise violation(f"seat {seat} must show: {why}", 3)
    bet = betting.kill(state.bet, seat)
    return _maybe_over(evolve(state, bet=bet, mucked=state.mucked | {seat}))


def _maybe_over(state: State) -> State:
    if state.bet.hand_over or state.to_show() is None:
        return evolve(state, phase=OVER)
    return state

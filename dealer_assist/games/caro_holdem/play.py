"""The hand's start, what the dealer may enter next (``check``) and what it does (``transition``).

Each input is checked by computing its result: :func:`step` either returns the next state or
raises :class:`RuleViolation` naming the house ruling, so checking and applying never disagree.
"""

from __future__ import annotations

from dealer_assist.cards import JOKER_RANK, JOKER_SUIT, Card
from dealer_assist.deck import DeckSpec, Shoe
from dealer_assist.errors import RuleViolation
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
from dealer_assist.fees import FeeContext, parse_fee_policy, pre_deal_fees
from dealer_assist.games.caro_holdem.betting import (
    WAGERS,
    advance_after,
    cost,
    open_round,
    pay,
    violation,
)
from dealer_assist.games.caro_holdem.settings import (
    BOARD_COUNTS,
    PRIVATE_CARDS,
    ROUND_NAMES,
    parse_settings,
)
from dealer_assist.games.caro_holdem.state import (
    BETTING,
    BOARD,
    OVER,
    SHOWDOWN,
    SeatState,
    State,
    Wager,
    evolve_seat,
    evolve_state,
    new_state,
    seat_state,
    wager,
)
from dealer_assist.money import format_cents

FORCED = ("ante", "small blind", "big blind")


def start_state(start: Start) -> State:
    """Fees before the deal, antes or blinds posted, five cards dealt face down to each seat."""
    cfg = parse_settings(start)
    shoe = Shoe.new(DeckSpec()).deal_unseen(PRIVATE_CARDS * len(cfg.seats))
    seats = {s: seat_state(s, cfg.stacks[s]) for s in cfg.seats}
    policy = parse_fee_policy(cfg.fee)
    pre = pre_deal_fees(
        policy,
        FeeContext(
            seats=cfg.seats, button=cfg.button, pot=0, saw_flop=False,
            smallest_chip=cfg.smallest_chip,
        ),
    )
    for line in pre:
        if line.from_seat is None or line.from_seat not in seats:
            raise RuleViolation(f"the fee policy's {line.kind} names no seat at this table")
        s = seats[line.from_seat]
        if s.stack <= line.amount:
            raise RuleViolation(
                f"seat {s.seat} has {format_cents(s.stack)}: not enough to pay the "
                f"{line.kind} of {format_cents(line.amount)} and play"
            )
        seats[s.seat] = evolve_seat(s, stack=s.stack - line.amount)
    records: list[Wager] = []
    if cfg.blinds is None and cfg.ante:
        for n in cfg.seats:
            s = seats[n]
            amount = min(cfg.ante, s.stack)
            seats[n] = evolve_seat(
                s, stack=s.stack - amount, hand_in=amount, all_in=amount == s.stack
            )
            records.append(Wager(n, "ante", amount, PRIVATE_CARDS, 0, 0, seats[n].all_in))
    level = 0
    first_after = cfg.button
    if cfg.blinds is not None and cfg.blind_seats is not None:
        level = 1
        for n, amount, kind in zip(cfg.blind_seats, cfg.blinds, ("small blind", "big blind"),
                                   strict=True):
            s = seats[n]
            paid = min(amount, s.stack)
            seats[n] = pay(s, paid, all_in=paid == s.stack)
            records.append(Wager(n, kind, paid, PRIVATE_CARDS, 1, 0, seats[n].all_in))
        first_after = cfg.blind_seats[1]
    state = new_state(
        settings=cfg,
        seats=tuple(seats[s] for s in cfg.seats),
        shoe=shoe,
        level=level,
        actions=tuple(records),
        pre_fees=tuple(pre),
    )
    return open_round(state, first_after=first_after)


#: The betting inputs (and discards) by class, with the kind each records: a replay meets them
#: most, and they all begin with the same checks.
_WAGER_KINDS: dict[type[Event], str] = {
    Check: "check", Bet: "bet", Call: "call", Raise: "raise", Fold: "fold", Discard: "discard",
}


def step(state: State, event: Event) -> State:
    """The state after ``event``, or :class:`RuleViolation` saying why it is refused."""
    if state.phase == OVER:
        raise RuleViolation("the hand is over: settle it and start the next hand")
    kind = _WAGER_KINDS.get(event.__class__)
    if kind is not None:  # the same checks as below, in the same order, for a plain wager
        seat = event.seat  # type: ignore[attr-defined]
        if isinstance(seat, int) and seat not in state.settings.seats:  # event.seat_of
            raise RuleViolation(f"seat {seat} is not in this hand")
        if kind == "fold" and state.phase == SHOWDOWN:
            return _muck(state, seat)
        if kind == "discard":
            return _discard(state, event, _require_turn(state, seat))  # type: ignore[arg-type]
        return _act(state, seat, kind, _require_turn(state, seat))
    seat_no = event.seat_of
    if seat_no is not None and seat_no not in state.settings.seats:
        raise RuleViolation(f"seat {seat_no} is not in this hand")
    if isinstance(event, BoardDealt):
        return _board(state, event)
    if isinstance(event, Show):
        return _show(state, event)
    if isinstance(event, Fold) and state.phase == SHOWDOWN:
        return _muck(state, event.seat)
    if isinstance(event, (Check, Bet, Call, Raise, Fold, Discard)):
        s = _require_turn(state, event.seat)
        if isinstance(event, Discard):
            return _discard(state, event, s)
        return _act(state, event.seat, event.TYPE, s)
    raise RuleViolation(f'Caro Hold \'em has no "{event.TYPE}" input')


def _require_turn(state: State, seat: int) -> SeatState:
    """The seat, if it may act now; else why not."""
    if state.phase == BOARD:
        count = BOARD_COUNTS[state.street + 1]
        raise violation(
            f"the {state.round_name} betting is over: burn and deal the "
            f"{ROUND_NAMES[state.street + 1]} ({count} card{'s' if count > 1 else ''}) first",
            2,
        )
    if state.phase == SHOWDOWN:
        raise violation(
            "the betting is over: each player still in shows the cards they hold", 7
        )
    s = state.seat(seat)
    if s.folded:
        raise RuleViolation(f"seat {seat} has folded")
    if s.all_in:
        raise violation(f"seat {seat} is all-in: they take no more action", 6)
    if state.to_act != seat:
        raise violation(f"seat {seat} acted out of turn: seat {state.to_act} is to act", 3)
    return s


def _check_new_cards(state: State, cards: tuple[Card, ...], what: str) -> None:
    if len(set(cards)) != len(cards):
        raise RuleViolation(f"{what} names the same card twice")
    for card in cards:
        if card.rank == JOKER_RANK and card.suit == JOKER_SUIT:  # card.is_joker
            raise RuleViolation("Caro Hold 'em is played without jokers")
        if card in state.known:
            raise RuleViolation(f"{card.code} is already face up: {what} cannot hold it")


def _discard(state: State, event: Discard, s: SeatState) -> State:
    """A discard by ``s`` (the event's seat, whose turn it is)."""
    if event.cards and event.count is not None and event.count != len(event.cards):
        raise RuleViolation(
            f"the discard names {len(event.cards)} cards but says count {event.count}"
        )
    n = event.n
    if n < 1:
        raise RuleViolation("a discard needs its cards, or a count of at least 1")
    if s.held - n < 1:
        raise violation(
            f"seat {s.seat} holds {s.held} cards and must keep at least one: "
            f"they may discard at most {s.held - 1}",
            5,
        )
    if state.level == 0 and state.limit > s.stack:
        raise violation(
            f"seat {s.seat} cannot afford a bet, so may only check: no discard before a check",
            5,
        )
    if event.cards:
        _check_new_cards(state, event.cards, f"seat {s.seat}'s discard")
    new = evolve_seat(
        s,
        held=s.held - n,
        discards=s.discards + tuple(event.cards),
        unseen_discards=s.unseen_discards + (0 if event.cards else n),
    )
    return state.with_seat(
        new,
        discarding=s.seat,
        known=state.known | frozenset(event.cards),
    )


def _act(state: State, seat_no: int, kind: str, s: SeatState) -> State:
    """A check, bet, call, raise or fold by ``s`` (seat ``seat_no``, whose turn it is)."""
    if kind in ("check", "fold") and state.discarding == seat_no:
        raise violation(
            f"seat {seat_no} discarded, and a discard comes just before a bet, call or raise, "
            f"never before a {kind}: void the discard first",
            5,
        )
    i = state.settings.seats.index(seat_no)
    seats = state.seats
    if kind == "fold":
        record = wager(seat_no, "fold", 0, s.held, state.level, state.street)
        return advance_after(
            state,
            i,
            (*seats[:i], evolve_seat(s, folded=True), *seats[i + 1 :]),
            state.acted | {seat_no},
            state.level,
            (*state.actions, record),
        )
    c = cost(state, s, kind)
    new = pay(s, c.amount, all_in=c.all_in)
    level = c.level
    acted = frozenset({seat_no}) if level > state.level else state.acted | {seat_no}
    record = wager(seat_no, kind, c.amount, s.held, level, state.street, new.all_in)
    return advance_after(
        state,
        i,
        (*seats[:i], new, *seats[i + 1 :]),
        acted,
        level,
        (*state.actions, record),
    )


def _board(state: State, event: BoardDealt) -> State:
    if state.phase != BOARD:
        if state.phase == BETTING:
            raise violation(
                f"too early for the board: the {state.round_name} betting is not over "
                f"(seat {state.to_act} is to act)",
                2,
            )
        raise violation("the board is complete: five cards", 2)
    nxt = state.street + 1
    count = BOARD_COUNTS[nxt]
    if len(event.cards) != count:
        raise violation(
            f"the {ROUND_NAMES[nxt]} is {count} card{'s' if count > 1 else ''}, "
            f"not {len(event.cards)}",
            2,
        )
    _check_new_cards(state, event.cards, f"the {ROUND_NAMES[nxt]}")
    shoe = state.shoe.burn()
    for card in event.cards:
        shoe = shoe.deal(card)
    seats = tuple(evolve_seat(s, round_in=0) if s.round_in else s for s in state.seats)
    state = evolve_state(
        state,
        seats=seats,
        shoe=shoe,
        street=nxt,
        level=0,
        board=state.board + tuple(event.cards),
        known=state.known | frozenset(event.cards),
    )
    return open_round(state, first_after=state.settings.button)


def _show(state: State, event: Show) -> State:
    if state.phase != SHOWDOWN:
        raise violation("no hand is shown before the showdown", 7)
    s = state.seat(event.seat)
    if s.folded:
        raise RuleViolation(f"seat {s.seat} has folded: only players still in show")
    if s.shown is not None:
        raise RuleViolation(f"seat {s.seat} has already shown")
    if len(event.cards) != s.held:
        raise violation(
            f"seat {s.seat} holds {s.held} card{'s' if s.held > 1 else ''}: show exactly "
            f"those, not {len(event.cards)}",
            7,
        )
    _check_new_cards(state, event.cards, f"seat {s.seat}'s hand")
    state = state.with_seat(
        evolve_seat(s, shown=tuple(event.cards)),
        known=state.known | frozenset(event.cards),
    )
    return _maybe_over(state)


def _muck(state: State, seat_no: int) -> State:
    s = state.seat(seat_no)
    if s.folded:
        raise RuleViolation(f"seat {seat_no} has already folded")
    if s.shown is not None:
        raise violation(f"seat {seat_no} has shown: cards speak, a shown hand stays in", 7)
    record = Wager(seat_no, "fold", 0, s.held, state.level, state.street)
    return _maybe_over(
        state.with_seat(evolve_seat(s, folded=True), actions=(*state.actions, record))
    )


def _maybe_over(state: State) -> State:
    live = state.live()
    if len(live) == 1 or all(s.shown is not None for s in live):
        return evolve_state(state, phase=OVER)
    return state


__all__ = ["FORCED", "WAGERS", "start_state", "step"]

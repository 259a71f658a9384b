"""The hand's start, what the dealer may enter next (``check``) and what it does (``transition``).

Each input is checked by computing its result: :func:`step` either returns the next state or
raises :class:`RuleViolation` naming the house ruling, so checking and applying never disagree.
"""

from __future__ import annotations

from dealer_assist.cards import JOKER_RANK, JOKER_SUIT, Card
from dealer_assist.deck import DeckSpec, Shoe
from dealer_assist.engine.evolve import builder, replaced, setter
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
from dealer_assist.fees import FeeContext, pre_deal_fees
from dealer_assist.games.caro_holdem.betting import (
    WAGERS,
    advance_after,
    cost,
    end_round,
    first_to_act_among,
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
    shoe = Shoe.new(_DECK).deal_unseen(PRIVATE_CARDS * len(cfg.seats))
    seats = {s: seat_state(s, cfg.stacks[s]) for s in cfg.seats}
    policy = cfg.policy
    pre = pre_deal_fees(
        policy,
        _fee_context(
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
        seats[s.seat] = _put_stack(s, s.stack - line.amount)
    records: list[Wager] = []
    if cfg.blinds is None and cfg.ante:
        for n in cfg.seats:
            s = seats[n]
            amount = min(cfg.ante, s.stack)
            seats[n] = _put_ante(s, s.stack - amount, amount, amount == s.stack)
            records.append(wager(n, "ante", amount, PRIVATE_CARDS, 0, 0, seats[n].all_in))
    level = 0
    first_after = cfg.button
    if cfg.blinds is not None and cfg.blind_seats is not None:
        level = 1
        for n, amount, kind in zip(cfg.blind_seats, cfg.blinds, ("small blind", "big blind"),
                                   strict=True):
            s = seats[n]
            paid = min(amount, s.stack)
            seats[n] = pay(s, paid, all_in=paid == s.stack)
            records.append(wager(n, kind, paid, PRIVATE_CARDS, 1, 0, seats[n].all_in))
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


#: The one deck Caro Hold 'em is dealt from (immutable, shared by every hand).
_DECK = DeckSpec()
_put_stack = setter(SeatState, "stack")
_put_ante = setter(SeatState, "stack", "hand_in", "all_in")
_fee_context = builder(FeeContext)


#: The betting inputs (and discards) by class, with the kind each records: a replay meets them
#: most, and they all begin with the same checks.
_WAGER_KINDS: dict[type[Event], str] = {
    Check: "check", Bet: "bet", Call: "call", Raise: "raise", Fold: "fold", Discard: "discard",
}


#: Wager events whose amount a game may let the player choose (``to``); Caro's are fixed.
_AMOUNTED = frozenset({Bet, Raise})


def step(state: State, event: Event) -> State:
    """The state after ``event``, or :class:`RuleViolation` saying why it is refused."""
    if state.phase == OVER:
        raise RuleViolation("the hand is over: settle it and start the next hand")
    kind = _WAGER_KINDS.get(event.__class__)
    if kind is not None:  # the same checks as below, in the same order, for a plain wager
        seat = event.seat  # type: ignore[attr-defined]
        if seat not in state.settings.seats and isinstance(seat, int):  # event.seat_of
            raise RuleViolation(f"seat {seat} is not in this hand")
        if kind == "fold" and state.phase == SHOWDOWN:
            return _muck(state, seat)
        if kind == "discard":
            return _discard(state, event, _require_turn(state, seat))  # type: ignore[arg-type]
        if event.__class__ in _AMOUNTED and event.to is not None:  # type: ignore[attr-defined]
            raise RuleViolation(
                f"Caro Hold 'em wagers are fixed by the cards held: a {kind} takes no \"to\""
            )
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
        if isinstance(event, Bet | Raise) and event.to is not None:
            raise RuleViolation(
                f"Caro Hold 'em wagers are fixed by the cards held: a {event.TYPE} takes no "
                '"to"'
            )
        return _act(state, event.seat, event.TYPE, s)
    raise RuleViolation(f'Caro Hold \'em has no "{event.TYPE}" input')


def _require_turn(state: State, seat: int) -> SeatState:
    """The seat, if it may act now; else why not."""
    phase = state.phase
    if phase == BOARD:
        count = BOARD_COUNTS[state.street + 1]
        raise violation(
            f"the {state.round_name} betting is over: burn and deal the "
            f"{ROUND_NAMES[state.street + 1]} ({count} card{'s' if count > 1 else ''}) first",
            2,
        )
    if phase == SHOWDOWN:
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


def _check_new_cards(state: State, cards: tuple[Card, ...], what: str, name: str = "") -> None:
    """Refuse cards named twice, jokers, and cards already face up; ``what`` + ``name`` says
    what holds them ("the " + "flip"), joined only for a refusal."""
    if len(cards) > 1 and len(set(cards)) != len(cards):
        raise RuleViolation(f"{what}{name} names the same card twice")
    known = state.known
    for card in cards:
        if card.rank == JOKER_RANK and card.suit == JOKER_SUIT:  # card.is_joker
            raise RuleViolation("Caro Hold 'em is played without jokers")
        if card in known:
            raise RuleViolation(f"{card.code} is already face up: {what}{name} cannot hold it")


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
    cards = event.cards
    if cards:
        _check_new_cards(state, cards, f"seat {s.seat}'s discard")
        new = _put_discards(s, s.held - n, s.discards + tuple(cards), s.unseen_discards)
        known = state.known | frozenset(cards)
    else:
        new = _put_discards(s, s.held - n, s.discards, s.unseen_discards + n)
        known = state.known
    i = state.settings.seats.index(s.seat)
    seats = state.seats
    return _put_discarding(state, replaced(seats, i, new), s.seat, known)


def _act(state: State, seat_no: int, kind: str, s: SeatState) -> State:
    """A check, bet, call, raise or fold by ``s`` (seat ``seat_no``, whose turn it is)."""
    if state.discarding == seat_no and kind in ("check", "fold"):
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
            replaced(seats, i, _put_folded(s, True)),
            state.acted | {seat_no},
            state.level,
            (*state.actions, record),
        )
    c = cost(state, s, kind)
    amount = c.amount
    new = pay(s, amount, all_in=c.all_in)
    level = c.level
    acted = frozenset((seat_no,)) if level > state.level else state.acted | {seat_no}
    record = wager(seat_no, kind, amount, s.held, level, state.street, new.all_in)
    return advance_after(
        state,
        i,
        replaced(seats, i, new),
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
    cards = event.cards
    _check_new_cards(state, cards, "the ", ROUND_NAMES[nxt])
    shoe = state.shoe.deal_all(cards, burn=True)
    seats = tuple([_put_round_in(s, 0) if s.round_in else s for s in state.seats])
    board = state.board + tuple(cards)
    known = state.known | frozenset(cards)
    settings = state.settings
    # open_round of the state with the new cards, made in the same copy
    first = first_to_act_among(seats, settings.seats, settings.button)
    if first is not None:
        return _put_board_open(
            state, seats, shoe, nxt, 0, board, known, BETTING, _NOBODY, None, first
        )
    return end_round(_put_board(state, seats, shoe, nxt, 0, board, known), acted=_NOBODY)


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
    cards = event.cards
    _check_new_cards(state, cards, f"seat {s.seat}'s hand")
    i = state.settings.seats.index(s.seat)
    seats = state.seats
    seats = replaced(seats, i, _put_shown(s, tuple(cards)))
    known = state.known | frozenset(cards)
    if _all_shown(seats):
        return _put_shown_over(state, seats, known, OVER)
    return _put_shown_state(state, seats, known)


def _muck(state: State, seat_no: int) -> State:
    s = state.seat(seat_no)
    if s.folded:
        raise RuleViolation(f"seat {seat_no} has already folded")
    if s.shown is not None:
        raise violation(f"seat {seat_no} has shown: cards speak, a shown hand stays in", 7)
    record = wager(seat_no, "fold", 0, s.held, state.level, state.street)
    return _maybe_over(
        state.with_seat(_put_folded(s, True), actions=(*state.actions, record))
    )


def _maybe_over(state: State) -> State:
    if _all_shown(state.seats):
        return evolve_state(state, phase=OVER)
    return state


def _all_shown(seats: tuple[SeatState, ...]) -> bool:
    """The showdown is over: one player is left, or every player still in has shown."""
    live = 0
    unshown = False
    for s in seats:
        if not s.folded:
            live += 1
            if s.shown is None:
                unshown = True
    return live == 1 or not unshown


#: The copies the commonest events make, with their changed fields fixed once (see ``setter``).
_put_discards = setter(SeatState, "held", "discards", "unseen_discards")
_put_discarding = setter(State, "seats", "discarding", "known")
_put_round_in = setter(SeatState, "round_in")
_put_board = setter(State, "seats", "shoe", "street", "level", "board", "known")
_put_board_open = setter(
    State, "seats", "shoe", "street", "level", "board", "known",
    "phase", "acted", "discarding", "to_act",
)
#: Nobody has acted yet in a new betting round.
_NOBODY: frozenset[int] = frozenset()
_put_shown = setter(SeatState, "shown")
_put_shown_state = setter(State, "seats", "known")
_put_shown_over = setter(State, "seats", "known", "phase")
_put_folded = setter(SeatState, "folded")


__all__ = ["FORCED", "WAGERS", "start_state", "step"]

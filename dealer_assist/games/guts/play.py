"""Each input's check and effect: :func:`step` returns the next state or raises a
:class:`RuleViolation` in the dealer's words, tagged with the Guts ruling it applies."""

from __future__ import annotations

from types import MappingProxyType

from dealer_assist.engine.evolve import copied
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Show
from dealer_assist.games.guts.events import In, Out
from dealer_assist.games.guts.state import IN_TURN, OVER, SHOWDOWN, State, evolve
from dealer_assist.money import format_cents


def violation(text: str, n: int) -> RuleViolation:
    """A refusal under Guts ruling ``n`` (the house rulings)."""
    return RuleViolation(text, rule=f"guts-{n}")


def check(state: State, event: Event) -> None:
    """Raise :class:`RuleViolation` if ``event`` cannot be recorded now."""
    phase = state.phase
    if phase == OVER:
        raise RuleViolation("the hand is over: settle it and start the next hand")
    seat = event.seat_of
    if seat is not None and seat not in state.table.seats:
        raise RuleViolation(f"seat {seat} is not in this hand")
    if isinstance(event, In | Out):
        _check_declaration(state, event, phase)
    elif isinstance(event, Show):
        _check_show(state, event, phase)
    else:
        raise RuleViolation(f'Guts has no "{event.TYPE}" input: players declare in or out, '
                            "then the players in show")


def _check_declaration(state: State, event: In | Out, phase: str) -> None:
    seat = event.seat
    if phase == SHOWDOWN:
        raise violation("every player has declared: the players in show their cards", 2)
    if seat in state.declared:
        said = "in" if state.declared[seat] else "out"
        raise violation(f"seat {seat} has already declared {said}: a declaration is final", 2)
    if state.table.declare == IN_TURN:
        nxt = state.to_declare[0]
        if seat != nxt:
            raise violation(f"seat {nxt} declares next (in turn from the dealer's left), "
                            f"not seat {seat}", 2)
    if isinstance(event, In) and state.barred(seat):
        raise violation(
            f"seat {seat} has {format_cents(state.behind[seat])} behind and a loss would cost "
            f"{format_cents(state.owed)}: at this table a player who cannot cover the pot may "
            f"not declare in; seat {seat} declares out", 5)


def _check_show(state: State, event: Show, phase: str) -> None:
    seat = event.seat
    if phase != SHOWDOWN:
        left = ", ".join(map(str, state.to_declare))
        raise violation(f"no cards are shown before every player has declared (still to "
                        f"declare: seat {left})", 6)
    if not state.declared.get(seat):
        raise violation(f"seat {seat} is out: only the players in show", 6)
    if seat in state.shown:
        raise violation(f"seat {seat} has already shown", 6)
    cards = tuple(event.cards)
    if len(cards) != 2:
        raise violation(f"seat {seat} holds two cards: show exactly those, not {len(cards)}", 2)
    if len(set(cards)) != 2:
        raise RuleViolation(f"seat {seat}'s show names {cards[0].code} twice")
    known = state.known()
    for card in cards:
        if card.is_joker:
            raise RuleViolation("Guts is played without jokers")
        if card in known:
            raise RuleViolation(f"{card.code} is already shown by another seat: seat {seat}'s "
                                "show cannot hold it")


def transition(state: State, event: Event) -> State:
    """The state after a legal ``event``."""
    if isinstance(event, In | Out):
        declared = copied(state.declared)
        declared[event.seat] = isinstance(event, In)
        return evolve(state, declared=MappingProxyType(declared))
    assert isinstance(event, Show)
    shown = copied(state.shown)
    shown[event.seat] = tuple(event.cards)
    return evolve(state, shown=MappingProxyType(shown))


def step(state: State, event: Event) -> State:
    check(state, event)
    return transition(state, event)

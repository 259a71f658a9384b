"""Chinese Poker's rules: the start read from the table's settings, each natural declared and
each set checked (a refusal in the dealer's words, naming the ruling) and the state after it."""

from __future__ import annotations

from dealer_assist.engine.evolve import replace
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Start
from dealer_assist.fees.table import player_to_player_fees
from dealer_assist.games.chinese_poker.events import Natural, SetHand, Surrender
from dealer_assist.games.chinese_poker.settle import natural_kind, natural_problem
from dealer_assist.games.chinese_poker.state import NATURAL_NAMES, ChineseSettings, ChineseState
from dealer_assist.games.open_face.rows import (
    Rows,
    button_setting,
    check_keys,
    check_set_sizes,
    stakes_setting,
    table_seats,
)


def start(event: Start) -> ChineseState:
    """The state before any card, from the table's settings; a wrong setting refused in the
    dealer's words."""
    check_keys(event, ("button", "unit", "pair_units"))
    seats = table_seats(event)
    button = button_setting(event, seats)
    return ChineseState(settings=ChineseSettings(
        seats=seats, button=button, stakes=stakes_setting(event, seats),
        fees=player_to_player_fees(event, seats, button)))


def check(state: ChineseState, event: Event) -> None:
    """Refuse ``event`` now, in the dealer's words naming the ruling, or pass it."""
    seat = event.seat_of
    if isinstance(event, (Natural, SetHand, Surrender)):
        if seat not in state.settings.seats:
            raise RuleViolation(f"seat {seat} is not playing this hand", rule="seat")
        assert seat is not None
        if state.over:
            raise RuleViolation("every hand is settled: nothing more to record", rule="input")
        if seat in state.surrendered:
            raise RuleViolation(f"seat {seat} has surrendered", rule="Chinese 2")
        if seat in state.sets:
            raise RuleViolation(f"seat {seat}'s hand is already recorded", rule="input")
    if isinstance(event, Natural):
        kind = natural_kind(event.kind)
        _check_declaring(state, event.seat, f"declare {NATURAL_NAMES[kind]}")
        if state.surrendered:
            raise RuleViolation(
                f"naturals are declared before surrenders, and seat {state.surrendered[0]} "
                "has surrendered", rule="Chinese 1")
    elif isinstance(event, Surrender):
        _check_declaring(state, event.seat, "surrender")
    elif isinstance(event, SetHand):
        if state.showing is not None and event.seat != state.showing:
            raise RuleViolation(
                f"seat {state.showing} declared "
                f"{NATURAL_NAMES[state.naturals[state.showing]]}: record its thirteen "
                "cards first", rule="Chinese 1")
        check_set_sizes(event.seat, event.front, event.middle, event.back)
        where = state.where
        if where and not where.keys().isdisjoint(cards := event.front + event.middle
                                                 + event.back):
            for card in cards:
                owner = where.get(card)
                if owner is not None:
                    raise RuleViolation(f"{card.code} is already in seat {owner}'s hand",
                                        rule="cards")
        if event.seat == state.showing:
            kind = state.naturals[event.seat]
            problem = natural_problem(Rows(event.front, event.middle, event.back), kind)
            if problem is not None:
                raise RuleViolation(
                    f"seat {event.seat} declared {NATURAL_NAMES[kind]}, but {problem}: "
                    "void the declaration if it was a mistake", rule="Chinese 1")
    else:
        raise RuleViolation(
            f'"{event.TYPE}" is not an input in Chinese Poker: record a set, a natural or '
            "a surrender", rule="input")


def _check_declaring(state: ChineseState, seat: int, what: str) -> None:
    if state.revealed:
        raise RuleViolation(f"hands are already shown: too late to {what}",
                            rule="Chinese 1-2")
    if state.showing is not None:
        raise RuleViolation(
            f"seat {state.showing} declared {NATURAL_NAMES[state.naturals[state.showing]]}:"
            " record its thirteen cards first", rule="Chinese 1")
    if seat in state.naturals:
        raise RuleViolation(f"seat {seat} already declared a natural", rule="Chinese 1")


def transition(state: ChineseState, event: Event) -> ChineseState:
    """The state after ``event`` (``check`` has passed it)."""
    if isinstance(event, Natural):
        return replace(state, naturals={**state.naturals, event.seat: natural_kind(event.kind)},
                       showing=event.seat)
    if isinstance(event, Surrender):
        return replace(state, surrendered=(*state.surrendered, event.seat))
    if isinstance(event, SetHand):
        rows = Rows(event.front, event.middle, event.back)
        where = {**state.where, **dict.fromkeys(rows.cards, event.seat)}
        shown_natural = event.seat == state.showing
        return replace(state, sets={**state.sets, event.seat: rows}, where=where,
                       showing=None if shown_natural else state.showing,
                       revealed=state.revealed or not shown_natural)
    raise RuleViolation(f'"{event.TYPE}" is not an input in this game', rule="input")

"""Rams' rules: each event checked against the hand's state (the declarations from the dealer's
left, the dealer's trump card, the five tricks) and the state after it."""

from __future__ import annotations

from types import MappingProxyType

from dealer_assist.engine.evolve import copied, evolver, setter
from dealer_assist.errors import RuleViolation
from dealer_assist.events import CardDealt, Event
from dealer_assist.games.rams.events import Pass, Play, Rams, TakeTrump, Trump, Widow
from dealer_assist.games.rams.state import RULES, TRICKS, RamsState
from dealer_assist.games.tricks import PACK, _evolve_tricks, start_tricks

# --- checking ---------------------------------------------------------------------------------


def check(state: RamsState, event: Event) -> None:
    """Refuse ``event`` now, in the dealer's words naming the ruling, or pass it."""
    if state.over:
        raise RuleViolation("the hand is over: settle it", rule="rams")
    if isinstance(event, Trump):
        if state.turned is not None:
            raise RuleViolation(f"the trump card is already turned ({state.turned.pretty})",
                                rule="rams-1")
        if event.card not in PACK:
            raise RuleViolation(f"{event.card.pretty} is not in the 32-card pack (ace to seven)",
                                rule="rams-1")
        return
    if state.turned is None:
        raise RuleViolation("turn the trump card first", rule="rams-1")
    if isinstance(event, Play | Pass | Widow | Rams):
        _check_declaration(state, event)
        return
    if isinstance(event, TakeTrump):
        if event.seat != state.dealer:
            raise RuleViolation(f"only the dealer (seat {state.dealer}) may take the trump card",
                                rule="rams-2")
        why = state.may_take_trump()
        if why is not None:
            raise RuleViolation(why, rule="rams-2")
        if event.give not in PACK or event.give == state.turned:
            raise RuleViolation(f"the dealer discards a card of the hand for "
                                f"{state.turned.pretty}, not {event.give.pretty}", rule="rams-2")
        return
    if isinstance(event, CardDealt):
        if not state.declared or state.tricks is None:
            who = state.to_declare
            raise RuleViolation(f"seat {who} has not declared yet: play, widow, pass or Rams",
                                rule="rams-2")
        state.tricks.check(event.seat, event.card)
        return
    raise RuleViolation(f"Rams takes no {event.TYPE}", rule="rams")


def _check_declaration(state: RamsState, event: Play | Pass | Widow | Rams) -> None:
    who = state.to_declare
    if who is None:
        raise RuleViolation("everyone has declared: the tricks are played", rule="rams-2")
    if event.seat != who:
        raise RuleViolation(f"seat {who} declares next, not seat {event.seat}", rule="rams-2")
    dealer = who == state.dealer
    if isinstance(event, Pass):
        if state.rams_by is not None:
            raise RuleViolation(f"seat {state.rams_by} declared Rams: everyone must play",
                                rule="rams-2")
        if dealer and state.dealer_alone_with_one:
            raise RuleViolation("one other player plays: the dealer must play", rule="rams-2")
        if not state.may_pass:
            raise RuleViolation(
                f"nobody may pass while the pot holds 5 counters or fewer "
                f"(it holds {state.pot // state.stake})", rule="rams-2")
    elif isinstance(event, Widow):
        if state.widow_by is not None:
            raise RuleViolation(f"seat {state.widow_by} has already taken the widow (once a "
                                "hand)", rule="rams-2")
    elif isinstance(event, Rams) and state.rams_by is not None:
        raise RuleViolation(f"seat {state.rams_by} has already declared Rams: play or take "
                            "the widow", rule="rams-2")


# --- applying ---------------------------------------------------------------------------------


def transition(state: RamsState, event: Event) -> RamsState:
    """The state after ``event`` (``check`` has passed it)."""
    if isinstance(event, Trump):
        return _evolve(state, turned=event.card)
    if isinstance(event, Play | Pass | Widow | Rams):
        said = copied(state.said)
        said[event.seat] = event.TYPE
        new = _evolve(state, said=MappingProxyType(said),
                      widow_by=event.seat if isinstance(event, Widow) else state.widow_by,
                      rams_by=event.seat if isinstance(event, Rams) else state.rams_by)
        if new.declared:
            assert new.turned is not None
            players = new.players_in()
            new = _evolve(new, tricks=start_tricks(
                players, total=TRICKS, trump=new.turned.suit, rules=RULES, leader=players[0],
                dead=(new.turned,)))
        return new
    if isinstance(event, TakeTrump):
        assert state.tricks is not None and state.turned is not None
        t = state.tricks
        owner = copied(t.owner)
        owner[state.turned] = state.dealer
        tricks = _evolve_tricks(t, owner=MappingProxyType(owner),
                         dead=(t.dead - {state.turned}) | {event.give})
        return _evolve(state, gave=event.give, tricks=tricks)
    if isinstance(event, CardDealt):
        assert state.tricks is not None
        return _with_tricks(state, state.tricks.play(event.seat, event.card))
    raise AssertionError(event)


_evolve = evolver(RamsState)
#: The copy a card played makes (every card of every replay: no keywords matched).
_with_tricks = setter(RamsState, "tricks")


def step(state: RamsState, event: Event) -> RamsState:
    """``event`` checked, then applied: the game's ``apply``."""
    check(state, event)
    return transition(state, event)

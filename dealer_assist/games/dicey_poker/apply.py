"""Dicey Poker's next state: each event the rules took (play.check) applied to the hand, the
turn moved on, a challenge stepped through, the round and the score closed."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TypeVar

from dealer_assist.cards import Card
from dealer_assist.engine.evolve import copied, evolver
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event
from dealer_assist.games.dicey_poker.events import Chip, Deal, Discard, Draw, Joker, Roll, Swap, Up
from dealer_assist.games.dicey_poker.play import counts, pile_size
from dealer_assist.games.dicey_poker.rules import (
    MAX_JOKERS_HELD,
    OVER,
    SOLITAIRE_WIN,
    UP,
    is_wild_trigger,
    joker_values,
    matches,
)
from dealer_assist.games.dicey_poker.state import (
    DISCARD_ANY,
    DISCARD_MATCH,
    DRAW,
    FIVE,
    PLACE,
    ROLL,
    Challenge,
    DiceyState,
    FaceUp,
)

T = TypeVar("T")
_evolve = evolver(DiceyState)
_evolve_ch = evolver(Challenge)


# --- transition ------------------------------------------------------------------------------

def transition(state: DiceyState, event: Event) -> DiceyState:
    if isinstance(event, Deal):
        return _deal(state, event)
    if isinstance(event, Joker):
        return _joker(state, event)
    if isinstance(event, Roll) and event.die == "d4":
        seat = event.seat
        if event.value in joker_values(state.settings.players, state.jokers_taken):
            return _evolve(state, wild=None, joker_due=seat)
        return _resume(_evolve(state, wild=None))
    if state.challenge is not None:
        return _challenge_step(state, state.challenge, event)
    seat = state.seat
    if isinstance(event, Roll):
        match = tuple(c for c in state.hole[seat] if matches(event.die, event.value, c))
        st = _evolve(state, roll=(event.die, event.value), rolled=(*state.rolled, event.die),
                     match=match)
        ups = st.face_up(seat)
        if not match:
            step = DISCARD_ANY
        elif len(ups) < UP:
            step = PLACE
        elif all(f.chipped for f in ups):
            step = DISCARD_MATCH
        else:
            step = FIVE
        return _evolve(st, step=step)
    if isinstance(event, Up):
        hole = _without(state.hole[seat], event.card)
        ups = (*state.face_up(seat), FaceUp(event.card))
        return _evolve(state, hole=_set(state.hole, seat, hole), up=_set(state.up, seat, ups),
                       step=DRAW, trigger=state.trigger or _triggers(state, event.card))
    if isinstance(event, Swap):
        hole = (*_without(state.hole[seat], event.hole), event.up)
        ups_l = list(state.face_up(seat))
        i = next(i for i, f in enumerate(ups_l) if f.card == event.up and not f.chipped)
        ups_l[i] = FaceUp(event.hole, chipped=True)
        st = _evolve(state, hole=_set(state.hole, seat, hole),
                     up=_set(state.up, seat, tuple(ups_l)),
                     trigger=state.trigger or _triggers(state, event.hole))
        return _roll_done(st)
    if isinstance(event, Chip):
        ups_l = list(state.face_up(seat))
        i = next(i for i, f in enumerate(ups_l) if f.card == event.card and not f.chipped)
        ups_l[i] = FaceUp(event.card, chipped=True)
        return _evolve(state, up=_set(state.up, seat, tuple(ups_l)), step=DISCARD_MATCH)
    if isinstance(event, Discard):
        hole = _without(state.hole[seat], event.card)
        return _evolve(state, hole=_set(state.hole, seat, hole),
                       discards=(*state.discards, event.card), step=DRAW)
    if isinstance(event, Draw):
        st = state
        if not pile_size(st):  # the whole discard pile becomes the pile
            st = _evolve(st, pile=MappingProxyType(counts(st.discards)), discards=())
        pile = copied(st.pile)
        pile[event.card] -= 1
        hole = (*st.hole[seat], event.card)
        st = _evolve(st, pile=MappingProxyType(pile), hole=_set(st.hole, seat, hole))
        return _roll_done(st)
    raise RuleViolation(f'"{event.TYPE}" is not an input in Dicey Poker', rule="input")


def _set(m: Mapping[int, T], seat: int, value: T) -> Mapping[int, T]:
    d = dict(m)
    d[seat] = value
    return MappingProxyType(d)


def _without(cards: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    i = cards.index(card)
    return cards[:i] + cards[i + 1:]


def _triggers(state: DiceyState, card: Card) -> bool:
    """Whether placing ``card`` face up starts a wild challenge (ruling 4)."""
    return (is_wild_trigger(card) and state.jokers_taken < state.settings.jokers
            and not state.in_last_rounds)


def _deal(state: DiceyState, event: Deal) -> DiceyState:
    pile = copied(state.pile)
    for c in event.cards:
        pile[c] -= 1
    st = _evolve(state, pile=MappingProxyType(pile), hole=_set(state.hole, event.seat,
                                                                tuple(event.cards)),
                 dealt=state.dealt + 1)
    return st


def _roll_done(state: DiceyState) -> DiceyState:
    """The roll is played: a wild challenge if one was started, else on with the turn."""
    st = _evolve(state, roll=None, step=ROLL, match=())
    if st.trigger:
        seats = st.settings.seats
        i = seats.index(st.seat)
        return _evolve(st, trigger=False,
                       challenge=Challenge(challenger=st.seat, order=seats[i:] + seats[:i]))
    return _resume(st)


def _resume(state: DiceyState) -> DiceyState:
    """On with the turn after a roll (and any challenge): the face die when the turn began
    with fewer than five face up, only the base die was rolled and fewer than five are up;
    else the next player's turn."""
    seat = state.seat
    if state.two_rolls and state.rolled == ("d10",) and len(state.face_up(seat)) < UP:
        return _evolve(state, step=ROLL, roll=None, match=())
    return _next_turn(state)


def _next_turn(state: DiceyState) -> DiceyState:
    order = state.settings.order
    turn, rnd, final = state.turn + 1, state.round, state.final_from
    if turn == len(order):
        turn, rnd = 0, rnd + 1
        if final is None and all(state.all_chipped(s) for s in order):
            final = rnd
    over = final is not None and rnd >= final + 2
    seat = order[turn]
    st = _evolve(state, turn=turn, round=rnd, final_from=final, over=over, rolled=(),
                 roll=None, match=(), step=ROLL, two_rolls=len(state.face_up(seat)) < UP)
    if over:
        from dealer_assist.games.dicey_poker.present import score_seat

        st = _evolve(st, scores=MappingProxyType({s: MappingProxyType(score_seat(st, s))
                                                  for s in order}))
    return st


def _challenge_step(state: DiceyState, ch: Challenge, event: Event) -> DiceyState:
    if isinstance(event, Roll):
        rolls = list(ch.rolls)
        if ch.at < len(rolls):
            rolls[ch.at] = (*rolls[ch.at], event.value)
        else:
            rolls.append((event.value,))
        ch = _evolve_ch(ch, rolls=tuple(rolls))
        if sum(rolls[ch.at]) <= OVER:
            return _evolve(state, challenge=ch)
    ch = _evolve_ch(ch, at=ch.at + 1)
    if ch.at < len(ch.order):
        return _evolve(state, challenge=ch)
    winner = challenge_winner(ch)
    ch = _evolve_ch(ch, winner=winner)
    st = _evolve(state, challenge=None, challenges=(*state.challenges, ch))
    if winner is not None and st.jokers_of(winner) < MAX_JOKERS_HELD:
        return _evolve(st, wild=winner)
    return _resume(st)


def challenge_winner(ch: Challenge) -> int | None:
    """The single closest to 100 without going over; solitaire: 70 or more (ruling 5)."""
    totals = {s: ch.total(i) for i, s in enumerate(ch.order)}
    if len(ch.order) == 1:
        (s,) = ch.order
        return s if SOLITAIRE_WIN <= totals[s] <= OVER else None
    under = {s: t for s, t in totals.items() if t <= OVER}
    if not under:
        return None
    best = max(under.values())
    top = [s for s, t in under.items() if t == best]
    return top[0] if len(top) == 1 else None


def _joker(state: DiceyState, event: Joker) -> DiceyState:
    seat = event.seat
    ups = list(state.face_up(seat))
    hole = state.hole[seat]
    discards = state.discards
    if event.back is not None and event.out is not None:
        i = next(i for i, f in enumerate(ups) if f.card == event.back)
        del ups[i]
        hole = _without((*hole, event.back), event.out)
        discards = (*discards, event.out)
    ups.append(FaceUp(Card.joker(), chipped=True))
    st = _evolve(state, up=_set(state.up, seat, tuple(ups)), hole=_set(state.hole, seat, hole),
                 discards=discards, joker_due=None, jokers_taken=state.jokers_taken + 1)
    return _resume(st)

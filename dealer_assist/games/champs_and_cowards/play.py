"""What the dealer may enter next (``check``) and what it does to the hand (``transition``)."""

from __future__ import annotations

from dataclasses import replace

from dealer_assist.cards import Card
from dealer_assist.errors import RuleViolation
from dealer_assist.events import CardDealt, Champ, Coward, Event, Reshuffle
from dealer_assist.games.champs_and_cowards.rules import (
    CHAMP_CHIPS,
    FORCED_MARGIN,
    PLACES,
    card_key,
    destroy_reason,
    hand_key,
    ordinal,
)
from dealer_assist.games.champs_and_cowards.state import (
    DEALER,
    DESTROYED,
    LIVE,
    STANDING,
    VOLUNTARILY,
    CCState,
)

GAME_TITLE = "Champs and Cowards"


def action_order(state: CCState) -> tuple[int, ...]:
    """Clockwise once around from the best up card (identical cards: the seat dealt earlier)."""
    best = max(
        range(state.n), key=lambda i: (card_key(state.hands[i].cards[0]), -i)
    )
    return state.seats[best:] + state.seats[:best]


def coward_block(state: CCState, seat: int) -> str | None:
    """Why ``seat`` may not stop now, or ``None``: the last to act must go on while its hand would
    not rank first and its points are within three of the leader's."""
    if seat != state.last_to_act:
        return None
    standing = state.standing()
    if not standing:
        return None
    leader = standing[0]
    mine = state.hand(seat)
    if hand_key(mine.cards, state.index(seat)) > hand_key(leader.cards, state.index(leader.seat)):
        return None
    if mine.points < leader.points - FORCED_MARGIN:
        return None
    return (
        f"seat {seat} cannot stop: {mine.points} points is within {FORCED_MARGIN} of the "
        f"leader's {leader.points} (seat {leader.seat}); as the last to act it must take a card"
    )


def _card_block(state: CCState, card: Card) -> str | None:
    """Why ``card`` cannot come out of the stub now (every copy face up, or not in the shoe)."""
    copies = state.shoe.copies(card)
    if copies == 0:
        return f"{card.code} is not in this shoe"
    if state.shoe.out.get(card, 0) < copies:
        return None
    seats = list(state.holders(card))
    where = ", ".join(str(s) for s in seats)
    if copies == 1:
        return f"{card.code} cannot come from the stub: it is already face up at seat {where}"
    return (
        f"{card.code} cannot come from the stub: all {copies} copies are already face up "
        f"(seats {where})"
    )


def check(state: CCState, event: Event) -> None:
    if state.over:
        raise RuleViolation("the hand is over: no more cards or actions", rule="cc-over")
    seat = event.seat_of
    if seat is not None and seat not in state.seats:
        listed = ", ".join(str(s) for s in state.seats)
        raise RuleViolation(f"seat {seat} is not in this hand (seats {listed})", rule="cc-1")
    to_act = state.to_act
    if isinstance(event, CardDealt):
        _check_card(state, event)
    elif isinstance(event, (Champ, Coward)):
        word = "champ" if isinstance(event, Champ) else "coward"
        if state.dealing:
            raise RuleViolation(
                f"{word} out of turn: the up cards are not all dealt; the next one goes to "
                f"seat {to_act}",
                rule="cc-5",
            )
        if state.pending:
            raise RuleViolation(
                f"{word} out of turn: seat {to_act} paid for a card; enter that card first",
                rule="cc-6",
            )
        if event.seat != to_act:
            raise RuleViolation(
                f"{word} out of turn: it is seat {to_act}'s turn, not seat {event.seat}'s",
                rule="cc-5",
            )
        if isinstance(event, Coward):
            block = coward_block(state, event.seat)
            if block:
                raise RuleViolation(block, rule="cc-8")
    elif isinstance(event, Reshuffle):
        if not state.pending:
            raise RuleViolation(
                "no reshuffle now: the stub is reshuffled only when a champ needs a card "
                f"and none is left ({state.shoe.left} left)",
                rule="cc-11",
            )
        if state.shoe.left > 0:
            raise RuleViolation(
                f"no reshuffle now: {state.shoe.left} cards are still in the stub", rule="cc-11"
            )
    else:
        raise RuleViolation(f'"{event.TYPE}" is not part of {GAME_TITLE}', rule="cc")


def _check_card(state: CCState, event: CardDealt) -> None:
    to_act = state.to_act
    if state.dealing:
        if event.seat != to_act:
            raise RuleViolation(
                f"card out of turn: the next up card goes to seat {to_act}, not seat {event.seat}",
                rule="cc-1",
            )
    else:
        if not state.pending:
            raise RuleViolation(
                f"card out of turn: no card is due; seat {to_act} must say champ or coward first",
                rule="cc-6",
            )
        if event.seat != to_act:
            raise RuleViolation(
                f"card out of turn: the card seat {to_act} paid for goes to seat {to_act}, "
                f"not seat {event.seat}",
                rule="cc-6",
            )
        if state.burn_owed or state.shoe.left == 0:
            raise RuleViolation(
                "the stub is empty: reshuffle the destroyed hands and burn cards first",
                rule="cc-11",
            )
    block = _card_block(state, event.card)
    if block:
        raise RuleViolation(block, rule="cc-12")


def transition(state: CCState, event: Event) -> CCState:
    state = replace(state, news=())
    if isinstance(event, CardDealt):
        return _card(state, event.seat, event.card)
    if isinstance(event, Champ):
        h = state.hand(event.seat)
        state = state.with_hand(replace(h, champs=h.champs + 1))
        state = replace(state, champ_pool=state.champ_pool + CHAMP_CHIPS * state.chip, pending=True)
        if state.shoe.left > 0:
            return replace(state, shoe=state.shoe.burn())
        return replace(state, burn_owed=True)
    if isinstance(event, Coward):
        h = state.hand(event.seat)
        state = _rank(state.with_hand(replace(h, status=STANDING)), just_stopped=event.seat)
        return _advance(state)
    if isinstance(event, Reshuffle):
        returned = state.reshuffle_pool()
        state = replace(
            state,
            shoe=state.shoe.reshuffle(returned),
            hands=tuple(replace(h, returned=len(h.cards)) if h.face_down else h
                        for h in state.hands),
        )
        if state.burn_owed:
            state = replace(state, shoe=state.shoe.burn(), burn_owed=False)
        return state
    raise RuleViolation(f'"{event.TYPE}" is not part of {GAME_TITLE}')


def _card(state: CCState, seat: int, card: Card) -> CCState:
    h = state.hand(seat)
    shoe = state.shoe.deal(card)
    if state.dealing:
        state = replace(state.with_hand(replace(h, cards=(card,))), shoe=shoe)
        if state.next_up_card is None:
            state = replace(state, order=action_order(state))
            return _stop_if_exhausted(state)
        return state
    reason = destroy_reason(h.cards, card)
    if reason is None:
        new = replace(h, cards=(*h.cards, card))
        return _stop_if_exhausted(replace(state.with_hand(new), shoe=shoe, pending=False))
    new = replace(h, cards=(*h.cards, card), status=DESTROYED, reason=reason)
    state = replace(state.with_hand(new), shoe=shoe, pending=False)
    state = replace(state, news=((seat, f"destroyed ({reason})"),))
    return _advance(state)


def _rank(state: CCState, *, just_stopped: int | None) -> CCState:
    """Turn down every standing hand below third: voluntarily if it just stopped, else by the
    dealer. Keeps at most three hands standing."""
    news = list(state.news)
    for place, h in enumerate(state.standing(), start=1):
        if place <= PLACES:
            continue
        if h.seat == just_stopped:
            status, why = VOLUNTARILY, "voluntarily destroyed"
        else:
            status, why = DEALER, "dealer destroyed"
        reason = f"{h.points} points ranked {ordinal(place)}, below third"
        state = state.with_hand(replace(h, status=status, reason=reason))
        news.append((h.seat, f"{why} ({reason})"))
    return replace(state, news=tuple(news))


def _advance(state: CCState) -> CCState:
    turn = state.turn + 1
    if turn >= len(state.order):
        return replace(state, turn=len(state.order) - 1, over=True)
    return _stop_if_exhausted(replace(state, turn=turn))


def _stop_if_exhausted(state: CCState) -> CCState:
    """No card can come even after a reshuffle: action stops and every hand still in counts as
    stopped where it is."""
    if state.available > 0:
        return state
    state = replace(
        state,
        hands=tuple(replace(h, status=STANDING) if h.status == LIVE else h for h in state.hands),
    )
    return replace(_rank(state, just_stopped=None), over=True, exhausted=True)

"""What the dealer may enter next (``check``) and what it does to the hand (``transition``)."""

from __future__ import annotations

from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.evolve import setter
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
    SeatHand,
    evolve_hand,
    evolve_state,
    swap_hand,
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
    shoe = state.shoe
    copies = shoe.copies(card)
    if copies == 0:
        return f"{card.code} is not in this shoe"
    if shoe.out.get(card, 0) < copies:
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
    if state.order:  # state.to_act, read here once (the hand is not over)
        to_act: int | None = state.order[state.turn]
    else:
        to_act = state.next_up_card
    if event.__class__ is CardDealt or isinstance(event, CardDealt):
        assert isinstance(event, CardDealt)
        _check_card(state, event, to_act)
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


def _check_card(state: CCState, event: CardDealt, to_act: int | None) -> None:
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


def transition(state: CCState, event: Event, *, checked: bool = False) -> CCState:
    """The hand after ``event``. ``checked``: :func:`check` has just accepted it (a card then
    needs no second look at the stub)."""
    if event.__class__ is CardDealt or isinstance(event, CardDealt):
        assert isinstance(event, CardDealt)
        return _card(state, event.seat, event.card, checked)
    if isinstance(event, Champ):
        i = state.index(event.seat)
        h = state.hands[i]
        hands = swap_hand(state.hands, i, _put_champs(h, h.champs + 1))
        pool = state.champ_pool + CHAMP_CHIPS * state.chip
        if state.shoe.left > 0:
            return _put_champ(state, hands, pool, True, state.shoe.burn(), ())
        return evolve_state(state, hands=hands, champ_pool=pool, pending=True, burn_owed=True,
                            news=())
    if isinstance(event, Coward):
        i = state.index(event.seat)
        hands = swap_hand(state.hands, i, evolve_hand(state.hands[i], status=STANDING))
        hands, news = _ranked(state, hands, (), just_stopped=event.seat)
        return _advance(state, hands=hands, news=news)
    if isinstance(event, Reshuffle):
        returned = state.reshuffle_pool()
        shoe = state.shoe.reshuffle(returned)
        changes: dict[str, object] = {}
        if state.burn_owed:
            shoe = shoe.burn()
            changes["burn_owed"] = False
        return evolve_state(
            state,
            shoe=shoe,
            hands=tuple(evolve_hand(h, returned=len(h.cards)) if h.face_down else h
                        for h in state.hands),
            news=(),
            **changes,
        )
    raise RuleViolation(f'"{event.TYPE}" is not part of {GAME_TITLE}')


def _card(state: CCState, seat: int, card: Card, checked: bool) -> CCState:
    i = state.seats.index(seat)
    h = state.hands[i]
    # A checked card can come: check refuses one with every copy out, or with the stub empty
    # after the up cards (and the up cards never empty it: start refuses more seats than cards).
    shoe = state.shoe.deal_checked(card) if checked else state.shoe.deal(card)
    if not state.order:  # dealing the up cards
        hands = swap_hand(state.hands, i, _put_cards(h, (card,)))
        state = _put_dealt(state, hands, shoe, ())
        if all(h.cards for h in hands):  # no next up card
            state = evolve_state(state, order=action_order(state))
            return _stop_if_exhausted(state)
        return state
    reason = destroy_reason(h.cards, card)
    if reason is None:
        hands = swap_hand(state.hands, i, _put_cards(h, (*h.cards, card)))
        return _stop_if_exhausted(_put_played(state, hands, shoe, False, ()))
    new = evolve_hand(h, cards=(*h.cards, card), status=DESTROYED, reason=reason)
    return _advance(
        state,
        hands=swap_hand(state.hands, i, new),
        shoe=shoe,
        pending=False,
        news=((seat, f"destroyed ({reason})"),),
    )


#: The copies the commonest events make, with their changed fields fixed once.
_put_cards = setter(SeatHand, "cards")
_put_champs = setter(SeatHand, "champs")
_put_dealt = setter(CCState, "hands", "shoe", "news")
_put_played = setter(CCState, "hands", "shoe", "pending", "news")
_put_champ = setter(CCState, "hands", "champ_pool", "pending", "shoe", "news")


def _ranked(
    state: CCState,
    hands: tuple[SeatHand, ...],
    news: tuple[tuple[int, str], ...],
    *,
    just_stopped: int | None,
) -> tuple[tuple[SeatHand, ...], tuple[tuple[int, str], ...]]:
    """Turn down every standing hand below third among ``hands`` (the state's seats): voluntarily
    if it just stopped, else by the dealer. Keeps at most three hands standing; returns the
    hands and ``news`` with the turned-down hands added."""
    seats = state.seats
    standing = sorted(
        (h for h in hands if h.status == STANDING),
        key=lambda h: hand_key(h.cards, seats.index(h.seat)),
        reverse=True,
    )
    if len(standing) <= PLACES:
        return hands, news
    told = list(news)
    for place, h in enumerate(standing, start=1):
        if place <= PLACES:
            continue
        if h.seat == just_stopped:
            status, why = VOLUNTARILY, "voluntarily destroyed"
        else:
            status, why = DEALER, "dealer destroyed"
        reason = f"{h.points} points ranked {ordinal(place)}, below third"
        hands = swap_hand(hands, seats.index(h.seat), evolve_hand(h, status=status, reason=reason))
        told.append((h.seat, f"{why} ({reason})"))
    return hands, tuple(told)


def _advance(state: CCState, **changes: Any) -> CCState:
    """The next seat's turn, or the end of the hand; ``changes`` are the event's own changes to
    ``state``, made in the same copy."""
    turn = state.turn + 1
    if turn >= len(state.order):
        return evolve_state(state, turn=len(state.order) - 1, over=True, **changes)
    return _stop_if_exhausted(evolve_state(state, turn=turn, **changes))


def _stop_if_exhausted(state: CCState) -> CCState:
    """No card can come even after a reshuffle: action stops and every hand still in counts as
    stopped where it is."""
    if state.shoe.left > 0 or state.available > 0:
        return state
    hands = tuple(evolve_hand(h, status=STANDING) if h.status == LIVE else h for h in state.hands)
    hands, news = _ranked(state, hands, state.news, just_stopped=None)
    return evolve_state(state, hands=hands, news=news, over=True, exhausted=True)

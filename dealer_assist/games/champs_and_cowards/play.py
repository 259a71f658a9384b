"""What the dealer may enter next and what it does to the hand: :func:`step` checks an input and
makes the hand after it in one pass (``check`` and ``transition`` are that pass)."""

from __future__ import annotations

from dealer_assist.cards import Card
from dealer_assist.deck import Shoe
from dealer_assist.engine.evolve import setter
from dealer_assist.errors import RuleViolation
from dealer_assist.events import CardDealt, Event, Reshuffle
from dealer_assist.games.champs_and_cowards.events import Champ, Coward
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
    return action_order_of(state.seats, state.hands)


def action_order_of(seats: tuple[int, ...], hands: tuple[SeatHand, ...]) -> tuple[int, ...]:
    """:func:`action_order` for these seats and their hands (each holding its up card)."""
    best = max(range(len(seats)), key=lambda i: (card_key(hands[i].cards[0]), -i))
    return seats[best:] + seats[:best]


def coward_block(state: CCState, seat: int) -> str | None:
    """Why ``seat`` may not stop now, or ``None``: the last to act must go on while its hand would
    not rank first and its points are within three of the leader's."""
    order = state.order
    if not order or seat != order[-1]:  # not state.last_to_act
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


def step(state: CCState, event: Event) -> CCState:
    """The hand after ``event``, or :class:`RuleViolation` saying why it is refused.

    Checking and applying are one pass over the same facts (whose turn it is, how many copies of
    the card are out), so they can never disagree, and a replay pays for each fact once."""
    if state.over:
        raise RuleViolation("the hand is over: no more cards or actions", rule="cc-over")
    cls = event.__class__
    if cls is CardDealt:
        return _card(state, event)  # type: ignore[arg-type]
    if cls is Champ:
        return _champ(state, event.seat)  # type: ignore[attr-defined]
    if cls is Coward:
        return _coward(state, event.seat)  # type: ignore[attr-defined]
    seat = event.seat_of
    if seat is not None and seat not in state.seats:
        raise _not_seated(state, seat)
    if isinstance(event, CardDealt):
        return _card(state, event)
    if isinstance(event, Champ):
        return _champ(state, event.seat)
    if isinstance(event, Coward):
        return _coward(state, event.seat)
    if isinstance(event, Reshuffle):
        return _reshuffle(state)
    raise RuleViolation(f'"{event.TYPE}" is not part of {GAME_TITLE}', rule="cc")


def check(state: CCState, event: Event) -> None:
    """Raise :class:`RuleViolation` if ``event`` is refused now (:func:`step`, result unused)."""
    step(state, event)


def transition(state: CCState, event: Event, *, checked: bool = False) -> CCState:
    """The hand after a legal ``event``: :func:`step` (which checks it again, at no extra cost
    worth sparing; ``checked`` is accepted for callers that say they checked it)."""
    return step(state, event)


def _not_seated(state: CCState, seat: int) -> RuleViolation:
    listed = ", ".join(str(s) for s in state.seats)
    return RuleViolation(f"seat {seat} is not in this hand (seats {listed})", rule="cc-1")


def _card(state: CCState, event: CardDealt) -> CCState:
    """A card face up to ``event.seat``: an up card while dealing, else the card a champ paid
    for (checked against the turn, the stub, and the copies already face up)."""
    seat = event.seat
    seats = state.seats
    if seat not in seats and isinstance(seat, int):
        raise _not_seated(state, seat)
    shoe = state.shoe
    order = state.order
    to_act: int | None
    if order:
        to_act = order[state.turn]
        if not state.pending:
            raise RuleViolation(
                f"card out of turn: no card is due; seat {to_act} must say champ or coward first",
                rule="cc-6",
            )
        if seat != to_act:
            raise RuleViolation(
                f"card out of turn: the card seat {to_act} paid for goes to seat {to_act}, "
                f"not seat {seat}",
                rule="cc-6",
            )
        if state.burn_owed or shoe.left == 0:
            raise RuleViolation(
                "the stub is empty: reshuffle the destroyed hands and burn cards first",
                rule="cc-11",
            )
    else:
        to_act = state.next_up_card
        if seat != to_act:
            raise RuleViolation(
                f"card out of turn: the next up card goes to seat {to_act}, not seat {seat}",
                rule="cc-1",
            )
    card = event.card
    copies = shoe.copies(card)
    if copies == 0:
        raise RuleViolation(f"{card.code} is not in this shoe", rule="cc-12")
    already = shoe.out.get(card, 0)
    if already >= copies:
        raise RuleViolation(_all_out(state, card, copies), rule="cc-12")
    # The card can come: every copy is not out, and the stub is not empty (checked above after
    # the up cards; the up cards never empty it: start refuses more seats than cards).
    shoe = shoe.dealt(card, already)
    i = seats.index(seat)
    h = state.hands[i]
    if not order:  # dealing the up cards
        hands = swap_hand(state.hands, i, _put_cards(h, (card,)))
        for other in hands:
            if not other.cards:  # a next up card
                return _put_dealt(state, hands, shoe, ())
        return _stop_if_exhausted(_put_dealt_all(state, hands, shoe, (), action_order_of(
            seats, hands)))
    reason = destroy_reason(h.cards, card)
    if reason is None:
        hands = swap_hand(state.hands, i, _put_cards(h, (*h.cards, card)))
        return _stop_if_exhausted(_put_played(state, hands, shoe, False, ()))
    new = _put_destroyed(h, (*h.cards, card), DESTROYED, reason)
    return _advance(
        state, swap_hand(state.hands, i, new), ((seat, f"destroyed ({reason})"),), shoe
    )


def _all_out(state: CCState, card: Card, copies: int) -> str:
    """Why ``card`` cannot come out of the stub: every copy is already face up."""
    seats = list(state.holders(card))
    where = ", ".join(str(s) for s in seats)
    if copies == 1:
        return f"{card.code} cannot come from the stub: it is already face up at seat {where}"
    return (
        f"{card.code} cannot come from the stub: all {copies} copies are already face up "
        f"(seats {where})"
    )


def _acting(state: CCState, seat: int, word: str) -> int:
    """Refuse a champ or coward from ``seat`` unless it is that seat's turn to say one; the
    seat's place in the hand when it is."""
    seats = state.seats
    if seat not in seats and isinstance(seat, int):
        raise _not_seated(state, seat)
    order = state.order
    if not order:  # state.dealing
        raise RuleViolation(
            f"{word} out of turn: the up cards are not all dealt; the next one goes to "
            f"seat {state.next_up_card}",
            rule="cc-5",
        )
    to_act = order[state.turn]
    if state.pending:
        raise RuleViolation(
            f"{word} out of turn: seat {to_act} paid for a card; enter that card first",
            rule="cc-6",
        )
    if seat != to_act:
        raise RuleViolation(
            f"{word} out of turn: it is seat {to_act}'s turn, not seat {seat}'s",
            rule="cc-5",
        )
    return seats.index(seat)


def _champ(state: CCState, seat: int) -> CCState:
    """The seat pays for one more card: into the bonus pool, a burn now if the stub has one."""
    i = _acting(state, seat, "champ")
    h = state.hands[i]
    hands = swap_hand(state.hands, i, _put_champs(h, h.champs + 1))
    pool = state.champ_pool + CHAMP_CHIPS * state.chip
    if state.shoe.left > 0:
        return _put_champ(state, hands, pool, True, state.shoe.burn(), ())
    return evolve_state(state, hands=hands, champ_pool=pool, pending=True, burn_owed=True,
                        news=())


def _coward(state: CCState, seat: int) -> CCState:
    """The seat stops: its hand stands, and any standing hand below third is turned down."""
    i = _acting(state, seat, "coward")
    block = coward_block(state, seat)
    if block:
        raise RuleViolation(block, rule="cc-8")
    hands = swap_hand(state.hands, i, _put_status(state.hands[i], STANDING))
    hands, news = _ranked(state, hands, (), just_stopped=seat)
    return _advance(state, hands, news)


def _reshuffle(state: CCState) -> CCState:
    """The destroyed hands (and the burn cards) back into a new stub, when a champ's card is due
    and the stub is empty."""
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


#: The copies the commonest events make, with their changed fields fixed once.
_put_cards = setter(SeatHand, "cards")
_put_champs = setter(SeatHand, "champs")
_put_dealt = setter(CCState, "hands", "shoe", "news")
_put_played = setter(CCState, "hands", "shoe", "pending", "news")
_put_champ = setter(CCState, "hands", "champ_pool", "pending", "shoe", "news")
_put_dealt_all = setter(CCState, "hands", "shoe", "news", "order")
_put_status = setter(SeatHand, "status")
_put_destroyed = setter(SeatHand, "cards", "status", "reason")


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
    standing = [h for h in hands if h.status == STANDING]
    if len(standing) <= PLACES:
        return hands, news
    standing.sort(key=lambda h: hand_key(h.cards, seats.index(h.seat)), reverse=True)
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


def _advance(
    state: CCState,
    hands: tuple[SeatHand, ...],
    news: tuple[tuple[int, str], ...],
    shoe: Shoe | None = None,
) -> CCState:
    """The next seat's turn, or the end of the hand. ``hands`` and ``news`` (and ``shoe``, for a
    champ's card that destroyed the hand: the card is no longer pending) are the event's own
    changes to ``state``, made in the same copy."""
    last = len(state.order) - 1
    turn = state.turn + 1
    if shoe is None:
        if turn > last:
            return _put_last(state, last, True, hands, news)
        return _stop_if_exhausted(_put_next(state, turn, hands, news))
    if turn > last:
        return _put_last_card(state, last, True, hands, shoe, False, news)
    return _stop_if_exhausted(_put_next_card(state, turn, hands, shoe, False, news))


_put_next = setter(CCState, "turn", "hands", "news")
_put_last = setter(CCState, "turn", "over", "hands", "news")
_put_next_card = setter(CCState, "turn", "hands", "shoe", "pending", "news")
_put_last_card = setter(CCState, "turn", "over", "hands", "shoe", "pending", "news")


def _stop_if_exhausted(state: CCState) -> CCState:
    """No card can come even after a reshuffle: action stops and every hand still in counts as
    stopped where it is."""
    if state.shoe.left > 0 or state.available > 0:
        return state
    hands = tuple(evolve_hand(h, status=STANDING) if h.status == LIVE else h for h in state.hands)
    hands, news = _ranked(state, hands, state.news, just_stopped=None)
    return evolve_state(state, hands=hands, news=news, over=True, exhausted=True)

"""What the dealer may enter next and what it does to the hand: :func:`step` checks an input and
makes the hand after it in one pass (``check`` and ``transition`` are that pass), by putting it
to a working copy of the hand (:class:`CCWork`), which is where the rules are."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from dealer_assist.cards import Card
from dealer_assist.deck import Shoe, shoe_of
from dealer_assist.engine.base import Working
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
    holders_of,
    next_up_card_of,
    reshuffle_pool_of,
)

GAME_TITLE = "Champs and Cowards"


def action_order(state: CCState) -> tuple[int, ...]:
    """Clockwise once around from the best up card (identical cards: the seat dealt earlier)."""
    return action_order_of(state.seats, state.hands)


def action_order_of(seats: tuple[int, ...], hands: Sequence[SeatHand]) -> tuple[int, ...]:
    """:func:`action_order` for these seats and their hands (each holding its up card)."""
    best = max(range(len(seats)), key=lambda i: (card_key(hands[i].cards[0]), -i))
    return seats[best:] + seats[:best]


def coward_block(state: CCState | CCWork, seat: int) -> str | None:
    """Why ``seat`` may not stop now, or ``None``: the last to act must go on while its hand would
    not rank first and its points are within three of the leader's."""
    order = state.order
    if not order or seat != order[-1]:  # not state.last_to_act
        return None
    seats = state.seats
    # the leader: the first of standing_of(seats, hands) (every key differs: the seats do)
    best: tuple[int, tuple[int, int, int], int] | None = None
    leader: SeatHand | None = None
    for i, h in enumerate(state.hands):
        if h.status == STANDING:
            key = hand_key(h.cards, i)
            if best is None or key > best:
                best, leader = key, h
    if leader is None or best is None:
        return None
    mine = state.hands[seats.index(seat)]
    if hand_key(mine.cards, seats.index(seat)) > best:
        return None
    if mine.points < leader.points - FORCED_MARGIN:
        return None
    return (
        f"seat {seat} cannot stop: {mine.points} points is within {FORCED_MARGIN} of the "
        f"leader's {leader.points} (seat {leader.seat}); as the last to act it must take a card"
    )


class CCWork(Working[CCState]):
    """A hand worked on in place while events are applied (:meth:`put`): the one place the rules
    change a hand. :func:`step` (the game's ``apply``) puts one event to a fresh copy of the
    state and makes the state after it; a fold, and the sample hands' dealing, put every event
    of a hand to one copy and make the state once (:meth:`freeze`).

    Its fields are the state's, but for the shoe, counted here (``left``, ``out``, ``burned``,
    ``reshuffles``; ``out`` copied the first time it changes), and the seats' hands, one list
    (never replaced) whose items, each an immutable :class:`SeatHand`, are."""

    __slots__ = (
        "base", "burn_owed", "burned", "champ_pool", "copies", "exhausted", "hands", "left",
        "news", "order", "out", "out_own", "over", "pending", "reshuffles", "seats", "turn",
    )

    def __init__(self, state: CCState) -> None:
        self.base = state
        self.seats = state.seats
        shoe = state.shoe
        self.copies = shoe.copies  # (a spec's copies of a card never change)
        self.left = shoe.left
        self.out = shoe.out
        self.out_own = False
        self.burned = shoe.burned
        self.reshuffles = shoe.reshuffles
        self.hands = list(state.hands)
        self.order = state.order
        self.turn = state.turn
        self.pending = state.pending
        self.burn_owed = state.burn_owed
        self.champ_pool = state.champ_pool
        self.over = state.over
        self.exhausted = state.exhausted
        self.news = state.news

    base: CCState
    seats: tuple[int, ...]
    left: int
    out: Mapping[Card, int]
    out_own: bool
    copies: Callable[[Card], int]
    burned: int
    reshuffles: int
    hands: list[SeatHand]
    order: tuple[int, ...]
    turn: int
    pending: bool
    burn_owed: bool
    champ_pool: int
    over: bool
    exhausted: bool
    news: tuple[tuple[int, str], ...]

    @property
    def next_up_card(self) -> int | None:
        """The seat whose up card comes next, while dealing."""
        return next_up_card_of(self.hands)

    def reshuffle_pool(self) -> list[Card]:
        """Known cards a reshuffle returns (:meth:`CCState.reshuffle_pool`)."""
        return reshuffle_pool_of(self.hands)

    def put(self, event: Event) -> None:
        """Apply ``event``, or raise :class:`RuleViolation` saying why it is refused.

        Checking and applying are one pass over the same facts (whose turn it is, how many copies
        of the card are out), so they can never disagree, and a replay pays for each fact once.
        Every check comes before the first change."""
        if self.over:
            raise RuleViolation("the hand is over: no more cards or actions", rule="cc-over")
        cls = event.__class__
        if cls is CardDealt:
            return _card(self, event)  # type: ignore[arg-type]
        if cls is Champ:
            return _champ(self, event.seat)  # type: ignore[attr-defined]
        if cls is Coward:
            return _coward(self, event.seat)  # type: ignore[attr-defined]
        seat = event.seat_of
        if seat is not None and seat not in self.seats:
            raise _not_seated(self, seat)
        if isinstance(event, CardDealt):
            return _card(self, event)
        if isinstance(event, Champ):
            return _champ(self, event.seat)
        if isinstance(event, Coward):
            return _coward(self, event.seat)
        if isinstance(event, Reshuffle):
            return _reshuffle(self)
        raise RuleViolation(f'"{event.TYPE}" is not part of {GAME_TITLE}', rule="cc")

    def freeze(self) -> CCState:
        """The state reached: the shoe made again only when it changed since the last state
        made (the one the copy was made from, or the last frozen)."""
        base = self.base
        shoe = base.shoe
        if (self.out is not shoe.out or self.left != shoe.left or self.burned != shoe.burned
                or self.reshuffles != shoe.reshuffles):
            shoe = shoe_of(shoe.spec, self.left, self.out, self.burned, self.reshuffles)
            self.out_own = False  # (the shoe holds it now: a later change copies it)
        state = _put_play(base, shoe, tuple(self.hands), self.order, self.turn, self.pending,
                          self.burn_owed, self.champ_pool, self.over, self.exhausted, self.news)
        self.base = state  # (what the next freeze compares its shoe with)
        return state

    def shoe(self) -> Shoe:
        """The shoe as counted so far."""
        return shoe_of(self.base.shoe.spec, self.left, self.out, self.burned, self.reshuffles)

    def load_shoe(self, shoe: Shoe) -> None:
        """Count from ``shoe`` on (a reshuffle's, made by :class:`Shoe` itself)."""
        self.left = shoe.left
        self.out = shoe.out
        self.out_own = False
        self.burned = shoe.burned
        self.reshuffles = shoe.reshuffles


#: The state after a hand worked on in place (:meth:`CCWork.freeze`): every field play changes.
_put_play = setter(CCState, "shoe", "hands", "order", "turn", "pending", "burn_owed",
                   "champ_pool", "over", "exhausted", "news")


def step(state: CCState, event: Event) -> CCState:
    """The hand after ``event``, or :class:`RuleViolation` saying why it is refused: the event
    put to a working copy of ``state`` (:meth:`CCWork.put`, where the rules are)."""
    work = CCWork(state)
    work.put(event)
    return work.freeze()


def check(state: CCState, event: Event) -> None:
    """Raise :class:`RuleViolation` if ``event`` is refused now (:func:`step`, result unused)."""
    step(state, event)


def transition(state: CCState, event: Event, *, checked: bool = False) -> CCState:
    """The hand after a legal ``event``: :func:`step` (which checks it again, at no extra cost
    worth sparing; ``checked`` is accepted for callers that say they checked it)."""
    return step(state, event)


def _not_seated(state: CCState | CCWork, seat: int) -> RuleViolation:
    listed = ", ".join(str(s) for s in state.seats)
    return RuleViolation(f"seat {seat} is not in this hand (seats {listed})", rule="cc-1")


def _card(w: CCWork, event: CardDealt) -> None:
    """A card face up to ``event.seat``: an up card while dealing, else the card a champ paid
    for (checked against the turn, the stub, and the copies already face up)."""
    seat = event.seat
    seats = w.seats
    if seat not in seats and isinstance(seat, int):
        raise _not_seated(w, seat)
    order = w.order
    to_act: int | None
    if order:
        to_act = order[w.turn]
        if not w.pending:
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
        if w.burn_owed or w.left == 0:
            raise RuleViolation(
                "the stub is empty: reshuffle the destroyed hands and burn cards first",
                rule="cc-11",
            )
    else:
        to_act = next_up_card_of(w.hands)
        if seat != to_act:
            raise RuleViolation(
                f"card out of turn: the next up card goes to seat {to_act}, not seat {seat}",
                rule="cc-1",
            )
    card = event.card
    copies = w.copies(card)
    if copies == 0:
        raise RuleViolation(f"{card.code} is not in this shoe", rule="cc-12")
    out = w.out
    already = out.get(card, 0)
    if already >= copies:
        raise RuleViolation(_all_out(w, card, copies), rule="cc-12")
    # The card can come: every copy is not out, and the stub is not empty (checked above after
    # the up cards; the up cards never empty it: start refuses more seats than cards).
    if w.out_own:
        own = w.out
        assert isinstance(own, dict)
    else:  # (the first change: the counts are the state's until now)
        own = w.out = dict(out)
        w.out_own = True
    own[card] = already + 1
    w.left -= 1
    hands = w.hands
    i = seats.index(seat)
    h = hands[i]
    w.news = ()
    if not order:  # dealing the up cards
        hands[i] = _put_cards(h, (card,))
        for other in hands:
            if not other.cards:  # a next up card
                return
        w.order = action_order_of(seats, hands)
        return _stop_if_exhausted(w)
    w.pending = False
    reason = destroy_reason(h.cards, card)
    if reason is None:
        hands[i] = _put_cards(h, (*h.cards, card))
        if w.left > 0:  # (what _stop_if_exhausted asks first)
            return None
        return _stop_if_exhausted(w)
    hands[i] = _put_destroyed(h, (*h.cards, card), DESTROYED, reason)
    return _advance(w, ((seat, f"destroyed ({reason})"),))


def _all_out(w: CCWork, card: Card, copies: int) -> str:
    """Why ``card`` cannot come out of the stub: every copy is already face up."""
    seats = list(holders_of(w.hands, card))
    where = ", ".join(str(s) for s in seats)
    if copies == 1:
        return f"{card.code} cannot come from the stub: it is already face up at seat {where}"
    return (
        f"{card.code} cannot come from the stub: all {copies} copies are already face up "
        f"(seats {where})"
    )


def _acting(w: CCWork, seat: int, word: str) -> int:
    """Refuse a champ or coward from ``seat`` unless it is that seat's turn to say one; the
    seat's place in the hand when it is."""
    seats = w.seats
    if seat not in seats and isinstance(seat, int):
        raise _not_seated(w, seat)
    order = w.order
    if not order:  # state.dealing
        raise RuleViolation(
            f"{word} out of turn: the up cards are not all dealt; the next one goes to "
            f"seat {next_up_card_of(w.hands)}",
            rule="cc-5",
        )
    to_act = order[w.turn]
    if w.pending:
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


def _champ(w: CCWork, seat: int) -> None:
    """The seat pays for one more card: into the bonus pool, a burn now if the stub has one."""
    i = _acting(w, seat, "champ")
    hands = w.hands
    h = hands[i]
    hands[i] = _put_champs(h, h.champs + 1)
    w.champ_pool += CHAMP_CHIPS * w.base.chip
    w.pending = True
    w.news = ()
    if w.left > 0:  # the burn (Shoe.burn)
        w.left -= 1
        w.burned += 1
    else:
        w.burn_owed = True


def _coward(w: CCWork, seat: int) -> None:
    """The seat stops: its hand stands, and any standing hand below third is turned down."""
    i = _acting(w, seat, "coward")
    block = coward_block(w, seat)
    if block:
        raise RuleViolation(block, rule="cc-8")
    hands = w.hands
    hands[i] = _put_status(hands[i], STANDING)
    _advance(w, _ranked(w, (), just_stopped=seat))


def _reshuffle(w: CCWork) -> None:
    """The destroyed hands (and the burn cards) back into a new stub, when a champ's card is due
    and the stub is empty."""
    if not w.pending:
        raise RuleViolation(
            "no reshuffle now: the stub is reshuffled only when a champ needs a card "
            f"and none is left ({w.left} left)",
            rule="cc-11",
        )
    if w.left > 0:
        raise RuleViolation(
            f"no reshuffle now: {w.left} cards are still in the stub", rule="cc-11"
        )
    returned = reshuffle_pool_of(w.hands)
    shoe = w.shoe().reshuffle(returned)
    if w.burn_owed:
        shoe = shoe.burn()
    w.load_shoe(shoe)
    w.burn_owed = False
    w.hands[:] = [evolve_hand(h, returned=len(h.cards)) if h.face_down else h for h in w.hands]
    w.news = ()


#: The copies the commonest events make, with their changed fields fixed once.
_put_cards = setter(SeatHand, "cards")
_put_champs = setter(SeatHand, "champs")
_put_status = setter(SeatHand, "status")
_put_destroyed = setter(SeatHand, "cards", "status", "reason")


def _ranked(
    w: CCWork,
    news: tuple[tuple[int, str], ...],
    *,
    just_stopped: int | None,
) -> tuple[tuple[int, str], ...]:
    """Turn down every standing hand below third among the hands: voluntarily if it just
    stopped, else by the dealer. Keeps at most three hands standing; returns ``news`` with the
    turned-down hands added."""
    seats = w.seats
    hands = w.hands
    standing = [h for h in hands if h.status == STANDING]
    if len(standing) <= PLACES:
        return news
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
        hands[seats.index(h.seat)] = evolve_hand(h, status=status, reason=reason)
        told.append((h.seat, f"{why} ({reason})"))
    return tuple(told)


def _advance(w: CCWork, news: tuple[tuple[int, str], ...]) -> None:
    """The next seat's turn, or the end of the hand; ``news`` the event's turned-down hands."""
    last = len(w.order) - 1
    turn = w.turn + 1
    w.news = news
    if turn > last:
        w.turn = last
        w.over = True
        return
    w.turn = turn
    if w.left == 0:  # (else a card can come: _stop_if_exhausted's first question)
        _stop_if_exhausted(w)


def _stop_if_exhausted(w: CCWork) -> None:
    """No card can come even after a reshuffle: action stops and every hand still in counts as
    stopped where it is."""
    if w.left > 0 or w.left + len(reshuffle_pool_of(w.hands)) + w.burned > 0:
        return
    w.hands[:] = [evolve_hand(h, status=STANDING) if h.status == LIVE else h for h in w.hands]
    w.news = _ranked(w, w.news, just_stopped=None)
    w.over = True
    w.exhausted = True

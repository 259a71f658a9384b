"""Paiute's rules (rulings Paiute 1-2): each event checked against the hand (a refusal in the
dealer's words, naming the ruling) and the state after it."""

from __future__ import annotations

from types import MappingProxyType

from dealer_assist.cards import RANK_PLURALS, Card
from dealer_assist.engine.evolve import copied, replace
from dealer_assist.engine.seats import after
from dealer_assist.events import Event, Reshuffle
from dealer_assist.games.ante_pot import seat_in_hand
from dealer_assist.games.paiute.combos import (
    COMBINATIONS,
    SIZE,
    best_of,
    describe,
    strength,
    value_as,
)
from dealer_assist.games.paiute.events import Call, Discard, Draw, Pass, Upcard, Wild
from dealer_assist.games.paiute.state import (
    DECK,
    DISCARDED,
    DRAW,
    DRAWN,
    HAND,
    SOURCES,
    CallMade,
    State,
    cards_text,
    refuse,
)


def check(state: State, event: Event) -> None:
    """Refuse ``event`` now, in the dealer's words naming the ruling, or pass it."""
    if state.over:
        raise refuse("the hand is over: settle it", "input")
    if isinstance(event, Wild):
        if event.card.is_joker:
            raise refuse("Paiute is played without jokers: turn up the wild card as dealt",
                          "cards")
        if state.wild is not None:
            raise refuse(f"the wild card is already turned ({state.wild.code})", 1)
        return
    if state.wild is None:
        raise refuse("turn up the wild card first: it names the wild rank", 1)
    if isinstance(event, Upcard):
        if state.started:
            raise refuse("the upcard is already turned: the discard pile is started", 1)
        if event.card == state.wild:
            raise refuse(f"{event.card.code} is the wild card, under the stock", 1)
        return
    if not state.started:
        raise refuse("turn up the card that starts the discard pile first", 1)
    if isinstance(event, Reshuffle):
        _check_reshuffle(state)
        return
    if not isinstance(event, (Draw, Discard, Call, Pass)):
        raise refuse(f'"{event.TYPE}" is not an input in Paiute: record a draw, a '
                      "discard, a call or a pass", "input")
    seat = seat_in_hand(state.table, event)
    if isinstance(event, Draw):
        _check_draw(state, event)
    elif isinstance(event, Discard):
        _check_turn(state, seat, DRAWN, "discards after its draw")
        _check_discard(state, event)
    elif isinstance(event, Call):
        _check_call(state, event)
    else:
        if not state.calls:
            raise refuse("a pass ends a last turn, after a call: before one, the next "
                          "seat simply draws", 2)
        _check_turn(state, seat, DISCARDED, "passes after its discard")


def _check_turn(state: State, seat: int, stage: str, what: str) -> None:
    if seat != state.seat:
        raise refuse(f"it is seat {state.seat}'s turn, not seat {seat}'s", 1)
    if state.stage != stage:
        now = {DRAW: "has not drawn yet", DRAWN: "has drawn: it discards (or calls six "
               "cards)", DISCARDED: "has discarded"}[state.stage]
        raise refuse(f"seat {seat} {what}, and it {now}", 1)


def _check_reshuffle(state: State) -> None:
    if state.stock:
        raise refuse(f"the stock still has {state.stock} cards: reshuffle only when it "
                      "runs out", 1)
    if len(state.pile) < 2:
        raise refuse("the discard pile has only its top card: nothing to reshuffle", 1)
    if state.drawer is None:
        raise refuse("reshuffle between turns, before a draw", 1)


def _check_draw(state: State, event: Draw) -> None:
    drawer = state.drawer
    if drawer is None:
        _check_turn(state, event.seat, DRAW, "draws")
    if event.seat != drawer:
        raise refuse(f"seat {drawer} draws next, not seat {event.seat}", 1)
    if event.source not in SOURCES:
        raise refuse(f'a card is drawn from the "stock" or the "discard" pile, not '
                      f'"{event.source}"', 1)
    if event.source == "stock" and not state.stock:
        raise refuse("the stock is empty: reshuffle the discard pile under its top card "
                      "first", 1)
    if event.source == "discard" and not state.pile:
        raise refuse("the discard pile is empty", 1)


def _elsewhere(state: State, seat: int, card: Card) -> str | None:
    """Where ``card`` is known to be, if not possibly in ``seat``'s hand."""
    if card == state.wild:
        return "is the wild card, under the stock"
    if card in state.pile:
        return "is in the discard pile"
    holder = state.where.get(card)
    if holder is not None and holder != seat:
        return f"was taken from the discard pile by seat {holder}"
    for call in state.calls:
        if card in call.cards:
            return f"is in seat {call.seat}'s call"
    return None


def _check_discard(state: State, event: Discard) -> None:
    card = event.card
    if card == state.taken:
        raise refuse(f"{card.code} was just taken from the discard pile: it cannot go "
                      "straight back (the top of the pile must change)", 1)
    where = _elsewhere(state, event.seat, card)
    if where is not None:
        raise refuse(f"{card.code} {where}: seat {event.seat} cannot discard it", 1)
    known = state.known(event.seat)
    if card not in known and len(known) >= HAND + 1:
        raise refuse(f"seat {event.seat} holds {cards_text(known)}: it discards one of "
                      "them", 1)


def _check_call(state: State, event: Call) -> None:
    seat = event.seat
    if seat != state.seat or state.stage == DRAW:
        raise refuse(f"seat {seat} calls on its own turn, after its draw (it is seat "
                      f"{state.seat}'s turn" + (", before its draw)" if state.stage == DRAW
                                                else ")"), 2)
    combination = event.combination
    if combination not in COMBINATIONS:
        raise refuse(f'"{combination}" is not a combination: '
                      + ", ".join(COMBINATIONS), 2)
    cards = tuple(event.cards)
    size = SIZE[combination]
    if state.stage == DRAWN and size == 5:
        raise refuse(f"{combination} is five cards: seat {seat} discards its sixth card "
                      "first, then calls", 2)
    if state.stage == DISCARDED and size == 6:
        raise refuse(f"{combination} is six cards: it is called straight after the draw, "
                      "before the discard", 2)
    if len(cards) != size or len(set(cards)) != size:
        raise refuse(f"{combination} is {size} different cards, not {len(cards)}", 2)
    if combination == "paiute" and not state.first_turn(seat):
        raise refuse("a paiute is called only on the caller's first turn, and seat "
                      f"{seat} has had one", 2)
    for card in cards:
        where = _elsewhere(state, seat, card)
        if where is not None:
            raise refuse(f"{card.code} {where}: it is not in seat {seat}'s hand", 1)
    missing = [c for c in state.known(seat) if c not in cards]
    if missing:
        raise refuse(f"seat {seat} took {cards_text(tuple(missing))} from the discard pile "
                      "and kept it: its call must show it", 1)
    value = value_as(cards, combination, state.wild_rank)
    if value is None:
        made = best_of(cards, state.wild_rank)
        hint = (f" (they make {describe(*made)}: call that)" if made is not None else
                " (they make no combination)")
        wild = RANK_PLURALS[state.wild_rank]
        raise refuse(f"{cards_text(cards)} is not {combination} with {wild} wild{hint}", 2)
    made = best_of(cards, state.wild_rank)
    if made is not None and strength(*made) > strength(combination, value):
        # the cards speak: a call is paid as the best combination they make, so a worse
        # reading (three/three where a wild card makes four/two) is not the dealer's pick
        wild = RANK_PLURALS[state.wild_rank]
        raise refuse(f"{cards_text(cards)} make {describe(*made)} with {wild} wild, better than "
                      f"{describe(combination, value)}: call {made[0]}", 2)
    top = state.best()
    if top is not None and strength(combination, value) < top.strength:
        raise refuse(f"{describe(combination, value)} does not beat or tie seat "
                      f"{top.seat}'s {top.description}: seat {seat} passes", 2)


def transition(state: State, event: Event) -> State:
    """The state after ``event`` (``check`` has passed it)."""
    if isinstance(event, Wild):
        return replace(state, wild=event.card)
    if isinstance(event, Upcard):
        stock = DECK - HAND * len(state.table.seats) - 2
        return replace(state, pile=(event.card,), started=True, stock=stock)
    if isinstance(event, Reshuffle):
        return replace(state, stock=len(state.pile) - 1, pile=state.pile[-1:])
    if isinstance(event, Draw):
        if state.stage == DISCARDED:  # the seat before did not call: its turn is over
            state = _turn_over(state)
            state = replace(state, turn=state.turn + 1)
        if event.source == "stock":
            return replace(state, stock=state.stock - 1, stage=DRAWN, taken=None)
        top = state.pile[-1]
        where = copied(state.where)
        where[top] = event.seat
        return replace(state, pile=state.pile[:-1], stage=DRAWN, taken=top,
                       where=MappingProxyType(where))
    if isinstance(event, Discard):
        where = {c: s for c, s in state.where.items() if c != event.card}
        return replace(state, pile=(*state.pile, event.card), stage=DISCARDED, taken=None,
                       where=MappingProxyType(where))
    if isinstance(event, Call):
        value = value_as(event.cards, event.combination, state.wild_rank)
        assert value is not None
        made = CallMade(event.seat, tuple(event.cards), event.combination, value)
        where = {c: s for c, s in state.where.items() if s != event.seat}
        state = _turn_over(replace(state, where=MappingProxyType(where), taken=None))
        if state.calls:
            return _last_done(replace(state, calls=(*state.calls, made)))
        if event.seat == state.table.dealer:  # the dealer called first: wins at once
            return replace(state, calls=(made,), over=True)
        return replace(state, calls=(made,), stage=DRAW,
                       last=after(state.table.order, event.seat))
    if isinstance(event, Pass):
        return _last_done(_turn_over(state))
    raise refuse(f'"{event.TYPE}" is not an input in Paiute', "input")


def _turn_over(state: State) -> State:
    """The seat to play has finished its turn."""
    seat = state.seat
    done = copied(state.done)
    done[seat] = done.get(seat, 0) + 1
    return replace(state, done=MappingProxyType(done))


def _last_done(state: State) -> State:
    """A last turn is over (a call or a pass): the next, or the end of the hand."""
    rest = state.last[1:]
    return replace(state, last=rest, stage=DRAW, taken=None, over=not rest)

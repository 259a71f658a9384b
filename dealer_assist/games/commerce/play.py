"""Commerce's rules (rulings Commerce 1-3): each event checked against the hand (a refusal in
the dealer's words, naming the ruling) and the state after it."""

from __future__ import annotations

from types import MappingProxyType

from dealer_assist.engine.evolve import copied, replace
from dealer_assist.engine.seats import from_left
from dealer_assist.events import BoardDealt, Event, Show
from dealer_assist.games.ante_pot import seat_in_hand
from dealer_assist.games.commerce.events import Exchange, Knock, Stand
from dealer_assist.games.commerce.state import HAND, State, cards_text, refuse


def check(state: State, event: Event) -> None:
    """Refuse ``event`` now, in the dealer's words naming the ruling, or pass it."""
    if state.over:
        raise refuse("every hand is shown: settle the hand", "input")
    if isinstance(event, BoardDealt):
        if state.dealt:
            raise refuse(f"the board is already out ({cards_text(state.board)})", 1)
        if len(event.cards) != 3 or len(set(event.cards)) != 3:
            raise refuse("the board is three different cards face up", 1)
        return
    if not state.dealt:
        raise refuse("record the three cards face up in the middle first", 1)
    if not isinstance(event, (Exchange, Knock, Stand, Show)):
        raise refuse(f'"{event.TYPE}" is not an input in Commerce: record an exchange, '
                      "a knock, a stand or a show", "input")
    seat = seat_in_hand(state.table, event)
    if isinstance(event, Exchange) and event.blind:
        _check_blind(state, event)
        _check_exchange(state, event)
        return
    if isinstance(event, Show):
        _check_show(state, event)
        return
    if state.showdown:
        raise refuse(f"the last turns are over: seat {state.to_act} shows its three "
                      "cards", 2)
    if seat != state.to_act:
        raise refuse(f"seat {state.to_act} is to play, not seat {seat}", 2)
    if isinstance(event, Knock) and state.knocker is not None:
        raise refuse(f"seat {state.knocker} has knocked: seat {seat}'s last turn is an "
                      "exchange or a stand", 2)
    if isinstance(event, Stand) and state.knocker is None:
        raise refuse(f"a stand is only a last turn after a knock: seat {seat} exchanges "
                      "or knocks", 2)
    if isinstance(event, Exchange):
        _check_exchange(state, event)


def _check_blind(state: State, event: Exchange) -> None:
    dealer = state.table.dealer
    if event.seat != dealer:
        raise refuse(f"only the dealer (seat {dealer}) exchanges blind", 1)
    if state.blind:
        raise refuse("the dealer has made the blind exchange already", 1)
    if state.turns or state.knocker is not None:
        raise refuse("the dealer's blind exchange comes before the first turn", 1)


def _check_exchange(state: State, event: Exchange) -> None:
    seat = event.seat
    n = len(event.take)
    if not 1 <= n <= 3 or len(event.give) != n:
        raise refuse("an exchange takes one to three cards from the board and gives as "
                      f"many back (here {n} taken, {len(event.give)} given)", 2)
    if len(set(event.take)) != n or len(set(event.give)) != n:
        raise refuse("a card is named twice in the exchange", 2)
    if n == 3 and seat in state.threes:
        raise refuse(f"seat {seat} has made its three-card exchange this hand"
                      + (" (the dealer's blind one counts)" if state.blind
                         and seat == state.table.dealer else "")
                      + ": exchange one or two cards", 2)
    for card in event.take:
        if card not in state.board:
            raise refuse(f"{card.code} is not on the board (it shows {cards_text(state.board)})",
                          2)
    unknown = 0
    for card in event.give:
        if card in state.board:
            raise refuse(f"{card.code} is on the board: seat {seat} cannot give it", 2)
        holder = state.where.get(card)
        if holder is not None and holder != seat:
            raise refuse(f"{card.code} was taken by seat {holder}: seat {seat} cannot "
                          "give it", 2)
        if holder is None:
            unknown += 1
    if unknown > HAND - len(state.known(seat)):
        kept = cards_text(state.known(seat))
        raise refuse(f"seat {seat} holds {kept}, taken from the board: give from those",
                      2)


def _check_show(state: State, event: Show) -> None:
    seat = event.seat
    if not state.showdown:
        raise refuse("hands are shown after the knock and the last turns"
                      + (f": seat {state.to_act} is to play" if state.to_act else ""), 2)
    if seat in state.shown:
        raise refuse(f"seat {seat}'s hand is already shown", "input")
    cards = event.cards
    if any(c.is_joker for c in cards):
        raise refuse("Commerce is played without jokers: enter the cards shown", "cards")
    if len(cards) != HAND or len(set(cards)) != HAND:
        raise refuse("a hand shown is three different cards", "input")
    for card in cards:
        if card in state.board:
            raise refuse(f"{card.code} is on the board, not in seat {seat}'s hand", 2)
        holder = state.where.get(card)
        if holder is not None and holder != seat:
            raise refuse(f"{card.code} was taken by seat {holder}, not seat {seat}", 2)
        for other, shown in state.shown.items():
            if card in shown:
                raise refuse(f"{card.code} is in seat {other}'s hand", 2)
    missing = [c for c in state.known(seat) if c not in cards]
    if missing:
        raise refuse(f"seat {seat} took {cards_text(tuple(missing))} from the board and kept "
                      f"{'it' if len(missing) == 1 else 'them'}: its hand must show "
                      f"{'it' if len(missing) == 1 else 'them'}", 2)


def transition(state: State, event: Event) -> State:
    """The state after ``event`` (``check`` has passed it)."""
    if isinstance(event, BoardDealt):
        return replace(state, board=tuple(event.cards))
    if isinstance(event, Exchange):
        board = [c for c in state.board if c not in event.take] + list(event.give)
        where = copied(state.where)
        for card in event.give:
            where.pop(card, None)
        where.update((c, event.seat) for c in event.take)
        threes = state.threes | {event.seat} if len(event.take) == 3 else state.threes
        moved = replace(state, board=tuple(board), where=MappingProxyType(where),
                        threes=threes)
        if event.blind:
            return replace(moved, blind=True)
        return _turn_done(moved)
    if isinstance(event, Knock):
        order = from_left(state.table.seats, event.seat)
        return replace(state, knocker=event.seat, last=order[:-1])
    if isinstance(event, Stand):
        return _turn_done(state)
    if isinstance(event, Show):
        return replace(state, shown=MappingProxyType({**state.shown,
                                                      event.seat: tuple(event.cards)}))
    raise refuse(f'"{event.TYPE}" is not an input in Commerce', "input")


def _turn_done(state: State) -> State:
    if state.knocker is None:
        return replace(state, turns=state.turns + 1)
    return replace(state, last=state.last[1:])

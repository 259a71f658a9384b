"""Mille's start, check and transition: the score sheet's lines (melds, cards left, who went
out) and, with ``"turns": true``, the play turn by turn. Each refusal is written for the dealer
and names its ruling."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine import start as read
from dealer_assist.engine.evolve import copied, replace
from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.events import Event, Reshuffle, Start
from dealer_assist.fees.table import player_to_player_fees
from dealer_assist.games.mille.events import Discard, Draw, Left, Meld, Out, Upcard
from dealer_assist.games.mille.rules import (
    COPIES,
    DECK_CARDS,
    HAND_CARDS,
    RANK_WORDS,
    WILD,
    codes,
    meld_rank,
)
from dealer_assist.games.mille.state import DRAW, PLAY, TAKE, UPCARD, MilleSettings, MilleState

#: The start keys of a Mille hand.
KEYS = ("dealer", "stakes", "turns", "totals_in", "naturals_in", "chapeaux_in")
CARRIED = ("totals_in", "naturals_in", "chapeaux_in")


def _seat_map(start: Start, key: str, seats: tuple[int, ...], *, low: int | None) -> dict[int, int]:
    raw = start.get(key)
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise BadInput(f'"{key}" gives each seat a whole number: {{"1": 0, "2": 0}}')
    out: dict[int, int] = {}
    for k, v in raw.items():
        try:
            seat = int(k)
        except (TypeError, ValueError) as exc:
            raise BadInput(f'"{key}": {k!r} is not a seat number') from exc
        if seat not in seats:
            raise RuleViolation(f'"{key}" names seat {seat}, which is not in the hand',
                                rule="settings")
        if isinstance(v, bool) or not isinstance(v, int) or (low is not None and v < low):
            what = "a whole number" if low is None else f"a whole number of at least {low}"
            raise RuleViolation(f'"{key}" for seat {seat} must be {what}, not {v!r}',
                                rule="settings")
        out[seat] = v
    return out


def start(event: Start, *, button_key: str) -> MilleState:
    read.only(event, KEYS)
    seats = read.seats_between(event, low=2, high=2)
    dealer = read.button(event, seats, button_key)
    raw = event.get("stakes")
    if raw is None:
        raise RuleViolation('the start needs "stakes": [small, large] in cents, e.g. [100, 500]',
                            rule="settings")
    if not isinstance(raw, (list, tuple)) or len(raw) != 2:
        raise BadInput('"stakes" must be [small, large] in cents, e.g. [100, 500]')
    small, large = read.cents(raw[0], "stakes", low=1), read.cents(raw[1], "stakes", low=1)
    if small > large:
        raise RuleViolation("the small stake cannot be larger than the large one",
                            rule="settings")
    turns = event.get("turns", False)
    if not isinstance(turns, bool):
        raise BadInput(f'"turns" is true or false, not {turns!r}')
    settings = MilleSettings(
        seats=seats, dealer=dealer, stakes=(small, large), turns=turns,
        totals_in=_seat_map(event, "totals_in", seats, low=None),
        naturals_in=_seat_map(event, "naturals_in", seats, low=0),
        chapeaux_in=_seat_map(event, "chapeaux_in", seats, low=0),
        fees=player_to_player_fees(event, seats, dealer),
        given={k: event.get(k) for k in CARRIED if event.get(k) is not None},
    )
    if turns:
        return MilleState(settings=settings, phase=UPCARD,
                          held={s: HAND_CARDS for s in seats}, known={s: () for s in seats})
    return MilleState(settings=settings)


# --- the cards seen: two decks hold two of each ---------------------------------------------


def _reveal(state: MilleState, seat: int | None, cards: Iterable[Card]
            ) -> tuple[dict[Card, int], dict[int, tuple[Card, ...]]]:
    """The counts of cards seen after ``seat`` shows ``cards`` from its hand: a card known to
    be in the hand (taken with the pile) is the same card; any other is one more copy seen,
    refused past two (ruling mille-1: two decks)."""
    seen = copied(state.seen)
    known = copied(state.known)
    mine = list(known.get(seat, ())) if seat is not None else []
    for card in cards:
        if card in mine:
            mine.remove(card)
            continue
        if seen.get(card, 0) >= COPIES:
            raise RuleViolation(
                f"{card.pretty} is already recorded twice: two decks hold only two",
                rule="mille-1")
        seen[card] = seen.get(card, 0) + 1
    if seat is not None and seat in known:
        known[seat] = tuple(mine)
    return seen, known


def _seat(state: MilleState, event: Event) -> int:
    seat = event.seat_of
    if seat not in state.settings.seats:
        raise RuleViolation(f"seat {seat} is not playing this hand", rule="seat")
    assert seat is not None
    return seat


# --- check ----------------------------------------------------------------------------------


def check(state: MilleState, event: Event) -> None:
    if state.over:
        raise RuleViolation("the hand is over: both players' cards are on the sheet",
                            rule="input")
    if state.settings.turns:
        _check_turns(state, event)
        return
    if isinstance(event, Meld):
        seat = _seat(state, event)
        _open(state, seat)
        meld_rank(event.cards)
        _reveal(state, seat, event.cards)
    elif isinstance(event, Left):
        seat = _seat(state, event)
        if seat in state.left:
            raise RuleViolation(f"seat {seat}'s cards left are already recorded", rule="input")
        if seat == state.out and event.cards:
            raise RuleViolation(
                f"seat {seat} went out: it holds no cards ({codes(event.cards)} given)",
                rule="mille-1")
        _reveal(state, seat, event.cards)
    elif isinstance(event, Out):
        seat = _seat(state, event)
        if state.out is not None:
            raise RuleViolation(f"seat {state.out} already went out", rule="input")
        if state.left.get(seat):
            raise RuleViolation(
                f"seat {seat} holds {codes(state.left[seat])}: a player who goes out holds "
                "no cards", rule="mille-1")
        if not state.melds.get(seat):
            raise RuleViolation(
                f"seat {seat} has melded nothing: a player goes out by melding (record its "
                "melds first)", rule="mille-1")
    else:
        raise RuleViolation(
            f'"{event.TYPE}" is not an input of this table: record melds, the cards left and '
            'who went out (the play turn by turn is the table setting "turns")', rule="input")


def _open(state: MilleState, seat: int) -> None:
    if seat == state.out:
        raise RuleViolation(f"seat {seat} went out: its melds are all in", rule="input")
    if seat in state.left:
        raise RuleViolation(f"seat {seat}'s cards left are recorded: its melds are all in "
                            "(void that line to add a meld)", rule="input")


def _check_turns(state: MilleState, event: Event) -> None:
    st = state.settings
    if isinstance(event, Out):
        raise RuleViolation("the play is recorded turn by turn: the app sees who goes out "
                            "(the last card melded or discarded)", rule="input")
    if state.phase == UPCARD:
        if not isinstance(event, Upcard):
            raise RuleViolation("turn the upcard first: it starts the discard pile",
                                rule="mille-1")
        _reveal(state, None, (event.card,))
        return
    if isinstance(event, Upcard):
        raise RuleViolation("the upcard is already turned", rule="mille-1")
    if state.out is not None:
        other = st.other(state.out)
        if not isinstance(event, Left):
            raise RuleViolation(f"seat {state.out} went out: record the cards seat {other} "
                                "holds", rule="mille-1")
        seat = _seat(state, event)
        if seat in state.left:
            raise RuleViolation(f"seat {seat}'s cards left are already recorded", rule="input")
        n = state.held.get(seat, 0)
        if len(event.cards) != n:
            raise RuleViolation(f"seat {seat} holds {n} cards, not {len(event.cards)}",
                                rule="mille-1")
        _seen, known = _reveal(state, seat, event.cards)
        if known.get(seat):
            raise RuleViolation(
                f"seat {seat} took {codes(known[seat])} with the pile and has not melded or "
                "discarded it: it is among the cards left", rule="mille-1")
        return
    if isinstance(event, Reshuffle):
        if state.phase != DRAW:
            raise RuleViolation("the stock is rebuilt only when a player must draw",
                                rule="mille-1")
        if state.stock:
            raise RuleViolation(f"the stock still holds {state.stock} cards", rule="mille-1")
        if len(state.pile) < 2:
            raise RuleViolation("there is nothing under the pile's top card to rebuild the "
                                "stock from", rule="mille-1")
        return
    if isinstance(event, Left):
        raise RuleViolation("nobody has gone out: the cards left are recorded at the end",
                            rule="mille-1")
    seat = _seat(state, event)
    if seat != state.turn:
        raise RuleViolation(f"seat {state.turn} is to play, not seat {seat}", rule="turn")
    if isinstance(event, Draw):
        if state.phase != DRAW:
            raise RuleViolation(f"seat {seat} has drawn: meld or discard", rule="mille-1")
        if event.source == "stock":
            if not state.stock:
                raise RuleViolation("the stock is empty: rebuild it from the pile under its "
                                    "top card first (reshuffle)", rule="mille-1")
        elif event.source == "pile":
            if not state.pile:
                raise RuleViolation("the discard pile is empty", rule="mille-1")
            top = state.pile[-1]
            if top.rank == WILD:
                raise RuleViolation(f"{top.pretty} is a 2: the pile is taken only with natural "
                                    "cards of the top card's rank", rule="mille-1")
        else:
            raise BadInput(f'a draw is "from" the "stock" or the "pile", not {event.source!r}')
        return
    if state.phase == DRAW:
        raise RuleViolation(f"seat {seat} draws first (the stock or the pile)", rule="mille-1")
    if isinstance(event, Meld):
        rank = meld_rank(event.cards)
        if state.phase == TAKE:
            top = state.pile[-1]
            naturals = sum(1 for c in event.cards if c.rank == top.rank)
            if top not in event.cards or rank != top.rank or naturals < 3:
                raise RuleViolation(
                    f"seat {seat} took the pile: it melds {top.pretty} with two or more "
                    f"natural {RANK_WORDS[top.rank]} first, not {codes(event.cards)}",
                    rule="mille-1")
        n = state.held.get(seat, 0) + (len(state.pile) if state.phase == TAKE else 0)
        if len(event.cards) > n:
            raise RuleViolation(f"seat {seat} holds {n} cards, not {len(event.cards)}",
                                rule="mille-1")
        _reveal(_taken(state, seat) if state.phase == TAKE else state, seat, event.cards)
        return
    if isinstance(event, Discard):
        if state.phase == TAKE:
            raise RuleViolation(f"seat {seat} took the pile: it melds the top card first",
                                rule="mille-1")
        _reveal(state, seat, (event.card,))
        return
    raise RuleViolation(f'"{event.TYPE}" is not an input of Mille', rule="input")


def _taken(state: MilleState, seat: int) -> MilleState:
    """The pile in ``seat``'s hand (its cards are known to be there)."""
    known = copied(state.known)
    known[seat] = (*known.get(seat, ()), *state.pile)
    held = copied(state.held)
    held[seat] = held.get(seat, 0) + len(state.pile)
    return replace(state, known=known, held=held, pile=())


# --- transition -----------------------------------------------------------------------------


def transition(state: MilleState, event: Event) -> MilleState:
    st = state.settings
    if isinstance(event, Upcard):
        seen, _ = _reveal(state, None, (event.card,))
        return replace(state, seen=seen, pile=(event.card,), phase=DRAW, turn=st.first,
                       stock=DECK_CARDS - 2 * HAND_CARDS - 1)
    if isinstance(event, Reshuffle):
        seen = copied(state.seen)
        for card in state.pile[:-1]:  # back in the stock, face down
            seen[card] = seen.get(card, 0) - 1
        return replace(state, seen={c: n for c, n in seen.items() if n > 0},
                       stock=len(state.pile) - 1, pile=state.pile[-1:])
    if isinstance(event, Draw):
        seat = event.seat
        if event.source == "stock":
            held = copied(state.held)
            held[seat] += 1
            return replace(state, held=held, stock=state.stock - 1, phase=PLAY)
        return replace(state, phase=TAKE)
    if isinstance(event, Meld):
        seat = event.seat
        if st.turns and state.phase == TAKE:
            state = _taken(state, seat)
        seen, known = _reveal(state, seat, event.cards)
        rank = meld_rank(event.cards)
        mine = copied(state.melds.get(seat, {}))
        mine[rank] = (*mine.get(rank, ()), *event.cards)
        melds = copied(state.melds)
        melds[seat] = mine
        state = replace(state, seen=seen, known=known, melds=melds)
        if st.turns:
            held = copied(state.held)
            held[seat] -= len(event.cards)
            state = replace(state, held=held, phase=PLAY,
                            out=seat if held[seat] == 0 else None)
        return state
    if isinstance(event, Discard):
        seat = event.seat
        seen, known = _reveal(state, seat, (event.card,))
        held = copied(state.held)
        held[seat] -= 1
        out = seat if held[seat] == 0 else None
        return replace(state, seen=seen, known=known, held=held, pile=(*state.pile, event.card),
                       phase=DRAW, turn=st.other(seat), out=out)
    if isinstance(event, Left):
        seen, known = _reveal(state, event.seat, event.cards)
        left = copied(state.left)
        left[event.seat] = tuple(event.cards)
        return replace(state, seen=seen, known=known, left=left)
    if isinstance(event, Out):
        return replace(state, out=event.seat)
    raise RuleViolation(f'"{event.TYPE}" is not an input of Mille', rule="input")


def carried_keys(state: MilleState) -> dict[str, Any]:
    """The running totals, naturals and chapeaux after this hand, in the log's names."""
    def as_json(m: Mapping[int, int]) -> dict[str, int]:
        return {str(s): m[s] for s in state.settings.seats}

    return {"totals_in": as_json(state.totals()), "naturals_in": as_json(state.naturals()),
            "chapeaux_in": as_json(state.chapeaux())}

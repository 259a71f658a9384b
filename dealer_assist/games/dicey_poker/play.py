"""Dicey Poker's rules at the table: the start, each event checked (a refusal in the dealer's
words, naming the ruling) and the state after it.

Rulings (docs/games/dicey-poker.md): 1 the cards and chips by player count; 2 the dice of a
turn; 3 what a roll that matches, or does not, asks for; 4 chipped cards and jokers stay, and
the cards that start a wild challenge; 5 the challenge; 6 the wild die and the jokers; 7 the
last two rounds and the score."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TypeVar

from dealer_assist.cards import Card
from dealer_assist.engine import start as read
from dealer_assist.engine.evolve import evolver
from dealer_assist.engine.seats import from_left
from dealer_assist.errors import RuleViolation
from dealer_assist.events import Event, Start
from dealer_assist.games.carried_pot import table_fee
from dealer_assist.games.dicey_poker.events import (
    Chip,
    Deal,
    Discard,
    Draw,
    Joker,
    Roll,
    Stop,
    Swap,
    Up,
)
from dealer_assist.games.dicey_poker.rules import (
    DICE,
    DIE_NAMES,
    HOLE,
    MAX_JOKERS_HELD,
    OVER,
    SOLITAIRE_WIN,
    UP,
    deck_for,
    is_base,
    is_face,
    is_wild_trigger,
    joker_values,
    jokers_for,
    matches,
    roll_words,
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
    Settings,
)

NAME = "dicey-poker"
T = TypeVar("T")
_evolve = evolver(DiceyState)
_evolve_ch = evolver(Challenge)
KEYS = ("dealer", "target", "dice", "entry", "totals_in", "carry_in")


def start(event: Start) -> DiceyState:
    read.only(event, KEYS)
    seats = read.seats_between(event, low=1, high=6)
    dealer = read.button(event, seats, "dealer")
    target = read.whole(event, "target", 150, low=1, what="the total that ends the game")
    dice = event.get("dice", "app")
    if dice not in ("app", "table"):
        raise RuleViolation(f'"dice" is "app" (the app rolls) or "table" (physical dice '
                            f"entered), not {dice!r}", rule="settings")
    entry = read.cents(event.get("entry", 0), "entry")
    chip = read.cents(event.get("smallest_chip", 100), "smallest_chip", low=1)
    carry = read.cents(event.get("carry_in", 0), "carry_in")
    raw = event.get("totals_in") or {}
    if not isinstance(raw, Mapping):
        raise RuleViolation('"totals_in" gives each seat\'s running total: {"1": 42, ...}',
                            rule="settings")
    totals: dict[int, int] = {}
    for key, value in raw.items():
        try:
            seat = int(key)
        except ValueError:
            raise RuleViolation(f'"totals_in" key {key!r} is not a seat number',
                                rule="settings") from None
        if seat not in seats:
            raise RuleViolation(f'"totals_in" names seat {seat}, which is not in the hand',
                                rule="settings")
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise RuleViolation(f'"totals_in" for seat {seat} must be a whole number of '
                                f"points, not {value!r}", rule="settings")
        totals[seat] = value
    order = from_left(seats, dealer)
    deck = deck_for(len(seats))
    settings = Settings(seats=seats, dealer=dealer, target=target, dice=dice, entry=entry,
                        smallest_chip=chip, totals_in=MappingProxyType(totals), carry_in=carry,
                        order=order, deck=MappingProxyType(deck), jokers=jokers_for(len(seats)),
                        fee=table_fee(event, seats, dealer, smallest_chip=chip))
    return DiceyState(settings=settings, pile=MappingProxyType(dict(deck)),
                      hole=MappingProxyType({}), up=MappingProxyType({s: () for s in seats}))


# --- where a card is -------------------------------------------------------------------------

def where(state: DiceyState, card: Card) -> str:
    """Where the copies of ``card`` are, for a refusal."""
    places: list[str] = []
    for s in state.settings.seats:
        if card in state.hole.get(s, ()):
            places.append(f"seat {s}'s hole")
        if any(f.card == card for f in state.face_up(s)):
            places.append(f"seat {s}'s face-up row")
    if card in state.discards:
        places.append("the discards")
    return ", ".join(places) if places else "nowhere in play"


def matching(state: DiceyState, seat: int) -> tuple[Card, ...]:
    """The hole cards of ``seat`` that match the roll being played."""
    return state.match


def dice_allowed(state: DiceyState, seat: int) -> tuple[str, ...]:
    """The dice ``seat`` may roll now in its turn (ruling 2)."""
    if state.two_rolls:
        return ("d10",) if not state.rolled else ("d6",)
    hole = state.hole.get(seat, ())
    out = []
    if sum(1 for c in hole if is_base(c)) >= 3:
        out.append("d10")
    if sum(1 for c in hole if is_face(c)) >= 3:
        out.append("d6")
    return tuple(out)


def pile_size(state: DiceyState) -> int:
    return sum(state.pile.values())


def _cards(cards: tuple[Card, ...]) -> str:
    return ", ".join(c.code for c in cards)


def _check_roll_value(event: Roll) -> None:
    spec = DICE.get(event.die)
    if spec is None:
        raise RuleViolation(f'the dice are d10, d6, d100 and d4, not "{event.die}"', rule="input")
    faces, low, step = spec
    top = low + (faces - 1) * step
    if not (low <= event.value <= top and (event.value - low) % step == 0):
        how = f" in steps of {step}" if step > 1 else ""
        raise RuleViolation(f"the {DIE_NAMES[event.die]} ({event.die}) shows {low} to {top}"
                            f"{how}, not {event.value}", rule="Dicey 2")


# --- check -----------------------------------------------------------------------------------

def check(state: DiceyState, event: Event) -> None:
    if state.over:
        raise RuleViolation("the hand is over: settle it", rule="input")
    seat = event.seat_of
    if seat is not None and seat not in state.settings.seats:
        raise RuleViolation(f"seat {seat} is not playing this hand", rule="seat")
    if state.dealing:
        _check_deal(state, event)
        return
    if isinstance(event, Deal):
        raise RuleViolation("every seat is dealt its ten cards already", rule="Dicey 1")
    if state.joker_due is not None:
        _check_joker(state, event, state.joker_due)
        return
    if isinstance(event, Joker):
        raise RuleViolation("no joker is due: a joker is won on the wild die after a wild "
                            "challenge", rule="Dicey 6")
    if state.wild is not None:
        if not isinstance(event, Roll) or event.die != "d4" or seat != state.wild:
            raise RuleViolation(f"seat {state.wild} won the wild challenge: record their roll "
                                "of the wild die (d4)", rule="Dicey 6")
        _check_roll_value(event)
        return
    if state.challenge is not None:
        _check_challenge(state, state.challenge, event)
        return
    if isinstance(event, Stop):
        raise RuleViolation("no wild challenge is under way: a stop ends a player's "
                            "percentile rolls", rule="Dicey 5")
    _check_turn(state, event)


def _check_deal(state: DiceyState, event: Event) -> None:
    due = state.settings.order[state.dealt]
    if not isinstance(event, Deal):
        raise RuleViolation(f"deal the hole cards first: seat {due} is next (ten cards, from "
                            "the dealer's left)", rule="Dicey 1")
    if event.seat != due:
        raise RuleViolation(f"the deal goes from the dealer's left: seat {due} is next, not "
                            f"seat {event.seat}", rule="Dicey 1")
    if len(event.cards) != HOLE:
        raise RuleViolation(f"each player is dealt ten cards, not {len(event.cards)}",
                            rule="Dicey 1")
    _check_from_pile(state, event.cards, "dealt")


def _check_from_pile(state: DiceyState, cards: tuple[Card, ...], what: str) -> None:
    pile = state.pile if pile_size(state) else _counts(state.discards)
    need: dict[Card, int] = {}
    for c in cards:
        if c.is_joker:
            raise RuleViolation("the jokers wait face up beside the table: one is only won on "
                                "the wild die", rule="Dicey 1")
        need[c] = need.get(c, 0) + 1
    for c, n in need.items():
        if pile.get(c, 0) < n:
            copies = state.settings.deck.get(c, 0)
            several = "both copies are" if copies == 2 else "it is"
            raise RuleViolation(f"{c.code} cannot be {what}: {several} already out "
                                f"({where(state, c)})", rule="cards")


def _counts(cards: tuple[Card, ...]) -> dict[Card, int]:
    out: dict[Card, int] = {}
    for c in cards:
        out[c] = out.get(c, 0) + 1
    return out


def _check_joker(state: DiceyState, event: Event, seat: int) -> None:
    if not isinstance(event, Joker) or event.seat != seat:
        raise RuleViolation(f"seat {seat} won a joker on the wild die: place it face up first",
                            rule="Dicey 6")
    ups = state.face_up(seat)
    if len(ups) < UP:
        if event.back is not None or event.out is not None:
            raise RuleViolation(f"seat {seat} has {len(ups)} face up: the joker joins them, "
                                "nothing goes back", rule="Dicey 6")
        return
    if event.back is None or event.out is None:
        raise RuleViolation(f"seat {seat} has five face up: name the face-up card that goes "
                            "back to the hole and the hole card discarded", rule="Dicey 6")
    if event.back.is_joker or not any(f.card == event.back for f in ups):
        choices = _cards(tuple(f.card for f in ups if not f.card.is_joker))
        raise RuleViolation(f"{event.back.code} is not one of seat {seat}'s face-up cards "
                            f"that may go back ({choices})", rule="Dicey 6")
    hole = (*state.hole[seat], event.back)
    if event.out not in hole:
        raise RuleViolation(f"{event.out.code} is not in seat {seat}'s hole "
                            f"({_cards(hole)})", rule="Dicey 6")


def _check_challenge(state: DiceyState, ch: Challenge, event: Event) -> None:
    seat = ch.order[ch.at]
    if event.seat_of != seat or not isinstance(event, (Roll, Stop)):
        raise RuleViolation(f"the wild challenge is under way: seat {seat} rolls the "
                            "percentile die or stops", rule="Dicey 5")
    rolls = ch.current_rolls()
    if isinstance(event, Stop):
        least = ch.least_rolls()
        if len(rolls) < least:
            why = (" (every player before them went over)" if least == 2 else "")
            raise RuleViolation(f"seat {seat} must roll at least {least} "
                                f"time{'s' if least > 1 else ''}{why}: "
                                f"{len(rolls)} so far", rule="Dicey 5")
        return
    if event.die != "d100":
        raise RuleViolation(f"the wild challenge is rolled on the percentile die (d100), not "
                            f"the {event.die}", rule="Dicey 5")
    _check_roll_value(event)


def _check_turn(state: DiceyState, event: Event) -> None:
    seat = state.seat
    if event.seat_of != seat:
        raise RuleViolation(f"it is seat {seat}'s turn, not seat {event.seat_of}'s",
                            rule="turn")
    step = state.step
    hole = state.hole[seat]
    if step == ROLL:
        if not isinstance(event, Roll):
            raise RuleViolation(f"seat {seat} rolls first: {_dice_words(state, seat)}",
                                rule="Dicey 2")
        _check_roll_value(event)
        allowed = dice_allowed(state, seat)
        if event.die not in allowed:
            raise RuleViolation(_wrong_die(state, seat, event.die), rule="Dicey 2")
        return
    assert state.roll is not None
    rolled = roll_words(*state.roll)
    match = matching(state, seat)
    if isinstance(event, Roll):
        raise RuleViolation(f"the roll of {rolled} is not finished: {_due_words(state)}",
                            rule="Dicey 3")
    if step == PLACE:
        if not isinstance(event, Up):
            raise RuleViolation(f"seat {seat} rolled {rolled}: put one of {_cards(match)} "
                                "face up (then draw)", rule="Dicey 3")
        if event.card not in match:
            raise RuleViolation(f"{event.card.code} does not match the roll ({rolled}): put "
                                f"one of {_cards(match)} face up", rule="Dicey 3")
        return
    if step == FIVE:
        ups = state.face_up(seat)
        free = tuple(f.card for f in ups if not f.chipped)
        if isinstance(event, Swap):
            if event.hole not in match:
                raise RuleViolation(f"{event.hole.code} does not match the roll ({rolled}): "
                                    f"swap one of {_cards(match)}", rule="Dicey 3")
            if event.up not in free:
                raise RuleViolation(f"{event.up.code} is not an unchipped face-up card of "
                                    f"seat {seat}: swap for one of {_cards(free)} (chipped "
                                    "cards and jokers stay)", rule="Dicey 4")
            return
        if isinstance(event, Chip):
            if event.card not in free:
                raise RuleViolation(f"{event.card.code} is not an unchipped face-up card of "
                                    f"seat {seat}: chip one of {_cards(free)}", rule="Dicey 3")
            return
        raise RuleViolation(f"seat {seat} rolled {rolled} with five face up: swap one of "
                            f"{_cards(match)} for an unchipped face-up card, or chip a "
                            "face-up card (then discard the match and draw)", rule="Dicey 3")
    if step in (DISCARD_MATCH, DISCARD_ANY):
        if not isinstance(event, Discard):
            raise RuleViolation(f"{_due_words(state)} before anything else", rule="Dicey 3")
        if step == DISCARD_MATCH and event.card not in match:
            raise RuleViolation(f"{event.card.code} does not match the roll ({rolled}): a "
                                f"matching card must go out: discard one of {_cards(match)}",
                                rule="Dicey 3")
        if event.card not in hole:
            raise RuleViolation(f"{event.card.code} is not in seat {seat}'s hole "
                                f"({_cards(hole)})", rule="Dicey 3")
        return
    # the draw
    if not isinstance(event, Draw):
        raise RuleViolation(f"seat {seat} holds {len(hole)} cards: record the card drawn "
                            "to make ten", rule="Dicey 3")
    _check_from_pile(state, (event.card,), "drawn")


def _dice_words(state: DiceyState, seat: int) -> str:
    allowed = dice_allowed(state, seat)
    if state.two_rolls:
        return f"the {DIE_NAMES[allowed[0]]} ({allowed[0]})"
    return " or ".join(f"the {DIE_NAMES[d]} ({d})" for d in allowed)


def _wrong_die(state: DiceyState, seat: int, die: str) -> str:
    if state.two_rolls:
        want = dice_allowed(state, seat)[0]
        return (f"seat {seat} has fewer than five face up: the base die, then the face die; "
                f"now the {DIE_NAMES[want]} ({want}), not the {die}")
    if die in ("d10", "d6"):
        kind = "base cards (A-10)" if die == "d10" else "face cards (J-K)"
        return (f"seat {seat} has five face up and fewer than three {kind} in the hole: "
                f"roll {_dice_words(state, seat)}")
    return f"seat {seat} rolls {_dice_words(state, seat)}, not the {die}"


def _due_words(state: DiceyState) -> str:
    seat = state.seat
    match = matching(state, seat)
    step = state.step
    if step == PLACE:
        return f"put one of {_cards(match)} face up, then draw"
    if step == FIVE:
        return (f"swap one of {_cards(match)} for an unchipped face-up card, or chip a face-up "
                "card, discard the match and draw")
    if step == DISCARD_MATCH:
        return f"discard one of {_cards(match)}, then draw"
    if step == DISCARD_ANY:
        return "no match: discard any hole card, then draw"
    return f"seat {seat} holds {len(state.hole[seat])} cards: record the card drawn"


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
            st = _evolve(st, pile=MappingProxyType(_counts(st.discards)), discards=())
        pile = dict(st.pile)
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
    pile = dict(state.pile)
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

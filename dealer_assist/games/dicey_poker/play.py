"""Dicey Poker's rules at the table: the start and each event checked (a refusal in the dealer's
words, naming the ruling); the state after it is apply.py's.

Rulings (docs/games/dicey-poker.md): 1 the cards and chips by player count; 2 the dice of a
turn; 3 what a roll that matches, or does not, asks for; 4 chipped cards and jokers stay, and
the cards that start a wild challenge; 5 the challenge; 6 the wild die and the jokers; 7 the
last two rounds and the score."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from dealer_assist.cards import Card
from dealer_assist.engine import start as read
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
    UP,
    deck_for,
    is_base,
    is_face,
    jokers_for,
    roll_words,
)
from dealer_assist.games.dicey_poker.state import (
    DISCARD_ANY,
    DISCARD_MATCH,
    FIVE,
    PLACE,
    ROLL,
    Challenge,
    DiceyState,
    Settings,
)

NAME = "dicey-poker"
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
    pile = state.pile if pile_size(state) else counts(state.discards)
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


def counts(cards: tuple[Card, ...]) -> dict[Card, int]:
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

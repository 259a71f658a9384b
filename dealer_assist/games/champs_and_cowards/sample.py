"""Random complete hands played from a real shuffled shoe: for property tests, demos, benchmarks."""

from __future__ import annotations

import random
import types
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.deck import DeckSpec
from dealer_assist.engine.base import SampleDeal
from dealer_assist.events import CardDealt, Event, Reshuffle, Start
from dealer_assist.games.champs_and_cowards.events import Champ, Coward
from dealer_assist.games.champs_and_cowards.play import CCWork, coward_block
from dealer_assist.games.champs_and_cowards.rules import hand_points
from dealer_assist.games.champs_and_cowards.state import CCState, next_up_card_of, start_state


def _champ_odds(points: int) -> float:
    """A rough player: brave while low, timid once the hand is worth keeping."""
    if points < 6:
        return 0.75
    if points < 12:
        return 0.45
    return 0.2


#: The unshuffled stub of a shoe of so many decks (each card as often as the shoe holds it),
#: and one champ, one coward and one card dealt event per seat (and card): events are immutable,
#: so one serves every hand.
_STUBS: dict[int, tuple[Card, ...]] = {}
_CHAMPS: dict[int, Champ] = {}
_COWARDS: dict[int, Coward] = {}
#: One card dealt to one seat, by the seat and the card's number (:func:`_card_event`).
_DEALT: dict[tuple[int, int], CardDealt] = {}


def _new_stub(decks: int) -> list[Card]:
    found = _STUBS.get(decks)
    if found is None:
        comp = DeckSpec(decks=decks).composition()
        found = _STUBS[decks] = tuple(card for card, count in comp.items() for _ in range(count))
    return list(found)


def sample_hand(
    rng: random.Random,
    *,
    players: int,
    decks: int = 1,
    chip: int = 200,
    carry_in: int = 0,
    fee: dict[str, Any] | None = None,
    smallest_chip: int | None = None,
) -> list[Event]:
    """Deal and play one hand (:func:`deal_hand`'s events)."""
    return deal_hand(rng, players=players, decks=decks, chip=chip, carry_in=carry_in, fee=fee,
                     smallest_chip=smallest_chip).events


def deal_hand(
    rng: random.Random,
    *,
    players: int,
    decks: int = 1,
    chip: int = 200,
    carry_in: int = 0,
    fee: dict[str, Any] | None = None,
    smallest_chip: int | None = None,
) -> SampleDeal[CCState]:
    """Deal and play one hand: up cards from the top of a shuffled shoe, a burn before every
    champ's card, and the destroyed hands and burns reshuffled when the stub runs out; the
    events with the state they led to (each applied as it is dealt)."""
    params: dict[str, Any] = {"chip": chip, "decks": decks, "carry_in": carry_in}
    if fee is not None:
        params["fee"] = fee
    if smallest_chip is not None:
        params["smallest_chip"] = smallest_chip
    start = Start(
        game="champs-and-cowards",
        seats=tuple(range(1, players + 1)),
        params=types.MappingProxyType(params),
    )
    stub = _new_stub(decks)
    rng.shuffle(stub)
    burns: list[Card] = []
    events: list[Event] = [start]
    append = events.append
    # Every input goes through the rules (CCWork.put, what the game's apply is on a fresh copy)
    # on one working copy of the hand: nobody reads the states between the inputs, so the state
    # is made once, at the end. An input the rules refuse raises here as it would at the table.
    work = CCWork(start_state(start))
    put = work.put
    seats = work.seats
    hands = work.hands  # (changed in place, never replaced)
    dealt = _DEALT
    while not work.over:
        order = work.order
        if not order:  # the up cards
            seat = next_up_card_of(hands)
            assert seat is not None
            ev: Event = _card_event(dealt, seat, stub.pop())
            put(ev)
            append(ev)
        elif work.pending:
            seat = order[work.turn]
            if not work.burn_owed and work.left:
                ev = _card_event(dealt, seat, stub.pop())
                put(ev)
                append(ev)
            else:
                stub = [*work.reshuffle_pool(), *burns]
                rng.shuffle(stub)
                burns = []
                owed = work.burn_owed
                ev = Reshuffle()
                put(ev)
                append(ev)
                if owed:
                    burns.append(stub.pop())
        else:
            seat = order[work.turn]
            # (only the last to act can be refused a coward)
            forced = seat == order[-1] and coward_block(work, seat) is not None
            if forced or rng.random() < _champ_odds(hand_points(hands[seats.index(seat)].cards)):
                ev = _CHAMPS.get(seat) or _CHAMPS.setdefault(seat, Champ(seat=seat))
                put(ev)
                append(ev)
                if not work.burn_owed:
                    burns.append(stub.pop())
            else:
                ev = _COWARDS.get(seat) or _COWARDS.setdefault(seat, Coward(seat=seat))
                put(ev)
                append(ev)
        if len(stub) != work.left:
            raise AssertionError(f"shoe count {work.left} but {len(stub)} cards in the stub")
    return SampleDeal(events, work.freeze())


def _card_event(dealt: dict[tuple[int, int], CardDealt], seat: int, card: Card) -> CardDealt:
    """The event of ``card`` dealt face up to ``seat``: one per seat and card, for every hand."""
    key = (seat, card.eval_id)
    ev = dealt.get(key)
    if ev is None:
        ev = dealt[key] = CardDealt(seat=seat, card=card)
    return ev

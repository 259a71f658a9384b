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
from dealer_assist.games.champs_and_cowards.play import coward_block, step
from dealer_assist.games.champs_and_cowards.rules import hand_points
from dealer_assist.games.champs_and_cowards.state import CCState, start_state


def _champ_odds(points: int) -> float:
    """A rough player: brave while low, timid once the hand is worth keeping."""
    if points < 6:
        return 0.75
    if points < 12:
        return 0.45
    return 0.2


#: The unshuffled stub of a shoe of so many decks (each card as often as the shoe holds it),
#: and one champ and one coward event per seat: events are immutable, so one serves every hand.
_STUBS: dict[int, tuple[Card, ...]] = {}
_CHAMPS: dict[int, Champ] = {}
_COWARDS: dict[int, Coward] = {}


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
    state = start_state(start)
    # (what state.to_act, state.dealing and state.hand() say, read off the state directly:
    # the dossier deals hundreds of thousands of these hands)
    while not state.over:
        order = state.order
        if not order:  # the up cards
            seat = state.next_up_card
            assert seat is not None
            ev: Event = CardDealt(seat=seat, card=stub.pop())
            state = step(state, ev)
            append(ev)
        else:
            seat = order[state.turn]
            if state.pending and not state.burn_owed and state.shoe.left:
                ev = CardDealt(seat=seat, card=stub.pop())
                state = step(state, ev)
                append(ev)
            elif state.pending:
                stub = [*state.reshuffle_pool(), *burns]
                rng.shuffle(stub)
                burns = []
                owed = state.burn_owed
                ev = Reshuffle()
                state = step(state, ev)
                append(ev)
                if owed:
                    burns.append(stub.pop())
            else:
                forced = coward_block(state, seat) is not None
                if forced or rng.random() < _champ_odds(
                        hand_points(state.hands[state.seats.index(seat)].cards)):
                    ev = _CHAMPS.get(seat) or _CHAMPS.setdefault(seat, Champ(seat=seat))
                    state = step(state, ev)
                    append(ev)
                    if not state.burn_owed:
                        burns.append(stub.pop())
                else:
                    ev = _COWARDS.get(seat) or _COWARDS.setdefault(seat, Coward(seat=seat))
                    state = step(state, ev)
                    append(ev)
        if len(stub) != state.shoe.left:
            raise AssertionError(f"shoe count {state.shoe.left} but {len(stub)} cards in the stub")
    return SampleDeal(events, state)

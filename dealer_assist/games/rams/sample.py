"""Random complete Rams hands dealt from a shuffled 32-card pack and played by the rules: for
property tests, the demo and the benchmarks."""

from __future__ import annotations

import random
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.events import Event
from dealer_assist.games.rams.events import Pass, Play, Rams, TakeTrump, Trump, Widow
from dealer_assist.games.rams.play import step
from dealer_assist.games.rams.state import NAME, RamsState, start_state
from dealer_assist.games.tricks import pack32
from dealer_assist.games.tricks.table import play_out, sample_start


def _strength(hand: list[Card], trump: str) -> int:
    """A rough count of tricks: trumps and aces."""
    return sum(1 for c in hand if c.suit == trump) + sum(1 for c in hand
                                                          if c.rank == 14 and c.suit != trump)


def sample_hand(rng: random.Random, *, players: int, stake: int = 100, pot_in: int = 0,
                dealer: int | None = None, revoke: str | None = None,
                fee: dict[str, Any] | None = None,
                smallest_chip: int | None = None) -> list[Event]:
    """Deal and play one hand: five cards each, five to the widow, the trump turned; each
    player plays with two likely tricks or more, bids Rams with five, switches for the widow
    now and then, and otherwise passes when allowed; every card follows the rules."""
    start = sample_start(NAME, players=players, stake=stake, pot_in=pot_in, dealer=dealer,
                         revoke=revoke, fee=fee, smallest_chip=smallest_chip)
    state = start_state(start)
    deck = list(pack32())
    rng.shuffle(deck)
    hands = {s: [deck.pop() for _ in range(5)] for s in state.order}
    widow = [deck.pop() for _ in range(5)]
    turned = deck.pop()
    events: list[Event] = [start]

    def play(ev: Event) -> RamsState:
        events.append(ev)
        return step(state, ev)

    state = play(Trump(card=turned))
    trump = turned.suit
    while (who := state.to_declare) is not None:
        seat = who
        strength = _strength(hands[seat], trump)
        ev: Event
        if state.rams_by is None and strength >= 5 and rng.random() < 0.8:
            ev = Rams(seat=seat)
        elif state.widow_by is None and strength <= 1 and rng.random() < 0.5:
            ev = Widow(seat=seat)
            hands[seat], widow = widow, hands[seat]
        elif (strength >= 2 or rng.random() < 0.3 or state.rams_by is not None
              or not state.may_pass
              or (seat == state.dealer and state.dealer_alone_with_one)):
            ev = Play(seat=seat)
        else:
            ev = Pass(seat=seat)
        state = play(ev)
    if state.over:
        return events
    if state.may_take_trump() is None and rng.random() < 0.7:
        hand = hands[state.dealer]
        give = min(hand, key=lambda c: (c.suit == trump, c.rank))
        hand.remove(give)
        hand.append(turned)
        state = play(TakeTrump(seat=state.dealer, give=give))
    play_out(state, hands, rng, step, events)
    return events

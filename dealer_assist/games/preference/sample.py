"""Random complete Preference hands dealt from a shuffled 32-card pack and played by the rules:
for property tests, the demo and the benchmarks."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.events import Discard, Event, Show
from dealer_assist.games.preference.events import Ante, Bid, Defend, End, NameTrump, NoAces, Talon
from dealer_assist.games.preference.play import step
from dealer_assist.games.preference.state import (
    ACES,
    NAME,
    NUMBERS,
    SUIT_RANK,
    PrefState,
    start_state,
)
from dealer_assist.games.tricks import pack32
from dealer_assist.games.tricks.table import play_out, sample_start


def _strength(hand: list[Card]) -> int:
    """A rough count of tricks: the longest suit's length beyond three, aces and kings."""
    longest = max(Counter(c.suit for c in hand).values())
    return max(0, longest - 3) + sum(1 for c in hand if c.rank == 14) + sum(
        1 for c in hand if c.rank == 13) // 2


def _longest(hand: list[Card], suits: str) -> str:
    count = Counter(c.suit for c in hand)
    return max(suits, key=lambda s: (count.get(s, 0), SUIT_RANK[s]))


def sample_hand(rng: random.Random, *, players: int, stake: int = 100, pot_in: int = 0,
                dealer: int | None = None, revoke: str | None = None,
                fee: dict[str, Any] | None = None,
                smallest_chip: int | None = None) -> list[Event]:
    """Deal and play one hand: 3 each, 2 to the talon, 4 each, 3 each; an ante when the pot is
    under ten stakes; now and then the players end the game instead (between any two hands,
    ruling preference-7); bids by a rough count of tricks; every card follows the rules."""
    start = sample_start(NAME, players=players, stake=stake, pot_in=pot_in, dealer=dealer,
                         revoke=revoke, fee=fee, smallest_chip=smallest_chip)
    state = start_state(start)
    events: list[Event] = [start]

    def play(ev: Event) -> PrefState:
        events.append(ev)
        return step(state, ev)

    if pot_in and rng.random() < (0.2 if state.needs_ante else 0.02):
        play(End())  # ruling preference-7: the players may end between any two hands
        return events
    if state.needs_ante:
        state = play(Ante(stakes=rng.choice((10, 10, 20))))
    deck = list(pack32())
    rng.shuffle(deck)
    hands = {s: [deck.pop() for _ in range(10)] for s in state.active}
    talon = [deck.pop(), deck.pop()]
    while (who := state.to_bid()) is not None:
        allowed = state.allowed_bids(who)
        strength = _strength(hands[who])
        bid = "pass"
        if allowed:
            if "hearts" in allowed and strength >= 6 and rng.random() < 0.3:
                bid = "hearts"
            elif "game" in allowed and strength >= 5 and rng.random() < 0.5:
                bid = "game"
            elif allowed[0] in NUMBERS and strength >= 2 + NUMBERS.index(allowed[0]) \
                    and rng.random() < 0.8:
                bid = allowed[0]
        state = play(Bid(seat=who, bid=bid))
    if state.all_passed:
        return events
    if state.kind == "numeric":
        d = state.numeric_by()
        assert d is not None
        state = play(Talon(cards=tuple(talon)))
        hands[d].extend(talon)
        out = sorted(hands[d], key=lambda c: (c.rank == 14, c.rank))[:2]
        for c in out:
            hands[d].remove(c)
        state = play(Discard(seat=d, cards=tuple(out)))
    while (namer := state.naming()) is not None:
        suits = "".join(s for s in "scdh" if state.kind != "numeric"
                        or SUIT_RANK[s] >= state.level())
        state = play(NameTrump(seat=namer, suit=_longest(hands[namer], suits)))
    d = state.declarer
    assert d is not None
    mine = set(hands[d])
    if mine >= ACES and rng.random() < 0.8:
        state = play(Show(seat=d, cards=tuple(sorted(ACES, key=lambda c: c.suit))))
    elif not ACES & (mine | set(state.talon)) and rng.random() < 0.5:
        state = play(NoAces(seat=d))
    while (x := state.to_defend()) is not None:
        choice = "play" if _strength(hands[x]) >= 2 or rng.random() < 0.5 else "drop"
        state = play(Defend(seat=x, choice=choice))
    if state.over:
        return events
    host = state.may_invite()
    if host is not None and rng.random() < 0.4:
        state = play(Defend(seat=host, choice="invite"))
    play_out(state, hands, rng, step, events)
    return events

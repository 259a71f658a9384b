"""Dicey Poker over random legal hands (the sample player's choices, the dice uniform): after
every roll at most five face up and exactly ten in the hole, no card used more often than the
pack holds it, chips conserved, and every hand ends."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import Card
from dealer_assist.engine.hand import replay
from dealer_assist.games.dicey_poker.rules import deck_for
from dealer_assist.games.dicey_poker.sample import LIMIT
from dealer_assist.games.dicey_poker.state import ROLL
from tests.games.dicey_helpers import GAME


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 6),
       entry=st.sampled_from([0, 300]), dice=st.sampled_from(["app", "table"]))
def test_random_legal_hands_keep_five_up_ten_in_the_hole_and_every_card_once(
    seed: int, players: int, entry: int, dice: str
) -> None:
    events = GAME.sample_hand(random.Random(seed), players=players,
                              params={"entry": entry, "dice": dice})
    assert len(events) < LIMIT  # the hand ended
    hand = replay(events)
    assert hand.over
    pack = deck_for(players)
    for step in hand.steps[1:]:
        s = step.state
        if s.dealing:
            continue
        # every copy of every card is in exactly one place: a hole, face up, the pile, the
        # discards
        where: Counter[Card] = Counter(s.discards)
        where.update({c: n for c, n in s.pile.items() if n})
        for seat in s.settings.seats:
            where.update(s.hole[seat])
            where.update(f.card for f in s.face_up(seat) if not f.card.is_joker)
        assert where == Counter({c: n for c, n in pack.items()}), step.number
        jokers = sum(s.jokers_of(seat) for seat in s.settings.seats)
        assert jokers == s.jokers_taken <= s.settings.jokers
        if s.step == ROLL and s.challenge is None and s.wild is None and s.joker_due is None:
            for seat in s.settings.seats:  # a roll (and any challenge) is finished
                assert len(s.face_up(seat)) <= 5 and len(s.hole[seat]) == 10
                assert s.jokers_of(seat) <= 2
    settlement = hand.settle()
    assert settlement.conserved
    assert sum(settlement.put_in.values()) == entry * players


@settings(max_examples=60, deadline=None)
@given(data=st.data(), jokers=st.integers(0, 2), narrow=st.booleans())
def test_the_games_own_ranking_is_the_best_of_every_choice(
    data: st.DataObject, jokers: int, narrow: bool
) -> None:
    """The face-up five with jokers wild, and the best five of ten hole cards, ranked the
    quick way, are what trying every card for each joker and every five of the ten gives (two
    decks: the same card twice; ``narrow``: few ranks and suits, so that flushes, straights
    and sets come up)."""
    from dealer_assist.games.dicey_poker.rules import (
        category,
        hole_best,
        hole_best_by_trial,
        up_category,
        up_category_by_trial,
    )

    pack = [c for c, n in deck_for(6).items() for _ in range(n)]
    if narrow:
        ranks = data.draw(st.lists(st.integers(2, 14), min_size=5, max_size=7, unique=True))
        suits = data.draw(st.sampled_from(["s", "sh", "dc"]))
        pack = [c for c in pack if c.rank in ranks and c.suit in suits]
    up = data.draw(st.permutations(pack))[:5 - jokers] + [Card.joker()] * jokers
    assert up_category(up) == up_category_by_trial(up)
    hole = data.draw(st.permutations(pack))[:10]
    got, five = hole_best(hole)
    assert got == hole_best_by_trial(hole) == category(five)
    assert not Counter(five) - Counter(hole)

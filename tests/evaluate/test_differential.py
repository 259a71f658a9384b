"""Differential test: our order of random hands matches eval7's (a separate, independent core)."""

from __future__ import annotations

import itertools
import random

import pytest

from dealer_assist.cards import full_deck
from dealer_assist.evaluate import evaluate

eval7 = pytest.importorskip("eval7")

#: eval7's category names for ours (a royal flush is its top straight flush).
_EVAL7_TYPE = {
    "high card": "High Card", "pair": "Pair", "two pair": "Two Pair",
    "three of a kind": "Trips", "straight": "Straight", "flush": "Flush",
    "full house": "Full House", "four of a kind": "Quads", "straight flush": "Straight Flush",
    "royal flush": "Straight Flush",
}


@pytest.mark.parametrize("n_cards", [5, 6, 7])
def test_order_and_categories_match_eval7_on_random_hands(n_cards: int) -> None:
    rng = random.Random(20261122 + n_cards)
    deck = full_deck()
    rows = []
    for _ in range(3000):
        hand = rng.sample(deck, n_cards)
        ours = evaluate(hand)
        theirs = eval7.evaluate([eval7.Card(c.code) for c in hand])
        assert _EVAL7_TYPE[ours.category] == eval7.handtype(theirs), hand
        rows.append((ours.strength, theirs))
    rows.sort()
    for (o1, t1), (o2, t2) in itertools.pairwise(rows):
        # Same order, and exactly the same ties.
        assert (o1 == o2) == (t1 == t2)
        assert (o1 < o2) == (t1 < t2)

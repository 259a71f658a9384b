"""Paiute's combinations (ruling Paiute 2), with the hand's wild rank: each wild card stands for
any card, its own among them.

A call's value compares the way the ranking does: the combination's order first (five of a
kind highest, paiute lowest), then its tie-breaks: five of a kind by its rank; royal flushes
tie; a straight flush by its top card; four/two by the four; three/three by the higher three;
paiute by the highest pair, the middle, the lowest. Equal on those, calls tie."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from dealer_assist.cards import RANK_NAMES, RANK_PLURALS, Card

#: The combinations from highest to lowest.
COMBINATIONS = ("five of a kind", "royal flush", "straight flush", "four/two", "three/three",
                "paiute")
ORDER = {name: len(COMBINATIONS) - i for i, name in enumerate(COMBINATIONS)}
#: How many cards each combination is.
SIZE = {"five of a kind": 5, "royal flush": 5, "straight flush": 5, "four/two": 6,
        "three/three": 6, "paiute": 6}
FIVE = tuple(c for c in COMBINATIONS if SIZE[c] == 5)
SIX = tuple(c for c in COMBINATIONS if SIZE[c] == 6)
RANKS = tuple(range(14, 1, -1))

Value = tuple[int, ...]


def _sets(counts: Counter[int], sizes: Sequence[int]) -> tuple[int, ...] | None:
    """The highest distinct ranks (as many as ``sizes``, in order of ``sizes``' groups) whose
    groups hold every natural card, each group no more than its size: wild cards fill the
    rest."""
    naturals = counts.keys()
    if len(naturals) > len(sizes):  # (more natural ranks than groups: no ranks hold them all)
        return None
    for ranks, held in _assign_sets(len(sizes)):  # (highest first)
        if naturals <= held and all(counts.get(r, 0) <= n
                                    for r, n in zip(ranks, sizes, strict=True)):
            return ranks
    return None


@cache
def _assign_sets(n: int) -> tuple[tuple[tuple[int, ...], frozenset[int]], ...]:
    """:func:`_assign`'s ranks, each with them as a set (a call is checked against every
    combination it might make: the sets are made once)."""
    return tuple((ranks, frozenset(ranks)) for ranks in _assign(n))


@cache
def _assign(n: int) -> tuple[tuple[int, ...], ...]:
    """Distinct ranks for ``n`` groups, highest first: for two groups (four/two) every order, for
    three (paiute) descending."""
    if n == 2:
        return tuple((a, b) for a in RANKS for b in RANKS if a != b)
    return tuple(tuple(c) for c in combinations(RANKS, n))


def value_as(cards: Sequence[Card], combination: str, wild_rank: int) -> Value | None:
    """The value of ``cards`` called as ``combination``, or None when they do not make it."""
    if SIZE.get(combination) != len(cards):
        return None
    naturals = [c for c in cards if c.rank != wild_rank]
    counts = Counter(c.rank for c in naturals)
    suits = {c.suit for c in naturals}
    if combination == "five of a kind":
        if len(counts) > 1:
            return None
        return (next(iter(counts), 14),)
    if combination in ("royal flush", "straight flush"):
        if len(suits) > 1 or len(counts) != len(naturals):
            return None
        if combination == "royal flush":
            return () if all(r >= 10 for r in counts) else None
        for top in range(13, 4, -1):
            low = top - 4
            ranks = {1 if (r == 14 and top == 5) else r for r in counts}
            if all(low <= r <= top for r in ranks):
                return (top,)
        return None
    if combination == "four/two":
        found = _sets(counts, (4, 2))
    elif combination == "three/three":
        found = _sets(counts, (3, 3))
    elif combination == "paiute":
        found = _sets(counts, (2, 2, 2))
    else:
        return None
    return found


def strength(combination: str, value: Value) -> Value:
    """What compares between calls: the combination's order, then its tie-breaks (four/two by
    the four alone, three/three by the higher three alone: the rest of the hand ties)."""
    if combination in ("four/two", "three/three"):
        value = value[:1]
    return (ORDER[combination], *value)


def best_of(cards: Sequence[Card], wild_rank: int) -> tuple[str, Value] | None:
    """The best combination ``cards`` make, with its value (None: none)."""
    for name in COMBINATIONS:
        value = value_as(cards, name, wild_rank)
        if value is not None:
            return name, value
    return None


def describe(combination: str, value: Value) -> str:
    if combination == "five of a kind":
        return f"five {RANK_PLURALS[value[0]]}"
    if combination == "royal flush":
        return "a royal flush"
    if combination == "straight flush":
        return f"a straight flush, {RANK_NAMES[value[0]]} high"
    if combination == "four/two":
        return f"four {RANK_PLURALS[value[0]]} and two {RANK_PLURALS[value[1]]}"
    if combination == "three/three":
        return f"three {RANK_PLURALS[value[0]]} and three {RANK_PLURALS[value[1]]}"
    return "paiute, " + ", ".join(RANK_PLURALS[r] for r in value[:2]) \
        + f" and {RANK_PLURALS[value[2]]}"

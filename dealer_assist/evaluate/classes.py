"""The 7,462 kinds of five-card poker hand: their order, category and spoken description.

Every five-card hand falls into one equivalence class (suits matter only for flushes). A class
is named by its category and its ranks in order of significance: for two pair the higher pair,
the lower pair, then the kicker; for a straight only its top card. That pair gives the ordering
key used everywhere here: the category first, then rank by rank. A hand with fewer than five
cards (an Open-Face front row) is keyed the same way with fewer ranks, which is exactly the
foul comparison of the house rulings: by category, then rank by rank as far as the shorter hand
has cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from dealer_assist.cards import RANK_NAMES, RANK_PLURALS

#: Categories from worst to best; the index is the category's place in the order.
CATEGORIES: tuple[str, ...] = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
    "royal flush",
)
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, ROYAL = range(
    10
)
#: Bits per rank in a packed key, and where the category starts.
_NIBBLE = 4
_CATEGORY_SHIFT = 5 * _NIBBLE
_WHEEL = (14, 5, 4, 3, 2)


def pack_key(category: int, ranks: Sequence[int]) -> int:
    """The ordering key: category, then up to five ranks, most significant first (left-aligned).

    Missing ranks count as lower than any card, so a shorter hand that matches a longer one rank
    for rank as far as it goes ranks below it, never above.
    """
    key = category
    for i in range(5):
        key = (key << _NIBBLE) | (ranks[i] if i < len(ranks) else 0)
    return key


def key_category(key: int) -> int:
    return key >> _CATEGORY_SHIFT


def key_ranks(key: int) -> tuple[int, ...]:
    """The ranks a key was packed from (an ace in a five-high straight reads as 1)."""
    out = []
    for i in range(4, -1, -1):
        r = (key >> (i * _NIBBLE)) & 0xF
        if r:
            out.append(r)
    return tuple(out)


def classify(
    ranks: Sequence[int], flush: bool, *, straights: bool = True
) -> tuple[int, tuple[int, ...]]:
    """Category and significant ranks of a hand of 1 to 5 cards (ace high; 2..14).

    Straights and flushes need five cards; three-card front rows only make trips, a pair or
    high card. ``straights=False`` for lows, where five in a row is just five different ranks.
    """
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(c for _, c in groups)
    order = tuple(r for r, _ in groups)
    if len(ranks) == 5 and len(counts) == 5 and straights:
        top = order[0]
        straight_high = 0
        if top - order[4] == 4:
            straight_high = top
        elif tuple(order) == _WHEEL:
            straight_high = 5
        if straight_high and flush:
            return (ROYAL if straight_high == 14 else STRAIGHT_FLUSH), (straight_high,)
        if flush:
            return FLUSH, order
        if straight_high:
            return STRAIGHT, (straight_high,)
        return HIGH_CARD, order
    if shape[0] == 4:
        return QUADS, order
    if shape[:2] == (3, 2):
        return FULL_HOUSE, order
    if shape[0] == 3:
        return TRIPS, order
    if shape[:2] == (2, 2):
        return TWO_PAIR, order
    if shape[0] == 2:
        return PAIR, order
    return HIGH_CARD, order


def _kickers(ranks: Sequence[int]) -> str:
    if not ranks:
        return ""
    word = "kicker" if len(ranks) == 1 else "kickers"
    return ", " + "-".join(RANK_NAMES[r] for r in ranks) + " " + word


def describe(category: int, ranks: Sequence[int]) -> str:
    """The hand in words a dealer reads aloud, e.g. ``two pair, nines and fours, ace kicker``."""
    n = RANK_NAMES
    p = RANK_PLURALS
    if category == ROYAL:
        return "royal flush"
    if category == STRAIGHT_FLUSH:
        return f"straight flush, {n[ranks[0]]} high"
    if category == QUADS:
        return f"four of a kind, {p[ranks[0]]}" + _kickers(ranks[1:])
    if category == FULL_HOUSE:
        return f"full house, {p[ranks[0]]} full of {p[ranks[1]]}"
    if category == FLUSH:
        return "flush, " + "-".join(n[r] for r in ranks)
    if category == STRAIGHT:
        return f"straight, {n[ranks[0]]} high"
    if category == TRIPS:
        return f"three of a kind, {p[ranks[0]]}" + _kickers(ranks[1:])
    if category == TWO_PAIR:
        return f"two pair, {p[ranks[0]]} and {p[ranks[1]]}" + _kickers(ranks[2:])
    if category == PAIR:
        return f"pair of {p[ranks[0]]}" + _kickers(ranks[1:])
    if len(ranks) == 1:
        return f"{n[ranks[0]]} high"
    return "high card, " + "-".join(n[r] for r in ranks)


def all_five_card_keys() -> list[int]:
    """The keys of all 7,462 five-card hand classes, best first.

    Listed category by category from the ranks alone: straights (and their flushes) by top card,
    the other five-distinct-rank hands as flushes or high cards, then the paired shapes.
    """
    ranks = range(14, 1, -1)
    straights = [14, 13, 12, 11, 10, 9, 8, 7, 6, 5]
    straight_sets = {frozenset(range(h - 4, h + 1)) for h in straights[:-1]}
    straight_sets.add(frozenset(_WHEEL))
    distinct = [
        c for c in combinations(ranks, 5) if frozenset(c) not in straight_sets
    ]
    keys = [pack_key(ROYAL, (14,))]
    keys += [pack_key(STRAIGHT_FLUSH, (h,)) for h in straights[1:]]
    keys += [pack_key(QUADS, (q, k)) for q in ranks for k in ranks if k != q]
    keys += [pack_key(FULL_HOUSE, (t, p)) for t in ranks for p in ranks if p != t]
    keys += [pack_key(FLUSH, c) for c in distinct]
    keys += [pack_key(STRAIGHT, (h,)) for h in straights]
    keys += [
        pack_key(TRIPS, (t, *k)) for t in ranks for k in combinations(ranks, 2) if t not in k
    ]
    keys += [
        pack_key(TWO_PAIR, (*hl, k))
        for hl in combinations(ranks, 2)
        for k in ranks
        if k not in hl
    ]
    keys += [
        pack_key(PAIR, (p, *k)) for p in ranks for k in combinations(ranks, 3) if p not in k
    ]
    keys += [pack_key(HIGH_CARD, c) for c in distinct]
    return keys

"""Dicey Poker's rules as plain functions: the cards by player count, what a die matches, the
wild cards, which wild-die value takes the next joker, and the scoring table.

The game ranks its own hands: with two decks a hand may hold the same card twice (a flush with
a pair is still a flush) and jokers make five of a kind, which the shared evaluator refuses."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from dealer_assist.cards import SUITS, Card

HOLE = 10
UP = 5
CHIPS = 5
MAX_JOKERS_HELD = 2
#: The dice by name: faces, the lowest value, the step.
DICE: Mapping[str, tuple[int, int, int]] = MappingProxyType({
    "d10": (10, 1, 1), "d6": (6, 1, 1), "d100": (10, 0, 10), "d4": (4, 1, 1)})
DIE_NAMES: Mapping[str, str] = MappingProxyType({
    "d10": "base die", "d6": "face die", "d100": "percentile die", "d4": "wild die"})
#: The face die: value -> (rank, red).
FACE_DIE: Mapping[int, tuple[int, bool]] = MappingProxyType({
    1: (11, True), 2: (11, False), 3: (12, True), 4: (12, False), 5: (13, True), 6: (13, False)})
FACE_WORDS = {11: "jack", 12: "queen", 13: "king"}
#: What a solitaire player must reach in a wild challenge.
SOLITAIRE_WIN = 70
OVER = 100


def deck_for(players: int) -> dict[Card, int]:
    """Card -> copies in the pack for ``players`` (jokers wait beside the table, not in it):
    1-2 one deck; 3-4 a deck plus the spades and hearts of a second; 5-6 two decks."""
    comp: dict[Card, int] = {}
    for rank in range(2, 15):
        for suit in SUITS:
            copies = 1 if players <= 2 else 2 if players >= 5 else (2 if suit in "sh" else 1)
            comp[Card(rank, suit)] = copies
    return comp


def jokers_for(players: int) -> int:
    return 2 if players <= 2 else 3 if players <= 4 else 4


def two_decks(players: int) -> bool:
    """Whether the pack holds a card twice (3 players and more)."""
    return players >= 3


def is_base(card: Card) -> bool:
    """An ace or a 2 to 10: what the base die (d10) matches."""
    return not card.is_joker and (card.rank <= 10 or card.rank == 14)


def is_face(card: Card) -> bool:
    """A jack, queen or king: what the face die (d6) matches."""
    return not card.is_joker and 11 <= card.rank <= 13


def matches(die: str, value: int, card: Card) -> bool:
    """Whether ``card`` matches a ``die`` showing ``value``."""
    if card.is_joker:
        return False
    if die == "d10":
        return card.rank == (14 if value == 1 else value)
    if die == "d6":
        rank, red = FACE_DIE[value]
        return card.rank == rank and card.is_red == red
    return False


def roll_words(die: str, value: int) -> str:
    """What a roll shows, as the dealer says it: "a 7", "an ace", "a red king"."""
    if die == "d10":
        return "an ace" if value == 1 else ("an 8" if value == 8 else f"a {value}")
    if die == "d6":
        rank, red = FACE_DIE[value]
        return f"a {'red' if red else 'black'} {FACE_WORDS[rank]}"
    if die == "d100":
        return f"{value}"
    return f"{value}"


def is_wild_trigger(card: Card) -> bool:
    """An ace, a one-eyed jack (J♠, J♥), the suicide king (K♥) or a two."""
    if card.is_joker:
        return False
    return (card.rank in (14, 2) or (card.rank == 11 and card.suit in "sh")
            or (card.rank == 13 and card.suit == "h"))


def joker_values(players: int, taken: int) -> tuple[int, ...]:
    """The wild-die values that take the next joker when ``taken`` are already claimed."""
    total = jokers_for(players)
    if taken >= total:
        return ()
    if players <= 2:
        return (1, 2) if taken == 0 else (3, 4)
    values = {taken + 1}
    if players <= 4:
        values.add(4)  # a 4 takes any joker still free
    return tuple(sorted(values))


# --- scoring ---------------------------------------------------------------------------------

#: category -> (face-up column, hole column), best first.
TABLE: Mapping[str, tuple[int, int]] = MappingProxyType({
    "five of a kind": (66, 33),
    "royal flush": (60, 30),
    "straight flush": (50, 25),
    "four of a kind": (40, 20),
    "full house": (30, 15),
    "flush": (24, 12),
    "straight": (18, 9),
    "three of a kind": (12, 6),
    "two pair": (8, 4),
    "one pair": (6, 3),
    "no pair, ace high": (4, 2),
    "no pair, no ace": (2, 1),
})
_ORDER = {name: i for i, name in enumerate(reversed(tuple(TABLE)))}  # higher is better
_ALL = tuple(Card(r, s) for r in range(2, 15) for s in SUITS)


def card_points(card: Card) -> int:
    """A face-up card's points: 4 a joker, 3 an ace, 2 a face card, 1 any other."""
    if card.is_joker:
        return 4
    if card.rank == 14:
        return 3
    return 2 if card.rank >= 11 else 1


def _straight(ranks: Sequence[int]) -> int | None:
    """The top rank of five distinct ranks in sequence (the ace low or high), else None."""
    rs = sorted(set(ranks))
    if len(rs) != 5:
        return None
    if rs[4] - rs[0] == 4:
        return rs[4]
    if rs == [2, 3, 4, 5, 14]:
        return 5
    return None


def category(cards: Sequence[Card]) -> str:
    """The category of five cards without jokers (a card may be there twice)."""
    ranks = [c.rank for c in cards]
    counts = sorted(Counter(ranks).values(), reverse=True)
    flush = len({c.suit for c in cards}) == 1
    top = _straight(ranks)
    if counts[0] == 5:
        return "five of a kind"
    if flush and top is not None:
        return "royal flush" if top == 14 else "straight flush"
    if counts[0] == 4:
        return "four of a kind"
    if counts[:2] == [3, 2]:
        return "full house"
    if flush:
        return "flush"
    if top is not None:
        return "straight"
    if counts[0] == 3:
        return "three of a kind"
    if counts[:2] == [2, 2]:
        return "two pair"
    if counts[0] == 2:
        return "one pair"
    return "no pair, ace high" if 14 in ranks else "no pair, no ace"


def _better(a: str, b: str) -> bool:
    return _ORDER[a] > _ORDER[b]


def _windows(ranks: set[int]) -> list[int]:
    """The top ranks of every five ranks in sequence among ``ranks`` (the ace high or low),
    highest first."""
    have = set(ranks) | ({1} if 14 in ranks else set())
    return [top for top in range(14, 4, -1) if all(r in have for r in range(top - 4, top + 1))]


def _fits(ranks: list[int]) -> int | None:
    """The highest straight's top that distinct ``ranks`` (fewer than five: jokers fill the
    gaps) fit in, else None."""
    if len(set(ranks)) != len(ranks):
        return None
    for top in range(14, 4, -1):
        window = set(range(top - 4, top + 1))
        if all(r in window or (r == 14 and top == 5) for r in ranks):
            return top
    return None


def up_category(cards: Iterable[Card]) -> str:
    """The best category of the face-up five, jokers wild (each stands for any card, the same
    card twice included)."""
    plain = [c for c in cards if not c.is_joker]
    wild = 5 - len(plain)
    if not wild:
        return category(plain)
    ranks = [c.rank for c in plain]
    counts = [*sorted(Counter(ranks).values(), reverse=True), 0, 0]
    suited = len({c.suit for c in plain}) <= 1
    top = _fits(ranks)
    if counts[0] + wild >= 5:
        return "five of a kind"
    if suited and top is not None:
        return "royal flush" if all(r >= 10 for r in ranks) else "straight flush"
    if counts[0] + wild >= 4:
        return "four of a kind"
    if len(set(ranks)) <= 2:
        return "full house"
    if suited:
        return "flush"
    if top is not None:
        return "straight"
    if counts[0] + wild >= 3:
        return "three of a kind"
    if counts[0] + wild >= 2 and counts[1] >= 2:
        return "two pair"
    return "one pair"


def hole_best(cards: Iterable[Card]) -> tuple[str, tuple[Card, ...]]:
    """The best five of the hole cards (no jokers; a card may be there twice): (category, the
    five)."""
    hand = sorted(cards, key=lambda c: (c.rank, SUITS[::-1].index(c.suit)), reverse=True)
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, list[Card]] = {}
    for c in hand:
        by_rank.setdefault(c.rank, []).append(c)
        by_suit.setdefault(c.suit, []).append(c)
    groups = sorted(by_rank.values(), key=lambda g: (len(g), g[0].rank), reverse=True)

    def run(pool: list[Card], top: int) -> tuple[Card, ...]:
        want = [14 if r == 1 else r for r in range(top, top - 5, -1)]
        return tuple(next(c for c in pool if c.rank == r) for r in want)

    def rest(used: list[Card], n: int) -> list[Card]:
        left = list(hand)
        for c in used:
            left.remove(c)
        return left[:n]

    if len(groups[0]) >= 5:
        return "five of a kind", tuple(groups[0][:5])
    best_sf: tuple[int, tuple[Card, ...]] | None = None
    for pool in by_suit.values():
        wins = _windows({c.rank for c in pool}) if len(pool) >= 5 else []
        if wins and (best_sf is None or wins[0] > best_sf[0]):
            best_sf = (wins[0], run(pool, wins[0]))
    if best_sf is not None:
        return ("royal flush" if best_sf[0] == 14 else "straight flush"), best_sf[1]
    if len(groups[0]) >= 4:
        four = groups[0][:4]
        return "four of a kind", (*four, *rest(four, 1))
    if len(groups[0]) >= 3 and len(groups) > 1 and len(groups[1]) >= 2:
        pair = max((g for g in groups[1:] if len(g) >= 2), key=lambda g: g[0].rank)
        return "full house", (*groups[0][:3], *pair[:2])
    flushes = [pool for pool in by_suit.values() if len(pool) >= 5]
    if flushes:
        pool = max(flushes, key=lambda p: [c.rank for c in p[:5]])
        return "flush", tuple(pool[:5])
    wins = _windows(set(by_rank))
    if wins:
        return "straight", run(hand, wins[0])
    if len(groups[0]) >= 3:
        three = groups[0][:3]
        return "three of a kind", (*three, *rest(three, 2))
    if len(groups) > 1 and len(groups[1]) >= 2:
        two = [*groups[0][:2], *groups[1][:2]]
        return "two pair", (*two, *rest(two, 1))
    if len(groups[0]) >= 2:
        pair = groups[0][:2]
        return "one pair", (*pair, *rest(pair, 3))
    five = tuple(hand[:5])
    return ("no pair, ace high" if five[0].rank == 14 else "no pair, no ace"), five


def up_category_by_trial(cards: Iterable[Card]) -> str:
    """:func:`up_category` by trying every card for each joker (slow: for the tests)."""
    plain = [c for c in cards if not c.is_joker]
    best = "no pair, no ace"
    for subs in itertools.product(_ALL, repeat=5 - len(plain)):
        got = category([*plain, *subs])
        if _better(got, best):
            best = got
    return best


def hole_best_by_trial(cards: Iterable[Card]) -> str:
    """The category of :func:`hole_best` by trying every five (slow: for the tests)."""
    best = "no pair, no ace"
    for five in itertools.combinations(list(cards), 5):
        got = category(five)
        if _better(got, best):
            best = got
    return best

"""Standard high hands: the best five of 5 to 7 cards, and the best hand under card constraints.

The ranking core is phevaluator's perfect-hash evaluator (C): it maps any 5, 6 or 7 cards to one
of 7,462 hand classes. This module maps each class to our ordering key, category and words once
(:mod:`.classes`), so the per-hand work is one C call plus a table lookup. The five cards that
make the hand are worked out only when someone asks for them (``HandValue.cards``): a showdown
compares many hands but shows the cards of few.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations, starmap
from typing import Final, NewType

from dealer_assist.cards import Card
from dealer_assist.errors import BadInput
from dealer_assist.evaluate.classes import (
    CATEGORIES,
    FLUSH,
    FULL_HOUSE,
    PAIR,
    QUADS,
    ROYAL,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    all_five_card_keys,
    describe,
    key_category,
    key_ranks,
)

#: phevaluator's entry points: card numbers in, class number out (1 = royal flush, the best).
#: Its C functions are called directly when present; its public wrappers take the same numbers
#: but convert each argument in Python first, several times slower.
try:
    from phevaluator import _pheval as _core
except ImportError:  # pragma: no cover - a phevaluator without the compiled module
    import phevaluator as _core
_eval5: Callable[..., int] = _core.evaluate_5cards
_eval6: Callable[..., int] = _core.evaluate_6cards
_eval7: Callable[..., int] = _core.evaluate_7cards

#: phevaluator numbers a card rank * 4 + suit, deuce 0 and clubs, diamonds, hearts, spades 0..3:
#: the number every Card carries as ``eval_id`` (-1 for a joker).
N_CLASSES: Final = 7462


def card_id(card: Card) -> int:
    """phevaluator's number for a card (0..51); BadInput for a joker or a non-card."""
    cid = getattr(card, "eval_id", None)
    if not isinstance(cid, int):
        raise BadInput(f"{card!r} is not a card")
    if cid < 0:
        raise BadInput(f"{card} cannot be ranked as a poker hand card")
    return cid


def sample_ids(key: int) -> list[int]:
    """One concrete five-card hand (card numbers) of the class with this key."""
    category = key_category(key)
    sig = key_ranks(key)
    if category in (STRAIGHT, STRAIGHT_FLUSH, ROYAL):
        top = sig[0]
        ranks = [14 if r == 1 else r for r in range(top, top - 5, -1)]
    else:
        shape = {QUADS: (4, 1), FULL_HOUSE: (3, 2), TRIPS: (3, 1, 1), TWO_PAIR: (2, 2, 1)}
        counts = shape.get(category, (2, 1, 1, 1) if category == PAIR else (1,) * 5)
        ranks = [r for r, n in zip(sig, counts, strict=True) for _ in range(n)]
    if category in (FLUSH, STRAIGHT_FLUSH, ROYAL):
        return [(r - 2) * 4 + 3 for r in ranks]
    ids = []
    seen: dict[int, int] = {}
    for r in ranks:
        seen[r] = seen.get(r, -1) + 1
        ids.append((r - 2) * 4 + seen[r])
    if len(seen) == 5:
        ids[4] += 1  # suits 0,0,0,0,1: never a flush
    return ids


def _keys_by_class() -> list[int]:
    """Our key for each phevaluator class number (1 = royal flush ... 7462 = seven-high).

    phevaluator numbers the classes best first, so the n-th best key belongs to class n. The
    best and worst class of every category are checked against phevaluator here (so a changed
    core fails loudly at start-up); the test suite checks all 7,462.
    """
    keys = [0, *all_five_card_keys()]
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for n in range(1, len(keys)):
        first.setdefault(key_category(keys[n]), n)
        last[key_category(keys[n])] = n
    for n in (*first.values(), *last.values()):
        if _eval5(*sample_ids(keys[n])) != n:
            raise RuntimeError(f"phevaluator's hand classes are not as expected (class {n})")
    return keys


_KEYS: Final = _keys_by_class()
#: For n private cards after a five-card board: every pair of their positions in board + private.
_PAIRS: Final = {n: tuple(combinations(range(5, 5 + n), 2)) for n in range(3, 11)}
_DESCRIPTIONS: dict[int, str] = {}


def _description(key: int) -> str:
    text = _DESCRIPTIONS.get(key)
    if text is None:
        text = _DESCRIPTIONS[key] = describe(key_category(key), key_ranks(key))
    return text


def display_order(cards: Iterable[Card], key: int) -> tuple[Card, ...]:
    """The cards in the order a dealer spreads them: the made part first, then kickers.

    Groups by size then rank (nines, fours, the ace kicker); a five-high straight puts its ace last.
    """
    cards = list(cards)
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    low_ace = key_ranks(key)[:1] == (5,) and key_category(key) in (STRAIGHT, STRAIGHT_FLUSH)

    def sort_key(c: Card) -> tuple[int, int, Card]:
        rank = 1 if (low_ace and c.rank == 14) else c.rank
        return (counts[c.rank], rank, c)
    return tuple(sorted(cards, key=sort_key, reverse=True))


class HandValue:
    """How good a poker hand is. Greater is better; equal values tie exactly (split the pot).

    ``strength`` is the ordering key as an int; ``category``, ``description`` and ``cards`` (the
    five cards that make the hand, or three for a front row) explain it. Made by
    :func:`evaluate`, :func:`best_hand` and ``front_value``; ``pool`` holds the cards the hand was
    chosen from, board cards first (``prefer`` of them), until ``cards`` is asked for.
    """

    __slots__ = ("_cards", "_pool", "_prefer", "strength")

    strength: int
    _pool: tuple[Card, ...]
    _cards: tuple[Card, ...] | None
    _prefer: int

    def __init__(
        self,
        strength: int,
        pool: tuple[Card, ...],
        cards: tuple[Card, ...] | None = None,
        prefer: int = 0,
    ) -> None:
        self.strength = strength
        self._pool = pool
        self._cards = cards
        self._prefer = prefer

    @property
    def category(self) -> str:
        """One of :data:`CATEGORIES` (``"royal flush"`` is its own category)."""
        return CATEGORIES[key_category(self.strength)]

    @property
    def description(self) -> str:
        return _description(self.strength)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The cards that make the hand, in display order."""
        if self._cards is None:
            self._cards = display_order(self._find_five(), self.strength)
        return self._cards

    def _find_five(self) -> tuple[Card, ...]:
        """Five cards of the pool that make this value, using as few late pool cards as may be.

        The pool lists board cards first (``_prefer`` of them), so where the board plays the
        answer shows board cards rather than a private card of the same rank.
        """
        pool = self._pool
        if len(pool) <= 5:  # (five cards, or a three-card front row: all of them play)
            return pool
        ids = [card_id(c) for c in pool]
        want = self.strength
        best: tuple[int, tuple[int, ...]] | None = None
        for idx in combinations(range(len(pool)), 5):
            if _KEYS[_eval5(*(ids[i] for i in idx))] == want:
                extra = sum(1 for i in idx if i >= self._prefer)
                if best is None or extra < best[0]:
                    best = (extra, idx)
                    if extra == 0 or self._prefer == 0:
                        break
        if best is None:  # unreachable: the value was computed from this pool
            raise AssertionError("hand value does not come from its cards")
        return tuple(pool[i] for i in best[1])

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength == other.strength

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength < other.strength

    def __le__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength <= other.strength

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength > other.strength

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, HandValue):
            return NotImplemented
        return self.strength >= other.strength

    def __hash__(self) -> int:
        return hash(self.strength)

    def __repr__(self) -> str:
        return f"HandValue({self.description!r})"

    def __str__(self) -> str:
        return self.description


def _ids(cards: Sequence[Card]) -> list[int]:
    """Card numbers, refusing jokers, non-cards and any card given twice."""
    try:
        ids = [c.eval_id for c in cards]
    except AttributeError:
        _refuse(cards)
        raise
    seen = set(ids)
    if len(seen) != len(ids) or -1 in seen:
        _refuse(cards)
    return ids


def _refuse(cards: Sequence[Card]) -> None:
    """Raise BadInput naming the first card that cannot be ranked or is given twice."""
    for c in cards:
        card_id(c)
    raise BadInput(duplicate_message(cards))


def duplicate_message(cards: Sequence[Card]) -> str:
    """Names the card given twice: a deck has one of each."""
    seen: set[tuple[int, str]] = set()
    for c in cards:
        if (c.rank, c.suit) in seen:
            return f"{c.code} is given twice: a deck has only one; check the cards and try again"
        seen.add((c.rank, c.suit))
    return "a card is given twice: check the cards and try again"


#: Card numbers checked by :func:`encode`: in range, no jokers, no card twice.
Encoded = NewType("Encoded", tuple[int, ...])


def encode(cards: Sequence[Card]) -> Encoded:
    """Check cards once and turn them into numbers for :func:`strength` (bulk work: equities,
    simulations). BadInput for a joker or a card given twice."""
    return Encoded(tuple(_ids(cards)))


def strength(ids: Encoded) -> int:
    """The strength of the best five of 5 to 7 encoded cards, the same number as
    ``evaluate(cards).strength``: greater is better, equal ties. No object is built."""
    n = len(ids)
    if n == 7:
        return _KEYS[_eval7(*ids)]
    if n == 5:
        return _KEYS[_eval5(*ids)]
    if n == 6:
        return _KEYS[_eval6(*ids)]
    if n > 7:
        return _KEYS[_best_of_many(ids)]
    raise BadInput(f"a poker hand needs at least five cards, got {n}")


def _best_of_many(ids: Iterable[int]) -> int:
    """phevaluator's class of the best five of more than seven cards: the best of every seven
    of them (each seven's best five by the evaluator itself, so every five is among them),
    36 calls for nine cards where every five would be 126, with no Python loop."""
    return min(starmap(_eval7, combinations(ids, 7)))


def evaluate(cards: Sequence[Card]) -> HandValue:
    """The best five-card high hand among 5 to 7 cards (more are allowed: any five of them)."""
    cards = tuple(cards)
    try:
        ids = {c.eval_id for c in cards}  # the evaluator ignores order, so a set serves
    except AttributeError:
        _refuse(cards)
        raise
    n = len(ids)
    if n != len(cards) or -1 in ids:
        _refuse(cards)
    if n == 7:
        r = _eval7(*ids)
    elif n == 5:
        r = _eval5(*ids)
    elif n == 6:
        r = _eval6(*ids)
    elif n > 7:
        r = _best_of_many(ids)
    else:
        raise BadInput(f"a poker hand needs at least five cards, got {n}")
    return HandValue(_KEYS[r], cards)


def _pair_ranks(ids: list[int], pairs: tuple[tuple[int, int], ...]) -> Sequence[int]:
    """phevaluator's class of the board (ids[:5]) with each pair of private cards."""
    e = _eval7
    if len(ids) == 10:  # five private cards, the usual showdown: the ten calls written out
        b0, b1, b2, b3, b4, p0, p1, p2, p3, p4 = ids
        return (
            e(b0, b1, b2, b3, b4, p0, p1), e(b0, b1, b2, b3, b4, p0, p2),
            e(b0, b1, b2, b3, b4, p0, p3), e(b0, b1, b2, b3, b4, p0, p4),
            e(b0, b1, b2, b3, b4, p1, p2), e(b0, b1, b2, b3, b4, p1, p3),
            e(b0, b1, b2, b3, b4, p1, p4), e(b0, b1, b2, b3, b4, p2, p3),
            e(b0, b1, b2, b3, b4, p2, p4), e(b0, b1, b2, b3, b4, p3, p4),
        )
    b0, b1, b2, b3, b4 = ids[:5]
    return [e(b0, b1, b2, b3, b4, ids[i], ids[j]) for i, j in pairs]


def best_hand(
    board: Sequence[Card],
    private: Sequence[Card],
    *,
    max_private: int | None = None,
    exact_private: int | None = None,
) -> HandValue:
    """The best five-card hand from board and private cards under the game's constraint.

    ``max_private=2``: at most two private cards play (Caro Hold 'em); ``exact_private=2``:
    exactly two private and three board cards (Omaha style); neither: any five of all the cards.
    """
    nb = len(board)
    np_ = len(private)
    if max_private == 2 and nb == 5 and np_ > 2 and exact_private is None:
        # Caro Hold 'em's showdown: a five-card hand with at most two private cards lies within
        # the board plus some two private cards, so the best of those 7-card hands is the answer.
        pool = (*board, *private)
        try:
            ids = [c.eval_id for c in pool]
        except AttributeError:
            _refuse(pool)
            raise
        seen = set(ids)
        if len(seen) != len(ids) or -1 in seen:
            _refuse(pool)
        pairs = _PAIRS.get(np_) or tuple(combinations(range(5, 5 + np_), 2))
        ranks = _pair_ranks(ids, pairs)
        best = min(ranks)
        i, j = pairs[ranks.index(best)]
        return HandValue(_KEYS[best], (*board, private[i - 5], private[j - 5]), prefer=5)
    if max_private is not None and exact_private is not None:
        raise BadInput("give either max_private or exact_private, not both")
    board = tuple(board)
    private = tuple(private)
    pool = board + private
    ids = _ids(pool)
    bids = ids[:nb]
    pids = ids[nb:]
    if exact_private is not None:
        return _best_exact(board, private, bids, pids, exact_private)
    if max_private is not None and max_private < 0:
        raise BadInput(f"at most {max_private} private cards is not a rule")
    k = np_ if max_private is None else min(max_private, np_)
    if nb + k < 5:
        if max_private is not None and nb + max_private < 5:
            cards = "card" if max_private == 1 else "cards"
            raise BadInput(
                f"{nb} board cards and at most {max_private} private {cards} cannot make five"
            )
        raise BadInput(f"a poker hand needs five cards, got {nb + np_}")
    if k == np_:
        return HandValue(strength(Encoded(tuple(ids))), pool, prefer=nb)
    # Any five with at most k private cards lies within the board plus some k private cards.
    best_key = -1
    best_pool = pool
    for chosen in combinations(range(np_), k):
        key = strength(Encoded((*bids, *(pids[i] for i in chosen))))
        if key > best_key:
            best_key = key
            best_pool = board + tuple(private[i] for i in chosen)
    return HandValue(best_key, best_pool, prefer=nb)


def _best_exact(
    board: tuple[Card, ...],
    private: tuple[Card, ...],
    bids: list[int],
    pids: list[int],
    exact: int,
) -> HandValue:
    if not 0 <= exact <= 5:
        raise BadInput(f"exactly {exact} private cards cannot make a five-card hand")
    if len(pids) < exact:
        raise BadInput(f"{exact} private cards must play, only {len(pids)} held")
    if len(bids) < 5 - exact:
        raise BadInput(f"{5 - exact} board cards must play, only {len(bids)} on the board")
    best = N_CLASSES + 1
    arg: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    for pc in combinations(range(len(pids)), exact):
        pp = [pids[i] for i in pc]
        for bc in combinations(range(len(bids)), 5 - exact):
            r = _eval5(*pp, *(bids[i] for i in bc))
            if r < best:
                best = r
                arg = (pc, bc)
    five = tuple(board[i] for i in arg[1]) + tuple(private[i] for i in arg[0])
    key = _KEYS[best]
    return HandValue(key, five, display_order(five, key))


def class_keys() -> list[int]:
    """Our key for each phevaluator class number (index 0 unused): for the census and tests."""
    return list(_KEYS)


def evaluator_5() -> Callable[..., int]:
    """phevaluator's five-card function on card numbers (for the census's bulk run)."""
    return _eval5

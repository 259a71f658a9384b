"""Chinese Poker: naturals, row rates and scoring pair by pair."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.evolve import builder
from dealer_assist.errors import RuleViolation
from dealer_assist.evaluate import evaluate
from dealer_assist.games.chinese_poker.state import (
    NATURAL_NAMES,
    NATURALS,
    SCOOP_BONUS,
    SURRENDER_UNITS,
    ChineseState,
)
from dealer_assist.games.open_face.rows import (
    HAND_SIZE,
    ROW_NAMES,
    PairResult,
    Rows,
    RowValues,
    foul_reason,
    row_verdict,
    values,
)


def natural_kind(text: str) -> str:
    """The natural a dealer means: ``dragon``, ``three-flushes``, ``six pair``..."""
    key = text.strip().lower().replace("_", "-").replace(" ", "-")
    if key in ("six-pair", "6-pairs", "6-pair"):
        key = "six-pairs"
    if key not in NATURALS:
        raise RuleViolation(
            f'"{text}" is not a natural: dragon, three-flushes, three-straights or six-pairs',
            rule="Chinese 1")
    return key


def _is_straight(ranks: list[int]) -> bool:
    """Consecutive distinct ranks, the ace high or low (A-2-3 and Q-K-A both count)."""
    if len(set(ranks)) != len(ranks):
        return False
    for rs in (sorted(ranks), sorted(1 if r == 14 else r for r in ranks)):
        if rs[-1] - rs[0] == len(rs) - 1:
            return True
    return False


def _straight_top(ranks: list[int]) -> int:
    rs = sorted(ranks)
    return rs[-2] if rs[-1] == 14 and rs[0] == 2 else rs[-1]


def natural_problem(rows: Rows, kind: str) -> str | None:
    """Why the hand is not the declared natural, or ``None`` when it is."""
    every = [c.rank for c in rows.cards]
    if kind == "dragon":
        if len(set(every)) != HAND_SIZE:
            return "a dragon needs one card of every rank from two to ace"
        return None
    if kind == "six-pairs":
        if sum(n // 2 for n in Counter(every).values()) != 6:
            return "six pairs needs six pairs and one odd card"
        return None
    for name in ROW_NAMES:
        cards = rows.row(name)
        if kind == "three-flushes" and len({c.suit for c in cards}) != 1:
            return f"three flushes needs a flush in every row, and the {name} is not one"
        if kind == "three-straights" and not _is_straight([c.rank for c in cards]):
            return f"three straights needs a straight in every row, and the {name} is not one"
    return None


def natural_strength(rows: Rows, kind: str) -> tuple[int, ...]:
    """Orders naturals: the kind, then the rule text's tie-breaks (two dragons tie)."""
    order = NATURALS[kind][0]
    if kind == "dragon":
        return (order,)
    if kind == "six-pairs":
        counts = Counter(c.rank for c in rows.cards)
        pairs = sorted((r for r, n in counts.items() for _ in range(n // 2)), reverse=True)
        return (order, *pairs)
    back, middle = evaluate(rows.back).strength, evaluate(rows.middle).strength
    front_ranks = [c.rank for c in rows.front]
    if kind == "three-flushes":
        return (order, back, middle, *sorted(front_ranks, reverse=True))
    return (order, back, middle, _straight_top(front_ranks))


def row_rate(rows: Rows, name: str) -> int:
    """Units a winning row collects: 1, or its bonus rate (front trips 3, middle full house 2,
    quads 4 in middle or back, straight or royal flush 5)."""
    if name == "front":
        return _front_rate(rows.front)
    # (the values the settlement compares, made once)
    return _rate(name, values(rows).of(name).category)


def _front_rate(front: tuple[Card, ...]) -> int:
    return 3 if len({c.rank for c in front}) == 1 else 1


def _rate(name: str, category: str) -> int:
    """:func:`row_rate` of the middle or back row, by the category of its value."""
    if category in ("straight flush", "royal flush"):
        return 5
    if category == "four of a kind":
        return 4
    if category == "full house" and name == "middle":
        return 2
    return 1


@dataclass(frozen=True, slots=True)
class ChineseOutcome:
    fouled: Mapping[int, str]
    rates: Mapping[int, Mapping[str, int]]
    pairs: tuple[PairResult, ...]


#: The last finished hand's outcome, by the state object (states are immutable, so the same
#: object has the same outcome): a hand is settled, reported and measured in turn, and the
#: dossier's simulation does that for hundreds of thousands of hands.
_LAST: tuple[ChineseState, ChineseOutcome] | None = None


def outcome(state: ChineseState) -> ChineseOutcome:
    """Fouls, royalties and every pair's result of a finished hand (remembered for the last
    state asked)."""
    global _LAST
    last = _LAST
    if last is not None and last[0] is state:
        return last[1]
    out = _outcome(state)
    _LAST = (state, out)
    return out


def _outcome(state: ChineseState) -> ChineseOutcome:
    seats = state.settings.seats
    fouled: dict[int, str] = {}
    rates: dict[int, dict[str, int]] = {}
    vals: dict[int, RowValues] = {}  # (each hand's rows valued once, for every pair)
    for s in seats:
        if not state.plays_rows(s):
            continue
        rows = state.sets[s]
        reason = foul_reason(rows)
        if reason is not None:
            fouled[s] = reason
        else:
            v = vals[s] = values(rows)
            rates[s] = {"front": _front_rate(rows.front),  # (row_rate, on the values made)
                        "middle": _rate("middle", v.middle.category),
                        "back": _rate("back", v.back.category)}
    pairs = tuple(_pair(state, a, b, fouled, rates, vals) for a, b in combinations(seats, 2))
    return ChineseOutcome(fouled=fouled, rates=rates, pairs=pairs)


class PairDetail(Mapping[str, Any]):
    """A pair's detail whose row-by-row words (``"rows"``: each row's verdict, the hands named)
    are written when first read: the settlement needs a pair's points and its one line, the
    report the words, and a replay or verify settles every hand while few are reported."""

    __slots__ = ("_head", "_items", "_make")

    def __init__(self, head: dict[str, Any], make: Callable[[], dict[str, Any]]) -> None:
        self._head: dict[str, Any] | None = head
        self._make: Callable[[], dict[str, Any]] | None = make
        self._items: dict[str, Any] | None = None

    def _all(self) -> dict[str, Any]:
        items = self._items
        if items is None:
            assert self._head is not None and self._make is not None
            items = self._items = {**self._head, **self._make()}
            self._head = self._make = None
        return items

    def __getitem__(self, key: str) -> Any:
        return self._all()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def __eq__(self, other: object) -> bool:
        return self._all() == (other._all() if isinstance(other, PairDetail) else other)

    __hash__ = None  # type: ignore[assignment]  # (a mapping, as a dict is)

    def __repr__(self) -> str:
        return repr(self._all())

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (self._all(),))  # (pickled as the plain dict it stands for)


def _pair(state: ChineseState, a: int, b: int, fouled: Mapping[int, str],
          rates: Mapping[int, Mapping[str, int]], vals: Mapping[int, RowValues]) -> PairResult:
    points = 0
    why: list[str] = []
    detail: dict[str, Any] = {}
    na, nb = state.naturals.get(a), state.naturals.get(b)
    if na is not None or nb is not None:
        ka = natural_strength(state.sets[a], na) if na else ()
        kb = natural_strength(state.sets[b], nb) if nb else ()
        if ka > kb:
            assert na is not None
            pts = NATURALS[na][1]
            why.append(f"seat {a}'s {NATURAL_NAMES[na].removeprefix('a ')} {pts}")
        elif kb > ka:
            assert nb is not None
            pts = -NATURALS[nb][1]
            why.append(f"seat {b}'s {NATURAL_NAMES[nb].removeprefix('a ')} {-pts}")
        else:
            pts = 0
            why.append(f"equal naturals ({NATURAL_NAMES[na or ''].removeprefix('a ')}) tie")
        points += pts
        detail["naturals"] = pts
    sa, sb = a in state.surrendered, b in state.surrendered
    if sa or sb:
        pts = (SURRENDER_UNITS if sb else 0) - (SURRENDER_UNITS if sa else 0)
        points += pts
        detail["surrender"] = pts
        who = " and ".join(f"seat {s}" for s, yes in ((a, sa), (b, sb)) if yes)
        why.append(f"{who} surrendered" + (" (each pays the other 2)" if sa and sb else " 2"))
    if state.plays_rows(a) and state.plays_rows(b):
        pts, text, rows_detail = _rows(a, b, fouled, rates, vals)
        points += pts
        why.append(text)
        if callable(rows_detail):
            return _pair_result(a, b, points, "; ".join(why), PairDetail(detail, rows_detail))
        detail.update(rows_detail)
    return _pair_result(a, b, points, "; ".join(why), detail)


#: (a pair's record without the frozen constructor's cost: every settlement makes one a pair)
_pair_result = builder(PairResult)


def _rows(a: int, b: int, fouled: Mapping[int, str], rates: Mapping[int, Mapping[str, int]],
          vals: Mapping[int, RowValues]
          ) -> tuple[int, str, dict[str, Any] | Callable[[], dict[str, Any]]]:
    """A pair's rows: the points from ``a``'s side, the line the push step says, and the
    detail (when both played their rows, a function writing it: see :class:`PairDetail`)."""
    if a in fouled and b in fouled:
        return 0, "both fouled", {"rows_points": 0, "fouled": [a, b]}
    if a in fouled or b in fouled:
        loser, winner = (a, b) if a in fouled else (b, a)
        won = sum(rates[winner].values()) + SCOOP_BONUS
        pts = won if winner == a else -won
        return pts, f"seat {loser} fouled: scooped, {won}", {
            "rows_points": pts, "fouled": [loser], "scoop": winner}
    va, vb = vals[a], vals[b]
    ra, rb = rates[a], rates[b]
    # (compare_rows, on the evaluator's numbers of the values already made)
    x, y = va.front.strength, vb.front.strength
    front = 1 if x > y else -1 if y > x else 0
    x, y = va.middle.strength, vb.middle.strength
    middle = 1 if x > y else -1 if y > x else 0
    x, y = va.back.strength, vb.back.strength
    back = 1 if x > y else -1 if y > x else 0
    pts = 0
    for r, w in (("front", front), ("middle", middle), ("back", back)):
        if w > 0:
            pts += ra[r]
        elif w < 0:
            pts -= rb[r]
    total = front + middle + back
    scoop = a if total == 3 else b if total == -3 else None
    if scoop is not None:
        pts += SCOOP_BONUS if scoop == a else -SCOOP_BONUS
    text = f"rows {pts:+d} for seat {a}" + (f" (seat {scoop} scoops)" if scoop else "")
    wins = {"front": front, "middle": middle, "back": back}

    def detail() -> dict[str, Any]:
        return {
            "rows_points": pts,
            "rows": {r: row_verdict(a, va.of(r), b, vb.of(r)) for r in ROW_NAMES},
            "winners": {r: a if w > 0 else b if w < 0 else None for r, w in wins.items()},
            "scoop": scoop,
        }

    return pts, text, detail

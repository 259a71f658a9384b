"""Three-row hands (front 3, middle 5, back 5) as Open-Face and Chinese Poker share them.

Rows rank as poker hands, the front row knowing only trips, pairs and high cards. A hand fouls
when a lower row ranks above a higher one. Both games settle player to player, so this module also
turns each pair's points into a :class:`Settlement` whose push steps name payer and payee.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dealer_assist.cards import RANK_PLURALS, Card
from dealer_assist.engine import start as start_settings
from dealer_assist.engine.base import FeeLine, PushStep, Settlement
from dealer_assist.engine.evolve import builder
from dealer_assist.errors import RuleViolation
from dealer_assist.evaluate import HandValue, evaluate, front_value
from dealer_assist.events import Start
from dealer_assist.fees.table import fees_by_seat
from dealer_assist.money import format_cents

ROW_NAMES: tuple[str, ...] = ("front", "middle", "back")
ROW_SIZES: Mapping[str, int] = {"front": 3, "middle": 5, "back": 5}
HAND_SIZE = 13
#: Names dealers use for the rows, mapped to ours.
ROW_ALIASES: Mapping[str, str] = {
    "front": "front", "top": "front", "middle": "middle", "mid": "middle",
    "back": "back", "bottom": "back",
}


def row_name(text: str) -> str:
    """The row a dealer means by ``text`` (``front``/``top``, ``middle``, ``back``/``bottom``)."""
    name = ROW_ALIASES.get(text)  # (as the log writes them: every placement asks)
    if name is None:
        name = ROW_ALIASES.get(text.strip().lower())
    if name is None:
        raise RuleViolation(f'"{text}" is not a row: use front, middle or back', rule="rows")
    return name


def cards_text(cards: Iterable[Card]) -> str:
    return " ".join(c.code for c in cards) or "(empty)"


@dataclass(frozen=True, slots=True)
class Rows:
    """One player's three rows, in the order the cards went in."""

    front: tuple[Card, ...] = ()
    middle: tuple[Card, ...] = ()
    back: tuple[Card, ...] = ()

    def row(self, name: str) -> tuple[Card, ...]:
        cards: tuple[Card, ...] = getattr(self, name)
        return cards

    def space(self, name: str) -> int:
        return ROW_SIZES[name] - len(self.row(name))

    def open_rows(self) -> tuple[str, ...]:
        return tuple(r for r in ROW_NAMES if self.space(r) > 0)

    def add(self, name: str, card: Card) -> Rows:
        if name == "front":
            return Rows((*self.front, card), self.middle, self.back)
        if name == "middle":
            return Rows(self.front, (*self.middle, card), self.back)
        return Rows(self.front, self.middle, (*self.back, card))

    @property
    def count(self) -> int:
        return len(self.front) + len(self.middle) + len(self.back)

    @property
    def complete(self) -> bool:
        return len(self.front) == 3 and len(self.middle) == 5 and len(self.back) == 5

    @property
    def cards(self) -> tuple[Card, ...]:
        return self.front + self.middle + self.back

    def as_view(self) -> tuple[tuple[str, tuple[str, ...]], ...]:
        return tuple((r, tuple(c.code for c in self.row(r))) for r in ROW_NAMES)

    def to_json(self) -> dict[str, list[str]]:
        return {r: [c.code for c in self.row(r)] for r in ROW_NAMES}


def check_set_sizes(seat: int, front: Sequence[Card], middle: Sequence[Card],
                    back: Sequence[Card]) -> None:
    """A set hand has exactly 3 / 5 / 5 cards, each card once."""
    for name, cards in (("front", front), ("middle", middle), ("back", back)):
        if len(cards) != ROW_SIZES[name]:
            raise RuleViolation(
                f"seat {seat}'s {name} row needs {ROW_SIZES[name]} cards, not {len(cards)}",
                rule="rows",
            )
    every = (*front, *middle, *back)
    ids = {c.eval_id for c in every}  # (a joker's is -1: two jokers fall to the words below)
    if len(ids) == len(every) and -1 not in ids:
        return  # (every set recorded passes: the words below are for the one that does not)
    for card, n in Counter(every).items():
        if n > 1:
            raise RuleViolation(f"{card.code} appears twice in seat {seat}'s hand", rule="cards")
        if card.is_joker:
            raise RuleViolation("jokers are not used in this game", rule="cards")


# --- values and fouls -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RowValues:
    """The three rows of a complete hand as comparable values."""

    front: HandValue
    middle: HandValue
    back: HandValue

    def of(self, name: str) -> HandValue:
        value: HandValue = getattr(self, name)
        return value


def values(rows: Rows) -> RowValues:
    """The rows' values. A settlement asks for each player's several times (the foul, every
    pair's rows, each row's words), so the last few asked are kept: a value depends on the
    cards alone."""
    known = _VALUES.get(id(rows))
    if known is not None and known[0] is rows:
        return known[1]
    if not rows.complete:
        raise ValueError("rows are not complete")
    out = RowValues(front_value(rows.front), evaluate(rows.middle), evaluate(rows.back))
    if len(_VALUES) >= _VALUES_KEPT:
        _VALUES.clear()
    _VALUES[id(rows)] = (rows, out)
    return out


#: :func:`values` of the last rows asked (a table's hands, one settlement at a time), by the
#: rows' identity (a hand's rows are one record its settlement asks about again and again;
#: hashing their thirteen cards for each question would cost what it saves). Each entry holds
#: its rows, so that no other rows can take their identity while they are kept.
_VALUES: dict[int, tuple[Rows, RowValues]] = {}
_VALUES_KEPT = 16


def foul_reason(rows: Rows) -> str | None:
    """Why a complete hand fouls (a lower row ranks above a higher one), or ``None``. Kept for
    the last rows asked, as their :func:`values` are: a settlement asks it of each player for
    the fouls, the royalties and fantasyland."""
    known = _FOULS.get(id(rows))
    if known is not None and known[0] is rows:
        return known[1]
    v = values(rows)
    reason = None
    if v.front.strength > v.middle.strength:
        # (``front_fouls`` on the values just made: each row's cards were checked in valuing
        # it, and the hand's rows against each other as the cards went in)
        reason = (f"the front ({v.front.description}) ranks above the middle "
                  f"({v.middle.description})")
    elif v.middle > v.back:
        reason = (f"the middle ({v.middle.description}) ranks above the back "
                  f"({v.back.description})")
    if len(_FOULS) >= _VALUES_KEPT:
        _FOULS.clear()
    _FOULS[id(rows)] = (rows, reason)
    return reason


#: :func:`foul_reason` of the last rows asked, by their identity (as :data:`_VALUES`).
_FOULS: dict[int, tuple[Rows, str | None]] = {}


def is_fouled(rows: Rows) -> bool:
    return foul_reason(rows) is not None


def compare_rows(a: Rows, b: Rows) -> dict[str, int]:
    """Per row: 1 when ``a`` wins it, -1 when ``b`` does, 0 for a tie (fouls not considered)."""
    va, vb = values(a), values(b)
    out: dict[str, int] = {}
    for r in ROW_NAMES:
        x, y = va.of(r), vb.of(r)
        out[r] = 1 if x > y else -1 if y > x else 0
    return out


def row_verdict(a: int, va: HandValue, b: int, vb: HandValue) -> str:
    """``seat 1 (pair of queens; beats ace high)``; ``tie (two pair ... each)``."""
    if va > vb:
        return f"seat {a} ({va.description}; beats {vb.description})"
    if vb > va:
        return f"seat {b} ({vb.description}; beats {va.description})"
    return f"tie ({va.description} each)"


# --- royalties (Open-Face) --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoyaltyTable:
    """Bonus points per row: front by pair/trips rank, middle and back by hand category."""

    name: str
    front_pair: Mapping[int, int]
    front_trips: Mapping[int, int]
    middle: Mapping[str, int]
    back: Mapping[str, int]


_FRONT_PAIRS = {rank: rank - 5 for rank in range(6, 15)}  # 66 = 1 ... AA = 9
_BACK = {
    "straight": 2, "flush": 4, "full house": 6, "four of a kind": 10,
    "straight flush": 15, "royal flush": 25,
}
_MIDDLE = {
    "straight": 4, "flush": 8, "full house": 12, "four of a kind": 20,
    "straight flush": 30, "royal flush": 50,
}

ROYALTY_TABLES: Mapping[str, RoyaltyTable] = {
    "rules-text": RoyaltyTable(
        name="rules-text",
        front_pair=_FRONT_PAIRS,
        front_trips={rank: 20 for rank in range(2, 15)},
        middle=_MIDDLE,
        back=_BACK,
    ),
    "pineapple": RoyaltyTable(
        name="pineapple",
        front_pair=_FRONT_PAIRS,
        front_trips={rank: rank + 8 for rank in range(2, 15)},  # 222 = 10 ... AAA = 22
        middle={"three of a kind": 2, **_MIDDLE},
        back=_BACK,
    ),
}


def royalty_table(name: object) -> RoyaltyTable:
    if not isinstance(name, str) or name not in ROYALTY_TABLES:
        known = ", ".join(f'"{k}"' for k in ROYALTY_TABLES)
        raise RuleViolation(f"royalties must be one of {known}, not {name!r}", rule="settings")
    return ROYALTY_TABLES[name]


def front_made(front: Sequence[Card]) -> tuple[str, int] | None:
    """``("trips", rank)`` or ``("pair", rank)`` for a front row, ``None`` for high card."""
    counts = Counter(c.rank for c in front)
    rank, n = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
    if n >= 3:
        return ("trips", rank)
    if n == 2:
        return ("pair", rank)
    return None


def royalties(rows: Rows, table: RoyaltyTable) -> dict[str, int]:
    """Royalty points per row of a complete hand (fouls are the caller's business)."""
    made = front_made(rows.front)
    front = 0
    if made is not None:
        kind, rank = made
        front = (table.front_trips if kind == "trips" else table.front_pair).get(rank, 0)
    return {
        "front": front,
        "middle": table.middle.get(evaluate(rows.middle).category, 0),
        "back": table.back.get(evaluate(rows.back).category, 0),
    }


def front_text(front: Sequence[Card]) -> str:
    made = front_made(front)
    if made is None:
        return "no pair"
    kind, rank = made
    return f"{'three' if kind == 'trips' else 'pair of'} {RANK_PLURALS[rank]}"


# --- settings shared by both games ------------------------------------------------------------


def table_seats(start: Start, *, low: int = 2, high: int = 4) -> tuple[int, ...]:
    return start_settings.seats_between(start, low=low, high=high)


def unit_setting(start: Start) -> int:
    unit = start.get("unit", 100)
    if not isinstance(unit, int) or isinstance(unit, bool) or unit <= 0:
        raise RuleViolation(
            f'"unit" is the value of one point in cents, a whole number above 0, not {unit!r}',
            rule="settings",
        )
    return unit


@dataclass(frozen=True, slots=True)
class Stakes:
    """The table's unit in cents, and any pair of players who agreed on a unit of their own."""

    unit: int
    pairs: Mapping[tuple[int, int], int] = field(default_factory=dict)

    def between(self, a: int, b: int) -> int:
        return self.pairs.get((min(a, b), max(a, b)), self.unit)


def stakes_info(stakes: Stakes) -> tuple[str, ...]:
    """Lines for the screen: the unit, then any pair's own unit."""
    lines = [f"unit {format_cents(stakes.unit)}"]
    lines.extend(f"seats {a} and {b} play for {format_cents(u)} a unit"
                 for (a, b), u in sorted(stakes.pairs.items()))
    return tuple(lines)


def stakes_setting(start: Start, seats: tuple[int, ...]) -> Stakes:
    """``"unit"`` (cents, default 100) and ``"pair_units"`` like ``{"1-2": 500}``."""
    raw = start.get("pair_units", {})
    if not isinstance(raw, Mapping):
        raise RuleViolation('"pair_units" maps a pair of seats to a unit, like {"1-2": 500}',
                            rule="settings")
    pairs: dict[tuple[int, int], int] = {}
    for key, value in raw.items():
        parts = str(key).split("-")
        if (len(parts) != 2 or not all(p.strip().isdigit() for p in parts)
                or int(parts[0]) == int(parts[1])
                or any(int(p) not in seats for p in parts)):
            raise RuleViolation(
                f'pair_units: "{key}" is not a pair of seats at this table, like "1-2"',
                rule="settings")
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise RuleViolation(f'pair_units: the unit for "{key}" must be whole cents above 0',
                                rule="settings")
        a, b = sorted(int(p) for p in parts)
        pairs[(a, b)] = value
    return Stakes(unit=unit_setting(start), pairs=pairs)


#: (the shared reader's refusal of a key the game does not know)
check_keys = start_settings.only


#: (the shared reader's button)
button_setting = start_settings.button


# --- pairwise settlement ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PairResult:
    """What one pair of players settles: ``points`` units from ``a``'s side (negative: a pays)."""

    a: int
    b: int
    points: int
    why: str = ""
    detail: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"seats": [self.a, self.b], "points": self.points, **self.detail}


def units_text(n: int, unit: int) -> str:
    return f"{n} unit{'s' if n != 1 else ''} ({format_cents(n * unit)})"


def net_units(seats: Iterable[int], pairs: Iterable[PairResult]) -> dict[int, int]:
    """Each seat's points summed over its pairs (units, before any pair's own unit)."""
    net = {s: 0 for s in seats}
    for p in pairs:
        net[p.a] += p.points
        net[p.b] -= p.points
    return net


def settle_pairs(seats: tuple[int, ...], pairs: Sequence[PairResult], stakes: Stakes,
                 fees: tuple[FeeLine, ...] = (),
                 extra: Mapping[str, Any] | None = None) -> Settlement:
    """Each seat's net from its pairs: losers put in what they pay, winners receive; one push
    step per pair that moves money, naming payer, payee, units and cents. House fees taken
    before the deal count in the paying seat's put-in. ``extra["net_cents"]`` is the game's
    net per seat (before fees), which sums to zero."""
    cents = dict.fromkeys(seats, 0)
    units = dict.fromkeys(seats, 0)  # (net_units, summed in the same pass)
    steps: list[PushStep] = []
    own_units = stakes.pairs
    for p in pairs:
        a, b, points = p.a, p.b, p.points
        unit = stakes.between(a, b) if own_units else stakes.unit
        cents[a] += points * unit
        cents[b] -= points * unit
        units[a] += points
        units[b] -= points
        if points == 0:
            continue
        winner, payer = (a, b) if points > 0 else (b, a)
        n = abs(points)
        text = f"Seat {payer} pays seat {winner} {units_text(n, unit)}"
        if p.why:
            text += f": {p.why}"
        steps.append(_push_step(len(steps) + 1, text, n * unit, winner, "pay"))
    fee_of = fees_by_seat(seats, fees)
    return _settlement(
        {s: max(0, -cents[s]) + fee_of[s] for s in seats},
        {s: max(0, cents[s]) for s in seats},
        0, 0, fees, tuple(steps),
        {"unit": stakes.unit, "net_units": units, "net_cents": cents, **(extra or {})},
    ).require_conserved()


#: (the records a settlement is made of, without the frozen constructors' cost: every replayed
#: or verified hand settles again)
_push_step = builder(PushStep)
_settlement = builder(Settlement)


def seat_keys(d: Mapping[int, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in sorted(d.items())}


# --- what both games' reports and settlements share -------------------------------------------


def table_report(seats: tuple[int, ...], button: int, stakes: Stakes) -> dict[str, Any]:
    """The start of ``replay --json``: the seats, the button and the stakes."""
    return {
        "seats": list(seats),
        "button": button,
        "unit": stakes.unit,
        "pair_units": {f"{a}-{b}": u for (a, b), u in sorted(stakes.pairs.items())},
    }


def scoring_report(seats: tuple[int, ...], pairs: Sequence[PairResult], stakes: Stakes,
                   fees: tuple[FeeLine, ...], fouled: Mapping[int, str]) -> dict[str, Any]:
    """The scoring part of ``replay --json``: fouls, each pair's result, the net in units and
    cents, and the house fees."""
    settlement = settle_pairs(seats, pairs, stakes, fees)
    return {
        "fouled": sorted(fouled),
        "fouls": seat_keys(dict(fouled)),
        "pairs": [p.to_json() for p in pairs],
        "net_units": seat_keys(settlement.extra["net_units"]),
        "net": seat_keys(settlement.extra["net_cents"]),
        "house_fees": [f.to_json() for f in fees],
    }


def require_finished(over: bool, message: str) -> None:
    """Refuse to settle a hand that is not finished, saying what it waits for."""
    if not over:
        raise RuleViolation(f"the hand is not finished: {message}", rule="settle")

"""Chinese Poker: thirteen cards each set into three rows, settled player to player in units.

Before any hand is shown, naturals are declared (and shown: the holder's ``set`` follows its
``natural``), then players may surrender. The first ordinary hand recorded is the reveal: from
then on only the remaining hands are recorded. Naturals and surrenderers play no rows.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

from dealer_assist.cards import Card, full_deck
from dealer_assist.engine.base import (
    Action,
    DemoTable,
    FeeLine,
    Game,
    Prompt,
    SeatView,
    Settlement,
    TableView,
)
from dealer_assist.engine.inputs import Choice
from dealer_assist.errors import RuleViolation
from dealer_assist.evaluate import evaluate
from dealer_assist.events import Event, Start
from dealer_assist.games.chinese_poker.events import EVENTS, Natural, SetHand, Surrender
from dealer_assist.games.open_face.rows import (
    HAND_SIZE,
    ROW_NAMES,
    PairResult,
    Rows,
    Stakes,
    button_setting,
    cards_text,
    check_keys,
    check_set_sizes,
    compare_rows,
    fees_by_seat,
    foul_reason,
    house_fees,
    left_of,
    require_finished,
    row_verdict,
    scoring_report,
    seat_keys,
    settle_pairs,
    stakes_info,
    stakes_setting,
    table_report,
    table_seats,
    values,
)

SCOOP_BONUS = 3
SURRENDER_UNITS = 2
#: Naturals from highest to lowest: (order, units each opponent pays).
NATURALS: Mapping[str, tuple[int, int]] = {
    "dragon": (4, 13),
    "three-flushes": (3, 3),
    "three-straights": (2, 3),
    "six-pairs": (1, 3),
}
NATURAL_NAMES: Mapping[str, str] = {
    "dragon": "a dragon", "three-flushes": "three flushes",
    "three-straights": "three straights", "six-pairs": "six pairs",
}


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
        return 3 if len({c.rank for c in rows.front}) == 1 else 1
    category = evaluate(rows.row(name)).category
    if category in ("straight flush", "royal flush"):
        return 5
    if category == "four of a kind":
        return 4
    if category == "full house" and name == "middle":
        return 2
    return 1


@dataclass(frozen=True, slots=True)
class ChineseSettings:
    seats: tuple[int, ...]
    button: int
    stakes: Stakes
    #: House fees collected before the deal (per-player, or a fixed fee from the button).
    fees: tuple[FeeLine, ...]

    @property
    def unit(self) -> int:
        return self.stakes.unit

    @property
    def order(self) -> tuple[int, ...]:
        return left_of(self.seats, self.button)


@dataclass(frozen=True, slots=True)
class ChineseState:
    settings: ChineseSettings
    sets: Mapping[int, Rows] = field(default_factory=dict)
    naturals: Mapping[int, str] = field(default_factory=dict)
    #: A seat that declared a natural and has not yet shown it.
    showing: int | None = None
    surrendered: tuple[int, ...] = ()
    #: True once an ordinary hand has been shown: declarations are closed.
    revealed: bool = False
    where: Mapping[Card, int] = field(default_factory=dict)

    @property
    def waiting(self) -> tuple[int, ...]:
        """Seats whose hand is not yet recorded, surrendered or declared, in turn order."""
        return tuple(s for s in self.settings.order
                     if s not in self.sets and s not in self.surrendered)

    @property
    def over(self) -> bool:
        return self.showing is None and not self.waiting

    def plays_rows(self, seat: int) -> bool:
        return seat in self.sets and seat not in self.naturals


@dataclass(frozen=True, slots=True)
class ChineseOutcome:
    fouled: Mapping[int, str]
    rates: Mapping[int, Mapping[str, int]]
    pairs: tuple[PairResult, ...]


def outcome(state: ChineseState) -> ChineseOutcome:
    seats = state.settings.seats
    fouled: dict[int, str] = {}
    rates: dict[int, dict[str, int]] = {}
    for s in seats:
        if not state.plays_rows(s):
            continue
        reason = foul_reason(state.sets[s])
        if reason is not None:
            fouled[s] = reason
        else:
            rates[s] = {r: row_rate(state.sets[s], r) for r in ROW_NAMES}
    pairs = tuple(_pair(state, a, b, fouled, rates) for a, b in combinations(seats, 2))
    return ChineseOutcome(fouled=fouled, rates=rates, pairs=pairs)


def _pair(state: ChineseState, a: int, b: int, fouled: Mapping[int, str],
          rates: Mapping[int, Mapping[str, int]]) -> PairResult:
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
        pts, text, rows_detail = _rows(state, a, b, fouled, rates)
        points += pts
        why.append(text)
        detail.update(rows_detail)
    return PairResult(a, b, points, "; ".join(why), detail)


def _rows(state: ChineseState, a: int, b: int, fouled: Mapping[int, str],
          rates: Mapping[int, Mapping[str, int]]) -> tuple[int, str, dict[str, Any]]:
    if a in fouled and b in fouled:
        return 0, "both fouled", {"rows_points": 0, "fouled": [a, b]}
    if a in fouled or b in fouled:
        loser, winner = (a, b) if a in fouled else (b, a)
        won = sum(rates[winner].values()) + SCOOP_BONUS
        pts = won if winner == a else -won
        return pts, f"seat {loser} fouled: scooped, {won}", {
            "rows_points": pts, "fouled": [loser], "scoop": winner}
    wins = compare_rows(state.sets[a], state.sets[b])
    pts = 0
    for r, w in wins.items():
        if w > 0:
            pts += rates[a][r]
        elif w < 0:
            pts -= rates[b][r]
    total = sum(wins.values())
    scoop = a if total == 3 else b if total == -3 else None
    if scoop is not None:
        pts += SCOOP_BONUS if scoop == a else -SCOOP_BONUS
    va, vb = values(state.sets[a]), values(state.sets[b])
    text = f"rows {pts:+d} for seat {a}" + (f" (seat {scoop} scoops)" if scoop else "")
    return pts, text, {
        "rows_points": pts,
        "rows": {r: row_verdict(a, va.of(r), b, vb.of(r)) for r in ROW_NAMES},
        "winners": {r: a if w > 0 else b if w < 0 else None for r, w in wins.items()},
        "scoop": scoop,
    }


class ChinesePoker(Game[ChineseState]):
    name = "chinese-poker"
    title = "Chinese Poker"
    players = (2, 4)
    events = EVENTS
    demo = DemoTable(
        settings={"game": "chinese-poker", "seats": 4, "smallest_chip": 100,
                  "stakes": "$1 a unit", "params": {"unit": 100}},
        players=(2, 4),
    )

    def start(self, event: Start) -> ChineseState:
        check_keys(event, ("button", "unit", "pair_units"))
        seats = table_seats(event)
        button = button_setting(event, seats)
        return ChineseState(settings=ChineseSettings(
            seats=seats, button=button, stakes=stakes_setting(event, seats),
            fees=house_fees(event, seats, button)))

    # --- check -------------------------------------------------------------------------------

    def check(self, state: ChineseState, event: Event) -> None:
        seat = event.seat_of
        if isinstance(event, (Natural, SetHand, Surrender)):
            if seat not in state.settings.seats:
                raise RuleViolation(f"seat {seat} is not playing this hand", rule="seat")
            assert seat is not None
            if state.over:
                raise RuleViolation("every hand is settled: nothing more to record", rule="input")
            if seat in state.surrendered:
                raise RuleViolation(f"seat {seat} has surrendered", rule="Chinese 2")
            if seat in state.sets:
                raise RuleViolation(f"seat {seat}'s hand is already recorded", rule="input")
        if isinstance(event, Natural):
            kind = natural_kind(event.kind)
            self._check_declaring(state, event.seat, f"declare {NATURAL_NAMES[kind]}")
            if state.surrendered:
                raise RuleViolation(
                    f"naturals are declared before surrenders, and seat {state.surrendered[0]} "
                    "has surrendered", rule="Chinese 1")
        elif isinstance(event, Surrender):
            self._check_declaring(state, event.seat, "surrender")
        elif isinstance(event, SetHand):
            if state.showing is not None and event.seat != state.showing:
                raise RuleViolation(
                    f"seat {state.showing} declared "
                    f"{NATURAL_NAMES[state.naturals[state.showing]]}: record its thirteen "
                    "cards first", rule="Chinese 1")
            check_set_sizes(event.seat, event.front, event.middle, event.back)
            for card in event.front + event.middle + event.back:
                owner = state.where.get(card)
                if owner is not None:
                    raise RuleViolation(f"{card.code} is already in seat {owner}'s hand",
                                        rule="cards")
            if event.seat == state.showing:
                kind = state.naturals[event.seat]
                problem = natural_problem(Rows(event.front, event.middle, event.back), kind)
                if problem is not None:
                    raise RuleViolation(
                        f"seat {event.seat} declared {NATURAL_NAMES[kind]}, but {problem}: "
                        "void the declaration if it was a mistake", rule="Chinese 1")
        else:
            raise RuleViolation(
                f'"{event.TYPE}" is not an input in Chinese Poker: record a set, a natural or '
                "a surrender", rule="input")

    def _check_declaring(self, state: ChineseState, seat: int, what: str) -> None:
        if state.revealed:
            raise RuleViolation(f"hands are already shown: too late to {what}",
                                rule="Chinese 1-2")
        if state.showing is not None:
            raise RuleViolation(
                f"seat {state.showing} declared {NATURAL_NAMES[state.naturals[state.showing]]}:"
                " record its thirteen cards first", rule="Chinese 1")
        if seat in state.naturals:
            raise RuleViolation(f"seat {seat} already declared a natural", rule="Chinese 1")

    # --- transition --------------------------------------------------------------------------

    def transition(self, state: ChineseState, event: Event) -> ChineseState:
        if isinstance(event, Natural):
            return replace(state, naturals={**state.naturals, event.seat: natural_kind(event.kind)},
                           showing=event.seat)
        if isinstance(event, Surrender):
            return replace(state, surrendered=(*state.surrendered, event.seat))
        if isinstance(event, SetHand):
            rows = Rows(event.front, event.middle, event.back)
            where = dict(state.where)
            for card in rows.cards:
                where[card] = event.seat
            shown_natural = event.seat == state.showing
            return replace(state, sets={**state.sets, event.seat: rows}, where=where,
                           showing=None if shown_natural else state.showing,
                           revealed=state.revealed or not shown_natural)
        raise RuleViolation(f'"{event.TYPE}" is not an input in this game', rule="input")

    # --- prompt, view ------------------------------------------------------------------------

    def is_over(self, state: ChineseState) -> bool:
        return state.over

    def prompt(self, state: ChineseState) -> Prompt:
        if state.over:
            return Prompt(phase="showdown", to_act=None, done=True,
                          message="Every hand is recorded: settle the hand")
        if state.showing is not None:
            s = state.showing
            return Prompt(
                phase="naturals", to_act=s,
                message=f"Seat {s} declared {NATURAL_NAMES[state.naturals[s]]}: "
                        "record its thirteen cards as shown",
                actions=(Action(kind="set", label=f"Seat {s} shows", seat=s, needs="rows"),))
        actions: list[Action] = []
        for s in state.waiting:
            actions.append(Action(kind="set", label=f"Seat {s}'s rows", seat=s, needs="rows"))
            if not state.revealed:
                actions.append(Action(
                    kind="natural", label=f"Seat {s} declares a natural", seat=s,
                    input=Choice("kind", tuple(NATURALS)),
                    enabled=not state.surrendered,
                    reason="naturals come before surrenders" if state.surrendered else ""))
                actions.append(Action(kind="surrender", label=f"Seat {s} surrenders", seat=s,
                                      amount=SURRENDER_UNITS * sum(
                                          state.settings.stakes.between(s, o)
                                          for o in state.settings.seats if o != s)))
        waiting = ", ".join(str(s) for s in state.waiting)
        if state.revealed:
            return Prompt(phase="reveal", to_act=state.waiting[0], actions=tuple(actions),
                          message=f"Record the rows of seat{'s' if len(state.waiting) > 1 else ''}"
                                  f" {waiting}")
        return Prompt(
            phase="declare", to_act=None, actions=tuple(actions),
            message="Naturals, then surrenders, before any hand is shown; then record each "
                    f"hand's rows (seats {waiting})",
            instructions=("A natural is paid at once by every opponent: dragon 13 units, "
                          "others 3",
                          f"A surrender pays {SURRENDER_UNITS} units to every opponent"))

    def view(self, state: ChineseState, *, reveal: bool = False) -> TableView:
        st = state.settings
        out = outcome(state) if state.over else None
        seats: list[SeatView] = []
        for s in st.seats:
            rows = state.sets.get(s)
            status, detail = "", ""
            if s in state.naturals:
                status, detail = "natural", NATURAL_NAMES[state.naturals[s]]
            elif s in state.surrendered:
                status = "surrendered"
                detail = f"pays {SURRENDER_UNITS} units to each opponent"
            elif rows is not None:
                reason = foul_reason(rows)
                if reason is not None:
                    status, detail = "fouled", f"fouled: {reason}"
                else:
                    bonus = {r: row_rate(rows, r) for r in ROW_NAMES}
                    named = ", ".join(f"{r} {u}" for r, u in bonus.items() if u > 1)
                    detail = f"bonus rows: {named}" if named else ""
            if out is not None:
                net = sum(p.points if p.a == s else -p.points
                          for p in out.pairs if s in (p.a, p.b))
                detail = (detail + "; " if detail else "") + f"net {net:+d} units"
            waiting = rows is None and s not in state.surrendered
            seats.append(SeatView(
                seat=s, status=status, detail=detail or ("set face down" if waiting else ""),
                rows=rows.as_view() if rows else (),
                face_down=waiting, hidden=HAND_SIZE if waiting else 0,
                to_act=s == state.showing))
        return TableView(game=self.name, seats=tuple(seats), button=st.button,
                         to_act=state.showing, info=stakes_info(st.stakes))

    # --- settle, report ----------------------------------------------------------------------

    def contributions(self, state: ChineseState) -> dict[int, int]:
        """Only the house fees taken before the deal are on the table until the settlement."""
        return fees_by_seat(state.settings.seats, state.settings.fees)

    def settle(self, state: ChineseState) -> Settlement:
        require_finished(state.over, self.prompt(state).message if not state.over else "")
        return settle_pairs(state.settings.seats, outcome(state).pairs, state.settings.stakes,
                            state.settings.fees)

    def report(self, state: ChineseState) -> dict[str, Any]:
        st = state.settings
        base: dict[str, Any] = {
            **table_report(st.seats, st.button, st.stakes),
            "naturals": seat_keys(dict(state.naturals)),
            "surrendered": list(state.surrendered),
            "rows": seat_keys({s: r.to_json() for s, r in state.sets.items()}),
        }
        if not state.over:
            return base
        out = outcome(state)
        base.update({
            "royalties": seat_keys({s: {r: u for r, u in rates.items() if u > 1}
                                    for s, rates in out.rates.items()}),
            **scoring_report(st.seats, out.pairs, st.stakes, st.fees, out.fouled),
        })
        return base

    def narrate(self, before: ChineseState, event: Event, after: ChineseState) -> list[str]:
        lines: list[str] = []
        if isinstance(event, Natural):
            kind = after.naturals[event.seat]
            lines.append(f"seat {event.seat} declares {NATURAL_NAMES[kind]} "
                         f"({NATURALS[kind][1]} units from each opponent)")
        elif isinstance(event, Surrender):
            lines.append(f"seat {event.seat} surrenders ({SURRENDER_UNITS} units to each "
                         "opponent)")
        elif isinstance(event, SetHand):
            rows = after.sets[event.seat]
            text = " / ".join(cards_text(rows.row(r)) for r in ROW_NAMES)
            if event.seat in after.naturals:
                lines.append(f"seat {event.seat} shows {text}")
            else:
                reason = foul_reason(rows)
                lines.append(f"seat {event.seat} sets {text}"
                             + (f": fouled, {reason}" if reason else ""))
        else:
            lines.append(event.TYPE)
        if after.over and not before.over:
            for p in outcome(after).pairs:
                lines.append(f"seats {p.a} and {p.b}: {p.points:+d} for seat {p.a} ({p.why})")
        return lines

    def sample_hand(self, rng: random.Random, *, players: int,
                    params: Mapping[str, Any] | None = None) -> list[Event]:
        given = dict(params or {})
        unknown = sorted(set(given) - {"fee", "unit"})
        if unknown:
            raise ValueError(f"{self.title} sample hands do not take {', '.join(unknown)}")
        return sample_events(rng, players=players, **given)


def sample_events(rng: random.Random, *, players: int, surrender_chance: float = 0.1,
                  unit: int = 100, fee: Mapping[str, Any] | None = None) -> list[Event]:
    """A random complete legal hand: each hand sorted into rows (so it rarely fouls), a natural
    declared when the deal holds a dragon or six pairs, and the odd surrender."""
    seats = tuple(range(1, players + 1))
    params: dict[str, Any] = {"button": rng.choice(seats), "unit": unit}
    if fee is not None:
        params["fee"] = dict(fee)
    start = Start(game="chinese-poker", seats=seats, params=params)
    deck = list(full_deck())
    rng.shuffle(deck)
    hands = {s: [deck.pop() for _ in range(HAND_SIZE)] for s in seats}
    events: list[Event] = [start]
    surrenders: list[Event] = []
    reveals: list[Event] = []
    for s in seats:
        cards = hands[s]
        if rng.random() < 0.5:
            cards.sort(key=lambda c: c.rank)
        else:
            rng.shuffle(cards)
        hand = SetHand(seat=s, front=tuple(cards[:3]), middle=tuple(cards[3:8]),
                       back=tuple(cards[8:]))
        rows = Rows(hand.front, hand.middle, hand.back)
        natural = next((k for k in ("dragon", "six-pairs")
                        if natural_problem(rows, k) is None), None)
        if natural is not None:
            events.extend([Natural(seat=s, kind=natural), hand])
        elif rng.random() < surrender_chance:
            surrenders.append(Surrender(seat=s))
        else:
            reveals.append(hand)
    return events + surrenders + reveals


GAME = ChinesePoker()

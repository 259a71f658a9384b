"""The dealer box on the shift and day reports: each down (table, game, from, to, hands and
hands per hour beside the table's and the game's average), breaks, late pushes, voids and
misdeals per dealer, and the toke split of each counted toke box.

Built from the dealer box's records (folded as everywhere else) and the store's hands and
audit entries over the report's period; rendered by :mod:`dealer_assist.reports.dealer_story`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime

from dealer_assist.errors import BadInput
from dealer_assist.services.dealer_box import (
    BREAK,
    DEAL,
    Down,
    Rules,
    dealer_at,
    fold_downs,
)
from dealer_assist.services.dealer_ports import DealerRecords
from dealer_assist.services.model import HandFilter, Shift
from dealer_assist.services.reads import Reads
from dealer_assist.services.shift_downs import (
    room_shift_span,
    room_toke_shares,
    shift_dealers,
    with_shift_downs,
)
from dealer_assist.services.tokes import TokeShare, room_shift_label, split, weights


@dataclass(frozen=True, slots=True)
class DownLine:
    """One down (or a break: ``table`` "break") within the report's period."""

    dealer: str
    table: str
    game: str
    start: datetime
    end: datetime | None
    minutes: int
    hands: int = 0
    per_hour: float = 0.0
    table_per_hour: float = 0.0
    game_per_hour: float = 0.0


@dataclass(frozen=True, slots=True)
class DealerTotal:
    """One dealer over the period."""

    dealer: str
    minutes: int
    downs: int
    hands: int
    breaks: int
    break_minutes: int
    late_pushes: int
    voids: int
    misdeals: int


@dataclass(frozen=True, slots=True)
class LateLine:
    dealer: str
    table: str
    start: datetime
    over_minutes: int


@dataclass(frozen=True, slots=True)
class TokeSplit:
    """A counted toke box and its split: the room's box of a room shift (``day`` set), or a
    table shift's (``shift_id``, ``table``) as counted before schema 0025."""

    shift_id: int
    table: str
    amount: int
    rule: str
    team: tuple[str, str]
    shares: tuple[TokeShare, ...]
    day: date | None = None
    room_shift: str = ""

    @property
    def title(self) -> str:
        if self.day is None:
            return f"Tokes, shift {self.shift_id} ({self.table})"
        return f"Tokes, {room_shift_label(self.day, self.room_shift)} (every table)"

    @property
    def odd_cents(self) -> tuple[str, ...]:
        return tuple(s.dealer for s in self.shares if s.odd_cent)


@dataclass(frozen=True, slots=True)
class DealerSection:
    """Everything the dealer box adds to a report."""

    downs: tuple[DownLine, ...]
    breaks: tuple[DownLine, ...]
    totals: tuple[DealerTotal, ...]
    late: tuple[LateLine, ...]
    tokes: tuple[TokeSplit, ...]
    rules: Rules


def _rate(hands: int, minutes: float) -> float:
    return round(hands * 60 / minutes, 1) if minutes > 0 else 0.0


def _clip(d: Down, start: datetime, end: datetime) -> tuple[datetime, datetime] | None:
    a, b = max(d.start, start), min(d.end or end, end)
    return (a, b) if b > a else None


def dealer_section(store: Reads, box: DealerRecords | None, *, start: datetime, end: datetime,
                   table_id: int | None = None, shifts: Sequence[Shift] = ()
                   ) -> DealerSection | None:
    """The dealer box's part of a report over ``[start, end)`` (one table's, or the room's),
    with the toke split of each of ``shifts`` whose toke box was counted. None when the
    room keeps no downs."""
    if box is None:
        return None
    # dealers the box never placed deal their shifts under the old shift rule
    downs = with_shift_downs(
        fold_downs(box.downs()),
        [s for s in store.list_shifts() if s.opened_at < end
         and (s.closed_at is None or s.closed_at > start)
         and (table_id is None or s.table_id == table_id)],
        end=end, dealers=shift_dealers(store.list_users()))
    if not downs:
        return None
    rules = box.rules() or Rules()
    names = {t.id: t.name for t in store.list_tables()}
    # only the period's hands are read (the same ones the filter below keeps)
    hands = [h for h in store.list_hands(HandFilter(table_id=table_id, since=start, until=end,
                                                    limit=None))
             if start <= h.started_at < end and (table_id is None or h.table_id == table_id)]
    games: dict[int, str] = {}
    for h in sorted(hands, key=lambda h: h.started_at):
        games[h.table_id] = h.game
    for tid in names:
        if tid not in games:
            latest = store.latest_settings(tid)
            games[tid] = latest.game if latest is not None else ""

    dealt: list[tuple[Down, datetime, datetime, int]] = []
    breaks: list[DownLine] = []
    for d in downs:
        span = _clip(d, start, end)
        if span is None:
            continue
        minutes = round((span[1] - span[0]).total_seconds() / 60)
        if d.kind == BREAK:
            breaks.append(DownLine(d.dealer, "break", "", span[0], d.end, minutes))
        elif d.kind == DEAL and d.table_id is not None and (
                table_id is None or d.table_id == table_id):
            n = sum(1 for h in hands if h.table_id == d.table_id
                    and span[0] <= h.started_at < span[1])
            dealt.append((d, span[0], span[1], n))

    def minutes_of(rows: list[tuple[Down, datetime, datetime, int]]) -> float:
        return sum((b - a).total_seconds() / 60 for _, a, b, _n in rows)

    by_table = {t: _rate(sum(n for d, _a, _b, n in dealt if d.table_id == t),
                         minutes_of([x for x in dealt if x[0].table_id == t]))
                for t in {d.table_id for d, *_ in dealt}}
    by_game: dict[str, float] = {}
    for g in {games.get(d.table_id or 0, "") for d, *_ in dealt}:
        rows = [x for x in dealt if games.get(x[0].table_id or 0, "") == g]
        by_game[g] = _rate(sum(x[3] for x in rows), minutes_of(rows))
    lines = []
    for d, a, b, n in dealt:
        tid = d.table_id or 0
        lines.append(DownLine(
            d.dealer, names.get(tid, str(tid)), games.get(tid, ""), a, d.end,
            round((b - a).total_seconds() / 60), n, _rate(n, (b - a).total_seconds() / 60),
            by_table.get(tid, 0.0), by_game.get(games.get(tid, ""), 0.0)))

    limit = rules.push_minutes + rules.grace_minutes
    late = [LateLine(d.dealer, names.get(d.table_id or 0, ""), a,
                     int(d.minutes(end) - rules.push_minutes))
            for d, a, _b, _n in dealt if d.minutes(end) > limit]
    voids: dict[str, int] = {}
    misdeals: dict[str, int] = {}
    for action, into in (("void", voids), ("misdeal", misdeals)):
        for e in store.audit_log(action=action):
            if not start <= e.at < end or e.table_id is None or (
                    table_id is not None and e.table_id != table_id):
                continue
            who = dealer_at(downs, e.table_id, e.at) or e.actor or ""
            into[who] = into.get(who, 0) + 1
    people = sorted({x.dealer for x in lines} | {x.dealer for x in breaks} | set(voids)
                    | set(misdeals))
    totals = tuple(DealerTotal(
        dealer=p, minutes=sum(x.minutes for x in lines if x.dealer == p),
        downs=sum(1 for x in lines if x.dealer == p),
        hands=sum(x.hands for x in lines if x.dealer == p),
        breaks=sum(1 for x in breaks if x.dealer == p),
        break_minutes=sum(x.minutes for x in breaks if x.dealer == p),
        late_pushes=sum(1 for x in late if x.dealer == p),
        voids=voids.get(p, 0), misdeals=misdeals.get(p, 0)) for p in people)

    counted = {t.shift_id: t for t in box.toke_counts() if not t.per_room_shift}
    tokes = []
    for s in shifts:
        count = counted.get(s.id)
        if count is None:
            continue
        # the rule in force when the box was counted: a rule set later never re-splits it
        rule = (box.rules(at=count.at) or rules).toke_rule
        w = weights(rule, downs, start=s.opened_at, end=s.closed_at or end,
                    table_id=s.table_id)
        shares = tuple(split(count.amount, w)) if w else ()
        tokes.append(TokeSplit(s.id, names.get(s.table_id, str(s.table_id)), count.amount,
                               rule, count.team, shares))
    for count in box.toke_counts():
        if count.day is None:
            continue
        a, b = room_shift_span(store, count)
        if a >= end or b <= start:
            continue
        try:
            shares = tuple(room_toke_shares(store, box, count))
        except BadInput:  # nobody dealt in it: nothing to split
            shares = ()
        tokes.append(TokeSplit(0, "", count.amount, (box.rules(at=count.at) or rules).toke_rule,
                               count.team, shares, count.day, count.room_shift))
    return DealerSection(tuple(lines), tuple(breaks), totals, tuple(late), tuple(tokes), rules)


def for_shift(store: Reads, box: DealerRecords | None, shift: Shift, end: datetime
              ) -> DealerSection | None:
    """A table shift's dealer section: its table, from its opening to its close (or ``end``)."""
    return dealer_section(store, box, start=shift.opened_at, end=shift.closed_at or end,
                          table_id=shift.table_id, shifts=(shift,))


def for_day(store: Reads, box: DealerRecords | None, start: datetime, end: datetime
            ) -> DealerSection | None:
    """The room's day: every table, with the toke split of each shift opened in the day."""
    shifts = [s for s in store.list_shifts() if start <= s.opened_at < end]
    return dealer_section(store, box, start=start, end=end, shifts=shifts)

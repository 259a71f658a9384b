"""The floor's figures for a period, from its records: table hours per game (open, and going:
at least the game's fewest players seated), player hours, seats filled per table hour, waits
from list to seat (average and 90th percentile), calls not answered, and the records by kind.

Pure: a report builds them from the records and the tables, and prints them.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from dealer_assist.services.floorboard import records as r
from dealer_assist.services.floorboard.ports import FloorTable
from dealer_assist.services.floorboard.records import FloorEntry
from dealer_assist.services.floorboard.state import RoomState, step


@dataclass(frozen=True, slots=True)
class GameFloor:
    """One game and stakes over the period. Hours and minutes are in tenths and whole
    minutes as printed; the exact seconds are kept for sums."""

    game: str
    open_s: int
    going_s: int
    player_s: int
    waits_s: tuple[int, ...]
    calls: int
    unanswered: int

    @property
    def seats_per_table_hour(self) -> float:
        return self.player_s / self.open_s if self.open_s else 0.0

    @property
    def wait_average_s(self) -> int:
        return sum(self.waits_s) // len(self.waits_s) if self.waits_s else 0

    @property
    def wait_p90_s(self) -> int:
        """The 90th percentile by nearest rank: the wait 90 of 100 seated players did not
        pass."""
        if not self.waits_s:
            return 0
        ordered = sorted(self.waits_s)
        return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


@dataclass(frozen=True, slots=True)
class FloorFigures:
    games: tuple[GameFloor, ...]
    #: (action, how many) of the floor's records in the period.
    kinds: tuple[tuple[str, int], ...]


def _label(game: str, stakes: str) -> str:
    return f"{game} {stakes}".strip()


def floor_figures(entries: Iterable[FloorEntry], tables: Sequence[FloorTable],
                  since: datetime, until: datetime) -> FloorFigures:
    """The figures of ``tables`` (a shift's one table, or the room's) from ``since`` to
    ``until``; the records by kind are the whole room's."""
    by_id = {t.id: t for t in tables}
    state = RoomState()
    open_s: Counter[str] = Counter()
    going_s: Counter[str] = Counter()
    player_s: Counter[str] = Counter()
    calls: Counter[str] = Counter()
    unanswered: Counter[str] = Counter()
    waits: dict[str, list[int]] = {}
    kinds: Counter[str] = Counter()
    listed: dict[int, datetime] = {}
    last = since

    def accrue(to: datetime) -> None:
        nonlocal last
        start, end = max(last, since), min(to, until)
        if end > start:
            secs = int((end - start).total_seconds())
            for tid, status in state.status.items():
                t = by_id.get(tid)
                if t is None or status == "closed":
                    continue
                key = _label(t.game, t.stakes)
                seated = len(state.seated(tid))
                open_s[key] += secs
                if seated >= t.min_players:
                    going_s[key] += secs
                player_s[key] += secs * seated
        last = max(last, to)

    def call_game(tid: int) -> str:
        t = by_id.get(tid)
        return _label(t.game, t.stakes) if t else f"table {tid}"

    for e in entries:
        if e.at > until:
            break
        accrue(e.at)
        w = e.what
        inside = e.at >= since
        if inside:
            kinds[w.action] += 1
        if w.action == r.LIST_ADD:
            listed[e.seq] = e.at
        ended = list(state.calls.values())
        step(state, e)
        if not inside:
            continue
        if w.action == r.CALL and w.table_id in by_id:
            calls[call_game(w.table_id)] += 1
        if w.action == r.SEAT and w.entry in listed and w.table_id in by_id:
            waits.setdefault(call_game(w.table_id), []).append(
                int((e.at - listed[w.entry]).total_seconds()))
        for c in ended:  # a call that ended without its player seated was not answered
            if c.table_id in by_id and c.seq not in state.calls and not (
                    w.action == r.SEAT and w.table_id == c.table_id and w.seat == c.seat):
                unanswered[call_game(c.table_id)] += 1
    accrue(until)
    for c in state.calls.values():  # still out at the end, its time run out
        if c.until <= until and c.at >= since and c.table_id in by_id:
            unanswered[call_game(c.table_id)] += 1
    games = sorted(set(open_s) | set(calls) | set(waits))
    return FloorFigures(
        games=tuple(GameFloor(game=g, open_s=open_s[g], going_s=going_s[g],
                              player_s=player_s[g], waits_s=tuple(waits.get(g, ())),
                              calls=calls[g], unanswered=unanswered[g]) for g in games),
        kinds=tuple(sorted(kinds.items())))


def hours(seconds: int) -> str:
    """Seconds as hours to a tenth: ``5400`` -> ``1.5``."""
    return f"{seconds / 3600:.1f}"


def minutes(seconds: int) -> str:
    return f"{round(seconds / 60)}"


__all__ = ["FloorFigures", "GameFloor", "floor_figures", "hours", "minutes"]

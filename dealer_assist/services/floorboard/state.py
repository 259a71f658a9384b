"""The room as it is now, derived by reading the floor's records in order (never stored).

:func:`fold` replays the records: which tables are open or breaking, who sits where (with the
buy-in and since when), every waiting list in order, the calls out, away marks, must-move links
and the room's board settings. The handlers decide on it, the board shows it, verify compares
hands with it (:func:`seating_at`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from dealer_assist.services.floorboard import records as r
from dealer_assist.services.floorboard.records import FloorEntry, RoomRules


@dataclass(frozen=True, slots=True)
class Seated:
    player: str
    table_id: int
    seat: int
    since: datetime
    #: The record that seated the player.
    seq: int
    #: Cents the player sat down with (a buy-in, or the chips brought from another table).
    amount: int | None = None
    #: The table the player moved from (a table or seat change keeps the chips), and the seat.
    from_table: int | None = None
    from_seat: int | None = None
    #: When the player's away time runs out; None: not away.
    away_until: datetime | None = None


@dataclass(frozen=True, slots=True)
class Call:
    seq: int
    player: str
    table_id: int
    seat: int
    at: datetime
    until: datetime
    #: The list entry called (None: a must-move call from the feeder).
    entry: int | None = None
    #: The feeder table a must-move call comes from.
    from_table: int | None = None


@dataclass(frozen=True, slots=True)
class Waiting:
    entry: int
    player: str
    game: str
    stakes: str
    #: When the player was put on the list (the wait is measured from it).
    at: datetime
    not_here: int = 0
    call: int | None = None


@dataclass
class RoomState:
    """What the records say now. Built by :func:`fold`; read, never changed, by its users."""

    rules: RoomRules = field(default_factory=RoomRules)
    #: ``open`` or ``breaking`` per table the floor opened; any other table is closed.
    status: dict[int, str] = field(default_factory=dict)
    seats: dict[int, dict[int, Seated]] = field(default_factory=dict)
    #: The waiting lists by (game, stakes), each in order.
    lists: dict[tuple[str, str], list[Waiting]] = field(default_factory=dict)
    calls: dict[int, Call] = field(default_factory=dict)
    #: Feeder table -> the main game's table it feeds.
    feeders: dict[int, int] = field(default_factory=dict)
    entries: int = 0

    def table_status(self, table_id: int) -> str:
        return self.status.get(table_id, "closed")

    def seated(self, table_id: int) -> dict[int, Seated]:
        return self.seats.get(table_id, {})

    def where_seated(self, player: str) -> list[Seated]:
        key = player.casefold()
        return [s for seats in self.seats.values() for s in seats.values()
                if s.player.casefold() == key]

    def calls_for(self, player: str) -> list[Call]:
        key = player.casefold()
        return [c for c in self.calls.values() if c.player.casefold() == key]

    def call_on(self, table_id: int, seat: int) -> Call | None:
        for c in self.calls.values():
            if c.table_id == table_id and c.seat == seat:
                return c
        return None

    def waiting(self, entry: int) -> Waiting | None:
        for lst in self.lists.values():
            for w in lst:
                if w.entry == entry:
                    return w
        return None


def _drop_entry(state: RoomState, entry: int | None) -> Waiting | None:
    if entry is None:
        return None
    for key, lst in state.lists.items():
        for i, w in enumerate(lst):
            if w.entry == entry:
                del lst[i]
                if w.call is not None:
                    state.calls.pop(w.call, None)
                if not lst:
                    del state.lists[key]
                return w
    return None


def _free(state: RoomState, table_id: int | None, seat: int | None) -> None:
    if table_id is not None and seat is not None:
        state.seats.get(table_id, {}).pop(seat, None)


def step(state: RoomState, e: FloorEntry) -> None:
    """Apply one record to ``state`` (in place: :func:`fold` owns the state it builds)."""
    w = e.what
    state.entries = e.seq
    t = w.table_id
    if w.action == r.SETTING and w.setting and w.value is not None:
        state.rules = state.rules.with_setting(w.setting, w.value)
    elif w.action == r.OPEN and t is not None:
        state.status[t] = "open"
    elif w.action == r.BREAKING and t is not None:
        state.status[t] = "breaking"
    elif w.action == r.CLOSE and t is not None:
        state.status.pop(t, None)
        state.seats.pop(t, None)
        for c in [c for c in state.calls.values() if c.table_id == t]:
            _end_call(state, c.seq)
        state.feeders = {f: m for f, m in state.feeders.items() if t not in (f, m)}
    elif w.action == r.LIST_ADD and w.player and w.game is not None:
        key = (w.game, w.stakes or "")
        state.lists.setdefault(key, []).append(
            Waiting(entry=e.seq, player=w.player, game=w.game, stakes=w.stakes or "", at=e.at))
    elif w.action == r.CALL and t is not None and w.seat is not None and w.player:
        until = e.at + timedelta(minutes=w.minutes or state.rules.call_minutes)
        state.calls[e.seq] = Call(seq=e.seq, player=w.player, table_id=t, seat=w.seat, at=e.at,
                                  until=until, entry=w.entry, from_table=w.other_table)
        _set_waiting(state, w.entry, call=e.seq)
    elif w.action == r.SEAT and t is not None and w.seat is not None and w.player:
        call = state.call_on(t, w.seat)
        if call is not None:
            state.calls.pop(call.seq, None)
        _drop_entry(state, w.entry)
        left: int | None = None
        if w.other_table is not None:
            for s in list(state.seated(w.other_table).values()):
                if s.player.casefold() == w.player.casefold():
                    left = s.seat
                    _free(state, w.other_table, s.seat)
        state.seats.setdefault(t, {})[w.seat] = Seated(
            player=w.player, table_id=t, seat=w.seat, since=e.at, seq=e.seq, amount=w.amount,
            from_table=w.other_table, from_seat=left)
    elif w.action == r.NOT_HERE and w.entry is not None:
        _not_here(state, w.entry)
    elif w.action == r.REMOVE:
        if w.entry is not None:
            _drop_entry(state, w.entry)
        elif t is not None and w.seat is not None:  # a must-move call withdrawn
            call = state.call_on(t, w.seat)
            if call is not None:
                _end_call(state, call.seq)
    elif w.action in (r.LEAVE, r.PICK_UP):
        _free(state, t, w.seat)
    elif w.action in (r.AWAY, r.BACK) and t is not None and w.seat is not None:
        sitting = state.seated(t).get(w.seat)
        if sitting is not None:
            away = (e.at + timedelta(minutes=w.minutes or state.rules.away_minutes)
                    if w.action == r.AWAY else None)
            state.seats[t][w.seat] = replace(sitting, away_until=away)
    elif w.action == r.MUST_MOVE and t is not None:
        state.feeders = {f: m for f, m in state.feeders.items() if m != t}
        if w.other_table is not None:
            state.feeders[w.other_table] = t


def _set_waiting(state: RoomState, entry: int | None, *, call: int | None) -> None:
    if entry is None:
        return
    for lst in state.lists.values():
        for i, w in enumerate(lst):
            if w.entry == entry:
                lst[i] = replace(w, call=call)


def _end_call(state: RoomState, seq: int) -> None:
    call = state.calls.pop(seq, None)
    if call is not None:
        _set_waiting(state, call.entry, call=None)


def _not_here(state: RoomState, entry: int) -> None:
    for key, lst in state.lists.items():
        for i, w in enumerate(lst):
            if w.entry != entry:
                continue
            if w.call is not None:
                state.calls.pop(w.call, None)
            missed = w.not_here + 1
            del lst[i]
            if state.rules.not_here == "end-then-off" and missed < 2:
                lst.append(replace(w, not_here=missed, call=None))
            if not lst:
                del state.lists[key]
            return


def fold(entries: Iterable[FloorEntry], *, until: datetime | None = None) -> RoomState:
    """The room after ``entries`` in order (only those before ``until``, when given)."""
    state = RoomState()
    for e in entries:
        if until is not None and e.at > until:
            break
        step(state, e)
    return state


def seating_at(entries: Iterable[FloorEntry], table_id: int, at: datetime) -> tuple[int, ...]:
    """The seats taken at ``table_id`` by the records up to ``at`` (verify holds a hand's
    start to them)."""
    return tuple(sorted(fold(entries, until=at).seated(table_id)))

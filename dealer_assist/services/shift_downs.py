"""The old shift rule beside the dealer box: a dealer the box never placed (a room that does
not use the rotation, or a dealer who never signed in by it) deals the shift they opened, at
its table, from its opening to its close, except where a down record puts another dealer at
that table. Dealer hours and the toke split read these downs with the box's own, so such a
dealer's time is neither lost nor counted twice.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from datetime import date, datetime, timedelta

from dealer_assist.services.dealer_box import DEAL, Down, Rules, fold_downs
from dealer_assist.services.dealer_ports import DealerRecords, TokeCount
from dealer_assist.services.model import Shift
from dealer_assist.services.reads import Reads
from dealer_assist.services.room import RoomClock
from dealer_assist.services.tokes import TokeShare, room_shift_bounds, split, weights

#: A stretch shorter than this is the moment between a shift's opening and the box's first
#: sign-in at its table (one station's two writes), not a down.
SHORTEST = timedelta(minutes=1)


def with_shift_downs(downs: Sequence[Down], shifts: Iterable[Shift], *, end: datetime,
                     dealers: Collection[str]) -> list[Down]:
    """``downs`` plus, for each shift whose dealer (one of ``dealers``: a floor person who
    opened a table deals no tokes) has no down record at all, the stretches of the shift no
    recorded down at its table covers (a minute or more), in the order they started. A shift
    still open runs to ``end`` (its last stretch has no end)."""
    placed = {d.dealer for d in downs}
    out = list(downs)
    for s in shifts:
        if s.dealer in placed or s.dealer not in dealers:
            continue
        close = s.closed_at or end
        if close <= s.opened_at:
            continue
        covered = sorted((max(d.start, s.opened_at), min(d.end or close, close))
                         for d in downs if d.kind == DEAL and d.table_id == s.table_id
                         and d.start < close and (d.end is None or d.end > s.opened_at))
        cursor = s.opened_at
        for a, b in covered:
            if a - cursor >= SHORTEST:
                out.append(Down(s.dealer, DEAL, s.table_id, cursor, a))
            cursor = max(cursor, b)
        if close - cursor >= SHORTEST:
            out.append(Down(s.dealer, DEAL, s.table_id, cursor, s.closed_at))
    return sorted(out, key=lambda d: d.start)


def shift_dealers(users: Iterable[object]) -> set[str]:
    """The names of the users whose role is dealer (who share tokes and are on the hours)."""
    return {str(getattr(u, "name", "")) for u in users if getattr(u, "role", "") == "dealer"}


def room_clock_for_day(store: Reads, day: date) -> RoomClock:
    """The room clock that keeps gaming day ``day`` (a clock set during a day keeps the days
    after it: dealers' shifts already running keep their bounds)."""
    from dealer_assist.services.counts import clock_spans

    found = RoomClock()
    for span in clock_spans(store):
        if span.first_day is None or span.first_day <= day:
            found = span.clock
    return found


def room_shift_span(store: Reads, count: TokeCount) -> tuple[datetime, datetime]:
    """When the room shift of a room toke count ran (UTC), by the clock that kept its day."""
    if count.day is None:
        raise ValueError("a table shift's toke count has no room shift")
    return room_shift_bounds(room_clock_for_day(store, count.day), count.day, count.room_shift)


def room_toke_shares(store: Reads, box: DealerRecords, count: TokeCount) -> list[TokeShare]:
    """The room's toke box of a room shift shared among every dealer who dealt in it, at any
    table (dealers the box never placed by the old shift rule), by the rule in force when it
    was counted."""
    start, end = room_shift_span(store, count)
    rule = (box.rules(at=count.at) or Rules()).toke_rule
    shifts = [s for s in store.list_shifts()
              if s.opened_at < end and (s.closed_at is None or s.closed_at > start)]
    downs = with_shift_downs(fold_downs(box.downs()), shifts, end=end,
                             dealers=shift_dealers(store.list_users()))
    return split(count.amount, weights(rule, downs, start=start, end=end))

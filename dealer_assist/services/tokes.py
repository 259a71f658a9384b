"""The toke split: a counted toke box shared among the dealers who dealt in its shift, in
whole cents. A room counts one box per room shift (:func:`room_shift_bounds`), shared among
every dealer who dealt in it at any table; a box counted per table shift before schema 0025 is
shared among the dealers of that table.

Each dealer's share is their weight (minutes dealt, downs dealt, or one each) over the total,
rounded down to the cent; the cents left over go one each to the largest remainders (ties in
name order) and are named on the report, so the shares always add up to the box.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from dealer_assist.errors import BadInput
from dealer_assist.services.dealer_box import DEAL, TOKE_RULES, Down
from dealer_assist.services.room import RoomClock


@dataclass(frozen=True, slots=True)
class TokeShare:
    """One dealer's share: ``weight`` (minutes, downs or 1), ``cents`` paid, of which
    ``odd_cent`` is the one cent of the remainder they were given (0 or 1)."""

    dealer: str
    weight: int
    cents: int
    odd_cent: int


def split(amount: int, weights: Mapping[str, int]) -> list[TokeShare]:
    """Share ``amount`` cents by ``weights`` (every weight zero: equally). Conserves the total."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise BadInput(f"the toke box must be a whole number of cents, 0 or more, not {amount!r}")
    if not weights:
        raise BadInput("no dealer dealt this shift: there is nobody to share the tokes with")
    if any(w < 0 for w in weights.values()):
        raise BadInput("a toke weight cannot be negative")
    used = dict(weights) if sum(weights.values()) > 0 else dict.fromkeys(weights, 1)
    total = sum(used.values())
    base = {n: amount * w // total for n, w in used.items()}
    rest = {n: amount * w % total for n, w in used.items()}
    left = amount - sum(base.values())
    order = sorted(used, key=lambda n: (-rest[n], n))
    odd = set(order[:left])
    return [TokeShare(dealer=n, weight=weights[n], cents=base[n] + (1 if n in odd else 0),
                      odd_cent=1 if n in odd else 0) for n in sorted(used)]


def weights(rule: str, downs: Sequence[Down], *, start: datetime, end: datetime,
            table_id: int | None = None) -> dict[str, int]:
    """Each dealer's weight over the downs at a table (any table when None) that overlap the
    period: minutes dealt in it (to the nearest minute), downs dealt in it, or one each."""
    if rule not in TOKE_RULES:
        raise BadInput(f'"{rule}" is not one of the room\'s toke splits: choose '
                       f"{', '.join(TOKE_RULES)}")
    out: dict[str, int] = {}
    for d in downs:
        if d.kind != DEAL or (table_id is not None and d.table_id != table_id):
            continue
        a, b = max(d.start, start), min(d.end or end, end)
        if b <= a:
            continue
        if rule == "minutes":
            out[d.dealer] = out.get(d.dealer, 0) + round((b - a).total_seconds() / 60)
        elif rule == "downs":
            out[d.dealer] = out.get(d.dealer, 0) + 1
        else:
            out[d.dealer] = 1
    return out


def room_shift_label(day: date, room_shift: str) -> str:
    """"the swing shift of 2026-11-21", or "gaming day 2026-11-21" (a room naming no shifts)."""
    return f"the {room_shift} shift of {day}" if room_shift else f"gaming day {day}"


def room_shift_bounds(clock: RoomClock, day: date, room_shift: str) -> tuple[datetime, datetime]:
    """When the room shift ``room_shift`` of gaming day ``day`` runs, in UTC: from its start
    hour to the next shift's (the last one of the day to the first one of the next day). A
    room that names no shifts counts per gaming day: ``room_shift`` is then ""."""
    if not clock.shifts:
        if room_shift:
            raise BadInput(f'the room names no shifts, so there is no "{room_shift}" shift: its '
                           "toke box is counted per gaming day (leave the room shift out)")
        a, b = clock.day_bounds(day)
        return a.astimezone(UTC), b.astimezone(UTC)
    order = sorted(clock.shifts, key=lambda s: (s[1] - clock.day_starts) % 24)
    names = [n for n, _ in order]
    if room_shift not in names:
        raise BadInput(f'"{room_shift}" is not one of the room\'s shifts: choose '
                       f"{', '.join(names)}")

    def start(d: date, hour: int) -> datetime:
        local = d if hour >= clock.day_starts else d + timedelta(days=1)
        return datetime.combine(local, time(hour), tzinfo=clock.tz).astimezone(UTC)

    i = names.index(room_shift)
    end = (start(day, order[i + 1][1]) if i + 1 < len(order)
           else start(day + timedelta(days=1), order[0][1]))
    return start(day, order[i][1]), end

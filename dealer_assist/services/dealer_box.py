"""The dealer box: where each dealer deals, derived from the room's down records in order.

A down record says "from this moment, this dealer deals this table" (``deal``), "is on a
break" (``break``) or "is off the tables" (``off``). Nothing is updated: a down ends when the
next record of the same dealer starts, or when another dealer's ``deal`` record at the same
table starts (the relief pushed in). Who is down where, since when, is a fold over the
records (:func:`fold_downs`), the same at every station, in every report and in ``verify``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from dealer_assist.errors import BadInput

#: What a down record starts.
DEAL, BREAK, OFF = "deal", "break", "off"
DOWN_KINDS = (DEAL, BREAK, OFF)
#: How the toke box is shared among a shift's dealers.
TOKE_RULES = ("minutes", "downs", "equal")


@dataclass(frozen=True, slots=True)
class DownRecord:
    """One sealed down record: ``dealer`` starts a ``kind`` (deal at ``table_id``, break, or
    off) at ``at``, written by ``actor``."""

    seq: int
    at: datetime
    actor: str
    dealer: str
    kind: str
    table_id: int | None = None


@dataclass(frozen=True, slots=True)
class NewDown:
    """A down record to append (the store gives it its seq)."""

    at: datetime
    actor: str
    dealer: str
    kind: str
    table_id: int | None = None


@dataclass(frozen=True, slots=True)
class Down:
    """A dealer's stretch at one table (``table_id``) or on a break (``table_id`` None, kind
    ``break``), from ``start`` to ``end`` (None: still running)."""

    dealer: str
    kind: str
    table_id: int | None
    start: datetime
    end: datetime | None = None
    seq: int = 0

    def minutes(self, now: datetime) -> float:
        """How long it ran (or has run so far), in minutes."""
        return ((self.end or now) - self.start).total_seconds() / 60


@dataclass(frozen=True, slots=True)
class Rules:
    """The room's dealer rules: push every ``push_minutes``; a ``break_minutes`` break after
    ``break_after_minutes`` dealt; a push is late past the interval plus ``grace_minutes``;
    a shift lasts ``shift_minutes``; tokes are split by ``toke_rule``."""

    push_minutes: int = 30
    break_after_minutes: int = 90
    break_minutes: int = 20
    grace_minutes: int = 5
    shift_minutes: int = 480
    toke_rule: str = "minutes"


@dataclass(frozen=True, slots=True)
class Rotation:
    """Dealers in order over tables in order: the dealer at the n-th table moves to the next
    one; from the last table, to a break when the rotation has more dealers than tables, else
    back to the first. The dealer back from a break (or not yet down) relieves the first."""

    dealers: tuple[str, ...] = ()
    tables: tuple[int, ...] = ()


def check_rules(rules: Rules) -> None:
    """Refuse rules a room cannot run: numbers out of range, a break rule longer than a shift,
    a toke split that is not one of the room's."""
    bounds = {"push_minutes": (1, 240), "break_after_minutes": (1, 1440),
              "break_minutes": (1, 240), "grace_minutes": (0, 120), "shift_minutes": (30, 1440)}
    for name, (low, high) in bounds.items():
        value = getattr(rules, name)
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise BadInput(f"{name.replace('_', ' ')} must be a whole number from {low} to "
                           f"{high}, not {value!r}")
    if rules.break_after_minutes + rules.break_minutes > rules.shift_minutes:
        raise BadInput(
            f"a {rules.break_minutes} minute break after {rules.break_after_minutes} minutes "
            f"dealing is longer than the {rules.shift_minutes} minute shift: shorten the break "
            "rule or lengthen the shift")
    if rules.toke_rule not in TOKE_RULES:
        raise BadInput(f'"{rules.toke_rule}" is not one of the room\'s toke splits: choose '
                       f"{', '.join(TOKE_RULES)}")


def check_rotation(rotation: Rotation, *, active_dealers: Iterable[str],
                   open_tables: Mapping[int, str], names: Mapping[int, str] | None = None,
                   ) -> None:
    """Refuse a rotation naming a dealer who is not an active dealer, a table not open (no
    open shift), a name or table twice, or fewer dealers than tables."""
    if not rotation.dealers or not rotation.tables:
        raise BadInput("a rotation needs at least one dealer and one table")
    active = set(active_dealers)
    for name in rotation.dealers:
        if name not in active:
            raise BadInput(f"{name} is not an active dealer: enable them or leave them out of "
                           "the rotation")
    for table in rotation.tables:
        if table not in open_tables:
            label = (names or {}).get(table, f"table {table}")
            raise BadInput(f"{label} is closed (no open shift): open it first or leave it out "
                           "of the rotation")
    if len(set(rotation.dealers)) != len(rotation.dealers):
        raise BadInput("a dealer is named twice in the rotation: name each once")
    if len(set(rotation.tables)) != len(rotation.tables):
        raise BadInput("a table is named twice in the rotation: name each once")
    if len(rotation.dealers) < len(rotation.tables):
        raise BadInput(f"{len(rotation.dealers)} dealers cannot cover {len(rotation.tables)} "
                       "tables: add dealers or leave tables out")


def fold_downs(records: Iterable[DownRecord]) -> list[Down]:
    """Every down, in the order it started, each ended by the next record of its dealer or by
    another dealer's deal record at its table."""
    downs: list[Down] = []
    current: dict[str, int] = {}  # dealer -> index of their running down
    at_table: dict[int, str] = {}  # table -> dealer down there now

    def end(dealer: str, at: datetime) -> None:
        i = current.pop(dealer, None)
        if i is None:
            return
        d = downs[i]
        downs[i] = Down(d.dealer, d.kind, d.table_id, d.start, at, d.seq)
        if d.table_id is not None and at_table.get(d.table_id) == dealer:
            del at_table[d.table_id]

    for r in records:
        end(r.dealer, r.at)
        if r.kind == DEAL and r.table_id is not None:
            other = at_table.get(r.table_id)
            if other is not None:
                end(other, r.at)
            at_table[r.table_id] = r.dealer
        if r.kind in (DEAL, BREAK):
            current[r.dealer] = len(downs)
            downs.append(Down(r.dealer, r.kind, r.table_id, r.at, None, r.seq))
    return downs


def running(downs: Sequence[Down]) -> dict[str, Down]:
    """Each dealer's running down (deal or break), by name."""
    return {d.dealer: d for d in downs if d.end is None}


def dealer_at(downs: Sequence[Down], table_id: int, t: datetime) -> str | None:
    """The dealer down at ``table_id`` at time ``t`` (None: nobody)."""
    for d in reversed(downs):
        if d.table_id == table_id and d.start <= t and (d.end is None or t < d.end):
            return d.dealer
    return None


def stamp(records: Sequence[DownRecord], dealer: str, table_id: int | None) -> tuple[int, int]:
    """What a sign-in was decided on: the seq of the dealer's last record and of the last
    deal record at the table. If either moved before the append, another station got there
    first and the sign-in is refused (so two stations cannot both place one dealer)."""
    mine = max((r.seq for r in records if r.dealer == dealer), default=0)
    here = max((r.seq for r in records if table_id is not None and r.kind == DEAL
                and r.table_id == table_id), default=0)
    return mine, here


def dealt_since_break(downs: Sequence[Down], dealer: str, now: datetime) -> float:
    """Minutes the dealer has dealt since their last break began (or since the first down)."""
    total = 0.0
    for d in downs:
        if d.dealer != dealer:
            continue
        if d.kind == BREAK:
            total = 0.0
        elif d.kind == DEAL:
            total += d.minutes(now)
    return total


@dataclass(frozen=True, slots=True)
class Push:
    """What happens at a table at its next push: ``dealer`` (down there now, None: nobody)
    goes to ``to`` (a table id, or None: a break); ``relief`` comes in (None: nobody free)."""

    table_id: int
    dealer: str | None
    since: datetime | None
    due: datetime | None
    to: int | None
    relief: str | None


def next_place(rotation: Rotation, rules: Rules, downs: Sequence[Down], dealer: str,
               now: datetime) -> int | None:
    """Where the dealer goes at their next push: the next table of the rotation, or None for
    a break (the break rule reached, or the end of the line with dealers to spare)."""
    run = running(downs).get(dealer) or pushed_out(downs, dealer)
    tables = rotation.tables
    if run is None or run.kind != DEAL or run.table_id not in tables:
        return tables[0] if tables else None
    # whole minutes: a push a few seconds late does not send a dealer on an early break
    dealt = int(dealt_since_break(downs, dealer, now))
    if dealt + rules.push_minutes > rules.break_after_minutes:
        return None
    i = tables.index(run.table_id)
    if i + 1 < len(tables):
        return tables[i + 1]
    return None if len(rotation.dealers) > len(tables) else tables[0]


def pushed_out(downs: Sequence[Down], dealer: str) -> Down | None:
    """The dealer's last down when a relief ended it and they have not signed in anywhere
    since: they are on their way to the rotation's next place."""
    last = next((d for d in reversed(downs) if d.dealer == dealer), None)
    if last is None or last.end is None or last.kind != DEAL or last.table_id is None:
        return None
    relief = dealer_at(downs, last.table_id, last.end)
    return last if relief is not None and relief != dealer else None


def off_tables(downs: Sequence[Down], dealer: str) -> bool:
    """The floor took the dealer off the tables (their last down was ended by their own
    "off" record, not by a relief): they relieve nobody until they sign in again."""
    last = next((d for d in reversed(downs) if d.dealer == dealer), None)
    return last is not None and last.end is not None and pushed_out(downs, dealer) is None


def _free(rotation: Rotation, rules: Rules, downs: Sequence[Down], now: datetime) -> list[str]:
    """Rotation dealers free to relieve: not down at a table, not taken off the tables, and
    off any break long enough; those between tables first (in rotation order), then the
    longest on break."""
    run = running(downs)
    idle = [n for n in rotation.dealers if n not in run and not off_tables(downs, n)]
    rested = [d for d in run.values() if d.dealer in rotation.dealers and d.kind == BREAK
              and d.minutes(now) >= rules.break_minutes]
    return idle + [d.dealer for d in sorted(rested, key=lambda d: d.start)]


def plan(rotation: Rotation, rules: Rules, downs: Sequence[Down], now: datetime) -> list[Push]:
    """The next push at each table of the rotation: who is there, when it is due, where they
    go and who relieves them (the dealer moving on from the table before, or a free one)."""
    run = running(downs)
    here: dict[int, Down] = {d.table_id: d for d in run.values()
                             if d.kind == DEAL and d.table_id is not None}
    moving = {n: next_place(rotation, rules, downs, n, now) for n in rotation.dealers
              if (n in run and run[n].kind == DEAL) or pushed_out(downs, n) is not None}
    free = [n for n in _free(rotation, rules, downs, now) if n not in moving]
    comers = {t: [n for n, to in moving.items() if to == t
                  and n != (here[t].dealer if t in here else None)] for t in rotation.tables}
    # free dealers go first to a table nobody deals, then to the push due first
    relief: dict[int, str | None] = {t: c[0] if c else None for t, c in comers.items()}
    for t in sorted((t for t in rotation.tables if relief[t] is None),
                    key=lambda t: (t in here, here[t].start if t in here else now)):
        relief[t] = free.pop(0) if free else None
    pushes: list[Push] = []
    for table in rotation.tables:
        d = here.get(table)
        due = d.start + timedelta(minutes=rules.push_minutes) if d is not None else None
        pushes.append(Push(
            table_id=table, dealer=d.dealer if d else None, since=d.start if d else None,
            due=due, to=moving.get(d.dealer) if d else None, relief=relief[table],
        ))
    return pushes


@dataclass(frozen=True, slots=True)
class LatePush:
    """A down at a table that ran past the push interval by more than the room's grace."""

    down: Down
    over_minutes: int


def late_pushes(downs: Sequence[Down], rules: Rules, now: datetime) -> list[LatePush]:
    """Every down at a table (ended or running) longer than the interval plus the grace."""
    limit = rules.push_minutes + rules.grace_minutes
    out = []
    for d in downs:
        if d.kind == DEAL and d.minutes(now) > limit:
            out.append(LatePush(d, int(d.minutes(now) - rules.push_minutes)))
    return out


@dataclass(frozen=True, slots=True)
class Overlap:
    """Two downs of one dealer that overlap in time (records written out of time order)."""

    dealer: str
    first: DownRecord
    second: DownRecord


def overlaps(records: Sequence[DownRecord]) -> list[Overlap]:
    """A dealer's record starting before their previous one: the two downs overlap. Appends
    refuse it; ``verify`` names any that a clock or a hand-made row let through."""
    last: dict[str, DownRecord] = {}
    out = []
    for r in records:
        before = last.get(r.dealer)
        if before is not None and r.at < before.at:
            out.append(Overlap(r.dealer, before, r))
        last[r.dealer] = r
    return out


@dataclass(frozen=True, slots=True)
class DealerBoxState:
    """Everything read once from the records: downs, the rules and rotation in force."""

    records: tuple[DownRecord, ...] = ()
    rules: Rules = field(default_factory=Rules)
    rotation: Rotation = field(default_factory=Rotation)
    has_rules: bool = False

    @property
    def downs(self) -> list[Down]:
        return fold_downs(self.records)

"""The dealer box's use cases, one handler each, over the ports of
:mod:`dealer_assist.services.dealer_ports` (records, hands in play) and nothing else.

Every handler checks the signed-in role, decides from the records read, and appends; the
append re-checks what it decided on inside its transaction, after the records' head is
locked, so two stations racing to place one dealer cannot both win.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.services.dealer_box import (
    BREAK,
    DEAL,
    OFF,
    Down,
    DownRecord,
    NewDown,
    Rotation,
    Rules,
    check_rotation,
    check_rules,
    fold_downs,
    next_place,
    off_tables,
    plan,
    running,
    stamp,
)
from dealer_assist.services.dealer_ports import DealerRecords, DownCheck, HandsInPlay, TokeCount
from dealer_assist.services.errors import Conflict, NotAllowed
from dealer_assist.services.model import Session
from dealer_assist.services.tokes import room_shift_label

FLOOR_ROLES = ("floor", "admin")


def _floor(session: Session, what: str) -> None:
    if session.role not in FLOOR_ROLES:
        raise NotAllowed(f"{session.name} is a {session.role}: only a floor or admin user can "
                         f"{what}")


def _guarded(expect: tuple[int, int], dealer: str, table_id: int | None, at: datetime,
             place: str) -> DownCheck:
    """The check run after the lock: nothing about this dealer or table moved since the
    decision, and no earlier record of the dealer is dated after this one."""

    def check(records: list[DownRecord]) -> None:
        if stamp(records, dealer, table_id) != expect:
            raise Conflict(f"{dealer} was just placed by another station: {place} was not "
                           "recorded; sign in again to see where they are now")
        last = [r for r in records if r.dealer == dealer]
        if last and last[-1].at > at:
            raise Conflict(f"{dealer}'s last down is dated after this station's clock: set "
                           "this station's clock, then sign in again")

    return check


def sign_in_at_table(box: DealerRecords, hands: HandsInPlay, session: Session, table_id: int,
                     *, now: datetime) -> list[DownRecord]:
    """A dealer's PIN sign-in at a table starts their down there. It ends their down at the
    table they came from (refused while a hand is in play there: they finish it first) and
    the down of the dealer they relieve (refused while a hand is in play here). The relieved
    dealer goes on their break in the same record when the rotation sends them to one.
    Floor people record without a down; a dealer already down here starts nothing."""
    if session.role != "dealer":
        return []
    name = session.name
    records = box.downs()
    downs = fold_downs(records)
    run = running(downs)
    mine = run.get(name)
    if mine is not None and mine.kind == DEAL and mine.table_id == table_id:
        return []
    here = hands.table_name(table_id)
    if mine is not None and mine.kind == DEAL and mine.table_id is not None:
        hand = hands.hand_in_play(mine.table_id)
        if hand is not None:
            there = hands.table_name(mine.table_id)
            raise RuleViolation(
                f"{name} is dealing hand {hand} at {there}: push after this hand, then sign in "
                f"at {here}")
    other = next((d for d in run.values() if d.kind == DEAL and d.table_id == table_id
                  and d.dealer != name), None)
    new = [NewDown(at=now, actor=name, dealer=name, kind=DEAL, table_id=table_id)]
    if other is not None:
        hand = hands.hand_in_play(table_id)
        if hand is not None:
            raise RuleViolation(
                f"hand {hand} is in play at {here}: wait for the end of it, then sign in to "
                f"relieve {other.dealer}")
        rotation, rules = box.rotation(), box.rules() or Rules()
        if other.dealer in rotation.dealers and next_place(
                rotation, rules, downs, other.dealer, now) is None:
            new.append(NewDown(at=now, actor=name, dealer=other.dealer, kind=BREAK))
    check = _guarded(stamp(records, name, table_id), name, table_id, now,
                     f"{name} at {here}")
    return box.append_downs(new, token=session.token, check=check)


def start_break(box: DealerRecords, hands: HandsInPlay, session: Session, dealer: str, *,
                now: datetime, off: bool = False) -> DownRecord:
    """The floor sends a dealer on a break (or off the tables: ``off``); a dealer may take
    their own. Refused while the dealer has a hand in play."""
    if session.name != dealer:
        _floor(session, "send another dealer on a break")
    records = box.downs()
    mine = running(fold_downs(records)).get(dealer)
    if mine is None and not off:
        known = {r.dealer for r in records}
        if dealer not in known:
            raise BadInput(f"{dealer} has not dealt yet: nothing to break from")
    if mine is not None and mine.kind == DEAL and mine.table_id is not None:
        hand = hands.hand_in_play(mine.table_id)
        if hand is not None:
            raise RuleViolation(
                f"{dealer} is dealing hand {hand} at {hands.table_name(mine.table_id)}: the "
                "break starts after this hand")
    if mine is None and off:
        raise BadInput(f"{dealer} is not down at a table or on a break")
    kind = OFF if off else BREAK
    check = _guarded(stamp(records, dealer, None), dealer, None, now, f"{dealer}'s {kind}")
    return box.append_downs([NewDown(at=now, actor=session.name, dealer=dealer, kind=kind)],
                            token=session.token, check=check)[0]


def set_rules(box: DealerRecords, session: Session, rules: Rules, *, now: datetime) -> None:
    """The floor sets the room's push interval, break rule, grace and toke split."""
    _floor(session, "set the dealer rules")
    check_rules(rules)
    box.add_rules(rules, at=now, actor=session.name, token=session.token)


def set_rotation(box: DealerRecords, session: Session, rotation: Rotation, *, now: datetime,
                 active_dealers: Iterable[str], open_tables: Mapping[int, str],
                 names: Mapping[int, str] | None = None) -> None:
    """The floor sets the rotation: dealers in order over the open tables in order."""
    _floor(session, "set the rotation")
    check_rotation(rotation, active_dealers=active_dealers, open_tables=open_tables,
                   names=names)
    box.set_rotation(rotation, at=now, actor=session.name, token=session.token)


def count_tokes(box: DealerRecords, session: Session, *, shift_id: int, amount: int,
                team: tuple[str, str], now: datetime) -> TokeCount:
    """The toke box of a shift, counted by a team of two (as the drop count), entered by the
    floor once per shift."""
    people = _counted(session, amount, team)

    def check(rows: list[TokeCount]) -> None:
        done = [r for r in rows if not r.per_room_shift and r.shift_id == shift_id]
        if done:
            raise BadInput(f"the toke box of shift {shift_id} was already counted (record "
                           f"{done[-1].seq}, {done[-1].amount} cents)")

    return box.add_toke_count(shift_id=shift_id, amount=amount, team=(people[0], people[1]),
                              at=now, actor=session.name, token=session.token, check=check)


def _counted(session: Session, amount: int, team: tuple[str, str]) -> tuple[str, str]:
    """A toke count's checks: entered by the floor, whole cents, two different counters."""
    _floor(session, "enter a toke count")
    if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
        raise BadInput(f"the toke count must be whole cents, 0 or more, not {amount!r}")
    people = tuple(p.strip() for p in team)
    if len(people) != 2 or not all(people) or people[0].lower() == people[1].lower():
        raise BadInput("the toke box is counted by two different people: name both")
    return people[0], people[1]


def count_room_tokes(box: DealerRecords, session: Session, *, day: date, room_shift: str,
                     ends: datetime, amount: int, team: tuple[str, str],
                     now: datetime) -> TokeCount:
    """The room's toke box of one room shift (gaming ``day``, ``room_shift``; it ``ends``
    then), counted by a team of two once the shift is over, entered once by the floor."""
    people = _counted(session, amount, team)
    what = room_shift_label(day, room_shift)
    if now < ends:
        raise BadInput(f"{what} runs until {ends:%Y-%m-%d %H:%M} UTC: count its toke box "
                       "after it ends")

    def check(rows: list[TokeCount]) -> None:
        done = [r for r in rows if r.day == day and r.room_shift == room_shift]
        if done:
            raise BadInput(f"the toke box of {what} was already counted (record "
                           f"{done[-1].seq}, {done[-1].amount} cents)")

    return box.add_room_toke_count(day=day, room_shift=room_shift, amount=amount, team=people,
                                   at=now, actor=session.name, token=session.token,
                                   check=check)


@dataclass(frozen=True, slots=True)
class DealerRow:
    """One line of the floor's dealer view."""

    dealer: str
    where: str  # a table's name, "break", "between tables" or "off the tables"
    since: datetime | None
    next_push: datetime | None
    next_place: str
    late_minutes: int  # over the interval plus the grace: late by this much (0: on time)


def dealer_view(box: DealerRecords, names: Mapping[int, str], *, now: datetime,
                on_shift: Iterable[str] = ()) -> list[DealerRow]:
    """Every dealer on shift (down now, in the rotation, or named in ``on_shift``): where,
    since when, the next push and where it sends them, late pushes flagged."""
    rules, rotation = box.rules() or Rules(), box.rotation()
    downs = fold_downs(box.downs())
    run = running(downs)
    pushes = {p.table_id: p for p in plan(rotation, rules, downs, now)}
    relief_of = {p.relief: p.table_id for p in pushes.values() if p.relief}
    who = list(dict.fromkeys([*rotation.dealers, *sorted(run), *on_shift]))
    rows = []
    for name in who:
        d = run.get(name)
        if d is not None and d.kind == DEAL and d.table_id is not None:
            due = d.start + timedelta(minutes=rules.push_minutes)
            to = next_place(rotation, rules, downs, name, now) if name in rotation.dealers \
                else -1
            place = "break" if to is None else ("" if to == -1 else names.get(to, str(to)))
            over = d.minutes(now) - rules.push_minutes
            late = int(over) if over > rules.grace_minutes else 0
            rows.append(DealerRow(name, names.get(d.table_id, str(d.table_id)), d.start, due,
                                  place, late))
        else:
            target = relief_of.get(name)
            place = names.get(target, str(target)) if target is not None else ""
            where = "break" if d is not None else (
                "off the tables" if off_tables(downs, name) else "between tables")
            rows.append(DealerRow(name, where, d.start if d is not None else None, None,
                                  place, 0))
    return rows


def station_notice(box: DealerRecords, table_id: int, names: Mapping[int, str], *,
                   now: datetime, between_hands: bool, viewer: str | None = None) -> str:
    """What a table's station shows about its next push: "Push due in 3 min", "Push after
    this hand" when due in a hand, "Push: dana to CC-2 (eve deals here)" when due between
    hands; "" when nobody is down here or no rules are set. ``viewer``, the dealer signed in
    at the station: once another dealer has relieved them here, where they go next."""
    downs = fold_downs(box.downs())
    if viewer is not None:
        moved = relieved_notice(box, downs, table_id, names, viewer=viewer, now=now)
        if moved:
            return moved
    rules = box.rules()
    if rules is None:
        return ""
    push = next((p for p in plan(box.rotation(), rules, downs, now) if p.table_id == table_id),
                None)
    d = running(downs)
    if push is None:  # a table outside the rotation: the interval still runs
        here = next((x for x in d.values() if x.kind == DEAL and x.table_id == table_id), None)
        if here is None:
            return ""
        due = here.start + timedelta(minutes=rules.push_minutes)
        dealer, relief = here.dealer, None
        to: int | None = -1
    else:
        if push.due is None or push.dealer is None:
            return ""
        due, dealer, to, relief = push.due, push.dealer, push.to, push.relief
    left = (due - now).total_seconds()
    if left > 0:
        return f"Push due in {max(1, int(-(-left // 60)))} min"
    if not between_hands:
        return "Push after this hand"
    where = "break" if to is None else ("the floor's next table" if to == -1
                                        else names.get(to, f"table {to}"))
    tail = f" ({relief} deals here)" if relief else ""
    return f"Push: {dealer} to {where}{tail}"


def relieved_notice(box: DealerRecords, downs: Sequence[Down], table_id: int,
                    names: Mapping[int, str], *, viewer: str, now: datetime) -> str:
    """"eve deals CC-1 now: press O and sign in at CC-2" on the station of a dealer a relief
    has pushed out (their screen still shows the table they left); "" while they deal here."""
    run = running(downs)
    here = next((d for d in run.values() if d.kind == DEAL and d.table_id == table_id), None)
    if here is None or here.dealer == viewer:
        return ""
    table = names.get(table_id, f"table {table_id}")
    mine = run.get(viewer)
    if mine is not None and mine.kind == DEAL and mine.table_id is not None:
        to = names.get(mine.table_id, f"table {mine.table_id}")
        return f"{here.dealer} deals {table} now: you are down at {to} (press O to go there)"
    if mine is not None:
        return f"{here.dealer} deals {table} now: you are on a break"
    rules, rotation = box.rules() or Rules(), box.rotation()
    nxt = next((p.table_id for p in plan(rotation, rules, downs, now) if p.relief == viewer),
               None)
    if nxt is None:
        return f"{here.dealer} deals {table} now: ask the floor where you go next"
    return (f"{here.dealer} deals {table} now: press O and sign in at "
            f"{names.get(nxt, f'table {nxt}')}")

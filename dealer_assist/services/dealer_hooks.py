"""Where the dealer box meets the table's own use cases: a dealer's sign-in at a table
(opening or joining its shift) starts their down, and only the dealer down at a table deals
its hands. Without a dealer box (a store that has none), a shift's dealer deals it, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from dealer_assist.errors import BadInput
from dealer_assist.services.base import ServicesBase
from dealer_assist.services.dealer_box import DEAL, Rotation, Rules, fold_downs, running
from dealer_assist.services.dealer_handlers import (
    DealerRow,
    count_room_tokes,
    count_tokes,
    dealer_view,
    set_rotation,
    set_rules,
    sign_in_at_table,
    start_break,
)
from dealer_assist.services.dealer_ports import DealerRecords, TokeCount
from dealer_assist.services.errors import StoreUnavailable
from dealer_assist.services.model import Session, Shift
from dealer_assist.services.shift_downs import shift_dealers, with_shift_downs
from dealer_assist.services.tokes import TokeShare


class StoreHands:
    """:class:`~dealer_assist.services.dealer_ports.HandsInPlay` over the services' store: a
    table's last hand is in play until it is settled."""

    def __init__(self, svc: ServicesBase) -> None:
        self._store = svc.store

    def hand_in_play(self, table_id: int) -> int | None:
        hand = self._store.last_hand(table_id)
        return hand.number if hand is not None and hand.status == "open" else None

    def table_name(self, table_id: int) -> str:
        table = self._store.get_table(table_id)
        return table.name if table is not None else f"table {table_id}"


def take_table(svc: ServicesBase, session: Session, table_id: int,
               shift: Shift | None, *, now: datetime | None = None) -> bool:
    """A signed-in user takes a table at a station. With a dealer box, a dealer's sign-in
    records their down there (refused, nothing written, when a hand in play stands in the
    way) and True says they deal the table's open ``shift`` whoever opened it. Without one
    (or for a floor person), True only for the dealer who opened the shift. With no open
    ``shift`` nothing is recorded here: opening the shift records the down."""
    box = svc.dealer_box
    if box is None or session.role != "dealer" or shift is None:
        return shift is not None and shift.dealer == session.name
    sign_in_at_table(box, StoreHands(svc), session, table_id,
                     now=now if now is not None else svc.clock())
    return True


def not_down_here(svc: ServicesBase, session: Session, table_id: int, name: str) -> str:
    """Why a dealer may not start a hand here, for their screen: who deals the table now (a
    relief pushed them out), and what to do."""
    records = svc.known_downs or []
    here = next((d.dealer for d in running(fold_downs(records)).values()
                 if d.kind == DEAL and d.table_id == table_id), None)
    if here is not None and here != session.name:
        return (f"{here} deals {name} now, not {session.name}: press O to sign in at your next "
                f"table (or to take {name} back, between hands)")
    return (f"{session.name} is not down at {name}: open the table (sign in there) to take it "
            "over, between hands")


def deals_here(svc: ServicesBase, session: Session, table_id: int, shift: Shift) -> bool:
    """May this signed-in dealer deal at the table now? With a dealer box: they are down there
    (a dealer it never placed: the shift is theirs and nobody is down there); without: the
    shift is theirs. Floor people always may."""
    if session.role != "dealer":
        return True
    box = svc.dealer_box
    if box is None:
        return shift.dealer == session.name
    try:
        records = box.downs()
        svc.known_downs = records
    except StoreUnavailable:
        # the server away, the station on its journal: the downs it read last (a relief who
        # took the table over before the cut deals on; the journal's sync checks again), or
        # with none read yet, the shift's rule
        if svc.known_downs is None:
            return shift.dealer == session.name
        records = svc.known_downs
    run = running(fold_downs(records))
    mine = run.get(session.name)
    if mine is None and all(r.dealer != session.name for r in records):
        # a dealer the box has never placed (a shift opened before the room kept downs, or
        # by a tool without them) deals their own shift, while nobody is down there
        return shift.dealer == session.name and not any(
            d.kind == DEAL and d.table_id == table_id for d in run.values())
    return mine is not None and mine.kind == DEAL and mine.table_id == table_id


def _box(svc: ServicesBase) -> DealerRecords:
    if svc.dealer_box is None:
        raise BadInput("this station has no dealer box (an in-memory or journalled store): "
                       "open the room's database")
    return svc.dealer_box


def table_names(svc: ServicesBase) -> dict[int, str]:
    return {t.id: t.name for t in svc.store.list_tables()}


def set_room_rotation(svc: ServicesBase, session: Session, dealers: Sequence[str],
                      tables: Sequence[str]) -> Rotation:
    """The floor's rotation by names: dealers in order over tables (by name or number) in
    order, checked against the active dealers and the tables with an open shift."""
    svc.require_active(session, "set the rotation")
    ids = {name.lower(): tid for tid, name in table_names(svc).items()}
    picked: list[int] = []
    for t in tables:
        key = t.strip().lower()
        if key in ids:
            picked.append(ids[key])
        elif key.isdigit() and len(key) < 10:
            picked.append(int(key))
        else:
            raise BadInput(f'there is no table "{t.strip()}": name tables as the room does '
                           f"({', '.join(sorted(table_names(svc).values()))})")
    open_tables = {s.table_id: str(s.table_id) for s in svc.store.list_shifts() if s.open}
    active = [u.name for u in svc.store.list_users() if u.role == "dealer" and u.active]
    rotation = Rotation(tuple(d.strip().lower() for d in dealers if d.strip()), tuple(picked))
    set_rotation(_box(svc), session, rotation, now=svc.clock(), active_dealers=active,
                 open_tables=open_tables, names=table_names(svc))
    return rotation


def set_room_rules(svc: ServicesBase, session: Session, rules: Rules) -> None:
    svc.require_active(session, "set the dealer rules")
    set_rules(_box(svc), session, rules, now=svc.clock())


def send_on_break(svc: ServicesBase, session: Session, dealer: str, *, off: bool = False) -> None:
    svc.require_active(session, "send a dealer on a break")
    start_break(_box(svc), StoreHands(svc), session, dealer, now=svc.clock(), off=off)


def room_dealers(svc: ServicesBase) -> list[DealerRow]:
    """The floor's dealer view: every dealer on shift (in the rotation or down now)."""
    return dealer_view(_box(svc), table_names(svc), now=svc.clock())


def enter_tokes(svc: ServicesBase, session: Session, *, shift_id: int, amount: int,
                team: tuple[str, str]) -> TokeCount:
    """The toke box of a table's shift, counted by two people (floor or admin)."""
    svc.require_active(session, "enter a toke count")
    if svc.store.get_shift(shift_id) is None:
        raise BadInput(f"there is no shift {shift_id}")
    return count_tokes(_box(svc), session, shift_id=shift_id, amount=amount, team=team,
                       now=svc.clock())


def enter_room_tokes(svc: ServicesBase, session: Session, *, day: date, room_shift: str,
                     amount: int, team: tuple[str, str]) -> TokeCount:
    """The room's toke box of one room shift, counted by two people once it is over (floor
    or admin)."""
    from dealer_assist.services.shift_downs import room_clock_for_day
    from dealer_assist.services.tokes import room_shift_bounds

    svc.require_active(session, "enter a toke count")
    now = svc.clock()
    _start, ends = room_shift_bounds(room_clock_for_day(svc.store, day), day, room_shift.strip())
    return count_room_tokes(_box(svc), session, day=day, room_shift=room_shift.strip(),
                            ends=ends, amount=amount, team=team, now=now)


def room_toke_split(svc: ServicesBase, day: date, room_shift: str) -> list[TokeShare]:
    """The split of a room shift's counted toke box among every dealer who dealt in it."""
    from dealer_assist.services.shift_downs import room_toke_shares
    from dealer_assist.services.tokes import room_shift_label

    box = _box(svc)
    count = next((t for t in box.toke_counts() if t.day == day and t.room_shift == room_shift),
                 None)
    if count is None:
        raise BadInput(f"the toke box of {room_shift_label(day, room_shift)} has not been "
                       "counted")
    return room_toke_shares(svc.store, box, count)


def toke_split(svc: ServicesBase, shift_id: int) -> list[TokeShare]:
    """The split of a shift's counted toke box among the dealers down at its table while it
    was open, by the room's rule."""
    from dealer_assist.services.tokes import split, weights

    box = _box(svc)
    shift = svc.store.get_shift(shift_id)
    count = next((t for t in box.toke_counts()
                  if not t.per_room_shift and t.shift_id == shift_id), None)
    if shift is None or count is None:
        raise BadInput(f"the toke box of shift {shift_id} has not been counted")
    # the rule in force when the box was counted: a rule set later never re-splits it
    rule = (box.rules(at=count.at) or Rules()).toke_rule
    end = shift.closed_at or svc.clock()
    downs = with_shift_downs(fold_downs(box.downs()), [shift], end=end,
                             dealers=shift_dealers(svc.store.list_users()))
    w = weights(rule, downs, start=shift.opened_at, end=end, table_id=shift.table_id)
    return split(count.amount, w)


def shift_down_at(svc: ServicesBase, session: Session) -> Shift | None:
    """The open shift of the table where this dealer is down now (None: not down at a table,
    or no shift open there): where a station resumes after a restart, never a table another
    dealer has taken over since."""
    mine = running(fold_downs(_box(svc).downs())).get(session.name)
    if mine is None or mine.kind != DEAL or mine.table_id is None:
        return None
    return svc.store.current_shift(mine.table_id)

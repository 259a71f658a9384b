"""The demo's dealer rotation: each demo table's two dealers push each other every half hour,
between hands, the one pushed out going on a break; the downs are written as the dealer box's
sealed records (schema 0019), so the demo room has one dealer at one table at a time.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy import Connection, inspect

from dealer_assist.db import sealed
from dealer_assist.db.dealer_box import DOWNS, ROTATIONS, RULES
from dealer_assist.services.dealer_box import BREAK, DEAL, OFF, NewDown, Rules

#: The demo room's rules: a push every 30 minutes, every push a 30-minute break (a table's
#: two dealers take turns), late after 10 minutes' grace, tokes by minutes dealt.
DEMO_RULES = Rules(push_minutes=30, break_after_minutes=30, break_minutes=25, grace_minutes=10,
                   shift_minutes=480, toke_rule="minutes")
PUSH = timedelta(minutes=DEMO_RULES.push_minutes)
#: A down starts this long before the first hand it deals (the dealer's marks before it).
BEFORE_HAND = timedelta(seconds=15)

__all__ = ["DEMO_RULES", "NewDown", "push_rotation", "record_downs"]


class _Hand(Protocol):
    offsets: list[float]


def push_rotation(plan: Sequence[_Hand], starts: Sequence[datetime],
                  shifts: Sequence[dict[str, Any]], shift_of: Sequence[int],
                  crew: tuple[str, str], table_id: int, downs: list[NewDown] | None
                  ) -> list[str]:
    """Who deals each hand of a table: a new shift's dealer first, then the crew's other
    dealer at the first hand at least :data:`PUSH` after the down began, and so on; each
    change a down (the one pushed out on a break) added to ``downs``; both off after the
    last hand."""
    dealer_of: list[str] = []
    since = starts[0] if starts else None
    for i, start in enumerate(starts):
        last = dealer_of[-1] if dealer_of else None
        if i == 0 or shift_of[i] != shift_of[i - 1]:
            who = shifts[shift_of[i]]["dealer"]
        elif since is not None and start - since >= PUSH:
            who = crew[1] if last == crew[0] else crew[0]
        else:
            who = last or shifts[shift_of[i]]["dealer"]
        if who != last:
            since = start
            at = (start - BEFORE_HAND).replace(microsecond=0)
            if downs is not None:
                downs.append(NewDown(at=at, actor=who, dealer=who, kind=DEAL, table_id=table_id))
                if last is not None:
                    downs.append(NewDown(at=at, actor=who, dealer=last, kind=BREAK))
        dealer_of.append(who)
    if downs is not None and plan:
        end = (starts[-1] + timedelta(seconds=plan[-1].offsets[-1] + 30)).replace(microsecond=0)
        for name in dict.fromkeys(dealer_of):
            downs.append(NewDown(at=end, actor=name, dealer=name, kind=OFF))
    return dealer_of


def record_downs(conn: Connection, downs: list[NewDown], at: datetime,
                 crews: Sequence[tuple[tuple[str, str], int]] = ()) -> None:
    """The demo's rules (once), its rotation and its downs, in time order, on the dealer box's
    sealed chains. ``crews``: each table's two dealers and the table, in table order; the
    rotation is every crew's dealers in that order over the tables, so the floor's dealer view
    names each dealer's next place on the demo's day."""
    if not inspect(conn).has_table("dealer_downs"):
        return
    if crews:
        dealers = list(dict.fromkeys(d for crew, _ in crews for d in crew))
        tables = list(dict.fromkeys(t for _, t in crews))
        head = sealed.lock_head(conn, ROTATIONS, token="")
        version = 1 + max((int(r.values["version"]) for r in sealed.read(conn, ROTATIONS)),
                          default=0)
        rows: list[dict[str, object]] = [{"dealer": d, "table_id": None} for d in dealers]
        rows += [{"dealer": None, "table_id": t} for t in tables]
        for i, values in enumerate(rows, start=1):
            sealed.append(conn, ROTATIONS, at=at, actor="fran", token="", head=head,
                          values={"version": version, "position": i, **values})
    if not sealed.read(conn, RULES):
        r = DEMO_RULES
        sealed.append(conn, RULES, at=at, actor="fran", token="", values={
            "push_minutes": r.push_minutes, "break_after_minutes": r.break_after_minutes,
            "break_minutes": r.break_minutes, "grace_minutes": r.grace_minutes,
            "shift_minutes": r.shift_minutes, "toke_rule": r.toke_rule})
    head = sealed.lock_head(conn, DOWNS, token="")
    for d in sorted(downs, key=lambda d: d.at):
        sealed.append(conn, DOWNS, at=d.at, actor=d.actor, token="", head=head,
                      values={"dealer": d.dealer, "kind": d.kind, "table_id": d.table_id})

"""``dealer-assist count`` and ``dealer-assist room``: enter a table shift's drop count (or
correct one), and set the room's clock (time zone, gaming day, named shifts).

Both are written to the chained audit log by the person signed in (floor or admin) and never
edited: a correction is a new entry, and the room clock in force is the latest one.
"""

from __future__ import annotations

import argparse
from typing import Any

from dealer_assist.cli.db_cmd import (
    add_db_option,
    add_signin_options,
    open_services,
    record_id,
    sign_in,
)


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "count", help="enter a shift's drop count (or correct one)",
        description="Record what the count team counted from a table's drop box for a shift. "
        "Give the total (--amount) or the count by denomination (--denominations), or both "
        "(they must agree), and every counter's full name. A correction (--corrects ENTRY "
        "--reason ...) is a new entry; the original stays on the record.",
    )
    add_db_option(p)
    p.add_argument("--shift", type=record_id, required=True, metavar="ID", help="the shift counted")
    p.add_argument("--box", required=True, help="the drop box's number, e.g. T2-0523")
    p.add_argument("--amount", metavar="$", help="the total counted, e.g. 334.50")
    p.add_argument("--denominations", metavar="LIST",
                   help="value x pieces, comma separated, e.g. 100x2,25x5,5x6,1x9.5")
    p.add_argument("--team", required=True, metavar="NAMES",
                   help="the count team's full names, comma separated")
    p.add_argument("--corrects", type=record_id, metavar="ENTRY",
                   help="the audit entry number of the count this one corrects")
    p.add_argument("--reason", default="", help="why a correction was needed")
    add_signin_options(p)
    p.set_defaults(func=run_count)

    r = sub.add_parser(
        "room", help="set the room's time zone, gaming day start and named shifts",
        description="Set how the room keeps time: reports then show local times with the zone "
        "and go by gaming day and room shift. Records stay in UTC. Without options, prints the "
        "clock in force.",
    )
    add_db_option(r)
    r.add_argument("--zone", help="IANA time zone, e.g. America/Los_Angeles")
    r.add_argument("--day-starts", type=int, metavar="HOUR",
                   help="the local hour the gaming day starts (0-23)")
    r.add_argument("--shifts", metavar="LIST",
                   help="named shifts by starting hour, e.g. day=6,swing=14,grave=22")
    add_signin_options(r)
    r.set_defaults(func=run_room)


def run_count(args: argparse.Namespace) -> int:
    from dealer_assist.money import format_cents, parse_cents
    from dealer_assist.services.counts import record_count
    from dealer_assist.services.errors import NotFound
    from dealer_assist.services.room import new_count, parse_denominations

    svc = open_services(args, create=False)
    session = sign_in(svc, args)
    shift = svc.store.get_shift(args.shift)
    if shift is None:
        raise NotFound(f"there is no shift {args.shift}")
    count = new_count(
        table_id=shift.table_id, shift_id=shift.id, box=args.box,
        counted=parse_cents(args.amount) if args.amount else None,
        team=[n for n in args.team.split(",")],
        denominations=parse_denominations(args.denominations or ""),
        corrects=args.corrects, reason=args.reason,
    )
    entry = record_count(svc, session, count)
    print(f"count recorded as audit entry {entry.seq or entry.id}: shift {shift.id}, drop box "
          f"{count.box}, {format_cents(count.counted)}")
    return 0


def run_room(args: argparse.Namespace) -> int:
    from dealer_assist.services.counts import room_clock_of, set_room_clock
    from dealer_assist.services.room import parse_shifts, room_clock

    svc = open_services(args, create=False)
    now = room_clock_of(svc.store)
    if args.zone is None and args.day_starts is None and args.shifts is None:
        print(now.describe())
        return 0
    session = sign_in(svc, args)
    clock = room_clock(
        zone=args.zone or now.zone,
        day_starts=now.day_starts if args.day_starts is None else args.day_starts,
        shifts=now.shifts if args.shifts is None else parse_shifts(args.shifts),
    )
    set_room_clock(svc, session, clock)
    print(f"room clock set: {clock.describe()}")
    return 0

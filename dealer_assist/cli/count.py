"""``dealer-assist count`` and ``dealer-assist room``: enter a table shift's drop count (or
correct one), and set the room's clock (time zone, gaming day, named shifts).

Both are written to the chained audit log by the person signed in (floor or admin) and never
edited: a correction is a new entry, and the room clock in force is the latest one.
"""

from __future__ import annotations

import argparse
from typing import Any

from dealer_assist.cli.options import (
    add_db_option,
    add_secret_pin_options,
    add_signin_options,
    given_secret_pin,
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
    p.add_argument("--started", metavar="TIME",
                   help="when the count began, room time: 2026-11-24T06:10 (required)")
    p.add_argument("--ended", metavar="TIME",
                   help="when the count ended, room time: 2026-11-24T06:40 (required)")
    p.add_argument("--boxes", type=int, default=1, metavar="N",
                   help="how many boxes the team counted in that session (default 1)")
    p.add_argument("--approved-by", metavar="NAME",
                   help="a second floor person approving a team member who approved the "
                   "shift's voids, misdeals or disputes (their PIN: --approver-pin...)")
    add_secret_pin_options(p, "approver-pin", "the approving floor person's PIN")
    add_signin_options(p)
    p.set_defaults(func=run_count)

    b = sub.add_parser(
        "drop-box", help="register a drop box to its table",
        description="Register a drop box to its table: a box is counted only for its own "
        "table. Recorded in the chained audit log (floor or admin).")
    add_db_option(b)
    b.add_argument("--table", required=True, metavar="T", help="the table's name or number")
    b.add_argument("--box", required=True, help="the drop box's number, e.g. T2-0523")
    add_signin_options(b)
    b.set_defaults(func=run_box)

    d = sub.add_parser(
        "drop", help="record a drop box taken off its table for a shift",
        description="Record the drop: the box taken off its table at the end of a shift, "
        "with the time (now) and who (the person signed in). The box must be registered to "
        "the shift's table.")
    add_db_option(d)
    d.add_argument("--shift", type=record_id, required=True, metavar="ID", help="the shift")
    d.add_argument("--box", required=True, help="the drop box's number")
    add_signin_options(d)
    d.set_defaults(func=run_drop)

    so = sub.add_parser(
        "count-signoff", help="explain a count's variance and sign it off (a second person)",
        description="Explain the variance of a drop count and sign it off. The person signing "
        "off is not the one who entered the count (floor, auditor or admin).")
    add_db_option(so)
    so.add_argument("--entry", type=record_id, required=True, metavar="N",
                    help="the count's audit entry number")
    so.add_argument("--explanation", required=True, help="what explains the variance")
    so.add_argument("--reason", default="",
                    help="why a count already signed off is signed off again (required then: "
                    "the earlier sign-off stays on the record)")
    add_signin_options(so)
    so.set_defaults(func=run_signoff)

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
    r.add_argument("--retention-years", type=int, metavar="N",
                   help="how many years the room keeps its records (default 7; 3 or more)")
    r.add_argument("--paper", choices=["A4", "Letter", "a4", "letter"],
                   help="the reports' paper (default: Letter in US and Canadian zones, "
                   "A4 elsewhere)")
    r.add_argument("--clock-tolerance", type=int, metavar="MIN",
                   help="how many minutes a count's end may lie after the moment it is "
                   "entered (stations' clocks differ a little; default 5, at most 60)")
    add_signin_options(r)
    r.set_defaults(func=run_room)


def run_count(args: argparse.Namespace) -> int:
    from dealer_assist.errors import BadInput
    from dealer_assist.money import format_cents, parse_cents
    from dealer_assist.services import Approval
    from dealer_assist.services.counts import count_times, record_count
    from dealer_assist.services.errors import NotFound
    from dealer_assist.services.room import new_count, parse_denominations

    svc = open_services(args, create=False)
    session = sign_in(svc, args)
    shift = svc.reads.get_shift(args.shift)
    if shift is None:
        raise NotFound(f"there is no shift {args.shift}")
    if not args.started or not args.ended:
        raise BadInput("give the count's start and end time: --started 2026-11-24T06:10 "
                       "--ended 2026-11-24T06:40 (room time)")
    started, ended = count_times(svc.reads, args.started, args.ended)
    count = new_count(
        table_id=shift.table_id, shift_id=shift.id, box=args.box,
        counted=parse_cents(args.amount) if args.amount else None,
        team=[n for n in args.team.split(",")],
        denominations=parse_denominations(args.denominations or ""),
        corrects=args.corrects, reason=args.reason,
        started=started, ended=ended,
        boxes=args.boxes,
    )
    approval = None
    if args.approved_by:
        pin = given_secret_pin(args, "approver_pin")
        if pin is None:
            import getpass

            pin = getpass.getpass(f"PIN for {args.approved_by}: ")
        approval = Approval(args.approved_by, pin)
    entry = record_count(svc, session, count, approval=approval)
    print(f"count recorded as audit entry {entry.seq or entry.id}: shift {shift.id}, drop box "
          f"{count.box}, {format_cents(count.counted)}")
    return 0


def run_room(args: argparse.Namespace) -> int:
    from dealer_assist.services.counts import room_clock_of, set_room_clock
    from dealer_assist.services.room import parse_shifts, room_clock

    svc = open_services(args, create=False)
    now = room_clock_of(svc.reads)
    if (args.zone is None and args.day_starts is None and args.shifts is None
            and args.paper is None and args.retention_years is None
            and args.clock_tolerance is None):
        print(now.describe())
        return 0
    if args.clock_tolerance is not None and args.clock_tolerance < 0:
        from dealer_assist.errors import BadInput

        raise BadInput("the clock tolerance is a number of minutes, 0 to 60")
    session = sign_in(svc, args)
    clock = room_clock(
        zone=args.zone or now.zone,
        day_starts=now.day_starts if args.day_starts is None else args.day_starts,
        shifts=now.shifts if args.shifts is None else parse_shifts(args.shifts),
        paper=now.paper if args.paper is None else args.paper,
        retention_years=(now.retention_years if args.retention_years is None
                         else args.retention_years),
        tolerance_minutes=(now.tolerance_minutes if args.clock_tolerance is None
                           else max(0, args.clock_tolerance)),
    )
    set_room_clock(svc, session, clock)
    print(f"room clock set: {clock.describe()}")
    return 0


def run_box(args: argparse.Namespace) -> int:
    from dealer_assist.reports.source import find_table
    from dealer_assist.services.counts import register_box

    svc = open_services(args, create=False)
    session = sign_in(svc, args)
    table = find_table(svc.reads, args.table)
    entry = register_box(svc, session, table_id=table.id, box=args.box)
    print(f"drop box {args.box.strip()} registered to {table.name} as audit entry "
          f"{entry.seq or entry.id}")
    return 0


def run_drop(args: argparse.Namespace) -> int:
    from dealer_assist.services.counts import record_drop

    svc = open_services(args, create=False)
    session = sign_in(svc, args)
    entry = record_drop(svc, session, shift_id=args.shift, box=args.box)
    print(f"drop of box {args.box.strip()} for shift {args.shift} recorded as audit entry "
          f"{entry.seq or entry.id}")
    return 0


def run_signoff(args: argparse.Namespace) -> int:
    from dealer_assist.services.counts import signoff_count

    svc = open_services(args, create=False)
    session = sign_in(svc, args)
    entry = signoff_count(svc, session, entry=args.entry, explanation=args.explanation,
                          reason=args.reason)
    print(f"count entry {args.entry} signed off as audit entry {entry.seq or entry.id}")
    return 0

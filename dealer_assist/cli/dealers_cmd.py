"""``dealer-assist dealers``: the dealer box from the command line: the floor's dealer view,
the room's dealer rules and rotation, a dealer's break, and a room shift's toke count and split.

Each is the same use case the floor's dealer view calls, written as a sealed record by the
person signed in (floor or admin); bad input is refused with nothing written.
"""

from __future__ import annotations

import argparse
from typing import Any

from dealer_assist.cli.options import add_db_option, add_signin_options, open_services, sign_in

TOKE_RULES = ("minutes", "downs", "equal")


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "dealers", help="the dealer box: who deals where, rules, rotation, breaks, tokes",
        description="Show every dealer on shift (where, since when, next push, late pushes), "
        "or set the room's dealer rules or rotation, send a dealer on a break, or enter a "
        "room shift's toke count and print its split among every dealer who dealt in it.")
    add_db_option(p)
    p.add_argument("action", choices=("view", "rules", "rotation", "break", "off", "tokes"),
                   help="what to do (view: the floor's dealer view)")
    p.add_argument("--push", type=int, metavar="MIN", help="rules: push every MIN minutes")
    p.add_argument("--break-after", type=int, metavar="MIN",
                   help="rules: a break after MIN minutes dealing")
    p.add_argument("--break-minutes", type=int, metavar="MIN", help="rules: the break's length")
    p.add_argument("--grace", type=int, metavar="MIN",
                   help="rules: a push is late after the interval plus MIN minutes")
    p.add_argument("--shift-minutes", type=int, metavar="MIN", help="rules: a shift's length")
    p.add_argument("--toke-rule", metavar="RULE",
                   help=f"rules: how tokes are split ({', '.join(TOKE_RULES)})")
    p.add_argument("--dealers", metavar="NAMES", help="rotation: dealers in order, comma "
                   "separated")
    p.add_argument("--tables", metavar="NAMES", help="rotation: tables in order, comma "
                   "separated")
    p.add_argument("--dealer", metavar="NAME", help="break/off: the dealer")
    p.add_argument("--day", metavar="YYYY-MM-DD", help="tokes: the gaming day")
    p.add_argument("--room-shift", default="", metavar="NAME",
                   help="tokes: the room shift (one of the room's named shifts; leave it out "
                   "when the room names none: the box is then the gaming day's)")
    p.add_argument("--amount", metavar="$", help="tokes: the toke box counted, e.g. 212.35")
    p.add_argument("--team", metavar="NAMES", help="tokes: the two counters, comma separated")
    add_signin_options(p)
    p.set_defaults(func=run_dealers)


def run_dealers(args: argparse.Namespace) -> int:
    from datetime import date

    from dealer_assist.errors import BadInput
    from dealer_assist.money import format_cents, parse_cents
    from dealer_assist.services.dealer_box import Rules
    from dealer_assist.services.dealer_hooks import (
        enter_room_tokes,
        room_dealers,
        room_toke_split,
        send_on_break,
        set_room_rotation,
        set_room_rules,
    )
    from dealer_assist.services.tokes import room_shift_label

    svc = open_services(args, create=False)
    if args.action == "view":
        for row in room_dealers(svc):
            late = f"  LATE {row.late_minutes} min" if row.late_minutes else ""
            since = f" since {row.since:%H:%M} UTC" if row.since else ""
            due = f", push {row.next_push:%H:%M} UTC" if row.next_push else ""
            nxt = f" -> {row.next_place}" if row.next_place else ""
            print(f"{row.dealer:<10} {row.where}{since}{due}{nxt}{late}")
        return 0
    session = sign_in(svc, args)
    if args.action == "rules":
        box = svc.dealer_box
        now = (box.rules() if box is not None else None) or Rules()
        rules = Rules(
            push_minutes=now.push_minutes if args.push is None else args.push,
            break_after_minutes=(now.break_after_minutes if args.break_after is None
                                 else args.break_after),
            break_minutes=now.break_minutes if args.break_minutes is None else args.break_minutes,
            grace_minutes=now.grace_minutes if args.grace is None else args.grace,
            shift_minutes=now.shift_minutes if args.shift_minutes is None else args.shift_minutes,
            toke_rule=now.toke_rule if args.toke_rule is None else args.toke_rule)
        set_room_rules(svc, session, rules)
        print(f"dealer rules set: push every {rules.push_minutes} min, a {rules.break_minutes} "
              f"min break after {rules.break_after_minutes} min dealing, grace "
              f"{rules.grace_minutes} min, tokes by {rules.toke_rule}")
        return 0
    if args.action == "rotation":
        if not args.dealers or not args.tables:
            raise BadInput("give the rotation: --dealers dana,eve,gil --tables 'CC-1,CC-2'")
        rotation = set_room_rotation(svc, session, args.dealers.split(","),
                                     args.tables.split(","))
        print(f"rotation set: {', '.join(rotation.dealers)} over {len(rotation.tables)} tables")
        return 0
    if args.action in ("break", "off"):
        if not args.dealer:
            raise BadInput("name the dealer: --dealer NAME")
        send_on_break(svc, session, args.dealer.strip().lower(), off=args.action == "off")
        print(f"{args.dealer} {'is off the tables' if args.action == 'off' else 'is on a break'}")
        return 0
    if not args.day or not args.amount or not args.team:
        raise BadInput("give the toke count: --day 2026-11-21 --room-shift swing --amount 212.35 "
                       "--team 'Name 1,Name 2'")
    try:
        day = date.fromisoformat(args.day.strip())
    except ValueError:
        raise BadInput(f"--day {args.day!r}: write the gaming day as YYYY-MM-DD") from None
    team = [n for n in args.team.split(",") if n.strip()]
    if len(team) != 2:
        raise BadInput("the toke box is counted by two people: --team 'Name 1,Name 2'")
    count = enter_room_tokes(svc, session, day=day, room_shift=args.room_shift,
                             amount=parse_cents(args.amount), team=(team[0], team[1]))
    print(f"toke count recorded (record {count.seq}): "
          f"{room_shift_label(day, count.room_shift)}, {format_cents(count.amount)}")
    for share in room_toke_split(svc, day, count.room_shift):
        odd = "  (odd cent)" if share.odd_cent else ""
        print(f"  {share.dealer:<10} {format_cents(share.cents)}{odd}")
    return 0

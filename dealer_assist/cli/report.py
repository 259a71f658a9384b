"""``dealer-assist report shift|hand|audit|day|game --out FILE.pdf``: the PDF reports.

Each report defaults to the most recent table, shift, hand or day. The person generating it signs
in (``--as NAME``, PIN from ``--pin``, ``DEALER_ASSIST_PIN`` or asked for); the report's footer
names them and the generation goes to the audit log.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from dealer_assist.cli.options import (
    add_db_option,
    add_signin_options,
    open_services,
    record_id,
    sign_in,
)

KINDS = ("shift", "hand", "audit", "day", "game")


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "report", help="write a PDF report: shift, hand history/dispute, audit, day summary "
        "or game",
        description="Write a PDF report. Each defaults to the most recent table, shift, hand "
        "or day. The game report prints a table's latest game of many hands: its score "
        "sheet and each hand's money. Sign in with --as NAME (floor, auditor or admin). Every "
        "report generated is logged in the audit log.",
    )
    p.add_argument("kind", choices=KINDS, help="which report")
    p.add_argument("--out", required=True, metavar="FILE.pdf", help="the PDF to write")
    add_db_option(p)
    p.add_argument("--table", metavar="T", help="table name or number (default: most recent)")
    p.add_argument("--shift", type=record_id, metavar="ID",
                   help="shift number (shift report)")
    p.add_argument("--hand", type=record_id, metavar="ID",
                   help="hand record number (hand report)")
    p.add_argument("--from", dest="since", metavar="DATE",
                   help="start, UTC: 2026-11-21 or 2026-11-21T18:00 (audit; the day for day)")
    p.add_argument("--to", dest="until", metavar="DATE",
                   help="end, UTC (audit; a bare date includes that whole day; default: now)")
    p.add_argument("--reveal", action="store_true",
                   help="hand report: show destroyed and folded hands' cards, marked as "
                   "revealed (floor only; logged as a reveal)")
    p.add_argument("--reason", default="", help="why the hidden cards are revealed")
    p.add_argument("--csv", action="store_true",
                   help="also write each of the report's tables as a CSV file beside the PDF")
    p.add_argument("--cage", default="", metavar="FULL NAME",
                   help="the cage cashier's full name for the signature line")
    add_signin_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_assist.reports import generate
    from dealer_assist.reports.build.day import parse_day
    from dealer_assist.reports.source import period

    svc = open_services(args, create=False)
    session = sign_in(svc, args)
    if args.kind == "shift":
        done = generate.shift_report(svc, session, args.out, shift_id=args.shift,
                                     table=args.table, cage=args.cage, csv=args.csv)
    elif args.kind == "hand":
        done = generate.hand_report(svc, session, args.out, hand_id=args.hand, table=args.table,
                                    reveal=args.reveal, reason=args.reason, cage=args.cage,
                                    csv=args.csv)
    elif args.kind == "audit":
        since, until = period(None, args.since, args.until, svc.clock())
        done = generate.audit_report(svc, session, args.out, since=since, until=until,
                                     csv=args.csv)
    elif args.kind == "game":
        done = generate.game_report(svc, session, args.out, table=args.table, csv=args.csv)
    else:
        day = parse_day(args.since[:10]) if args.since else None
        done = generate.day_report(svc, session, args.out, day=day, cage=args.cage,
                                   csv=args.csv)
    print(f"{done.path}: {args.kind} report, {done.pages} page{'s' if done.pages != 1 else ''}"
          + (f"; {len(done.csv)} CSV files beside it" if done.csv else ""))
    if done.unsigned:
        print(f"warning: {done.unsigned}", file=sys.stderr)
    return 0

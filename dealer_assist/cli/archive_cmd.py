"""``dealer-assist archive --day D --out FILE``: a closed gaming day in one signed file.

The day's hand logs (each table's chain segment), ledger lines, audit entries (counts and
record entries included) and checkpoints, signed with the room's key, for the room to keep as
long as its retention setting says; ``verify --archive FILE`` checks it with no database.
"""

from __future__ import annotations

import argparse
from typing import Any

from dealer_assist.cli.options import add_db_option, add_signin_options, open_services, sign_in


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "archive", help="write a closed gaming day's records to one signed file",
        description="Write a closed gaming day's hand logs, ledger lines (time collections "
        "included), shifts, audit entries (the drop boxes' registrations, drops, counts and "
        "sign-offs, shift closes after midnight, the reports logged for the day) and the "
        "signed checkpoint that covers the day to one file signed with the room's key. "
        "`verify --archive FILE` checks it on any machine, without the database, and rebuilds "
        "the day's report totals from it. Floor, auditor or admin.")
    add_db_option(p)
    p.add_argument("--day", required=True, metavar="DAY", help="the gaming day, 2026-11-21")
    p.add_argument("--out", required=True, metavar="FILE", help="the archive file to write")
    p.add_argument("--key", metavar="FILE", default=None,
                   help="the room's signing key (env DEALER_ASSIST_KEY)")
    add_signin_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from datetime import date
    from pathlib import Path

    from dealer_assist.db.archive import write_archive
    from dealer_assist.db.keys import room_key
    from dealer_assist.errors import BadInput
    from dealer_assist.reports.build.day import parse_day
    from dealer_assist.services.chain import utc
    from dealer_assist.services.counts import day_bounds_of
    from dealer_assist.services.room import ARCHIVE_ACTION

    svc = open_services(args, create=False)
    session = sign_in(svc, args)
    svc.authorizer.require(session, "audit", "archive a gaming day", users=True)  # refusals logged
    day = parse_day(args.day)
    since, until, clock = day_bounds_of(svc.reads, day)
    end = until.astimezone(clock.tz)
    now = utc(svc.clock())
    if now < until:
        raise BadInput(f"gaming day {day} is not over until {end:%Y-%m-%d %H:%M %Z}: archive "
                       "a closed day")
    for t in svc.reads.list_tables():
        for s in svc.reads.list_shifts(t.id):
            if s.closed_at is None and utc(s.opened_at) < until:
                raise BadInput(f"gaming day {day} is not closed: {t.name}'s shift {s.id} is "
                               "still open; close it first")
    try:
        keep = day.replace(year=day.year + clock.keep_years)
    except ValueError:  # 29 February
        keep = date(day.year + clock.keep_years, 3, 1)
    key = room_key(args.key)
    assert key is not None
    db = svc.database
    from dealer_assist.db.checkpoints import latest_checkpoint, sign_checkpoint

    last = latest_checkpoint(db)
    if last is None or utc(last.at) < until:  # one signed after the day covers all of it
        sign_checkpoint(db, key, reason=f"archive of gaming day {day}")
    body = write_archive(db, key, Path(args.out), day=day.isoformat(), since=since,
                         until=until, cardroom=svc.reads.cardroom_name(),
                         clock=clock.describe(), keep_until=keep.isoformat())
    hands = sum(len(t["hands"]) for t in body["tables"])
    svc.log(session, ARCHIVE_ACTION, f"gaming day {day}: {hands} hands, "
            f"{len(body['audit'])} audit entries, {len(body['checkpoints'])} checkpoints; "
            f"written to {Path(args.out).name}, signed by key {key.fingerprint}; keep until "
            f"{keep}")
    print(f"{args.out}: gaming day {day}, {hands} hands, {len(body['audit'])} audit entries, "
          f"{len(body['checkpoints'])} checkpoints; signed by room key {key.fingerprint}; "
          f"keep until {keep}")
    return 0

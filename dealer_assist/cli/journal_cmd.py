"""``dealer-assist journal``: a station's journal (docs/room.md): what it keeps, send it now,
or, for the floor, set a stopped table's kept inputs aside.

Run on the station, against the same ``--db`` it deals on. Opening the journal sends what it
can first, as the app does.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dealer_assist.cli.options import add_db_option, add_signin_options, sign_in


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "journal", help="a station's journal: what it keeps while the server does not answer",
        description="Show the station's journal (inputs kept while the PostgreSQL server did "
        "not answer, tables stopped by a conflict), send it now, or set a stopped table's "
        "kept inputs aside (the floor: they stay in the file, and the table deals again from "
        "the server's record).",
    )
    add_db_option(p)
    p.add_argument("action", nargs="?", choices=("status", "send", "set-aside"),
                   default="status")
    p.add_argument("--journal", metavar="FILE", type=Path,
                   help="the journal file (default: the station's, as the app uses it)")
    p.add_argument("--table", metavar="NAME|ID", help="set-aside: the stopped table")
    add_signin_options(p)
    p.set_defaults(func=run_journal)


def _open(args: argparse.Namespace) -> Any:
    from dealer_assist.db.bootstrap import open_services, resolve_url, station_journal
    from dealer_assist.errors import BadInput

    url = getattr(args, "db", None)
    path = args.journal or station_journal(url)
    if path is None:
        raise BadInput(f"{resolve_url(url)} is not a PostgreSQL server: a station on a SQLite "
                       "file keeps no journal")
    if not path.exists():
        raise BadInput(f"there is no journal at {path}: this station has kept nothing")
    return open_services(url, journal=path, key=getattr(args, "key", None))


def run_journal(args: argparse.Namespace) -> int:
    from dealer_assist.errors import BadInput
    from dealer_assist.services.errors import NotAllowed

    svc = _open(args)
    store = svc.journal
    if store is None:  # open_services with a journal always keeps one
        raise BadInput("this station keeps no journal")
    if args.action == "send":
        sent = store.sent_at_open + store.sync()  # (opening the journal sends first)
        print(f"sent {sent} input{'s' if sent != 1 else ''}; "
              f"{store.journal.count()} kept")
    elif store.sent_at_open:
        print(f"sent {store.sent_at_open} kept input{'s' if store.sent_at_open != 1 else ''} "
              "on opening the journal")
    elif args.action == "set-aside":
        if not args.table:
            raise BadInput("set-aside needs --table NAME|ID: the stopped table")
        table = svc.find_table(args.table)
        session = sign_in(svc, args)
        if session.role != "floor":
            raise NotAllowed(f"{session.name} is {session.role}: only the floor sets a stopped "
                             "table's inputs aside")
        if table.id not in store.journal.stops():
            raise BadInput(f"{table.name} is not stopped at this station: nothing to set aside")
        n = store.set_aside(table.id, floor=session.name)
        print(f"{table.name}: {n} kept input{'s' if n != 1 else ''} set aside in "
              f"{store.journal.path}; the table deals again from the server's record")
    status = store.status()
    print(f"journal {store.journal.path}: {status.pending} input"
          f"{'s' if status.pending != 1 else ''} waiting to be sent")
    for table_id, message in sorted(status.stopped.items()):
        print(f"table {table_id} stopped: {message}")
    store.close()
    return 0

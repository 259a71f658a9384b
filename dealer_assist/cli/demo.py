"""``dealer-assist demo``: fill a new database with realistic shifts (see docs/store.md)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from dealer_assist.cli.options import add_db_option, whole_number

#: A demo's bounds (a bigger room is many demos, or the benchmarks).
MAX_HANDS = 1_000_000
MAX_TABLES = 100


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "demo", help="fill a new database with demo tables, shifts and hands",
        description="Deal demo hands of every installed demo game into a new database: shifts, "
        "fees, carry-overs, a void, a dispute and a reveal. The demo users and PINs are printed.",
    )
    add_db_option(p)
    p.add_argument("--hands", type=whole_number(1, MAX_HANDS), default=200, metavar="N",
                   help=f"hands in all (200; at most {MAX_HANDS:,})")
    p.add_argument("--tables", type=whole_number(1, MAX_TABLES), default=2, metavar="K",
                   help=f"tables (2; at most {MAX_TABLES})")
    p.add_argument("--seed", type=whole_number(0, 2**63 - 1), default=1, metavar="S",
                   help="random seed (1)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from dealer_assist.db.bootstrap import open_database
    from dealer_assist.db.demo import fill_demo
    from dealer_assist.db.demo_rows import demo_users

    db = open_database(getattr(args, "db", None))
    try:
        result = fill_demo(db, hands=args.hands, tables=args.tables, seed=args.seed)
    finally:
        db.close()
    print(f"{result.summary()} into {db.describe()}")
    print("demo users (name, role, PIN):", file=sys.stderr)
    for name, full, role, pin in demo_users(result.tables):
        print(f"  {name:<8} {role:<8} {pin}  {full}", file=sys.stderr)
    return 0

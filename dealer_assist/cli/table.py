"""``dealer-assist table check FILE`` and ``dealer-assist table presets``.

``check`` validates a table settings file (TOML or JSON): its keys, its fee, the jurisdiction
preset it names and the game's own settings; it prints a summary or says what is wrong.
``presets`` lists the jurisdiction presets with their numbered rules.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from dealer_assist.errors import BadInput, RuleViolation
from dealer_assist.fees import time_fees, timed_events
from dealer_assist.fees.jurisdiction import load_presets
from dealer_assist.money import format_cents
from dealer_assist.settings import check_table, read_table_settings, sample_start


def add_parser(sub: Any) -> None:
    p = sub.add_parser("table", help="check a table settings file; list fee presets")
    tsub = p.add_subparsers(dest="table_command", metavar="SUBCOMMAND", required=True)
    c = tsub.add_parser("check", help="validate a table settings file (TOML or JSON)")
    c.add_argument("file", help="table settings file (.toml or .json)")
    c.add_argument(
        "--presets", metavar="DIR", action="append", default=[],
        help="a folder of the room's own preset files (*.toml); may be given more than once",
    )
    c.add_argument(
        "--start", action="store_true",
        help="also print the first hand's start event as JSON (button on the last seat)",
    )
    c.set_defaults(func=run_check)
    ls = tsub.add_parser("presets", help="list the jurisdiction presets and their rules")
    ls.add_argument(
        "--presets", metavar="DIR", action="append", default=[],
        help="a folder of the room's own preset files (*.toml); may be given more than once",
    )
    ls.set_defaults(func=run_presets)
    t = tsub.add_parser(
        "time", help="time collection from a log of seat_in / seat_out / period events"
    )
    t.add_argument("file", help="table settings file whose fee is a time collection")
    t.add_argument("log", help='JSON Lines of time events, each with its recorded "at" time')
    t.add_argument("--json", action="store_true", help="print the ledger lines as JSON")
    t.set_defaults(func=run_time)


def run_check(args: argparse.Namespace) -> int:
    settings = read_table_settings(args.file)
    dirs = [Path(d) for d in args.presets]
    try:
        check_table(settings, dirs)
    except RuleViolation as exc:
        raise RuleViolation(f"{args.file} is refused:\n{exc}") from exc
    print(f"{args.file}: OK")
    for line in settings.summary():
        print(f"  {line}")
    preset = settings.preset_rules(dirs)
    if preset is not None:
        print(f"  {preset.title}: all {len(preset.rules)} rules pass")
    if args.start:
        print(json.dumps(sample_start(settings).to_json()))
    return 0


def run_time(args: argparse.Namespace) -> int:
    settings = read_table_settings(args.file)
    policy = settings.fee_policy
    if policy is None:
        raise BadInput(f"{args.file} has no fee: there is no time to collect")
    from dealer_assist.bounded import MAX_LOG_BYTES, read_text

    text = read_text(args.log, what="seat log", max_bytes=MAX_LOG_BYTES)
    state = time_fees(
        policy, timed_events(text.splitlines()),
        smallest_chip=settings.smallest_chip, table=settings.name or None,
    )
    if args.json:
        print(json.dumps([line.to_json() for line in state.lines], indent=1))
        return 0
    print(f"{settings.name or args.file}: {policy.describe()}")
    for line in state.lines:
        at = line.at.strftime("%Y-%m-%d %H:%M") if line.at else ""
        print(f"  {at}  seat {line.from_seat}  {format_cents(line.amount):>8}  {line.note}")
    for seat, amount in state.by_seat().items():
        print(f"  seat {seat} total {format_cents(amount)}")
    print(f"  time collected: {format_cents(state.total())}")
    return 0


def run_presets(args: argparse.Namespace) -> int:
    presets = load_presets([Path(d) for d in args.presets])
    for name, preset in sorted(presets.items()):
        print(f"{name}: {preset.title}")
        print(f"  from {preset.source}")
        if preset.description:
            print(f"  {preset.description}")
        for rule in preset.rules:
            print(f"  rule {rule.number}: {rule.text}")
    return 0

"""``dealer-assist dossier GAME --settings FILE --out FILE.pdf``: the game-approval dossier.

The rules and rulings in our words, the table settings and fee policy with its jurisdiction
preset, the dealer's procedure and the game's refusals, and the game's numbers by simulation
with 95% intervals, every simulated hand checked. Signed in like the reports (floor, auditor or
admin); the dossier's serial is the audit log entry that records it.
"""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import tomllib
from pathlib import Path
from typing import Any

from dealer_assist.cli.options import add_db_option, add_signin_options, open_services, sign_in
from dealer_assist.errors import BadInput


def _positive(text: str) -> int:
    try:
        n = int(text.replace("_", "").replace(",", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text} must be 1 or more")
    return n


def _seed(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"{text} must be 0 or more")
    return n


def add_parser(sub: Any) -> None:
    p = sub.add_parser(
        "dossier", help="write a game-approval dossier (PDF) for the gaming board",
        description="Write a game's approval dossier for a table's settings: the rules and "
        "rulings, the settings and fee policy, the dealer's procedure and the game's refusals, "
        "and the game's numbers by simulation with 95%% intervals (every simulated hand checked "
        "for conserved chips and replayed from its log). Uses every CPU; the same --seed gives "
        "the same figures. Sign in with --as NAME (floor, auditor or admin); the dossier is "
        "logged in the audit log.",
    )
    p.add_argument("game", metavar="GAME", help="the game (as in the settings file)")
    p.add_argument("--settings", required=True, metavar="FILE",
                   help="the table settings file (TOML or JSON)")
    p.add_argument("--out", required=True, metavar="FILE.pdf", help="the PDF to write")
    p.add_argument("--hands", type=_positive, default=100_000, metavar="N",
                   help="hands to simulate (default 100,000)")
    p.add_argument("--seed", type=_seed, metavar="S",
                   help="the simulation's seed (default: a new one, printed on the dossier)")
    p.add_argument("--players", type=_positive, metavar="N",
                   help="players per hand (default: every seat of the table the game takes)")
    p.add_argument("--seconds-per-input", type=_positive, default=5, metavar="S",
                   help="the pace: seconds per dealer input (default 5)")
    p.add_argument("--seconds-between-hands", type=_positive, default=45, metavar="S",
                   help="the pace: seconds between hands (default 45)")
    p.add_argument("--workers", type=_positive, metavar="N",
                   help="worker processes (default: every CPU)")
    p.add_argument("--approver", metavar="USER",
                   help="the floor or admin user who approves the dossier for filing (their "
                   "full name goes under that signature line; default: left to be printed "
                   "by hand)")
    p.add_argument("--logs", metavar="DIR",
                   help="also write every simulated hand's log to this folder (one JSON Lines "
                   "file per session), for anyone to re-derive the figures from")
    add_db_option(p)
    add_signin_options(p)
    p.set_defaults(func=run)


def read_document(path: Path) -> dict[str, Any]:
    """The settings file decoded as it is (after :func:`read_table_settings` accepted it)."""
    text = path.read_text(encoding="utf-8")
    data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    if not isinstance(data, dict):
        raise BadInput(f"{path}: must be a table of settings")
    return data


def run(args: argparse.Namespace) -> int:
    import hashlib

    from dealer_assist.dossier.build import build_dossier
    from dealer_assist.dossier.simulate import Pace
    from dealer_assist.engine.registry import get_game
    from dealer_assist.reports.dossier import approver_name, write_dossier
    from dealer_assist.settings.table import read_table_settings

    get_game(args.game)  # an unknown game is named with the known ones
    path = Path(args.settings)
    settings = read_table_settings(path)
    if settings.game != args.game:
        raise BadInput(f"{path} is a {settings.game} table, not {args.game}: give the game "
                       "the settings are for, or another settings file")
    out = Path(args.out)
    if out.suffix.lower() != ".pdf":
        raise BadInput(f"{out} does not end in .pdf: name the dossier file like dossier.pdf")
    if not out.parent.exists():
        raise BadInput(f"the folder {out.parent} does not exist: create it or choose another")
    logs = Path(args.logs) if args.logs else None
    if logs is not None and not logs.is_dir():
        raise BadInput(f"the folder {logs} does not exist: create it or choose another")
    svc = open_services(args, create=False)
    session = sign_in(svc, args)  # before minutes of simulation, not after
    approver_name(svc, session, args.approver)  # (refused now, not after the simulation)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    document = read_document(path)

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            print(f"\r{done:,} of {total:,} hands", end="", file=sys.stderr, flush=True)

    raw = path.read_bytes()
    dossier = build_dossier(
        document, settings, source=str(path), sha256=hashlib.sha256(raw).hexdigest(),
        text=raw.decode("utf-8", errors="replace"), logs=None if logs is None else str(logs),
        hands=args.hands, seed=seed, workers=args.workers, players=args.players,
        pace=Pace(args.seconds_per_input, args.seconds_between_hands),
        base=str(path.parent), progress=progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    done = write_dossier(svc, session, out, dossier, approver=args.approver)
    print(f"{done.path}: game-approval dossier for {dossier.title}, {done.pages} pages, "
          f"serial {done.report.generated.serial}, seed {seed}, {dossier.checked:,} hands "
          f"checked, {dossier.failed:,} failed")
    return 1 if dossier.failed else 0

"""``dealer-assist``: the command line. With no command it opens the dealer's screen.

This package is the composition root: the one place allowed to import every layer (ui, reports,
db, core). Each command lives in its own module with ``add_parser(subparsers)``; heavy imports
(Qt, SQLAlchemy, reportlab) happen inside the command, so ``replay`` starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from dealer_assist.errors import DealerAssistError

#: Modules under dealer_assist.cli that define a command (``add_parser``), in help order.
COMMANDS = ["replay", "eval_cmd", "table", "db_cmd", "seal_cmd", "demo", "report", "dossier_cmd",
            "count", "dealers_cmd", "shift_cmd", "archive_cmd", "journal_cmd", "board", "app"]


class _Version(argparse.Action):
    """``--version``: the release and the commit it was built from (asked only when used)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0,
                         help="show the version and the commit it was built from, then exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from dealer_assist.version import version_line

        print(version_line())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="dealer-assist",
        description="Dealer Assist: run a live card table, replay hands, verify and report.",
    )
    parser.add_argument("--version", action=_Version)
    parser.add_argument("--debug", action="store_true", help="show a traceback on internal errors")
    parser.add_argument(
        "--db",
        metavar="URL",
        help="database URL (default: a SQLite file in the user data folder; env DEALER_ASSIST_DB)",
    )
    parser.add_argument(
        "--key",
        dest="global_key",
        metavar="FILE",
        help="the room's signing key for checkpoints (default: room-key.pem in the user data "
        "folder; env DEALER_ASSIST_KEY)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"dealer_assist.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"dealer_assist.cli.{name}":
                continue
            raise
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    key = getattr(args, "global_key", None)
    if key and getattr(args, "key", None) is None:
        # the key's path goes to the commands by their arguments (a command's own --key
        # first), never into the environment: a child process (a print dialog, a PDF viewer)
        # inherits nothing of it
        args.key = key
    func = getattr(args, "func", None)
    if func is None:
        app = getattr(args, "open_app", None)
        if app is None:
            try:
                app = importlib.import_module("dealer_assist.cli.app").run_app
            except ModuleNotFoundError:
                parser.print_help()
                return 0
        func = app
    try:
        code = func(args)
    except DealerAssistError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:
        if args.debug:
            raise
        print(
            f"internal error: {type(exc).__name__}: {exc}\n"
            "Nothing you entered was lost. Run the same command with --debug and send the "
            "output to support.",
            file=sys.stderr,
        )
        return 70
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())

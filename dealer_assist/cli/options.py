"""What the commands share: ``--db``, record numbers and bounded whole numbers on the command
line, and signing in (``--as NAME`` and the PIN from ``--pin-file``, ``--pin-stdin``, ``--pin``,
``DEALER_ASSIST_PIN`` or a prompt), with the PIN options of a PIN being set.
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Any

from dealer_assist.errors import BadInput


def add_db_option(p: argparse.ArgumentParser) -> None:
    """``--db`` after the command too; it only overrides the global one when given."""
    p.add_argument("--db", metavar="URL", default=argparse.SUPPRESS,
                   help="database URL (default: the SQLite file in the user data folder)")


#: The largest record number a command takes (the database's 64-bit ids).
MAX_ID = 2**63 - 1


def record_id(text: str) -> int:
    """An id on the command line: a whole number from 1 to :data:`MAX_ID` (argparse type)."""
    try:
        value = int(text) if len(text) <= 20 else 0
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_ID:
        raise argparse.ArgumentTypeError(f"{text[:30]!r} is not a record number (1 to {MAX_ID})")
    return value


def whole_number(low: int, high: int) -> Any:
    """An argparse type: a whole number from ``low`` to ``high`` (digits only, bounded)."""

    def parse(text: str) -> int:
        try:
            value = int(text) if text.isascii() and len(text) <= 20 else None
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(
                f"{text[:30]!r} is not a whole number from {low:,} to {high:,}")
        return value

    return parse


#: The most a PIN file (or a PIN on standard input) may hold: a PIN is 4 to 12 digits.
PIN_FILE_MAX = 256


def add_signin_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--as", dest="user", metavar="NAME",
                   default=os.environ.get("DEALER_ASSIST_USER"),
                   help="sign in as NAME (env DEALER_ASSIST_USER)")
    pin = p.add_mutually_exclusive_group()
    pin.add_argument("--pin-file", metavar="FILE",
                     help="read the PIN from the first line of FILE (keep it readable by you "
                     "only); the safe way for scripts")
    pin.add_argument("--pin-stdin", action="store_true",
                     help="read the PIN from the first line of standard input")
    pin.add_argument("--pin", help="the PIN; other users of this machine can see it in the "
                     "process list: prefer --pin-file, --pin-stdin, DEALER_ASSIST_PIN or the "
                     "prompt (asked when no PIN is given)")


#: The PINs a command may read from standard input (only one of them at a time).
STDIN_PINS = ("pin_stdin", "new_pin_stdin", "admin_pin_stdin", "approver_pin_stdin")


def add_secret_pin_options(p: argparse.ArgumentParser, flag: str, what: str) -> None:
    """``--FLAG``, ``--FLAG-file`` and ``--FLAG-stdin`` for a PIN being set (a new user's, a
    reset one, the first admin's): as for the sign-in PIN, the plain option shows in the
    process list, so the file and standard-input forms are offered and --help says so."""
    group = p.add_mutually_exclusive_group()
    group.add_argument(f"--{flag}-file", metavar="FILE",
                       help=f"read {what} from the first line of FILE (keep it readable by you "
                       "only); the safe way for scripts")
    group.add_argument(f"--{flag}-stdin", action="store_true",
                       help=f"read {what} from the first line of standard input")
    group.add_argument(f"--{flag}", metavar="PIN",
                       help=f"{what}; other users of this machine can see it in the process "
                       f"list: prefer --{flag}-file, --{flag}-stdin or the prompt")


def given_secret_pin(args: argparse.Namespace, dest: str) -> str | None:
    """The PIN being set from ``--X-file``, ``--X-stdin`` or ``--X`` (``dest`` is X's
    attribute name), or None to ask."""
    path = getattr(args, f"{dest}_file", None)
    if path:
        return read_pin_file(path)
    if getattr(args, f"{dest}_stdin", False):
        return _stdin_pin(args)
    value = getattr(args, dest, None)
    return str(value) if value is not None else None


def _stdin_pin(args: argparse.Namespace) -> str:
    """The first line of standard input, when only one PIN was asked to come from there."""
    asked = [name for name in STDIN_PINS if getattr(args, name, False)]
    if len(asked) > 1:
        flags = " and ".join("--" + name.replace("_", "-") for name in asked)
        raise BadInput(f"{flags} cannot share standard input: give one PIN with its -file "
                       "form")
    if getattr(args, "file", None) == "-":
        raise BadInput("a PIN and a hand log on standard input cannot share it: use the "
                       "-file form of the PIN option")
    return _first_line(sys.stdin.buffer.readline(PIN_FILE_MAX + 1), "standard input")


def read_pin_file(path: str) -> str:
    """The first line of a PIN file, without its line end; bounded, never echoed."""
    try:
        with open(path, "rb") as f:
            data = f.read(PIN_FILE_MAX + 1)
    except FileNotFoundError as exc:
        raise BadInput(f"no such PIN file: {path}") from exc
    except IsADirectoryError as exc:
        raise BadInput(f"{path} is a folder, not a PIN file") from exc
    except OSError as exc:
        raise BadInput(f"cannot read the PIN file {path}: {exc.strerror}") from exc
    return _first_line(data, f"the PIN file {path}")


def _first_line(data: bytes, where: str) -> str:
    if len(data) > PIN_FILE_MAX:
        raise BadInput(f"{where} is too long for a PIN (a PIN is 4 to 12 digits)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BadInput(f"{where} is not text: write the PIN on its first line") from exc
    lines = text.splitlines()
    return lines[0].strip() if lines else ""


def given_pin(args: argparse.Namespace) -> str | None:
    """The PIN from --pin-file, --pin-stdin, --pin or DEALER_ASSIST_PIN, in that order."""
    if getattr(args, "pin_file", None):
        return read_pin_file(args.pin_file)
    if getattr(args, "pin_stdin", False):
        if getattr(args, "file", None) == "-":
            raise BadInput("--pin-stdin and a hand log on standard input cannot share it: "
                           "use --pin-file")
        return _stdin_pin(args)
    return getattr(args, "pin", None) or os.environ.get("DEALER_ASSIST_PIN")



def open_services(args: argparse.Namespace, *, create: bool = True) -> Any:
    """The services on ``--db``; ``create`` False for commands that only read (they never
    create a database, and refuse a missing or empty one)."""
    from dealer_assist.db.bootstrap import open_services as _open

    return _open(getattr(args, "db", None), create=create, key=getattr(args, "key", None))


def prompt_pin(label: str) -> str:
    if not sys.stdin.isatty():
        raise BadInput(f"{label} needed and there is no terminal to ask on: give it as an "
                       "option (see --help; for a sign-in PIN, --pin-file or --pin-stdin)")
    return getpass.getpass(f"{label}: ")


def ensure_admin(svc: Any, args: argparse.Namespace) -> bool:
    """On a new database, create the first admin (from --admin-pin or prompts)."""
    if not svc.needs_first_admin():
        return False
    pin = given_secret_pin(args, "admin_pin")
    name = getattr(args, "admin_name", "admin")
    full = getattr(args, "admin_full_name", "Administrator")
    if pin is None:
        if not sys.stdin.isatty():
            raise BadInput(
                "this database has no admin yet: run `dealer-assist db upgrade --admin-pin-file "
                "FILE` (or --admin-pin-stdin; or in a terminal, to be asked)"
            )
        print("New database: create the admin.", file=sys.stderr)
        name = input(f"Admin sign-in name [{name}]: ").strip() or name
        full = input(f"Admin full name [{full}]: ").strip() or full
        pin = getpass.getpass("Admin PIN (4 to 12 digits): ")
        if getpass.getpass("Again: ") != pin:
            raise BadInput("the two PINs differ: nothing was created")
    svc.create_first_admin(name=name, full_name=full, pin=pin)
    print(f"created the admin {name}", file=sys.stderr)
    return True


def sign_in(svc: Any, args: argparse.Namespace) -> Any:
    name = getattr(args, "user", None)
    if not name:
        if not sys.stdin.isatty():
            raise BadInput("sign in with --as NAME (and --pin-file FILE, --pin-stdin or "
                           "DEALER_ASSIST_PIN)")
        name = input("Name: ").strip()
    pin = given_pin(args)
    if pin is None:
        pin = prompt_pin("PIN")
    return svc.sign_in(name, pin)

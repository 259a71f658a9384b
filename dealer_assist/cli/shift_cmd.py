"""``dealer-assist shift close``: close a table's shift from the command line, so a room can
close what a dead station left open.

The person signed in (``--as``, a dealer or floor person) closes it; a floor person other than
them approves with their name and PIN, as every approval is given (asked at the terminal, or
``--approver-pin-file`` / ``--approver-pin-stdin``). The close is the one the table screen makes:
refused while a hand is unfinished, written to the audit log, and a checkpoint signed when this
station holds the room's key.
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
    p = sub.add_parser("shift", help="close a table's shift (one a station left open)")
    ssub = p.add_subparsers(dest="shift_command", metavar="SUBCOMMAND", required=True)
    c = ssub.add_parser(
        "close", help="close a shift with a floor person's approval",
        description="Close shift N as the table screen's Close shift does: every hand finished "
        "and settled, a floor person (not the one signed in) approving with their PIN. For a "
        "shift a dead station left open.")
    add_db_option(c)
    c.add_argument("--shift", type=record_id, required=True, metavar="N", help="the shift")
    c.add_argument("--approved-by", required=True, metavar="NAME",
                   help="the floor person approving the close (their PIN is asked for, or "
                   "--approver-pin-file / --approver-pin-stdin)")
    add_secret_pin_options(c, "approver-pin", "the approving floor person's PIN")
    add_signin_options(c)
    c.set_defaults(func=run_close)


def run_close(args: argparse.Namespace) -> int:
    import sys

    from dealer_assist.services import Approval

    svc = open_services(args, create=False)
    session = sign_in(svc, args)
    shift = svc.shift(args.shift)  # (no such shift: said before any PIN is asked)
    if not shift.open:
        from dealer_assist.errors import RuleViolation

        at = f"{shift.closed_at:%Y-%m-%d %H:%M}" if shift.closed_at else ""
        raise RuleViolation(f"shift {shift.id} is already closed (at {at} UTC, by "
                            f"{shift.closed_by})")
    pin = given_secret_pin(args, "approver_pin")
    if pin is None:
        from dealer_assist.cli.options import prompt_pin

        pin = prompt_pin(f"PIN for {args.approved_by}")
    closed = svc.close_shift(session, shift.id, approval=Approval(args.approved_by, pin))
    table = svc.reads.get_table(closed.table_id)
    print(f"shift {closed.id} at {table.name if table else closed.table_id} closed by "
          f"{closed.closed_by}, approved by {closed.closed_floor}")
    seal = svc.last_seal
    if seal is not None:
        if seal.ok:
            print(seal.message)
        elif seal.fingerprint:
            print(f"warning: the shift is closed, but no checkpoint was signed: {seal.message}",
                  file=sys.stderr)
        else:
            print(f"warning: the shift is closed; {seal.message}", file=sys.stderr)
    return 0

"""``keys`` and ``checkpoints``: the room's signing key and the signed checkpoints.

``dealer-assist keys init`` makes the room's Ed25519 key (a file outside the database, mode
0600; ``--key FILE`` or ``DEALER_ASSIST_KEY``, else the user's data folder) and prints its
fingerprint; ``keys show`` prints it again. ``checkpoints sign`` signs one now,
``checkpoints list`` shows them, and ``checkpoints export --out FILE`` first signs a fresh one
of every table and the audit chain, then writes them all with the public key: the file the room
keeps elsewhere, for ``verify --anchors FILE``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from dealer_assist.cli.options import add_db_option


def add_key_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--key", metavar="FILE", default=None,
                   help="the room's signing key (env DEALER_ASSIST_KEY; default: room-key.pem "
                   "in the user data folder)")


def add_parser(sub: Any) -> None:
    keys = sub.add_parser("keys", help="the room's signing key for checkpoints")
    ksub = keys.add_subparsers(dest="keys_command", metavar="ACTION", required=True)
    init = ksub.add_parser("init", help="make the room's signing key (never overwrites one)")
    add_key_option(init)
    init.set_defaults(func=run_keys_init)
    show = ksub.add_parser("show", help="the key's file and its public fingerprint")
    add_key_option(show)
    show.set_defaults(func=run_keys_show)

    cps = sub.add_parser("checkpoints", help="signed checkpoints of every chain head")
    csub = cps.add_subparsers(dest="checkpoints_command", metavar="ACTION", required=True)
    sign = csub.add_parser("sign", help="check what came since the last checked checkpoint "
                           "(verify --since-checkpoint), then sign a checkpoint of every table "
                           "and the audit chain (nothing signed, exit 1, if the check fails)")
    add_db_option(sign)
    add_key_option(sign)
    sign.set_defaults(func=run_sign)
    ls = csub.add_parser("list", help="the stored checkpoints")
    add_db_option(ls)
    ls.set_defaults(func=run_list)
    ex = csub.add_parser("export", help="sign a fresh checkpoint, then write every checkpoint "
                         "and the public key to FILE (keep it away from the database)")
    add_db_option(ex)
    add_key_option(ex)
    ex.add_argument("--out", required=True, metavar="FILE", help="the anchors file to write")
    ex.set_defaults(func=run_export)


def run_keys_init(args: argparse.Namespace) -> int:
    from dealer_assist.db.keys import create_key, key_path

    key = create_key(key_path(args.key))
    print(f"signing key written to {key.path} (readable by this user only)")
    print(f"public key fingerprint: {key.fingerprint}")
    return 0


def run_keys_show(args: argparse.Namespace) -> int:
    from dealer_assist.db.keys import key_path, load_key

    key = load_key(key_path(args.key))
    print(f"{key.path}: public key fingerprint {key.fingerprint}")
    print(f"public key: {key.public_hex}")
    return 0


def run_sign(args: argparse.Namespace) -> int:
    """A checkpoint signed by hand vouches for the database as a shift close's does: after
    ``verify --since-checkpoint`` (in full with no checked checkpoint before) finds it intact;
    otherwise nothing is signed and what was found is said (exit 1)."""
    from dealer_assist.db.bootstrap import open_database
    from dealer_assist.db.keys import room_key
    from dealer_assist.db.sealer import DbSealer

    room_key(args.key)  # no key, or one others can read: said before anything is read
    db = open_database(getattr(args, "db", None), create=False)
    try:
        seal = DbSealer(db, args.key).close_of_shift("signed by hand")
    finally:
        db.close()
    if not seal.ok or seal.number is None:
        print(f"error: {seal.message}", file=sys.stderr)
        return 1
    print(seal.message)
    return 0


def run_list(args: argparse.Namespace) -> int:
    from dealer_assist.db.bootstrap import open_database
    from dealer_assist.db.checkpoints import stored_checkpoints

    db = open_database(getattr(args, "db", None), create=False)
    try:
        with db.engine.connect() as conn:
            conn.execution_options(dealer_assist_read=True)
            cps = stored_checkpoints(conn)
    finally:
        db.close()
    if not cps:
        print("no checkpoint yet")
    for cp in cps:
        data = cp.data
        heads = ", ".join(f"{t['name']} seq {t['seq']}" for t in data.get("tables", ()))
        audit = data.get("audit", {})
        print(f"{cp.number:>5}  {cp.at:%Y-%m-%d %H:%M:%S} UTC  {cp.reason:<16} {heads}; audit "
              f"{audit.get('entries', 0)} entries; key {cp.fingerprint}")
    return 0


def run_export(args: argparse.Namespace) -> int:
    from dealer_assist.bounded import check_output_file
    from dealer_assist.db.bootstrap import open_database
    from dealer_assist.db.checkpoints import export_anchors
    from dealer_assist.db.keys import room_key

    check_output_file(args.out, what="signed or written")
    key = room_key(args.key)
    db = open_database(getattr(args, "db", None), create=False)
    try:
        fresh, count = export_anchors(db, key, Path(args.out))
    finally:
        db.close()
    print(f"checkpoint {fresh.number} signed; {count} checkpoints written to {args.out} "
          f"(key {key.fingerprint}): keep the file away from the database")
    return 0
